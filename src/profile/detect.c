/*
 * Format detection (detect.h) and prof_read_path(): open, detect, call
 * the format's reader, check what came out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/chrome.h"
#include "profile/csv.h"
#include "profile/detect.h"
#include "profile/input.h"
#include "profile/nsys.h"
#include "profile/rocprof.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

static int has(const struct csv_row *h, const char *col)
{
	return csv_col(h, col) >= 0;
}

static enum prof_format header_format(const struct csv_row *h, const char **why)
{
	if (has(h, "Kernel_Name") && has(h, "Start_Timestamp") && has(h, "End_Timestamp"))
		return PROF_FMT_ROCPROFV3_TRACE;
	if (has(h, "KernelName") && has(h, "BeginNs") && has(h, "EndNs"))
		return PROF_FMT_ROCPROF_V1;
	if (has(h, "KernelName") && has(h, "gpu-id")) {
		*why = "a rocprof counter table without BeginNs/EndNs (run rocprof with --timestamp on)";
		return PROF_FMT_NONE;
	}
	if (has(h, "Name") && has(h, "Calls") && has(h, "TotalDurationNs"))
		return PROF_FMT_ROCPROFV3_STATS;
	if (csv_col_prefix(h, "Start (") >= 0 && csv_col_prefix(h, "Duration (") >= 0 && has(h, "Name"))
		return PROF_FMT_NSYS_TRACE;
	if (csv_col_prefix(h, "Total Time (") >= 0 && has(h, "Instances") && has(h, "Name"))
		return PROF_FMT_NSYS_SUM;
	return PROF_FMT_NONE;
}

enum prof_format prof_detect(const char *head, size_t n, const char **why)
{
	struct csv_row row = CSV_ROW_INIT;
	enum prof_format f = PROF_FMT_NONE;
	size_t i = 0, line;

	static const char dflt[] =
		"not a profile tko reads (a Chrome trace, rocprofv3/rocprof CSV, nsys CSV or SQLite)";

	*why = dflt;
	if (n >= 16 && !memcmp(head, "SQLite format 3", 16))
		return PROF_FMT_NSYS_SQLITE;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i < n && (head[i] == '{' || head[i] == '['))
		return PROF_FMT_KINETO;
	for (line = 0; f == PROF_FMT_NONE && i < n && line < CSV_HEADER_SEARCH; line++) {
		const char *nl = memchr(head + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (head + i)) : n - i;

		if (csv_split(&row, head + i, len) == 0)
			f = header_format(&row, why);
		if (!nl || *why != dflt)
			break;
		i += len + 1;
	}
	csv_row_release(&row);
	return f;
}

static int read_format(struct prof *p, struct prof_input *in, struct buf *err)
{
	switch (p->format) {
	case PROF_FMT_KINETO: return chrome_read(p, in, err);
	case PROF_FMT_ROCPROFV3_TRACE: return rocprof_read_trace(p, in, err);
	case PROF_FMT_ROCPROFV3_STATS: return rocprof_read_stats(p, in, err);
	case PROF_FMT_ROCPROF_V1: return rocprof_read_v1(p, in, err);
	case PROF_FMT_NSYS_TRACE: return nsys_read_trace(p, in, err);
	case PROF_FMT_NSYS_SUM: return nsys_read_sum(p, in, err);
	default: return -1;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Durations in the wrong unit (nanoseconds written where microseconds
 * belong): the median GPU activity would last a tenth of a second or
 * more, which no model's kernels do. A statistics table is exempt: its
 * rows are totals.
 */
static int check_units(const struct prof *p, struct buf *err)
{
	double *d, med;
	size_t i, n = 0;

	if (!p->nacts || isnan(p->acts[0].start))
		return 0;
	d = xmalloc(p->nacts * sizeof(*d));
	for (i = 0; i < p->nacts; i++)
		d[n++] = p->acts[i].dur;
	qsort(d, n, sizeof(*d), cmp_double);
	med = d[n / 2];
	free(d);
	if (med < 1e5)
		return 0;
	buf_addf(err, "'%s': the median GPU activity lasts %.3g s; the times are not in the unit"
		 " the format states (nanoseconds read as microseconds?)", p->path, med / 1e6);
	return -1;
}

