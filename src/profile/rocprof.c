/* rocprofv3 and rocprof v1 / DTK tables (rocprof.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

static void dims(const struct csv_row *hdr, const struct csv_row *r, const char *prefix,
		 int32_t out[3])
{
	static const char xyz[] = "XYZ";
	char name[64];
	int i;

	for (i = 0; i < 3; i++) {
		double v;
		int col;

		snprintf(name, sizeof(name), "%s_%c", prefix, xyz[i]);
		col = csv_col(hdr, name);
		out[i] = col >= 0 && csv_num(r, col, &v) == 0 ? (int32_t)prof_int(v, 0, INT32_MAX, 0) : 0;
	}
}

static int trace_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct prof *p = ctx;
	struct prof_act *a;
	double start, end, corr;
	int cs = csv_col(hdr, "Start_Timestamp"), ce = csv_col(hdr, "End_Timestamp");
	int cc = csv_col(hdr, "Correlation_Id"), cstream = csv_col(hdr, "Stream_Id");

	if (csv_num(r, cs, &start) < 0 || csv_num(r, ce, &end) < 0 ||
	    !prof_times_ok(start / 1e3, (end - start) / 1e3))
		return -1;
	a = prof_add_act(p);
	a->name = kernel_name(p, csv_field(r, csv_col(hdr, "Kernel_Name")));
	a->start = start / 1e3;
	a->dur = (end - start) / 1e3;
	a->device = int_col(r, csv_col(hdr, "Agent_Id"));
	a->stream = int_col(r, cstream >= 0 ? cstream : csv_col(hdr, "Queue_Id"));
	if (cc >= 0 && csv_num(r, cc, &corr) == 0)
		a->correlation = prof_int(corr, 0, INT64_MAX, -1);
	dims(hdr, r, "Grid_Size", a->grid);
	dims(hdr, r, "Workgroup_Size", a->block);
	return 0;
}

static int stats_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct prof *p = ctx;
	struct prof_act *a;
	double calls, total;

	if (csv_num(r, csv_col(hdr, "Calls"), &calls) < 0 ||
	    csv_num(r, csv_col(hdr, "TotalDurationNs"), &total) < 0 ||
	    !prof_times_ok(NAN, total / 1e3) || prof_int(calls, 1, UINT32_MAX, 0) == 0)
		return -1;
	a = prof_add_act(p);
	a->name = kernel_name(p, csv_field(r, csv_col(hdr, "Name")));
	a->dur = total / 1e3;
	a->calls = (uint32_t)prof_int(calls, 1, UINT32_MAX, 0);
	return 0;
}

static int v1_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct prof *p = ctx;
	struct prof_act *a;
	double begin, end, grd, wgr;

	if (csv_num(r, csv_col(hdr, "BeginNs"), &begin) < 0 ||
	    csv_num(r, csv_col(hdr, "EndNs"), &end) < 0 ||
	    !prof_times_ok(begin / 1e3, (end - begin) / 1e3))
		return -1;
	a = prof_add_act(p);
	a->name = kernel_name(p, csv_field(r, csv_col(hdr, "KernelName")));
	a->start = begin / 1e3;
	a->dur = (end - begin) / 1e3;
	a->device = int_col(r, csv_col(hdr, "gpu-id"));
	a->stream = int_col(r, csv_col(hdr, "queue-id"));
	if (csv_num(r, csv_col(hdr, "grd"), &grd) == 0)
		a->grid[0] = (int32_t)prof_int(grd, 0, INT32_MAX, 0);
	if (csv_num(r, csv_col(hdr, "wgr"), &wgr) == 0)
		a->block[0] = (int32_t)prof_int(wgr, 0, INT32_MAX, 0);
	return 0;
}

static int read_table(struct prof *p, struct prof_input *in, const char *const *req,
		      int (*fn)(void *, const struct csv_row *, const struct csv_row *),
		      struct buf *err)
{
	return csv_read_table(in, req, fn, p, &p->skipped, err) < 0 ? -1 : 0;
}

int rocprof_read_trace(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "Kernel_Name", "Start_Timestamp", "End_Timestamp", NULL };

	return read_table(p, in, req, trace_row, err);
}

int rocprof_read_stats(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "Name", "Calls", "TotalDurationNs", NULL };

	return read_table(p, in, req, stats_row, err);
}

int rocprof_read_v1(struct prof *p, struct prof_input *in, struct buf *err)
{
	static const char *const req[] = { "KernelName", "BeginNs", "EndNs", NULL };

	return read_table(p, in, req, v1_row, err);
}
