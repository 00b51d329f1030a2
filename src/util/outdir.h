/*
 * An output directory that is written only from inside: for `tko collect`.
 *
 * outdir_open() takes a root that does not exist (it is created) or is an
 * empty real directory (not a symbolic link). Every file is then created
 * new below it from a relative path whose components are checked (no "",
 * ".", "..", no control characters), with O_EXCL|O_NOFOLLOW, in folders
 * outdir made itself: nothing can land outside the root. outdir_abort()
 * removes everything outdir created, so a failure leaves no half output;
 * outdir_commit() writes the manifest last, atomically. What was written
 * and what was left out is told to the caller's struct outdir_log (collect
 * keeps it in model/collect's document).
 */
#ifndef TKO_UTIL_OUTDIR_H
#define TKO_UTIL_OUTDIR_H

#include "util/buf.h"
#include "util/opts.h"

/* Where outdir tells what it did; `from` is relative to from_base when inside it. */
struct outdir_log {
	void (*file)(void *data, const char *path, const char *from, long long bytes,
		     const char *role);	/* a file written: root/path */
	void (*skip)(void *data, const char *from, const char *why);	/* an input left out */
	void *data;
};

struct outdir {
	char *root;		/* the output directory */
	char *from_base;	/* inputs under it are recorded relative to it */
	int made_root;		/* outdir created the root */
	struct strlist made;	/* files and folders created, in order (owned) */
	struct outdir_log log;	/* the caller's */
};

int outdir_open(struct outdir *o, const char *root, const char *from_base,
		const struct outdir_log *log, struct buf *err);
/* Copies the regular file `src` to root/rel, recording it with `role`. */
int outdir_copy(struct outdir *o, const char *src, const char *rel, const char *role,
		struct buf *err);
/*
 * Writes data[0..len) to root/rel as a new file, recording it with `role`
 * and `src` (the input it was made from) as its origin.
 */
int outdir_write(struct outdir *o, const char *rel, const char *data, size_t len,
		 const char *role, const char *src, struct buf *err);
/* Records an input left out, and why. */
void outdir_skip(struct outdir *o, const char *src, const char *why);
/* Writes data[0..len) to root/name atomically, last. 0 or -1 + err. */
int outdir_commit(struct outdir *o, const char *name, const char *data, size_t len,
		  struct buf *err);
/* Removes what outdir created. */
void outdir_abort(struct outdir *o);
void outdir_release(struct outdir *o);

/* 1 when `path` is a symbolic link (not followed). */
int outdir_is_link(const char *path);
/* 1 when `rel` is a relative path of plain components. */
int outdir_rel_ok(const char *rel);

#endif
