/*
 * What applying a sweep's result takes: the winner's files under
 * OUT/winner/ (kernel.py, the winning source; source.patch, a unified diff
 * from the original when the source changed; config.json, the launch
 * config as Inductor's triton.Config with the environment and Inductor
 * settings it needs) and the pieces of them that tune.json repeats.
 */
#ifndef TKO_TUNE_WINNER_H
#define TKO_TUNE_WINNER_H

#include <jansson.h>

#include "model/tune.h"
#include "tune/sweep.h"
#include "util/buf.h"

/*
 * Writes OUT/winner/ when there is a winner; config.json repeats what w,
 * the winner's entry in tune.json, says of applying it. 0, or -1 with a
 * line in err.
 */
int tune_winner_write(struct tune_sweep *s, const struct tune_doc_winner *w, struct buf *err);

/*
 * The RSPLIT_SIZE a variant of a mix-order reduction changed, 0 if none: a
 * codegen choice (Inductor's wrapper sizes and sums the workspace for the
 * split it generated), so it is applied with Inductor's
 * triton.mix_order_reduction_split_size setting, not a triton.Config.
 */
int tune_winner_split(const struct tune_sweep *s, long variant);

/*
 * 1 when a variant is the two-pass form of an online softmax: what
 * Inductor emits with its online_softmax setting off, so the winner can be
 * applied as torch._inductor.config.online_softmax = False as well as by
 * its kernel source.
 */
int tune_winner_two_pass(const struct tune_sweep *s, long variant);

/* Inductor settings a variant needs beyond its triton.Config, or NULL. A new reference. */
json_t *tune_winner_settings(const struct tune_sweep *s, long variant);

/*
 * Appends a variant's source flags ("hints", "assume") and its environment
 * (AMDGCN_USE_BUFFER_OPS=1) to the model's string vector and pairs.
 */
void tune_src_fill(unsigned src, char ***v, size_t *nr);
void tune_env_fill(unsigned src, struct rf_pair **v, size_t *nr);

#endif
