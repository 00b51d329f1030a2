/*
 * Keeping `tko run`'s results in the RUN directory, where `tko
 * investigate` looks for measured times: RUN/analysis/replay.json, the
 * "tko run" document of docs/json.md.
 *
 * A replay of some of a RUN's kernels updates their entries and keeps the
 * others, so replaying one kernel again does not lose the rest. Entries
 * are keyed and sorted by kernel directory name, and their kernel_dir is
 * rewritten relative to the RUN ("capture/kernels/<name>"), so the file
 * stays true when the RUN is copied elsewhere.
 */
#ifndef TKO_RUN_STORE_H
#define TKO_RUN_STORE_H

#include "model/replay.h"
#include "util/buf.h"

/*
 * Merges `doc` (a "tko run" document) into RUN/analysis/replay.json and
 * writes it atomically, creating RUN/analysis/. An existing file that is
 * not a "tko run" document is replaced. `*path` gets the file's path
 * (newly allocated) on success. 0, or -1 with err.
 */
int replay_store_write(const char *run, const struct replay_doc *doc, char **path, struct buf *err);

#endif
