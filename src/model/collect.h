/*
 * model/collect: collect.json, the document `tko collect` writes into its
 * output folder (and to --json FILE), as a typed struct with its reflect
 * table. Keys, in order (docs/json.md): schema_version, tool, files[]
 * {path, from, bytes, role}, skipped[] {from, why}, bytes, kernel,
 * kernel_id, source_hash, inductor_module, capture_dir,
 * triton_cache_entries.
 */
#ifndef TKO_MODEL_COLLECT_H
#define TKO_MODEL_COLLECT_H

#include <stdio.h>

#include "json/reflect.h"
#include "util/buf.h"

#define COLLECT_SCHEMA_VERSION 1

/* One file written into the output folder. */
struct collect_file {
	char *path;		/* in the output folder */
	char *from;		/* where it came from: relative to the RUN when inside it */
	long long bytes;
	char *role;		/* kernel_module, capture, ptx, log_lines, ... (docs/json.md) */
};

/* An input left out. */
struct collect_skip {
	char *from;
	char *why;
};

struct collect_doc {
	struct collect_file *files;
	size_t nfiles;
	struct collect_skip *skipped;
	size_t nskipped;
	long long bytes;	/* bytes of every file written */
	char *kernel;		/* the kernel's name */
	char *kernel_id;	/* the 8 hex digits of its source hash */
	char *source_hash;	/* or NULL */
	char *inductor_module;	/* the module gathered (a path in the RUN), or NULL */
	char *capture_dir;	/* the capture folder gathered, or NULL */
	char **entries;		/* triton_cache_entries: the Triton cache keys gathered */
	size_t nentries;
};

extern const struct rf_struct collect_doc_desc;

/* An empty document (rf_init). */
void collect_doc_init(struct collect_doc *d);
void collect_doc_release(struct collect_doc *d);
/* Appends a file or a skipped input; the strings are copied. */
void collect_doc_add_file(struct collect_doc *d, const char *path, const char *from,
			  long long bytes, const char *role);
void collect_doc_add_skip(struct collect_doc *d, const char *from, const char *why);

/* The document as JSON text (jansson's layout, two-space indent, final newline): 0 or -1. */
int collect_doc_write(FILE *fp, const struct collect_doc *d);
/* Written to `path` atomically ("-": standard output). 0 or -1 + err. */
int collect_doc_save(const struct collect_doc *d, const char *path, struct buf *err);
/* Read back from a JSON tree (`what` names it in messages). 0 or -1 + err. */
int collect_doc_read(struct collect_doc *d, const json_t *j, const char *what, struct buf *err);

#endif
