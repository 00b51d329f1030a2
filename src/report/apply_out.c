/*
 * tko apply's document (apply_out.h), built into its typed model
 * (model/apply_doc.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/kwindow.h"
#include "apply/keepoff.h"
#include "apply/loss.h"
#include "report/apply_out.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "json/jsonio.h"
#include "util/median.h"
#include "util/mem.h"
#include "banned.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static double finite_or_nan(double v)
{
	return isfinite(v) ? v : NAN;
}

/* A planned kernel's status over every applied run: the first that is not ran_winner. */
static void merged_status(const struct apply_report *r, const char *id, struct apply_row *row)
{
	const char *status = "not_run", *reason = NULL;
	size_t i;

	for (i = 0; i < r->nproofs; i++) {
		const char *why, *s = apply_proof_status(&r->proofs[i], id, &why);
		const json_t *o = json_object_get(r->proofs[i].outcomes, id);

		if (i == 0 || strcmp(s, "ran_winner")) {
			json_decref(row->mechanism);
			json_decref(row->launches);
			json_decref(row->notes);
			json_decref(row->constructed);
			row->mechanism = json_incref(json_object_get(o, "mechanism"));
			row->launches = json_incref(json_object_get(o, "launches"));
			row->notes = json_incref(json_object_get(o, "notes"));
			row->constructed = json_incref(json_object_get(r->proofs[i].constructed, id));
			row->has_proof = 1;
		}
		if (i == 0 || !strcmp(status, "ran_winner")) {
			status = s;
			reason = why;
		}
	}
	row->status = xstrdup(status);
	row->reason = dup_or_null(reason);
}

/* Some measured run of the A/B profiled a kernel window. */
static int any_window(const struct apply_doc *d)
{
	size_t i;

	for (i = 0; i < d->runs.nr; i++)
		if (d->runs.v[i].measured && d->runs.v[i].has_kernel_window)
			return 1;
	return 0;
}

/*
 * The kernel's gain from the A/B's kernel windows (apply/kwindow.h), its
 * interval, and for a winner that ran the verdict (null without windows).
 */
static void measured_gain(const struct apply_report *r, const struct apply_doc *d,
			  const char *kernel, int planned, struct apply_row *row)
{
	struct apply_kgain g;

	apply_kernel_gain(&d->runs, kernel, r->rounds, &g);
	if (isfinite(g.lo))
		row->measured_gain_ci95 = json_pack("[f, f]", g.lo, g.hi);
	if (planned && any_window(d))
		row->verdict = xstrdup(apply_kgain_verdict(&g));
	row->has_measured = 1;
	if (!g.rounds)
		return;
	row->measured_speedup = finite_or_nan(g.gain);
	row->measured.rounds = g.rounds;
	row->measured.default_us_per_step = g.default_us;
	row->measured.applied_us_per_step = g.applied_us;
}

static void kernel_row(const struct apply_report *r, const struct apply_doc *d,
		       const struct apply_item *it, struct apply_row *row)
{
	size_t at = (size_t)(it - r->plan->v);	/* the prediction's kernels are the plan's, in order */
	double ms = at < r->pred->nkernels ? r->pred->kernels[at].ms_per_step : NAN;
	double share = at < r->pred->nkernels ? r->pred->kernels[at].share : NAN;

	row->id = xstrdup(it->id);
	row->kernel = xstrdup(it->kernel);
	row->planned = it->entry != NULL;
	row->tune = dup_or_null(it->tune_path);
	row->fallback = dup_or_null(it->entry ? it->entry->fallback : NULL);
	if (it->speedup > 0)
		row->predicted_speedup = it->speedup;
	if (apply_item_has_warm(it)) {	/* tune's warm figure (no L2 flush) */
		row->predicted_warm_speedup = it->warm;
		row->predicted_warm_ci95 = json_pack("[f, f]", it->warm_lo, it->warm_hi);
	}
	row->ms_per_step = finite_or_nan(ms);
	row->share = finite_or_nan(share);
	if (it->entry && apply_item_predicted(it) > 0)
		row->predicted_saving_ms = finite_or_nan(ms * (1 - 1 / apply_item_predicted(it)));
	if (r->arms)
		measured_gain(r, d, it->kernel, it->entry != NULL, row);
	if (it->entry && r->cmd) {
		merged_status(r, it->id, row);
	} else {
		row->status = xstrdup(it->entry ? "not_run" : "not_planned");
		row->reason = dup_or_null(it->skip);
		row->detail = dup_or_null(it->skip_detail);
		row->has_detail = 1;
	}
}

