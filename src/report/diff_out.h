/*
 * The outputs of `tko diff` (report/diff.h): Markdown (one table of
 * changes per changed kernel) and the terminal table (one row per kernel,
 * its changes on one line). The JSON is model/diff.h's diff_doc_save().
 */
#ifndef TKO_REPORT_DIFF_OUT_H
#define TKO_REPORT_DIFF_OUT_H

#include <stdio.h>

#include "report/diff.h"

void diff_print_md(FILE *fp, const struct an_diff *d);
void diff_print_text(FILE *fp, const struct an_diff *d);

#endif