/*
 * Detection reads at least the file's first 64 KiB (decompressed; one
 * read of the window, up to 1 MiB, in practice), which stay in the input
 * for the reader.
 */
#define HEAD_BYTES 65536

/*
 * The head of a text profile must be text: no NUL byte and nothing that
 * is not UTF-8 (a sequence cut by the end of the head is not judged).
 * Further on, a name that is not UTF-8 is kept with U+FFFD (model.c).
 */
static int head_is_text(const struct prof_input *in, struct buf *err)
{
	size_t n = input_avail(in), off;

	if (text_has_nul(in->buf, n, n, &off) < 0) {
		buf_addf(err, "'%s' is binary, not text (NUL byte at offset %zu)", in->path, off);
		return -1;
	}
	if (utf8_check(in->buf, n, &off) < 0 && (in->eof || off + 4 <= n)) {
		buf_addf(err, "'%s' is not UTF-8 text (invalid byte at offset %zu)", in->path, off);
		return -1;
	}
	return 0;
}

/* Opens the file and tells its format from the head; the input stays open, nothing consumed. */
static int open_detect(struct prof *p, struct prof_input *in, struct buf *err)
{
	const char *why;

	if (input_open(in, p->path, err) < 0)
		return -1;
	while (input_avail(in) < HEAD_BYTES && !in->eof)
		if (input_more(in, err) < 0)
			return -1;
	if (!input_avail(in)) {
		buf_addf(err, "'%s': an empty file", p->path);
		return -1;
	}
	p->format = prof_detect(in->buf, input_avail(in), &why);
	if (p->format == PROF_FMT_NSYS_SQLITE) {
		/* libsqlite3 opens the file itself: a plain regular file only */
		if (!in->gzip && !in->stream)
			return 0;
		buf_addf(err, "'%s': an SQLite file %s; give tko the .sqlite file itself", p->path,
			 in->gzip ? "compressed with gzip" : "through a pipe");
		return -1;
	}
	if (head_is_text(in, err) < 0)
		return -1;
	if (p->format == PROF_FMT_NONE) {
		buf_addf(err, "'%s': %s", p->path, why);
		return -1;
	}
	return 0;
}

int prof_read_path(struct prof *p, const char *path, struct buf *err)
{
	struct prof_input in;
	int ret;

	p->path = xstrdup(path);
	ret = open_detect(p, &in, err);
	if (!ret && p->format == PROF_FMT_NSYS_SQLITE)
		ret = nsys_read_sqlite(p, path, err);
	else if (!ret)
		ret = read_format(p, &in, err);
	if (!ret && in.eof == 2 && !p->partial) {
		p->partial = 1;
		prof_note(p, "the gzip stream ends early or is damaged after %llu bytes; the %zu GPU"
			  " %s before it %s kept", (unsigned long long)input_offset(&in), p->nacts,
			  plural_word((long long)p->nacts, "activity", "activities"),
			  plural_word((long long)p->nacts, "is", "are"));
	}
	input_close(&in);
	if (ret < 0)
		return -1;
	if (p->not_utf8)
		prof_note(p, "%ld name%s not UTF-8: each byte that is not is shown as U+FFFD",
			  p->not_utf8, plural_word(p->not_utf8, " was", "s were"));
	if (!p->nacts) {
		buf_addf(err, "'%s': a %s profile with no GPU kernels%s", path,
			 prof_format_names[p->format],
			 p->partial ? " before it ends early" :
			 p->format == PROF_FMT_KINETO ? " (was CUDA/ROCm activity recorded?)" : "");
		return -1;
	}
	return check_units(p, err);
}
