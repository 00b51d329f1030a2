/*
 * What a sweep shows and leaves behind: the per-kernel JSON (docs/json.md,
 * "tko tune"), the terminal/Markdown table, and the winner's files under
 * OUT/winner/: kernel.py (the winning source), source.patch (a unified
 * diff from the original, when the source changed) and config.json (the
 * launch config as Inductor's triton.Config, with the environment it needs).
 */
#ifndef TKO_TUNE_OUTPUT_H
#define TKO_TUNE_OUTPUT_H

#include <jansson.h>

#include "tune/sweep.h"
#include "util/table.h"

/* The kernel's entry of the "kernels" list. A new reference. */
json_t *tune_output_json(const struct tune_sweep *s);

/* One row per variant that ran. */
void tune_output_table(const struct tune_sweep *s, struct table *t);

/* Failures and skips, one line each ("v003 compile_error: ..."). */
void tune_output_notes(const struct tune_sweep *s, struct buf *out);

/* Writes OUT/winner/ when there is a winner other than nothing. 0 or -1 + err. */
int tune_output_winner(struct tune_sweep *s, struct buf *err);

/*
 * The RSPLIT_SIZE a variant of a mix-order reduction changed, 0 if none: a
 * codegen choice (Inductor's wrapper sizes and sums the workspace for the
 * split it generated), so it is applied with Inductor's
 * triton.mix_order_reduction_split_size setting, not a triton.Config.
 */
int tune_output_split(const struct tune_sweep *s, long variant);

/*
 * 1 when a variant is the two-pass form of an online softmax: what
 * Inductor emits with its online_softmax setting off, so the winner can be
 * applied as torch._inductor.config.online_softmax = False as well as by
 * its kernel source.
 */
int tune_output_two_pass(const struct tune_sweep *s, long variant);

/*
 * Checks every field tko investigate reads from a tune document
 * (tune.json): types, and times and speedups that are numbers >= 0. 0, or
 * -1 with one line naming `file` and the field.
 */
int tune_doc_check(const json_t *doc, const char *file, struct buf *err);

#endif
