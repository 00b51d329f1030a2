/*
 * apply/kwindow: the per-kernel measured gain of tko apply --ab
 * (docs/apply.md, "Per-kernel measured gain").
 *
 * In every measured run the hook profiles a short window of steps
 * (python/tko/apply_steps.py: torch.profiler over --kernel-window K steps,
 * its Chrome trace in DIR/kernel_window.json). apply_kwindow_read reads it
 * with tko's own trace reader (profile/prof.h) and keeps, for the kernels
 * named, their launches and GPU time per step:
 *
 *	{"steps": K, "trace": "DIR/kernel_window.json", "note": null,
 *	 "gpu_us_per_step": 210.5, "tuned_us_per_step": 131.0,
 *	 "other_us_per_step": 79.5,
 *	 "kernels": {"triton_poi_fused_add_0": {"calls_per_step": 2,
 *	             "us_per_step": 13.5}, ...}}
 *
 * Kernels are joined by name (several kernels of one name, as a forward
 * and a backward graph may both have, are summed). A kernel the window did
 * not see is absent.
 *
 * The whole step's GPU time, gpu_us_per_step, is the sum of the durations
 * of every GPU activity in the window (kernels of any origin: Triton,
 * cuBLAS, flash attention; copies; fills) over its steps: tuned_us_per_step
 * the named kernels', other_us_per_step the rest. A sum, not the union of
 * intervals: kernels that overlap on two streams count twice, so on a
 * multi-stream step it can exceed the time the GPU was busy.
 *
 * apply_kernel_gain joins the arms: per measured round r, the default
 * run's us_per_step of the kernel over the applied run's of the same round
 * (paired, as the step's ratio is); the measured gain is the median of
 * those ratios over the rounds where both saw the kernel, next to the
 * medians of the two times.
 *
 * Whether a winner is faster or slower inside the step is judged beyond the
 * window's noise: the 95% t-interval of the same paired ratios (tune/ci.h,
 * the interval tune's confirmation uses: Student's t over the log ratios,
 * so its centre is their geometric mean). "slower" when the whole interval
 * is below 1, "faster" when above, else "inconclusive" (always so with one
 * round: no spread, no interval); "not_seen" when no round saw the kernel
 * in both arms. Tune times a kernel alone with L2 flushed; inside the step
 * its inputs may be warm, and a small winner can lose there. "same_config"
 * before any of those when, in every such round, the default run launched
 * the plan's config of the kernel and no other (Inductor's own pick was
 * the plan's): whatever the windows measured is not the plan's doing, and
 * such a kernel is never dropped as slower. On the H100 (2026-12-05) a base
 * pin of `second` that both arms launched alike measured 0.992x [0.988,
 * 0.996], from its neighbours, and was dropped.
 */
#ifndef TKO_APPLY_KWINDOW_H
#define TKO_APPLY_KWINDOW_H

#include <stddef.h>

#include <jansson.h>

#include "model/apply_doc.h"
#include "util/buf.h"

/*
 * The window of one run into an initialised w (model/apply_doc.h); a trace
 * that cannot be read gives a note and no kernels.
 */
void apply_kwindow_read(const char *trace, long steps, const char *const *names, size_t n,
			struct apply_kwindow *w);

struct apply_kgain {
	long rounds;		/* rounds where both arms saw the kernel */
	double gain;		/* median of default / applied us_per_step, NAN when rounds is 0 */
	double default_us;	/* median us_per_step of the default arm's rounds */
	double applied_us;	/* ... of the applied arm's */
	double geomean;		/* geometric mean of the ratios, NAN with fewer than 2 rounds */
	double lo, hi;		/* its 95% t-interval, NAN with fewer than 2 rounds */
	int same_config;	/* in each of those rounds the default run launched the
				 * plan's config of the kernel and no other (its
				 * ran_planned_config): the applied arm changed nothing */
};

/*
 * The gain of `kernel` over the runs (apply.json's "runs", model/apply_doc.h,
 * each with its kernel_window or none) of `rounds` measured rounds.
 * Returns g->rounds.
 */
long apply_kernel_gain(const struct apply_runs *runs, const char *kernel, long rounds,
		       struct apply_kgain *g);

/*
 * "slower" when an interval of default/applied lies wholly below 1,
 * "faster" wholly above, else NULL (NAN bounds: NULL).
 */
const char *apply_interval_side(double lo, double hi);

/* "same_config", "faster", "slower", "inconclusive" or "not_seen" (above). */
const char *apply_kgain_verdict(const struct apply_kgain *g);

#endif
