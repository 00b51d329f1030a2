/*
 * apply/run: one run of the user's command under the apply hook
 * (docs/apply.md, "How the hook installs a winner"): the environment
 * TKO_APPLY_PLAN, TKO_APPLY_DIR, TKO_APPLY_MODE, tko's python/tko/_hook
 * and python/ first on PYTHONPATH (as tko capture does), its own
 * TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR, CUDA graphs off, and an
 * arm's extra setting. What it prints goes to DIR/stdout.txt and
 * DIR/stderr.txt; the hook writes DIR/apply.jsonl.
 *
 * The step time and losses: the hook's own measurement (apply/steps.h,
 * the `steps` event of DIR/apply.jsonl) when it saw a step left after the
 * warm-up; else the step report, the command's own figures: the last line
 * of its standard output that is a JSON object with "ms_per_step" (a
 * number), and optionally "losses" (a list of numbers, one a step) or
 * "loss". step_source says which ("hook", "stdout"), NULL when neither.
 */
#ifndef TKO_APPLY_RUN_H
#define TKO_APPLY_RUN_H

#include <jansson.h>

#include "apply/steps.h"
#include "util/buf.h"

struct apply_run {
	/* what to run */
	const char *const *cmd;	/* the user's command */
	const char *plan;	/* plan.json */
	const char *dir;	/* this run's folder (made by apply_run_one) */
	const char *mode;	/* "apply" or "observe" */
	const char *env;	/* one more NAME=value, or NULL */
	const char *keep_off;	/* TKO_APPLY_KEEP_OFF: "MODULE:QUALNAME,...", or NULL */
	const char *cache;	/* the folder of the arm's Inductor and Triton caches */
	double timeout_s;	/* 0: none */
	const char *step_fn;	/* MODULE:QUALNAME for TKO_APPLY_STEP, or NULL */
	long step_warmup;	/* the hook's steps left out (< 0: chosen, steps.h) */
	long kernel_window;	/* steps the hook profiles (apply/kwindow.h), 0: none */
	/* what happened */
	int exit_status, timed_out, not_found;
	double wall_s;
	double ms_per_step;	/* the hook's or the step report's, NAN when none */
	json_t *losses;		/* their losses (a list), or NULL */
	const char *step_source;	/* "hook", "stdout" or NULL */
	struct apply_steps hook;	/* the hook's steps (hook.steps 0: none) */
};

/* Runs it. 0 when it ran (see exit_status), -1 + err when it could not start. */
int apply_run_one(struct apply_run *r, struct buf *err);

/*
 * The step report in a command's standard output, saved at `path`
 * (model/step_report.h): 0, or -1 when there is none.
 */
int apply_step_report(const char *out, size_t len, const char *path, double *ms_per_step,
		      json_t **losses);

void apply_run_release(struct apply_run *r);

#endif
