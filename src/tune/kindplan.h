/*
 * What tko tune does with each kind of kernel: a search of its launch
 * config, a search of its launch options only, or a refusal saying why.
 *
 *   pointwise, reduction, persistent_reduction, cooperative_reduction,
 *   template, hand-written: the search of plan.h over space.c's
 *   parameters.
 *   foreach: Inductor's foreach kernels (triton_for_fused_*, the combo
 *   kernels it emits without autotuning) fix XBLOCK in their body
 *   (`XBLOCK: tl.constexpr = 1024`) and their launch grid from it
 *   (combo_grid_meta's default_config), so they have no block size to
 *   tune: every num_warps value is timed (plan.c's ladder; Inductor's own
 *   foreach heuristic tries 1, 2, 4 and 8 under max-autotune), and on AMD
 *   every waves_per_eu. num_stages stays at Inductor's 1: it pipelines
 *   loops, and a foreach's pointwise sub-kernels have none.
 *   split_scan: block sizes kept at the base's, launch options searched:
 *   the scan passes partial results through a workspace whose layout its
 *   block sizes decide, which Inductor sizes for R0_BLOCK >= its
 *   min_split_scan_rblock and which tko compares as an output.
 *   fixed_config: block sizes kept, launch options searched: Inductor
 *   generated the body for that one config (its semaphore counts and
 *   RSPLIT are computed from it).
 *   a heuristic tko does not know: refused. How its block sizes shape its
 *   grid and its buffers is not known, and a variant that writes past a
 *   buffer is not something a correctness check reliably catches.
 */
#ifndef TKO_TUNE_KINDPLAN_H
#define TKO_TUNE_KINDPLAN_H

#include "tune/kernel.h"
#include "tune/space.h"

/* Why tko does not tune k, a new string, or NULL when it does. */
char *tune_kind_refusal(const struct tune_kernel *k);

/*
 * Keeps at their base values the parameters k's kind must not change
 * (clears their `tuned`) and returns what its plan leaves out and why, or
 * NULL for a full search.
 */
const char *tune_kind_restrict(const struct tune_kernel *k, struct tune_space *sp);

#endif
