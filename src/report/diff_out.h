/*
 * The outputs of `tko diff` (report/diff.h): Markdown (one table of
 * changes per changed kernel), JSON (docs/json.md, "tko diff") and the
 * terminal table (one row per kernel, its changes on one line).
 */
#ifndef TKO_REPORT_DIFF_OUT_H
#define TKO_REPORT_DIFF_OUT_H

#include <stdio.h>
#include <jansson.h>

#include "report/diff.h"

void diff_print_md(FILE *fp, const struct an_diff *d);
void diff_print_text(FILE *fp, const struct an_diff *d);
json_t *diff_to_json(const struct an_diff *d);

#endif
