/*
 * model/diff: the `tko diff --json` document (docs/json.md, "tko diff")
 * as a typed struct with its reflect table: what changed between two
 * analyses, kernel by kernel. Keys, in order: schema_version, tool, a, b,
 * summary {changed, same, only_a, only_b}, run [{field, a, b}],
 * kernels [{id, status, changes [{field, a, b}]}].
 *
 * report/diff.h fills it (diff_runs); report/diff_out.h renders it as
 * Markdown and as the terminal table, and diff_doc_write() writes it.
 */
#ifndef TKO_MODEL_DIFF_H
#define TKO_MODEL_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

#define DIFF_SCHEMA_VERSION 1

/* A kernel's status; diff_status_names[] is its name in tko diff's outputs. */
enum diff_status {
	DIFF_CHANGED,
	DIFF_SAME,
	DIFF_ONLY_A,		/* only side A has it */
	DIFF_ONLY_B,
	DIFF_NSTATUS
};
/* "changed", "same", "only_a", "only_b", NULL-terminated. */
extern const char *const diff_status_names[DIFF_NSTATUS + 1];

struct kdiff {
	char *id;		/* the kernel, as side A names it (or B for only_b) */
	enum diff_status status;
	struct rf_changes changes;	/* field, A value, B value */
};

/* Kernels by status. */
struct diff_summary {
	long long changed, same, only_a, only_b;
};

struct an_diff {
	char *a, *b;		/* the two inputs as given */
	struct diff_summary summary;
	struct rf_changes run;	/* run-wide differences (device, peak, totals) */
	struct kdiff *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};
#define AN_DIFF_INIT { NULL, NULL, { 0, 0, 0, 0 }, RF_CHANGES_INIT, NULL, 0 }

extern const struct rf_struct diff_doc_desc;

/* Appends a kernel of `status` (the changes empty); the new element. */
struct kdiff *diff_doc_add(struct an_diff *d, const char *id, enum diff_status status);
/* Sets a kernel's status. */
void diff_doc_status(struct kdiff *k, enum diff_status status);
/* Whether the kernel's status is `status`. */
int diff_doc_is(const struct kdiff *k, enum diff_status status);
void an_diff_release(struct an_diff *d);

/* The document as JSON text at `path` ("-": standard output), atomically. 0 or -1 + err. */
int diff_doc_save(const struct an_diff *d, const char *path, struct buf *err);
/* Read back from a JSON tree (`what` names it in messages): 0, or -1 + err. */
int diff_doc_read(struct an_diff *d, const json_t *j, const char *what, struct buf *err);

#endif
