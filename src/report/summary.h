/*
 * The terminal view of an analysis: one line of totals, the top kernels
 * by share with their decision, the count of unranked kernels and the
 * run's gaps. What `tko investigate` and `tko report` print.
 */
#ifndef TKO_REPORT_SUMMARY_H
#define TKO_REPORT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "model/analysis.h"
#include "util/file.h"

/* Prints at most `top` ranked kernels (0: all). */
void report_print_summary(FILE *fp, const struct an_run *r, size_t top);

/*
 * Opens report.md, report.json and report.html of `dir` in the output set
 * and writes them; the caller publishes them by committing the set (with
 * whatever else belongs with them). 0, or -1 with one line in err.
 */
int report_write_dir(const struct an_run *r, struct atomic_set *set, const char *dir,
		     struct buf *err);

#endif
