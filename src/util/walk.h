/*
 * Expanding input paths: a file stands for itself, a directory for every
 * regular file below it, in sorted order so output is reproducible.
 * Symbolic links to directories are not followed (no loops); links to
 * files are.
 */
#ifndef TKO_WALK_H
#define TKO_WALK_H

#include "util/buf.h"
#include "util/opts.h"

/*
 * Appends the files under `path` to `out` as newly allocated strings
 * (free each, then strlist_release). Returns 0, or -1 with a line in err
 * when `path` is missing or a directory cannot be read.
 */
int walk_files(const char *path, struct strlist *out, struct buf *err);

/*
 * walk_files(), leaving out links to files whose real location is not
 * `root_real` or below it (a realpath): rundir/layout.h's rd_walk() lists
 * a RUN's parts with it.
 */
int walk_files_below(const char *path, const char *root_real, struct strlist *out,
		     struct buf *err);

/* Frees the strings of a list that owns them (as walk_files fills it), and the list. */
void walk_release(struct strlist *files);

#endif
