/* rocprofv3 and rocprof v1 / DTK tables (rocprof.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "profile/csv.h"
#include "profile/rocprof.h"
#include "banned.h"

/* A kernel name without rocprof v1's code-object suffix (".kd", " [clone .kd]"). */
static uint32_t kernel_name(struct prof *p, const char *s)
{
	size_t n = strlen(s);

	if (n > 12 && !strcmp(s + n - 12, " [clone .kd]"))
		n -= 12;
	else if (n > 3 && !strcmp(s + n - 3, ".kd"))
		n -= 3;
	return prof_intern(p, s, n);
}

static int32_t int_col(const struct csv_row *r, int col)
{
	long v;

	return col >= 0 && csv_trailing_int(r, col, &v) == 0 && v <= INT32_MAX ? (int32_t)v : -1;
}

/* The columns a table may have; each format names those it has (NULL: none). */
enum { C_NAME, C_START, C_END, C_AGENT, C_QUEUE, C_STREAM, C_CORR, C_GRID, C_BLOCK = C_GRID + 3,
       C_CALLS = C_BLOCK + 3, C_TOTAL, C_MAX };

static const char *const trace_cols[C_MAX] = {
	[C_NAME] = "Kernel_Name", [C_START] = "Start_Timestamp", [C_END] = "End_Timestamp",
	[C_AGENT] = "Agent_Id", [C_QUEUE] = "Queue_Id", [C_STREAM] = "Stream_Id",
	[C_CORR] = "Correlation_Id",	/* rocprofv2's Correlation_ID too: case is ignored */
	[C_GRID] = "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z",
	[C_BLOCK] = "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z",
};
static const char *const v1_cols[C_MAX] = {
	[C_NAME] = "KernelName", [C_START] = "BeginNs", [C_END] = "EndNs", [C_AGENT] = "gpu-id",
	[C_QUEUE] = "queue-id", [C_GRID] = "grd", [C_BLOCK] = "wgr",
};
static const char *const stats_cols[C_MAX] = {
	[C_NAME] = "Name", [C_CALLS] = "Calls", [C_TOTAL] = "TotalDurationNs",
};

/*
 * A table being read: its columns are looked up by name once, at its
 * first row, not on every row (csv_read_table passes the same header to
 * every row of one table; a table is one ctx).
 */
struct table {
	struct prof *p;
	const char *const *names;
	const struct csv_row *hdr;
	int col[C_MAX];
};

static const int *columns(struct table *t, const struct csv_row *hdr)
{
	size_t i;

	if (t->hdr != hdr) {
		for (i = 0; i < C_MAX; i++)
			t->col[i] = t->names[i] ? csv_col(hdr, t->names[i]) : -1;
		t->hdr = hdr;
	}
	return t->col;
}

/* Sizes of a dispatch; 0 where unknown. */
static void dims(const struct csv_row *r, const int *col, int32_t out[3])
{
	int i;

	for (i = 0; i < 3; i++) {
		double v;

		out[i] = csv_num(r, col[i], &v) == 0 ? (int32_t)prof_int(v, 0, INT32_MAX, 0) : 0;
	}
}

/* A row of a kernel trace (rocprofv3) or of a results table (rocprof v1): ns timestamps. */
static int dispatch_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct table *t = ctx;
	const int *c = columns(t, hdr);
	struct prof_act *a;
	double start, end, corr;

	if (csv_num(r, c[C_START], &start) < 0 || csv_num(r, c[C_END], &end) < 0 ||
	    !prof_times_ok(start / 1e3, (end - start) / 1e3))
		return -1;
	a = prof_add_act(t->p);
	a->name = kernel_name(t->p, csv_field(r, c[C_NAME]));
	a->start = start / 1e3;
	a->dur = (end - start) / 1e3;
	a->device = int_col(r, c[C_AGENT]);
	a->stream = int_col(r, c[C_STREAM] >= 0 ? c[C_STREAM] : c[C_QUEUE]);
	if (csv_num(r, c[C_CORR], &corr) == 0)
		a->correlation = prof_int(corr, 0, INT64_MAX, -1);
	dims(r, c + C_GRID, a->grid);
	dims(r, c + C_BLOCK, a->block);
	return 0;
}

static int stats_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct table *t = ctx;
	const int *c = columns(t, hdr);
	struct prof_act *a;
	double calls, total;

	if (csv_num(r, c[C_CALLS], &calls) < 0 || csv_num(r, c[C_TOTAL], &total) < 0 ||
	    !prof_times_ok(NAN, total / 1e3) || prof_int(calls, 1, UINT32_MAX, 0) == 0)
		return -1;
	a = prof_add_act(t->p);
	a->name = kernel_name(t->p, csv_field(r, c[C_NAME]));
	a->dur = total / 1e3;
	a->calls = (uint32_t)prof_int(calls, 1, UINT32_MAX, 0);
	return 0;
}

static int read_table(struct prof *p, struct prof_input *in, const char *const *names,
		      const char *const *req,
		      int (*fn)(void *, const struct csv_row *, const struct csv_row *),
		      struct buf *err)
{
	struct table t;

	memset(&t, 0, sizeof(t));
	t.p = p;
	t.names = names;
	return csv_read_table(in, req, fn, &t, &p->skipped, err) < 0 ? -1 : 0;
}

int rocprof_read_trace(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "Kernel_Name", "Start_Timestamp", "End_Timestamp", NULL };

	return read_table(p, in, trace_cols, req, dispatch_row, err);
}

int rocprof_read_stats(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "Name", "Calls", "TotalDurationNs", NULL };

	return read_table(p, in, stats_cols, req, stats_row, err);
}

int rocprof_read_v1(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "KernelName", "BeginNs", "EndNs", NULL };

	return read_table(p, in, v1_cols, req, dispatch_row, err);
}
