/*
 * report/capture_text: what `tko capture` (and `tko investigate -- CMD`)
 * prints once the command has ended: a blank line, a one-row table of the
 * RUN, the exit status, the seconds, the kernels captured, the events and
 * the capture errors, and, when the hook kept logging from the terminal,
 * how many lines of it are in log/model.log only.
 */
#ifndef TKO_REPORT_CAPTURE_TEXT_H
#define TKO_REPORT_CAPTURE_TEXT_H

#include <stdio.h>

#include "model/manifest.h"

void capture_print_summary(FILE *fp, const struct run_manifest *m);

#endif
