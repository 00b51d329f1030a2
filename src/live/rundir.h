/*
 * The RUN directory of DESIGN.md, from tko's side: creating its skeleton
 * for `tko capture` (log/, capture/kernels/, cache/inductor/,
 * cache/triton/) and summarising what a capture left in it
 * (capture/events.jsonl, capture/kernels/).
 */
#ifndef TKO_LIVE_RUNDIR_H
#define TKO_LIVE_RUNDIR_H

#include <time.h>

#include <jansson.h>

#include "util/buf.h"
#include "util/opts.h"

/* The subfolders a RUN directory starts with, NULL-terminated. */
extern const char *const rundir_skeleton[];

/*
 * Creates `run` and its skeleton. `run` must not exist, or be an empty
 * directory (a capture never mixes with an earlier one). The RUN is
 * claimed with mkdir(), which only one process can win, so two captures
 * given the same --out never share it. 0 or -1 + err.
 */
int rundir_create(const char *run, struct buf *err);

/* "tko-run-YYYYmmdd-HHMMSS" for the local time `t`, newly allocated. */
char *rundir_default_name(time_t t);

/*
 * Makes a new, empty folder for a default-named RUN in the current
 * directory: rundir_default_name(t), or with "-2", "-3"... appended when
 * that exists (two captures started in the same second). Returns its name
 * (newly allocated), or NULL + err.
 */
char *rundir_make_default(time_t t, struct buf *err);

/* "2026-12-02T15:29:32Z" for `t`, into out (at least 32 bytes). */
void rundir_iso_time(time_t t, char *out, size_t n);

/*
 * {"events": N, "by_type": {"autotune": N, ...}, "errors": N,
 * "kernel_dirs": N, "unreadable_lines": N} for a RUN directory; a missing
 * events file counts as none. Lines that are not JSON objects (a truncated
 * last line) are counted, not fatal.
 */
json_t *rundir_capture_summary(const char *run);

/*
 * Fills the empty list `out` with RUN/capture/kernels/<dir> for each kernel
 * directory, sorted, newly allocated (free with walk_release); the .tmp-*
 * folders of a capture still writing are left out, and so are folders a
 * link leads out of the RUN (parse/runpath.h). Returns how many.
 */
size_t rundir_kernel_dirs(const char *run, struct strlist *out);

#endif
