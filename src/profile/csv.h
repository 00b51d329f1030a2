/*
 * CSV rows of profiler outputs (rocprofv3, rocprof v1 / DTK, nsys stats):
 * comma-separated, fields optionally in double quotes with "" for a quote,
 * as Python's csv module and the profilers' C++ writers emit them. A
 * header row names the columns; readers look columns up by name, so an
 * extra or reordered column (rocpd's "Guid", nsys's "GreenCtx") changes
 * nothing.
 *
 *	struct csv_row hdr = CSV_ROW_INIT, row = CSV_ROW_INIT;
 *	csv_split(&hdr, line, n);
 *	int name = csv_col(&hdr, "Kernel_Name");	(-1: absent)
 *	csv_split(&row, line2, n2);
 *	const char *v = csv_field(&row, name);	("" when the row is short)
 *	csv_row_release(&hdr); csv_row_release(&row);
 */
#ifndef TKO_PROFILE_CSV_H
#define TKO_PROFILE_CSV_H

#include <stddef.h>

#include "util/buf.h"

struct csv_row {
	struct buf text;	/* the fields, unquoted, each NUL-terminated */
	size_t *off;		/* field i starts at text.buf + off[i] */
	size_t n, alloc;	/* fields */
};
#define CSV_ROW_INIT { BUF_INIT, NULL, 0, 0 }

/* Splits one line into fields. 0, or -1 when a quote is not closed. */
int csv_split(struct csv_row *r, const char *line, size_t n);
void csv_row_release(struct csv_row *r);
/* Field i, or "" when the row has fewer fields. */
const char *csv_field(const struct csv_row *r, int i);
/* The column whose header is `name` (ASCII case ignored), or -1. */
int csv_col(const struct csv_row *hdr, const char *name);
/* The first column whose header starts with `prefix` (case ignored), or -1. */
int csv_col_prefix(const struct csv_row *hdr, const char *prefix);
/*
 * A number in field i: 0 and *v, or -1 when empty or not a finite number. A
 * trailing integer in text is taken when `trailing` ("Agent 2" -> 2,
 * "NVIDIA H200 (0)" -> 0).
 */
int csv_num(const struct csv_row *r, int i, double *v);
int csv_trailing_int(const struct csv_row *r, int i, long *v);

struct prof_input;

/*
 * Reads a table: skips lines (a tool's preamble, nsys's "Processing ...")
 * until one whose fields include every name in `required` (NULL-ended,
 * case ignored; at most CSV_HEADER_SEARCH lines), then calls row_fn for
 * every non-empty line after it. Returns the rows read, or -1 with a line
 * in err (no header, a read error). A row_fn returning < 0 counts the row
 * as skipped in *skipped.
 */
#define CSV_HEADER_SEARCH 64
long csv_read_table(struct prof_input *in, const char *const *required,
		    int (*row_fn)(void *ctx, const struct csv_row *hdr, const struct csv_row *row),
		    void *ctx, long *skipped, struct buf *err);

#endif
