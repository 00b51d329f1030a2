/*
 * apply/steps: the step times and losses tko's hook measured in one run
 * (python/tko/apply_steps.py; docs/apply.md, "Step times"): the main
 * process's `steps` event in apply.jsonl, {"source", "clock", "ms": [...],
 * "losses": [...]}, ms[i] the time from the end of step i-1 to the end of
 * step i (null for step 0).
 *
 * Warm-up: the first W steps are left out of the time (compilation,
 * autotuning and caches fill them). W is given, or with W < 0 chosen:
 * a tenth of the steps rounded up, at least 1 and at most
 * APPLY_STEPS_AUTO_MAX. The time is the mean of the remaining steps'
 * ms (their total over their count: the throughput a user sees); steps
 * with no ms (null) are not counted, nor those of the kernel window
 * ("window": [S, E], the steps S .. E-1 ran under torch.profiler,
 * apply/kwindow.h), nor step E: the first step after the profiler
 * stopped was slower than the rest (CPU torch 2.11: 6.8 ms against
 * 0.12 ms), the profiler's teardown still settling. The losses are every
 * step's.
 */
#ifndef TKO_APPLY_STEPS_H
#define TKO_APPLY_STEPS_H

#include <jansson.h>

#include "model/apply_events.h"
#include "util/buf.h"

#define APPLY_STEPS_AUTO_MAX 50

struct apply_steps {
	double ms_per_step;	/* NAN when no step is left after the warm-up */
	long steps;		/* steps the hook saw */
	long warmup;		/* W as applied */
	long timed;		/* steps in ms_per_step */
	long window[2];		/* the profiled steps [S, E), or -1 -1; S .. E are left out */
	char *source;		/* "optimizer" or "step_fn" */
	char *clock;		/* "cuda_events" or "perf_counter" */
	json_t *losses;		/* a list (nulls where none), or NULL */
};
#define APPLY_STEPS_INIT { 0, 0, 0, 0, { -1, -1 }, NULL, NULL, NULL }

/* W for n steps when none is given. */
long apply_steps_auto_warmup(long n);

/*
 * The steps in the apply.jsonl at `path`, warm-up W (< 0: chosen): the
 * main process's last well-typed `steps` event (model/apply_events.h; one
 * with a field of the wrong type is skipped with a warning).
 * 0; 1 when the file holds no `steps` event; -1 + err when it cannot be read.
 */
int apply_steps_read(struct apply_steps *st, const char *path, long warmup, struct buf *err);

/* The same from one typed `steps` event (model/apply_events.h). */
void apply_steps_from_typed(struct apply_steps *st, const struct apply_ev_steps *ev, long warmup);
/* ... and from one parsed event (tests): 0, or -1 + warn (may be NULL) when it is no
 * well-typed `steps` event. */
int apply_steps_from_event(struct apply_steps *st, const json_t *ev, long warmup, struct buf *warn);

void apply_steps_release(struct apply_steps *st);

#endif
