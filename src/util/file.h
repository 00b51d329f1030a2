/*
 * Reading inputs and writing outputs safely.
 *
 * Inputs are mapped read-only (file_map) so scanners see one (pointer,
 * length) span without copying; pipes and other non-regular files are read
 * into memory instead. Every failure appends one line to `err` that names
 * the file and the problem ("cannot open 'x': No such file or directory").
 *
 * Streams (pipes, devices) must be text: a NUL byte refuses them at the
 * read that brings it (so `tko isa /dev/zero` costs one read), and without
 * a caller's cap they are capped at FILE_STREAM_MAX.
 *
 * Outputs go through struct atomic_file: bytes are written to a temporary
 * file beside the target (".tko-XXXXXX": short, so a target name of
 * NAME_MAX bytes still works) and renamed into place on commit, so a reader
 * never sees a half-written report (the pattern of git's lockfile.h). The
 * path "-" means standard output and is written directly, as is an
 * existing device or FIFO (/dev/null must stay a device). The rules every
 * output follows:
 *   - an output that is one of the command's inputs (same device and
 *     inode: file_track_inputs) is refused, so `--json log.txt` cannot
 *     destroy log.txt;
 *   - an existing read-only file is not replaced;
 *   - a replaced file keeps its mode; a new one gets 0666 less the umask;
 *   - an output that is a symbolic link is replaced, never written
 *     through; folders tko adds inside a RUN are made with mkdir_in(),
 *     which refuses links;
 *   - the temporary file is registered with util/cleanup.h, so a signal
 *     removes it;
 *   - atomic_open() streams escape control characters (util/textout.h),
 *     write_file_atomic() writes bytes as they are.
 * struct atomic_set publishes several outputs together: all are written
 * to temporary files, and only when every one was written completely are
 * they renamed into place; otherwise none is.
 */
#ifndef TKO_FILE_H
#define TKO_FILE_H

#include <stdio.h>
#include <stddef.h>

#include "util/buf.h"

struct mapped_file {
	const char *data;	/* the file's bytes; not NUL-terminated */
	size_t len;		/* their number */
	void *map;		/* mmap()ed region, or NULL */
	char *heap;		/* heap copy for non-regular files, or NULL */
};
#define MAPPED_FILE_INIT { "", 0, NULL, NULL }

/* What a stream (pipe, device) is read up to when the caller gives no cap. */
#define FILE_STREAM_MAX ((size_t)256 << 20)

/*
 * Maps `path` (or reads it, for pipes). Refuses directories and files over
 * `max_len` bytes (0: no limit; FILE_STREAM_MAX for a stream). Returns 0,
 * or -1 with a line in `err`.
 */
int file_map(const char *path, size_t max_len, struct mapped_file *m,
	     struct buf *err);
void file_unmap(struct mapped_file *m);

/* Reads the whole file into `out` (appending). Same errors as file_map. */
int file_read(const char *path, size_t max_len, struct buf *out,
	      struct buf *err);

/* 1 when `path` names an existing directory, 0 otherwise. */
int is_dir(const char *path);
/* 1 when `path` names an existing regular file, 0 otherwise. */
int is_file(const char *path);

/*
 * Text checks for inputs that must be text. Both return 0 when the span is
 * acceptable, else -1 with `*off` set to the offending byte's offset.
 * text_has_nul looks at the first `probe` bytes only (binary files show a
 * NUL early); utf8_check validates the whole span.
 */
int text_has_nul(const char *p, size_t len, size_t probe, size_t *off);
int utf8_check(const char *p, size_t len, size_t *off);

/*
 * One-stop check for a text input: not empty, no NUL byte, valid UTF-8.
 * Appends "'path' is empty" / "'path' is binary (NUL byte at offset N)" /
 * "'path' is not UTF-8 text (invalid byte at offset N)" to err.
 */
int text_input_check(const char *path, const char *p, size_t len,
		     struct buf *err);

/*
 * The inputs an output must not overwrite. With tracking on (tko's main()
 * turns it on; library users and tests leave it off), every regular file
 * opened by file_map() or file_read() is noted, and commands note the
 * files they were given by name before they read anything. A command that
 * updates a file in place (tko run's replay.json) forgets it first.
 */
void file_track_inputs(int on);
void file_note_input(const char *path);
void file_forget_input(const char *path);
struct stat;
int file_is_input(const struct stat *st);

struct atomic_file {
	char *path;	/* the final path, or NULL for standard output */
	char *tmp;	/* the temporary file beside it */
	FILE *fp;	/* where to write */
};
#define ATOMIC_FILE_INIT { NULL, NULL, NULL }

/* Opens a temporary file beside `path` ("-": stdout). 0 or -1 + err. */
int atomic_open(struct atomic_file *af, const char *path, struct buf *err);
/* Flushes, closes and renames into place. 0 or -1 + err (tmp removed). */
int atomic_commit(struct atomic_file *af, struct buf *err);
/* Removes the temporary file; safe to call after commit or on an unopened af. */
void atomic_abort(struct atomic_file *af);
/* Writes `len` bytes to `path` atomically. */
int write_file_atomic(const char *path, const void *data, size_t len,
		      struct buf *err);

/*
 * Several outputs published together or not at all:
 *
 *	struct atomic_set set = ATOMIC_SET_INIT;
 *	if (atomic_set_mkdir(&set, run, "analysis", &err) < 0 ||
 *	    !(fp = atomic_set_open(&set, "run/analysis/a.json", &err)))
 *		... atomic_set_abort(&set);
 *	write to fp ...
 *	if (atomic_set_commit(&set, &err) < 0)	(nothing was published)
 *
 * "-" (standard output) is held in memory and written after the files
 * are in place. Folders the set made are removed when it is aborted.
 */
struct atomic_member;
struct atomic_set {
	struct atomic_member *v;	/* the outputs, in order */
	size_t nr, alloc;
	char **dirs;			/* folders atomic_set_mkdir() made */
	size_t ndirs;
};
#define ATOMIC_SET_INIT { NULL, 0, 0, NULL, 0 }

/* A stream for `path` in the set, or NULL + err (the set is left to abort). */
FILE *atomic_set_open(struct atomic_set *s, const char *path, struct buf *err);
/* mkdir_in(base, rel) for the set. */
int atomic_set_mkdir(struct atomic_set *s, const char *base, const char *rel,
		     struct buf *err);
/* Closes every output, then renames them all; on a failure none is kept. 0 or -1 + err. */
int atomic_set_commit(struct atomic_set *s, struct buf *err);
/* Removes the temporary files and the folders the set made. */
void atomic_set_abort(struct atomic_set *s);

/* Creates `path` and its parents (mode 0777 & umask). 0 or -1 + err. */
int mkdir_p(const char *path, struct buf *err);

/*
 * Creates base/rel's folders below `base` (which must exist), refusing any
 * of them that is a symbolic link: the folders tko adds to a RUN
 * (analysis/, report/) are never links someone else left to lead its
 * writes elsewhere. The folders it made are appended to *made (newly
 * allocated strings) when made is not NULL. 0 or -1 + err.
 */
int mkdir_in(const char *base, const char *rel, char ***made, size_t *nmade,
	     struct buf *err);

/*
 * 1 when the real location of `path` (links followed; for a path not
 * there yet, of the nearest folder above it) is `root_real` or below it.
 * root_real must itself be a realpath().
 */
int path_within(const char *root_real, const char *path);

/* Joins two path parts with one '/'; the caller frees the result. */
char *path_join(const char *a, const char *b);
/* The last component of `path` (a pointer into it). */
const char *path_base(const char *path);

#endif
