/*
 * diff: what changed between two analyses, kernel by kernel: time, share
 * and rank, config, ISA families and widths, resources, rules and
 * decision. The two sides are anything diff_load() reads: a RUN directory
 * (its analysis/kernels.json, else analysed now), a kernels.json or
 * report.json, a `tko isa --json` document, or a directory or file of
 * assembly (a capture kernel directory, a tune variant, a Triton cache
 * entry). Kernels are paired by id, else by name when that is unique on
 * both sides.
 *
 * Entry points: diff_load(), diff_runs() (filling model/diff.h's document);
 * output in report/diff_out.h.
 */
#ifndef TKO_REPORT_DIFF_H
#define TKO_REPORT_DIFF_H

#include <stddef.h>

#include "json/reflect.h"
#include "model/analysis.h"
#include "model/diff.h"
#include "rundir/layout.h"
#include "util/buf.h"

/* Numbers closer than this (relative) are the same: times repeat to a few tenths of a percent. */
#define DIFF_REL_TOL 0.005


/*
 * Reads one side into an initialised run: a directory that meets `run`
 * (tko diff's row in the command table: rd_need_diff) is a RUN, any other
 * one a folder of assembly. 0, or -1 with one line in err.
 */
int diff_load(const char *path, const struct rd_need *run, struct an_run *out, struct buf *err);

void diff_runs(const struct an_run *a, const struct an_run *b, struct an_diff *d);

#endif
