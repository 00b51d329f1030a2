/*
 * Reading inputs and writing outputs safely.
 *
 * Inputs are mapped read-only (file_map) so scanners see one (pointer,
 * length) span without copying; pipes and other non-regular files are read
 * into memory instead. Every failure appends one line to `err` that names
 * the file and the problem ("cannot open 'x': No such file or directory").
 *
 * Outputs go through struct atomic_file: bytes are written to a temporary
 * file beside the target and renamed into place on commit, so a reader never
 * sees a half-written report (the pattern of git's lockfile.h). The path "-"
 * means standard output and is written directly, as is an existing device
 * or FIFO (/dev/null must stay a device).
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

/*
 * Maps `path` (or reads it, for pipes). Refuses directories and files over
 * `max_len` bytes (0: no limit). Returns 0, or -1 with a line in `err`.
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

/* Creates `path` and its parents (mode 0777 & umask). 0 or -1 + err. */
int mkdir_p(const char *path, struct buf *err);

/* Joins two path parts with one '/'; the caller frees the result. */
char *path_join(const char *a, const char *b);
/* The last component of `path` (a pointer into it). */
const char *path_base(const char *path);

#endif
