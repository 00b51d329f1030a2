/*
 * What a capture left in a RUN, summarised for tko-run.json
 * (capture/events.jsonl, capture/kernels/). The RUN's layout, creating
 * it and listing its kernel folders are rundir/layout.h's.
 *
 * NEEDSWORK: this file goes once the capture library (issue 18, P4.4)
 * builds tko-run.json as model/manifest; until then cmd/capture.c and
 * cmd/investigate.c keep their rundir_* names, forwarded below.
 */
#ifndef TKO_LIVE_RUNDIR_H
#define TKO_LIVE_RUNDIR_H

#include <time.h>

#include <jansson.h>

#include "rundir/layout.h"
#include "util/buf.h"
#include "util/opts.h"

/*
 * {"events": N, "by_type": {"autotune": N, ...}, "errors": N,
 * "kernel_dirs": N, "unreadable_lines": N} for a RUN directory; a missing
 * events file counts as none. Lines that are not JSON objects (a truncated
 * last line) are counted, not fatal.
 */
json_t *rundir_capture_summary(const char *run);

static inline int rundir_create(const char *run, struct buf *err)
{
	return rd_create(run, err);
}

static inline char *rundir_make_default(time_t t, struct buf *err)
{
	return rd_make_default(t, err);
}

static inline void rundir_iso_time(time_t t, char *out, size_t n)
{
	rd_iso_time(t, out, n);
}

static inline size_t rundir_kernel_dirs(const char *run, struct strlist *out)
{
	return rd_kernel_dirs(run, out);
}

#endif