static void stats_of(const struct ab_stats *s, struct apply_stats *out)
{
	out->rounds = (long)s->n;
	out->median = finite_or_nan(s->median);
	out->ci95 = json_pack("[f, f]", s->lo, s->hi);
	out->level = finite_or_nan(s->level);
}

/* A run's ms a step: the wall clock's, or (gpu) its kernel window's GPU time; NAN when none. */
static double run_ms(const struct apply_run_rec *run, int gpu)
{
	if (!gpu)
		return run->ms_per_step;
	return run->has_kernel_window ? run->kernel_window.gpu_us_per_step / 1e3 : NAN;
}

/* The measured step times of `arm` by round, wall or GPU (NAN where that round has none). */
static void arm_times(const struct apply_doc *d, const char *arm, long rounds, int gpu, double *ms)
{
	size_t i;
	long k;

	for (k = 0; k < rounds; k++)
		ms[k] = NAN;
	for (i = 0; i < d->runs.nr; i++) {
		const struct apply_run_rec *run = &d->runs.v[i];

		if (run->measured && !strcmp(run->arm, arm) && run->round >= 0 && run->round < rounds)
			ms[run->round] = run_ms(run, gpu);
	}
}

/* Ratio statistics of a / b over the rounds both have: 1 with *out filled, else 0. */
static int ratio(const double *a, const double *b, long rounds, struct ab_stats *s,
		 struct apply_stats *out)
{
	double *v = xcalloc((size_t)rounds + 1, sizeof(*v));
	size_t n = 0;
	long k;
	int ok;

	for (k = 0; k < rounds; k++)
		if (isfinite(a[k]) && isfinite(b[k]) && b[k] > 0)
			v[n++] = a[k] / b[k];
	/* one round has no noise estimate (an A/B a signal stopped early) */
	ok = n >= 2 && ab_ratio_stats(v, n, s) == 0;
	free(v);
	if (ok)
		stats_of(s, out);
	return ok;
}

static const json_t *ref_losses(const struct apply_doc *d)
{
	size_t i;

	for (i = 0; i < d->runs.nr; i++)
		if (d->runs.v[i].measured && !strcmp(d->runs.v[i].arm, "default"))
			return d->runs.v[i].losses;
	return NULL;
}

static double arm_loss(const struct apply_doc *d, const char *arm, const json_t *ref)
{
	double worst = -1;
	size_t i;

	for (i = 0; i < d->runs.nr; i++) {
		double x;

		if (!d->runs.v[i].measured || strcmp(d->runs.v[i].arm, arm))
			continue;
		x = apply_loss_diff(d->runs.v[i].losses, ref);
		if (!isfinite(x))
			return NAN;
		worst = fmax(worst, x);
	}
	return worst < 0 ? NAN : worst;
}

/* Where the arm's measured times came from: "hook", "stdout", "mixed", or NULL. */
static const char *arm_source(const struct apply_doc *d, const char *arm)
{
	const char *seen = NULL;
	size_t i;

	for (i = 0; i < d->runs.nr; i++) {
		const char *src = d->runs.v[i].step_source;

		if (!d->runs.v[i].measured || strcmp(d->runs.v[i].arm, arm) || !src)
			continue;
		if (seen && strcmp(seen, src))
			return "mixed";
		seen = src;
	}
	return seen;
}

