/*
 * The workspace of an Inductor mix-order reduction (grid type
 * MixOrderReductionGrid, torch 2.10+): the fused row and column reduction
 * of a norm's backward. Each of its cdiv(xnumel, RSPLIT_SIZE) programs
 * stores one row of r0_numel float32 partial sums per column reduction in
 * `ws_ptr` (partial p of program i at (i + p * num_programs) * r0_numel),
 * and Inductor's wrapper then sums them over the programs:
 *
 *   buf = ws[p * nsplit * rnumel : (p + 1) * nsplit * rnumel]
 *             .view(nsplit, rnumel).sum(dim=0)
 *
 * (torch/_inductor/codegen/simd.py _codegen_mix_order_reduction). So the
 * workspace's size follows RSPLIT_SIZE: a variant with another split gets
 * a workspace of its own size, and its partials are compared with the
 * base's after that same sum. RSPLIT_SIZE is Inductor's codegen choice
 * (triton.mix_order_reduction_split_size), not a launch config: it is
 * tuned only when the workspace can be resized this way.
 */
#ifndef TKO_TUNE_WORKSPACE_H
#define TKO_TUNE_WORKSPACE_H

#include <jansson.h>

#include "util/buf.h"

struct tune_sweep;

struct tune_workspace {
	int arg;		/* ws_ptr's index among the kernel's parameters, -1: none */
	long xnumel;		/* rows split between the programs */
	long row;		/* r0_numel: floats per program and partial */
	long partials;		/* column reductions stored per program */
	long base_numel;	/* the captured workspace's elements */
};

/*
 * Finds the sweep's workspace for a base split of base_rsplit rows. 0 with
 * w->arg set, or -1 with the reason in why (not a mix-order reduction, no
 * captured ws_ptr or sizes, a size that is not partials x programs x row,
 * or a partial reduction other than a sum).
 */
int tune_workspace_find(const struct tune_sweep *s, long base_rsplit,
			struct tune_workspace *w, struct buf *why);

/* Elements of the workspace for a split of rsplit rows. */
long tune_workspace_numel(const struct tune_workspace *w, long rsplit);

/*
 * The smallest power-of-two split whose workspace holds at most max_bytes:
 * the wrapper's sum after the kernel reads it all, a cost the kernel's
 * time does not show.
 */
int tune_workspace_min_split(const struct tune_workspace *w, double max_bytes);

/* {"arg", "numel", "partials", "row"} of a split, for a worker request. */
json_t *tune_workspace_json(const struct tune_workspace *w, long rsplit);

#endif
