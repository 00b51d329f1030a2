/*
 * tko tune's human-readable output: per kernel, a heading (its kind,
 * target and where the base config came from), a table of the variants
 * that ran (time, GB/s and fraction of peak, speedup over the base,
 * compile time, shared memory, correctness, ISA against the base), the
 * failures and notes, and the winner with what applying it takes. The
 * same text goes to the terminal and, with Markdown tables, to --md. It is
 * rendered from the kernel's entry of the tune document (model/tune.h),
 * the figures the JSON has.
 */
#ifndef TKO_REPORT_TUNE_TEXT_H
#define TKO_REPORT_TUNE_TEXT_H

#include <stdio.h>

#include "model/tune.h"
#include "util/buf.h"
#include "util/table.h"

/* One row per variant that ran; compile_only: the document's mode says so. */
void tune_text_table(const struct tune_doc_kernel *k, int compile_only, struct table *t);

/* Failures and skips, one line each ("v003 compile_error: ..."). */
void tune_text_notes(const struct tune_doc_kernel *k, struct buf *out);

/* A kernel's whole section; md: Markdown headings and tables. */
void tune_text_kernel(FILE *fp, const struct tune_doc_kernel *k, int compile_only, int md);

/* The Markdown file of the document's kernels. 0, or -1 with a line in err. */
int tune_text_write_md(const char *path, const struct tune_doc *d, struct buf *err);

#endif
