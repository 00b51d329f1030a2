/*
 * The step gain the winners predict (predict.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyse/stepprof.h"
#include "apply/predict.h"
#include "json/jsonio.h"
#include "model/manifest.h"
#include "profile/attrib.h"
#include "profile/prof.h"
#include "rundir/index.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/plural.h"
#include "banned.h"

/* The largest file of RUN/profile/ (the trace of the main process). */
static char *largest_profile(const char *run)
{
	struct strlist files = STRLIST_INIT;
	char *best = NULL;
	off_t best_size = -1;
	size_t i;

	rd_profile_files(run, &files);
	for (i = 0; i < files.nr; i++) {
		struct stat st;

		if (stat(files.v[i], &st) == 0 && st.st_size > best_size) {
			best_size = st.st_size;
			free(best);
			best = xstrdup(files.v[i]);
		}
		free((char *)files.v[i]);
	}
	strlist_release(&files);
	return best;
}

/*
 * Why the RUN has no profile. tko capture records one unless --no-profile;
 * where tko-run.json shows it was on (TKO_PROFILE_DIR in env_set), it is
 * not advised again: python/tko/profiling.py found no steady state among
 * the launches its hook recorded (tko investigate's gap says what it waits
 * for).
 */
static char *no_profile_note(const char *run)
{
	struct run_manifest m;
	struct buf err = BUF_INIT;
	char *path = rd_path_in(run, RD_MANIFEST);
	json_t *j = is_file(path) ? json_load_path(path, &err) : NULL;
	char *note;

	manifest_init(&m);
	if (!j || manifest_read(&m, j, path, &err) < 0 ||
	    !manifest_pairs_get(m.env_set, m.nenv_set, "TKO_PROFILE_DIR"))
		note = xstrdup("the RUN has no profile (tko capture records one unless --no-profile)");
	else if (!manifest_event_count(&m.capture, "launch"))
		note = xstrdup("the RUN has no profile: tko capture set TKO_PROFILE_DIR"
			       " (tko-run.json's env_set), but its hook recorded no Triton launch");
	else {
		long long n = manifest_event_count(&m.capture, "launch");

		note = xstrfmt("the RUN has no profile: tko capture set TKO_PROFILE_DIR"
			       " (tko-run.json's env_set), but the %lld Triton launch%s its hook"
			       " recorded never settled into a steady state to profile (see tko"
			       " investigate's gap)", n, plural_word(n, "", "es"));
	}
	manifest_release(&m);
	json_decref(j);
	buf_release(&err);
	free(path);
	return note;
}

static const struct prof_group *group_of(const struct prof *prof, const char *kernel)
{
	size_t i;

	for (i = 0; i < prof->ngroups; i++)
		if (prof->groups[i].cls == PROF_CLASS_TRITON &&
		    !strcmp(prof_str(prof, prof->groups[i].key), kernel))
			return &prof->groups[i];
	return NULL;
}

static void per_kernel(struct apply_predict *pr, const struct apply_plan *p, const struct prof *prof)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct apply_item *it = &p->v[i];
		const struct prof_group *g = group_of(prof, it->kernel);
		double ms;

		if (!g)
			continue;
		ms = g->total / 1e3 / (double)pr->steps;
		pr->kernels[i].ms_per_step = ms;
		pr->kernels[i].share = ms / pr->step_ms;
		if (!it->entry)
			continue;
		if (it->speedup > 0)
			pr->saved_cold_ms += ms * (1 - 1 / it->speedup);
		if (apply_item_predicted(it) > 0)
			pr->saved_ms += ms * (1 - 1 / apply_item_predicted(it));
		pr->warm_kernels += apply_item_has_warm(it);
	}
}

void apply_predict_step(struct apply_predict *pr, const struct apply_plan *p, const char *run)
{
	struct buf err = BUF_INIT;
	struct prof prof;
	size_t i;

	pr->kernels = xcalloc(p->nr + 1, sizeof(*pr->kernels));
	pr->nkernels = p->nr;
	for (i = 0; i < p->nr; i++)
		pr->kernels[i].ms_per_step = pr->kernels[i].share = NAN;
	pr->step_ms = pr->gain = pr->gain_cold = NAN;
	pr->profile = largest_profile(run);
	if (!pr->profile) {
		pr->note = no_profile_note(run);
		return;
	}
	prof_init(&prof);
	if (prof_read_path(&prof, pr->profile, &err) < 0) {
		pr->note = xstrfmt("the profile cannot be read: %s", err.buf);
		goto done;
	}
	prof_attribute(&prof);
	pr->steps = (long)prof.nsteps;
	if (prof.nsteps < 2 || !isfinite(prof.step_time)) {
		pr->note = xstrfmt("'%s' has %ld ProfilerStep range%s: no step time", pr->profile,
				   pr->steps, plural(pr->steps));
		goto done;
	}
	pr->step_ms = prof.step_time / 1e3;
	per_kernel(pr, p, &prof);
	pr->gain = pr->step_ms / (pr->step_ms - pr->saved_ms);
	pr->gain_cold = pr->step_ms / (pr->step_ms - pr->saved_cold_ms);
done:
	prof_release(&prof);
	buf_release(&err);
}

void apply_predict_release(struct apply_predict *pr)
{
	free(pr->profile);
	free(pr->note);
	free(pr->kernels);
	memset(pr, 0, sizeof(*pr));
}
