/*
 * The kernel window and the per-kernel join (kwindow.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/kwindow.h"
#include "json/jsonio.h"
#include "profile/prof.h"
#include "tune/ci.h"
#include "util/median.h"
#include "util/mem.h"
#include "banned.h"

static int named(const char *s, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return 1;
	return 0;
}

/*
 * The named kernels' durations go into their own entry of out and into
 * tuned, every other GPU activity's (library kernels, unnamed Triton ones,
 * copies, fills: all prof.h keeps, one activity a Kineto event) into other.
 */
static void add_kernels(json_t *out, const struct prof *p, long steps, const char *const *names,
			size_t n, double *tuned, double *other)
{
	size_t i;

	*tuned = *other = 0;
	for (i = 0; i < p->nacts; i++) {
		const struct prof_act *a = &p->acts[i];
		const char *name = prof_str(p, a->name);
		json_t *k;

		if (a->kind != PROF_ACT_KERNEL || !named(name, names, n)) {
			*other += a->dur;
			continue;
		}
		*tuned += a->dur;
		k = json_object_get(out, name);
		if (!k) {
			k = json_pack("{s:f, s:f}", "calls_per_step", 0.0, "us_per_step", 0.0);
			json_object_set_new(out, name, k);
		}
		json_set_num(k, "calls_per_step", json_num(k, "calls_per_step", 0) + (double)a->calls / (double)steps);
		json_set_num(k, "us_per_step", json_num(k, "us_per_step", 0) + a->dur / (double)steps);
	}
}

void apply_kwindow_read(const char *trace, long steps, const char *const *names, size_t n,
			struct apply_kwindow *w)
{
	struct buf err = BUF_INIT;
	double tuned, other;
	struct prof p;

	w->steps = steps;
	w->trace = xstrdup(trace);
	w->kernels = json_object();
	w->gpu_us_per_step = w->tuned_us_per_step = w->other_us_per_step = NAN;
	prof_init(&p);
	if (steps <= 0) {
		w->note = xstrdup("the window holds no step");
	} else if (prof_read_path(&p, trace, &err) < 0) {
		w->note = xstrdup(err.buf);	/* a CPU run: no GPU kernels */
	} else {
		add_kernels(w->kernels, &p, steps, names, n, &tuned, &other);
		w->tuned_us_per_step = tuned / (double)steps;
		w->other_us_per_step = other / (double)steps;
		w->gpu_us_per_step = (tuned + other) / (double)steps;
	}
	prof_release(&p);
	buf_release(&err);
}

/* The measured run of `arm` in `round`, or NULL. */
static const struct apply_run_rec *run_of(const struct apply_runs *runs, const char *arm,
					  long round)
{
	size_t i;

	for (i = 0; i < runs->nr; i++) {
		const struct apply_run_rec *run = &runs->v[i];

		if (run->measured && run->round == round && !strcmp(run->arm ? run->arm : "", arm))
			return run;
	}
	return NULL;
}

/* The kernel's us_per_step in the measured run of `arm` in `round`, NAN when none. */
static double us_in(const struct apply_runs *runs, const char *arm, long round, const char *kernel)
{
	const struct apply_run_rec *run = run_of(runs, arm, round);
	const json_t *k;

	if (!run)
		return NAN;
	k = run->has_kernel_window ? json_object_get(run->kernel_window.kernels, kernel) : NULL;
	return json_num(k, "us_per_step", NAN);
}

/* The default run of `round` launched the plan's config of `kernel` only. */
static int default_ran_planned(const struct apply_runs *runs, long round, const char *kernel)
{
	const struct apply_run_rec *run = run_of(runs, "default", round);
	const json_t *name;
	size_t i;

	json_array_foreach(run ? run->ran_planned_config : NULL, i, name)
		if (json_is_string(name) && !strcmp(json_string_value(name), kernel))
			return 1;
	return 0;
}

/* The t-interval of d[i] / a[i]; NAN without one (fewer than 2 rounds). */
static void interval(const double *d, const double *a, size_t n, struct apply_kgain *g)
{
	struct tune_ci ci;

	g->geomean = g->lo = g->hi = NAN;
	if (tune_ratio_ci(d, a, n, &ci) == 0) {
		g->geomean = ci.ratio;
		g->lo = ci.lo;
		g->hi = ci.hi;
	}
}

long apply_kernel_gain(const struct apply_runs *runs, const char *kernel, long rounds,
		       struct apply_kgain *g)
{
	double *ratio = xcalloc((size_t)rounds + 1, sizeof(*ratio));
	double *d = xcalloc((size_t)rounds + 1, sizeof(*d));
	double *a = xcalloc((size_t)rounds + 1, sizeof(*a));
	long r, n = 0, same = 0;

	for (r = 0; r < rounds; r++) {
		double x = us_in(runs, "default", r, kernel), y = us_in(runs, "applied", r, kernel);

		if (isfinite(x) && isfinite(y) && x > 0 && y > 0) {
			d[n] = x;
			a[n] = y;
			ratio[n++] = x / y;
			same += default_ran_planned(runs, r, kernel);
		}
	}
	g->rounds = n;
	g->same_config = n > 0 && same == n;
	interval(d, a, (size_t)n, g);	/* before the medians sort d and a apart */
	g->gain = median_in_place(ratio, (size_t)n);
	g->default_us = median_in_place(d, (size_t)n);
	g->applied_us = median_in_place(a, (size_t)n);
	free(ratio);
	free(d);
	free(a);
	return n;
}

const char *apply_interval_side(double lo, double hi)
{
	if (hi < 1)		/* NAN compares false: one round stays inconclusive */
		return "slower";
	if (lo > 1)
		return "faster";
	return NULL;
}

const char *apply_kgain_verdict(const struct apply_kgain *g)
{
	const char *side = apply_interval_side(g->lo, g->hi);

	if (g->rounds < 1)
		return "not_seen";
	if (g->same_config)
		return "same_config";
	return side ? side : "inconclusive";
}
