/*
 * One kernel's lines of the logs of a RUN: the RD_IX_LOGS part of the
 * kernel index (rundir/index.h), for `tko collect`. It lives above the
 * index because it needs tko summarize's reader.
 *
 * The logs are what tko summarize reads in the RUN (log/NAME.log, NAME.log and
 * NAME.txt at its top, capture/events.jsonl or capture/autotune.log). A line
 * is the kernel's when summarize attributes one of the kernel's facts to
 * it (its declared configs, benchmark rows, choice, saved path; the seed
 * skill's whole block), or, when no other kernel shares the name, when it
 * names the kernel as a whole word (so `..._1` never takes `..._12`'s
 * lines). The kernel is the summarize instance whose source file is
 * its module (or whose capture directory is its capture folder); with
 * neither known, the name's only instance.
 */
#ifndef TKO_ANALYSE_COLLECT_LOGS_H
#define TKO_ANALYSE_COLLECT_LOGS_H

#include "rundir/index.h"

/*
 * Fills k->logs, one entry per log with lines of k (logs tko cannot read
 * are left out), and marks RD_IX_LOGS built. k is a kernel of ix.
 */
void collect_logs_fill(struct rd_index *ix, struct rd_kernel *k);

#endif
