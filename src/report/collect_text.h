/*
 * report/collect_text: what `tko collect` prints once it has gathered a
 * kernel: the number of Triton cache entries, a table of the files per
 * role (first seen first) with their bytes, and how many inputs were
 * skipped.
 */
#ifndef TKO_REPORT_COLLECT_TEXT_H
#define TKO_REPORT_COLLECT_TEXT_H

#include <stdio.h>

#include "model/collect.h"

void collect_print_summary(FILE *fp, const struct collect_doc *d);

#endif