static void arm_of(const struct apply_report *r, const struct apply_doc *d, enum ab_arm a,
		   double *ms, const double *def, struct apply_arm *out)
{
	const char *name = ab_arms[a].name;
	double *copy = xcalloc((size_t)r->rounds + 1, sizeof(*copy)), loss;
	const char *numerics = ab_arms[a].numerics;
	struct ab_stats s;
	size_t n = 0;
	long k;

	out->arm = xstrdup(name);
	out->numerics = dup_or_null(numerics);
	arm_times(d, name, r->rounds, 0, ms);
	out->ms_per_step = json_array();
	for (k = 0; k < r->rounds; k++) {
		json_array_append_new(out->ms_per_step, isfinite(ms[k]) ? json_real(ms[k]) : json_null());
		if (isfinite(ms[k]))
			copy[n++] = ms[k];
	}
	out->step_source = dup_or_null(arm_source(d, name));
	out->median_ms = finite_or_nan(median_in_place(copy, n));
	if (a != AB_DEFAULT)
		out->has_vs_default = ratio(ms, def, r->rounds, &s, &out->vs_default);
	loss = arm_loss(d, name, ref_losses(d));
	out->loss_max_rel_diff = finite_or_nan(loss);
	/* an arm that changes numerics is not held to the tolerance: the user weighs it */
	if (isfinite(loss) && !numerics)
		out->loss_equal = loss <= r->loss_rtol;
	free(copy);
}

/*
 * The arm's GPU time a step from its kernel windows, by round (into gpu),
 * its median and its ratio to the default arm's (gdef), paired by round as
 * the wall clock's is; all null when no round of the arm has a window.
 */
static void arm_gpu_of(const struct apply_report *r, const struct apply_doc *d, enum ab_arm a,
		       double *gpu, const double *gdef, struct apply_arm *out)
{
	double *copy = xcalloc((size_t)r->rounds + 1, sizeof(*copy));
	struct ab_stats s;
	size_t n = 0;
	long k;

	arm_times(d, ab_arms[a].name, r->rounds, 1, gpu);
	for (k = 0; k < r->rounds; k++)
		if (isfinite(gpu[k]))
			copy[n++] = gpu[k];
	if (n) {
		out->gpu_ms_per_step = json_array();
		for (k = 0; k < r->rounds; k++)
			json_array_append_new(out->gpu_ms_per_step,
					      isfinite(gpu[k]) ? json_real(gpu[k]) : json_null());
	}
	out->gpu_median_ms = finite_or_nan(median_in_place(copy, n));
	if (a != AB_DEFAULT)
		out->has_gpu_vs_default = ratio(gpu, gdef, r->rounds, &s, &out->gpu_vs_default);
	free(copy);
}

/* Per region of a keep-off arm: the calls of each measured run (the runs' proofs). */
static void keep_off_regions(const struct apply_doc *d, const char *arm, struct apply_keep_off *k)
{
	size_t i, j, at;

	for (i = 0; i < d->runs.nr; i++) {
		const struct apply_region_proofs *proof = &d->runs.v[i].keep_off;

		if (!d->runs.v[i].measured || strcmp(d->runs.v[i].arm, arm))
			continue;
		for (j = 0; j < proof->nr; j++) {
			const char *name = proof->v[j].region;
			struct apply_region *g = NULL;

			for (at = 0; at < k->nregions && !g; at++)
				if (!strcmp(k->regions[at].region, name))
					g = &k->regions[at];
			if (!g) {
				g = apply_doc_add_region(k);
				g->region = xstrdup(name);
				g->calls = json_array();
			}
			json_array_append_new(g->calls, json_integer(proof->v[j].calls));
		}
	}
}

/*
 * A keep-off arm's regions and verdict: keep-off against default,
 * applied+keep-off against applied (what keeping off adds to the winners).
 */
