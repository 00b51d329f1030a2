/*
 * The terminal view of an analysis: one line of totals, the top kernels
 * by share with their decision, the count of unranked kernels and the
 * run's gaps. What `tko investigate` and `tko report` print.
 */
#ifndef TKO_REPORT_SUMMARY_H
#define TKO_REPORT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "analyse/model.h"

/* Prints at most `top` ranked kernels (0: all). */
void report_print_summary(FILE *fp, const struct an_run *r, size_t top);

/*
 * Writes report.md, report.json and report.html into `dir` (created when
 * missing). 0, or -1 with one line in err.
 */
int report_write_dir(const struct an_run *r, const char *dir, struct buf *err);

#endif
