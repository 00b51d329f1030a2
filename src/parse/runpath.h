/*
 * Finding, on this machine, the files a log names on the machine that
 * wrote it. A log says "/tmp/w/cache/inductor/sk/csk...py"; the RUN
 * directory copied to a laptop holds it at RUN/cache/inductor/sk/csk...py,
 * because Inductor's code cache is always <cache dir>/<2 chars>/<file>
 * (torch/_inductor/codecache.py, get_path) and DESIGN.md's RUN layout puts
 * TORCHINDUCTOR_CACHE_DIR at RUN/cache/inductor.
 */
#ifndef TKO_PARSE_RUNPATH_H
#define TKO_PARSE_RUNPATH_H

#include <stddef.h>

#include "util/buf.h"

/*
 * A readable local file for `path` (len bytes). With a RUN `root`, only
 * files inside the RUN: RUN/cache/inductor/<dir>/<file> first, then the
 * path itself when its real location is inside the RUN (a RUN read where
 * it was written); a log in a RUN never leads tko to read elsewhere.
 * Without a root (a log on its own), the path itself. Returns a new
 * string, or NULL.
 */
char *runpath_resolve(const char *root, const char *path, size_t len);

/* 1 when `rel` is a relative path of plain components (no "", ".", ".."). */
int runpath_rel_ok(const char *rel);

/*
 * RUN/rel when it exists and its real location is inside the RUN; NULL
 * when it is missing, or (with a line in `why`, when given) when rel is
 * not a plain relative path or a link leads it out of the RUN. The one
 * gate for reading a RUN's parts (cache/, capture/kernels/, a kernel
 * directory named in events.jsonl).
 */
char *runpath_part(const char *run, const char *rel, struct buf *why);

/* The last two components of path[0..len) ("sk/0ebd....best_config"). */
const char *runpath_tail2(const char *path, size_t len);

/* 1 when `dir` holds something tko reads in a RUN directory. */
int runpath_is_run(const char *dir);

/*
 * The RUN directory a file belongs to, judged by where cache/inductor is:
 * the file's own directory or its parent (RUN/log/model.log). A new
 * string, or NULL.
 */
char *runpath_root_of(const char *file);

#endif