static void keep_off_of(const struct apply_report *r, const struct apply_doc *d, enum ab_arm a,
			const double *ms, struct apply_keep_off *k)
{
	const char *ref = a == AB_APPLIED_KEEP_OFF ? "applied" : "default", *verdict = NULL;
	double *ref_ms = xcalloc((size_t)r->rounds + 1, sizeof(*ref_ms));
	struct ab_stats s;

	keep_off_regions(d, ab_arms[a].name, k);
	k->vs = xstrdup(ref);
	arm_times(d, ref, r->rounds, 0, ref_ms);
	k->has_ratio = ratio(ms, ref_ms, r->rounds, &s, &k->ratio);
	if (k->has_ratio)
		verdict = keepoff_verdict(s.lo, s.hi);
	k->verdict = dup_or_null(verdict);
	if (verdict)
		k->proposal = xstrdup(!strcmp(verdict, "faster") ? "confirmed" : "withdrawn");
	free(ref_ms);
}

/* The measured gain's interval, the inverse of applied/default's; half its width in pp. */
static json_t *gain_interval(const struct apply_stats *applied_vs_default, double *half_pp)
{
	const json_t *ci = applied_vs_default ? applied_vs_default->ci95 : NULL;
	double lo = json_real_value(json_array_get(ci, 0)), hi = json_real_value(json_array_get(ci, 1));

	*half_pp = NAN;
	if (!(lo > 0 && hi > 0))
		return NULL;
	*half_pp = (1 / lo - 1 / hi) * 100 / 2;
	return json_pack("[f, f]", 1 / hi, 1 / lo);
}

static void step_of(const struct apply_report *r, const struct apply_stats *applied_vs_default,
		    struct apply_step *st)
{
	double median = applied_vs_default ? applied_vs_default->median : NAN, half_pp;
	double measured = median > 0 ? 1 / median : NAN, predicted = r->pred->gain;
	double pp = (measured - predicted) * 100;

	st->predicted_gain = finite_or_nan(predicted);
	st->predicted_saving_ms = finite_or_nan(r->pred->saved_ms);
	/* both predictions, so a GPU run shows which one the measured step follows */
	st->predicted_gain_cold = finite_or_nan(r->pred->gain_cold);
	st->predicted_gain_warm = finite_or_nan(predicted);
	st->warm_kernels = r->pred->warm_kernels;
	st->difference_pp_cold = finite_or_nan((measured - r->pred->gain_cold) * 100);
	st->profile_step_ms = finite_or_nan(r->pred->step_ms);
	st->measured_gain = finite_or_nan(measured);
	st->measured_gain_ci95 = gain_interval(applied_vs_default, &half_pp);
	st->difference_pp = finite_or_nan(pp);
	if (isfinite(pp))
		st->within_1pp = fabs(pp) <= 1;
	/* an interval wider than +-1 pp cannot judge the 1 pp target either way */
	if (isfinite(half_pp))
		st->conclusive = half_pp <= 1;
	st->profile = dup_or_null(r->pred->profile);
	st->note = dup_or_null(r->pred->note);
}

/* Below it the wall clock cannot see the kernels' gains: the CPU side paces the step. */
#define GPU_BUSY_BOUND 0.5

/*
 * The step's gain on the kernel windows' GPU time: the predicted saving
 * (the profile's, as predicted_saving_ms) over the default arm's median
 * GPU ms/step, against applied's paired GPU ratio; and how busy the GPU
 * keeps the default arm's step. Left null without windows.
 */
