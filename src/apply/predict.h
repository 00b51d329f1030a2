/*
 * apply/predict: the step gain tune's winners predict, from the RUN's
 * whole-step profile (RUN/profile/, issue 19; read by src/profile/). Per
 * planned kernel, its GPU time a step in the profiled window (the
 * kernel's group: activities of that Triton kernel name, their summed
 * durations over the window's ProfilerStep count) and share of the step;
 * a winner with speedup s saves time*(1 - 1/s) a step, and the step's
 * predicted gain is step / (step - the savings), with the step time the
 * profile's (the mean distance between consecutive steps' first GPU
 * starts). Kernels are assumed not to overlap one another.
 *
 * Two predictions: from tune's speedups (timed with L2 flushed before
 * every repetition: "cold"), and from the warm ones (no flush: inputs in
 * L2, as inside a step) where tune's confirmation has them, tune's
 * elsewhere. The second is the one tko stands by (gain); a GPU run shows
 * which of the two the measured step follows.
 */
#ifndef TKO_APPLY_PREDICT_H
#define TKO_APPLY_PREDICT_H

#include <stddef.h>

#include "apply/plan.h"
#include "util/buf.h"

/* A planned kernel's GPU time a step in the profile and its share of the step. */
struct apply_kernel_time {
	double ms_per_step, share;
};

struct apply_predict {
	char *profile;		/* the profile read, NULL when the RUN has none */
	long steps;		/* ProfilerStep ranges in it */
	double step_ms;		/* its step time, NAN unknown */
	double saved_ms;	/* the planned winners' predicted saving a step (warm where known) */
	double gain;		/* step / (step - saved), NAN unknown */
	double saved_cold_ms;	/* the same from tune's cold speedups alone */
	double gain_cold;
	long warm_kernels;	/* planned kernels in the profile with a warm speedup */
	struct apply_kernel_time *kernels;	/* one a plan item, in its order (NAN: not in the profile) */
	size_t nkernels;
	char *note;		/* why there is no prediction, or NULL */
};
#define APPLY_PREDICT_INIT { NULL, 0, 0, 0, 0, 0, 0, 0, NULL, 0, NULL }

/* Fills `pr` from the RUN's largest profile; never fails (a note says why not). */
void apply_predict_step(struct apply_predict *pr, const struct apply_plan *p, const char *run);

void apply_predict_release(struct apply_predict *pr);

#endif
