/*
 * meta: the library behind `tko meta`, for `tko investigate` and `tko tune`
 * to call in-process. It reads Python files, or every `.py` under a
 * directory (a RUN, an Inductor cache), and collects the Triton kernels
 * in them (triton_meta.h) together with what Inductor's wrapper modules
 * say about each (inductor_wrapper.h): the ATen ops behind it.
 *
 * Usage:
 *
 *	struct meta_set set = META_SET_INIT;
 *	if (meta_scan_path(&set, "RUN", &err) < 0)	(repeat for more paths)
 *		... err names the file and the problem
 *	meta_link(&set);
 *	for (i = 0; i < set.kernels.nr; i++)
 *		... set.kernels.v[i]
 *	json_t *doc = meta_to_json(&set, NULL, 0);	(report/meta_json.h)
 *	meta_set_release(&set);
 *
 * Files: a single file that cannot be read (missing, a directory, empty,
 * binary, not UTF-8, cut off mid-statement) is an error. Under a directory
 * such a file is recorded in set.files with its error and the walk goes on,
 * so one bad file does not hide thousands of good ones; set.nerrors counts
 * them. Files that never mention "triton" are recorded as "other" without
 * being parsed.
 *
 * Wrapper modules: a kernel block whose "# kernel path:" names a kernel
 * file that was also read gives that file's kernel its ATen attribution;
 * otherwise the embedded source is read as the kernel itself, with its
 * file set to the wrapper and lines counted in the wrapper.
 */
#ifndef TKO_META_H
#define TKO_META_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "parse/inductor_wrapper.h"
#include "parse/triton_meta.h"
#include "util/buf.h"

/* The largest Python file read; Inductor's biggest wrappers are a few MB. */
#define META_MAX_FILE (64u << 20)

struct meta_file {
	char *path;		/* as walked (the given directory joined with the rest) */
	const char *role;	/* "kernel", "wrapper", "other" or "error" (static) */
	char *error;		/* for "error": what was wrong, naming the file */
	size_t nkernels;	/* kernels reported with this file as theirs */
	size_t first_kernel;	/* index in kernels of the first of its own (until meta_link sorts) */
	size_t nwrapped;	/* async_compile.triton blocks in it */
};

struct meta_set {
	struct meta_kernel_list kernels;	/* every kernel, sorted by file and line after meta_link */
	struct meta_file *files;		/* every .py file looked at, in walk order */
	size_t nfiles, files_alloc;
	struct wrapped_list wrapped;		/* every wrapper block */
	size_t nerrors;				/* files with role "error" */
	int linked;				/* meta_link has run */
	struct buf scratch;			/* the file being read, reused */
};
#define META_SET_INIT { META_KERNEL_LIST_INIT, NULL, 0, 0, WRAPPED_LIST_INIT, 0, 0, BUF_INIT }

/*
 * Reads one file. Returns 0, or -1 with one line in err ("'k.py' line 16
 * column 17: '{' is never closed") and the file recorded as "error".
 */
int meta_scan_file(struct meta_set *set, const char *path, struct buf *err);

/* Reads a module already in memory; `path` names it. Same returns. */
int meta_scan_span(struct meta_set *set, const char *path, const char *s,
		   size_t n, struct buf *err);

/*
 * Reads a file, or every .py file under a directory (sorted). For a
 * directory, returns -1 only when it cannot be walked; bad files are
 * recorded (see above).
 */
int meta_scan_path(struct meta_set *set, const char *path, struct buf *err);

/*
 * Matches wrapper blocks to kernel files, attaches the ATen attribution,
 * reads the kernels only a wrapper holds, and sorts the kernels by file
 * and line. Call once, after the last scan.
 */
void meta_link(struct meta_set *set);

/*
 * The kernels named `name` (the def name, or Inductor's kernel_name) into
 * `out` (borrowed pointers, at most `max`); returns how many match.
 */
size_t meta_find(const struct meta_set *set, const char *name,
		 const struct meta_kernel **out, size_t max);

void meta_set_release(struct meta_set *set);

#endif