static void gpu_step_of(const struct apply_report *r, const struct apply_arm *def,
			const struct apply_stats *applied_vs_default, struct apply_step *st)
{
	double base = def ? def->gpu_median_ms : NAN, saved = r->pred->saved_ms, half_pp;
	double median = applied_vs_default ? applied_vs_default->median : NAN;
	double measured = median > 0 ? 1 / median : NAN, predicted = NAN, pp;

	if (!isfinite(base) || base <= 0)
		return;
	st->gpu_step_ms = base;
	if (isfinite(r->pred->gain) && isfinite(saved) && saved < base)
		predicted = base / (base - saved);
	pp = (measured - predicted) * 100;
	st->gpu_predicted_gain = finite_or_nan(predicted);
	st->gpu_measured_gain = finite_or_nan(measured);
	st->gpu_measured_gain_ci95 = gain_interval(applied_vs_default, &half_pp);
	st->gpu_difference_pp = finite_or_nan(pp);
	if (isfinite(pp))
		st->gpu_within_1pp = fabs(pp) <= 1;
	if (isfinite(half_pp))
		st->gpu_conclusive = half_pp <= 1;
	if (!(def->median_ms > 0))
		return;
	st->gpu_busy = base / def->median_ms;
	if (st->gpu_busy < GPU_BUSY_BOUND)
		st->gpu_note = xstrfmt("the GPU is busy %.0f%% of the step (%.3f of %.3f ms):"
				       " kernel gains reach the wall clock only once the CPU side"
				       " is cut (CUDA graphs, torch.compile(mode=\"reduce-overhead\"),"
				       " fewer launches)", 100 * st->gpu_busy, base, def->median_ms);
}

/*
 * ab.stopped: the signal, the run it cut short, and the measured rounds
 * every arm ran (a finite time in each arm's row of ms, nr a row).
 */
static void stopped_of(const struct apply_report *r, const double *ms, size_t nr,
		       struct apply_stopped *st)
{
	long k;
	size_t i;

	st->signal = xstrdup(cleanup_signal_name(r->stopped_by));
	st->run = r->stopped_in > 0 ? r->stopped_in : -1;
	st->complete_rounds = 0;
	for (k = 0; k < r->rounds; k++) {
		for (i = 0; i < r->narms && isfinite(ms[r->arms[i] * nr + (size_t)k]); i++)
			;
		st->complete_rounds += i == r->narms;
	}
}

static void ab_of(const struct apply_report *r, struct apply_doc *d)
{
	size_t nr = (size_t)r->rounds + 1, i;
	double *ms = xcalloc(AB_NARMS * nr, sizeof(*ms));
	double *gpu = xcalloc(AB_NARMS * nr, sizeof(*gpu));
	const struct apply_stats *applied_vs_default = NULL, *gpu_vs_default = NULL;
	const struct apply_arm *def = NULL;
	struct apply_ab *ab = &d->ab;
	struct ab_stats s;

	d->has_ab = 1;
	ab->rounds = r->rounds;
	ab->warmup = r->warmup;
	ab->loss_rtol = r->loss_rtol;
	ab->loss_scale = finite_or_nan(apply_loss_scale(ref_losses(d)));
	arm_times(d, "default", r->rounds, 0, ms);
	arm_times(d, "default", r->rounds, 1, gpu);
	for (i = 0; i < r->narms; i++) {
		struct apply_arm *a = apply_doc_add_arm(ab);

		arm_of(r, d, r->arms[i], ms + r->arms[i] * nr, ms, a);
		arm_gpu_of(r, d, r->arms[i], gpu + r->arms[i] * nr, gpu, a);
		if (ab_keeps_off(r->arms[i])) {
			a->has_keep_off = 1;
			keep_off_of(r, d, r->arms[i], ms + r->arms[i] * nr, &a->keep_off);
		}
	}
	for (i = 0; i < ab->narms; i++) {
		if (r->arms[i] == AB_DEFAULT)
			def = &ab->arms[i];
		if (r->arms[i] == AB_APPLIED && ab->arms[i].has_vs_default)
			applied_vs_default = &ab->arms[i].vs_default;
		if (r->arms[i] == AB_APPLIED && ab->arms[i].has_gpu_vs_default)
			gpu_vs_default = &ab->arms[i].gpu_vs_default;
	}
	for (i = 0; i < r->narms; i++) {
		struct apply_vs *vs;

		if (r->arms[i] == AB_APPLIED)
			continue;
		vs = apply_doc_add_vs(ab);
		vs->arm = xstrdup(ab_arms[r->arms[i]].name);
		vs->numerics = dup_or_null(ab_arms[r->arms[i]].numerics);
		vs->has_ratio = ratio(ms + AB_APPLIED * nr, ms + r->arms[i] * nr, r->rounds, &s, &vs->ratio);
		if (vs->has_ratio)
			vs->slower_beyond_noise = s.lo > 1;
		vs->has_gpu_ratio = ratio(gpu + AB_APPLIED * nr, gpu + r->arms[i] * nr, r->rounds,
					  &s, &vs->gpu_ratio);
		if (vs->has_gpu_ratio)
			vs->gpu_slower_beyond_noise = s.lo > 1;
	}
	step_of(r, applied_vs_default, &ab->step);
	gpu_step_of(r, def, gpu_vs_default, &ab->step);
	if ((ab->has_stopped = r->stopped_by != 0))
		stopped_of(r, ms, nr, &ab->stopped);
	free(ms);
	free(gpu);
}

