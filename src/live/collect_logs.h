/*
 * One kernel's lines from the logs of a RUN, for `tko collect`.
 *
 * The logs are what tko summarize reads in the RUN (log/NAME.log, NAME.log and
 * NAME.txt at its top, capture/events.jsonl or capture/autotune.log). A line
 * is the kernel's when summarize attributes one of the kernel's facts to
 * it (its declared configs, benchmark rows, choice, saved path; the seed
 * skill's whole block), or, when no other kernel shares the name, when it
 * names the kernel as a whole word (so `..._1` never takes `..._12`'s
 * lines). The kernel is the summarize instance whose source file is
 * `module` (or whose capture directory is `capture_dir`); with neither
 * known, the name's only instance.
 *
 * Each log with such lines becomes OUT/logs/<its path in the RUN>, holding
 * those lines as "<line number>:<text>" (grep -n's form), role "log_lines".
 */
#ifndef TKO_LIVE_COLLECT_LOGS_H
#define TKO_LIVE_COLLECT_LOGS_H

#include "live/outdir.h"
#include "util/buf.h"

/*
 * `shared`: other modules define the same name, so whole-word mentions are
 * not the kernel's. 0, or -1 + err when an output could not be written;
 * logs tko cannot read are left out.
 */
int collect_log_lines(struct outdir *o, const char *run, const char *name,
		      const char *module, const char *capture_dir, int shared, struct buf *err);

#endif
