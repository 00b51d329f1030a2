/*
 * rundir/collect: copying one kernel's artifacts out of a RUN, for
 * `tko collect`. What belongs to the kernel is the index's business
 * (index.h: its module and twins, capture folder, Triton cache entries,
 * wrappers, .best_config records, log lines); this file copies it.
 *
 * Output, under OUT only: inductor/<module>.py (and <module>.best_config),
 * capture/<the capture folder's files>, triton/<cache key>/<every file of
 * that Triton cache entry> (.source, .ttir, .ttgir, .llir, .ptx/.amdgcn,
 * .cubin/.hsaco, .json, __grp__*.json), inductor/<wrapper modules and
 * .best_config records>, logs/<log's path in the RUN> holding the kernel's
 * lines as "<line number>:<text>" (grep -n's form), and collect.json
 * (model/collect.h) listing every file with where it came from.
 *
 * Inputs that are symbolic links are skipped (and listed as such), and so
 * are the parts of the RUN a link leads out of (the index's `refused`);
 * every output file is created new (O_EXCL|O_NOFOLLOW) inside OUT, which
 * must be new or empty: nothing is ever written outside OUT, and a failed
 * collect removes what it wrote (util/outdir.h).
 */
#ifndef TKO_RUNDIR_COLLECT_H
#define TKO_RUNDIR_COLLECT_H

#include "model/collect.h"
#include "rundir/index.h"
#include "util/buf.h"

/* What rd_collect_write() needs of the index: then RD_IX_LOGS, when the logs are wanted. */
#define RD_COLLECT_PARTS (RD_IX_MODULES | RD_IX_CAPTURES | RD_IX_CACHE | RD_IX_WRAPPERS | RD_IX_BEST)

/*
 * Copies kernel k of the index (built with RD_COLLECT_PARTS) into `out`
 * and fills the initialised `doc` with collect.json's content, which is
 * written there last. 0, or -1 + err with nothing left in `out`.
 */
int rd_collect_write(const struct rd_index *ix, const struct rd_kernel *k, const char *out,
		     struct collect_doc *doc, struct buf *err);

#endif