static void summary_of(struct apply_doc *d)
{
	struct apply_summary *s = &d->summary;
	size_t i;

	s->planned = s->ran_winner = s->not_planned = 0;
	for (i = 0; i < d->nkernels; i++) {
		if (!d->kernels[i].planned)
			s->not_planned++;
		else
			s->planned++;
		s->ran_winner += !strcmp(d->kernels[i].status, "ran_winner");
	}
	s->every_winner_ran = s->planned && s->ran_winner == s->planned;
}

static void command_of(const struct apply_report *r, struct apply_doc *d)
{
	size_t i;

	if (!r->cmd)
		return;
	d->command = json_array();
	for (i = 0; r->cmd[i]; i++)
		json_array_append_new(d->command, json_string(r->cmd[i]));
}

static void recommended_of(const struct apply_report *r, struct apply_doc *d)
{
	size_t i;

	for (i = 0; r->recommended && i < r->recommended->nr; i++) {
		const struct apply_recommended *e = &r->recommended->v[i];
		struct apply_recommended *a = apply_recommended_add(&d->recommended_arms);

		*a = *e;
		a->arm = dup_or_null(e->arm);
		a->rule = dup_or_null(e->rule);
		a->op = dup_or_null(e->op);
		a->kernel = dup_or_null(e->kernel);
		a->where = dup_or_null(e->where);
		a->keep_off = dup_or_null(e->keep_off);
	}
}

static void lists_of(const struct apply_report *r, struct apply_doc *d)
{
	size_t i;

	for (i = 0; r->slower && i < r->slower->nr; i++)
		apply_judgements_copy(&d->slower_in_step, &r->slower->v[i]);
	for (i = 0; r->left_out && i < r->left_out->nr; i++) {
		const struct apply_left_out *e = &r->left_out->v[i];

		apply_left_outs_add(&d->left_out, e->id, e->kernel, e->reason, e->detail, e->of);
	}
}

void apply_report_build(const struct apply_report *r, struct apply_doc *d)
{
	size_t i;

	rf_init(&apply_doc_desc, d);
	d->run = dup_or_null(r->run);
	d->target = dup_or_null(r->plan->target);
	d->backend = dup_or_null(r->plan->backend);
	d->out_dir = dup_or_null(r->out);
	command_of(r, d);
	d->plan = path_join(r->out, "plan.json");
	d->artifact = dup_or_null(r->artifact);
	d->inductor_settings = json_incref(r->plan->settings);
	if (r->runs)
		apply_runs_copy(&d->runs, r->runs);
	for (i = 0; i < r->plan->nr; i++)
		kernel_row(r, d, &r->plan->v[i], apply_doc_add_row(d));
	summary_of(d);
	if (r->arms) {
		ab_of(r, d);
	} else {
		d->has_step = 1;
		step_of(r, NULL, &d->step);
	}
	recommended_of(r, d);
	d->keep_slower = r->keep_slower;
	lists_of(r, d);
}
