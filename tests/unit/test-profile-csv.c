/*
 * Unit tests for profile/csv.c and the table readers built on it
 * (rocprof.c, nsys.c): splitting quoted fields, columns found by name
 * whatever their order or case, numbers, and whole tables read from files
 * with extra, reordered and renamed columns. Expected values are the
 * tables' own cells converted by hand (ns / 1000 = us) in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profile/csv.h"
#include "profile/input.h"
#include "profile/nsys.h"
#include "profile/rocprof.h"
#include "util/mem.h"

static void split(struct csv_row *r, const char *line)
{
	assert_int_equal(csv_split(r, line, strlen(line)), 0);
}

static void test_split_quotes(void **state)
{
	struct csv_row r = CSV_ROW_INIT;

	(void)state;
	/* quoted fields keep their commas; "" is one quote; blanks around a field go */
	split(&r, "\"a,b\", plain ,\"say \"\"hi\"\"\",,\"\"");
	assert_int_equal(r.n, 5);
	assert_string_equal(csv_field(&r, 0), "a,b");
	assert_string_equal(csv_field(&r, 1), "plain");
	assert_string_equal(csv_field(&r, 2), "say \"hi\"");
	assert_string_equal(csv_field(&r, 3), "");
	assert_string_equal(csv_field(&r, 4), "");
	assert_string_equal(csv_field(&r, 5), "");	/* past the end: empty */
	assert_string_equal(csv_field(&r, -1), "");
	/* a trailing comma makes an empty last field */
	split(&r, "x,");
	assert_int_equal(r.n, 2);
	/* a quote never closed */
	assert_int_equal(csv_split(&r, "\"open,x", 7), -1);
	csv_row_release(&r);
}

static void test_columns_by_name(void **state)
{
	struct csv_row h = CSV_ROW_INIT;

	(void)state;
	split(&h, "\"Guid\",\"Kind\",\"agent_id\",\"Kernel_Name\",\"Start (ns)\",\"Duration (us)\"");
	assert_int_equal(csv_col(&h, "Kernel_Name"), 3);
	assert_int_equal(csv_col(&h, "KERNEL_NAME"), 3);	/* ASCII case ignored */
	assert_int_equal(csv_col(&h, "Agent_Id"), 2);
	assert_int_equal(csv_col(&h, "Kernel"), -1);		/* whole names only */
	assert_int_equal(csv_col_prefix(&h, "Start ("), 4);
	assert_int_equal(csv_col_prefix(&h, "duration ("), 5);
	assert_int_equal(csv_col_prefix(&h, "End ("), -1);
	csv_row_release(&h);
}

static void test_numbers(void **state)
{
	struct csv_row r = CSV_ROW_INIT;
	double v;
	long n;

	(void)state;
	split(&r, "12.5,,abc,1x,nan,inf,-3e2,Agent 2,NVIDIA H200 (0),7");
	assert_int_equal(csv_num(&r, 0, &v), 0);
	assert_true(v == 12.5);
	assert_int_equal(csv_num(&r, 1, &v), -1);	/* empty */
	assert_int_equal(csv_num(&r, 2, &v), -1);
	assert_int_equal(csv_num(&r, 3, &v), -1);	/* trailing text */
	assert_int_equal(csv_num(&r, 4, &v), -1);	/* not a time or a count */
	assert_int_equal(csv_num(&r, 5, &v), -1);
	assert_int_equal(csv_num(&r, 6, &v), 0);
	assert_true(v == -300);
	assert_int_equal(csv_num(&r, 42, &v), -1);	/* no such field */
	assert_int_equal(csv_trailing_int(&r, 7, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(csv_trailing_int(&r, 8, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(csv_trailing_int(&r, 9, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(csv_trailing_int(&r, 2, &n), -1);
	csv_row_release(&r);
}

static char *write_tmp(const char *text)
{
	char *path = xstrdup("/tmp/tko-unit-csv-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

struct rows {
	int name, value;
	long n;
	double sum;
};

static int count_row(void *ctx, const struct csv_row *hdr, const struct csv_row *r)
{
	struct rows *t = ctx;
	double v;

	t->name = csv_col(hdr, "Name");
	t->value = csv_col(hdr, "Value");
	if (csv_num(r, t->value, &v) < 0)
		return -1;
	t->n++;
	t->sum += v;
	return 0;
}

static void test_read_table(void **state)
{
	static const char *const req[] = { "Name", "Value", NULL };
	/* a preamble, a line naming only one of the two, then the header; an empty line; a bad row */
	char *path = write_tmp("Processing [x.sqlite]...\nName,other\n\"x\",Value,Name\n"
			       "1,2,a\n\n3,oops,b\n5,4.5,c\r\n");
	struct prof_input in;
	struct buf err = BUF_INIT;
	struct rows t = { 0, 0, 0, 0 };
	long skipped = 0;

	(void)state;
	assert_int_equal(input_open(&in, path, &err), 0);
	/* rows 1,2,a and 5,4.5,c (its \r dropped) read; 3,oops,b skipped */
	assert_int_equal(csv_read_table(&in, req, count_row, &t, &skipped, &err), 2);
	assert_int_equal(skipped, 1);
	assert_int_equal(t.name, 2);
	assert_int_equal(t.value, 1);
	assert_true(t.sum == 6.5);
	input_close(&in);
	unlink(path);
	free(path);

	path = write_tmp("a,b\n1,2\n");
	assert_int_equal(input_open(&in, path, &err), 0);
	assert_int_equal(csv_read_table(&in, req, count_row, &t, &skipped, &err), -1);
	assert_non_null(strstr(err.buf, "no header naming Name"));
	input_close(&in);
	unlink(path);
	free(path);
	buf_release(&err);
}

/* Reads path with one table reader; returns its result, the profile in *p. */
static int read_with(int (*fn)(struct prof *, struct prof_input *, struct buf *), const char *text,
		     struct prof *p, struct buf *err)
{
	char *path = write_tmp(text);
	struct prof_input in;
	int r;

	prof_init(p);
	p->path = xstrdup(path);
	assert_int_equal(input_open(&in, path, err), 0);
	r = fn(p, &in, err);
	input_close(&in);
	unlink(path);
	free(path);
	return r;
}

static void test_rocprofv3_trace_columns(void **state)
{
	/*
	 * rocpd2csv's Guid first, rocprofv2's Correlation_ID spelling, Stream_Id
	 * present (it wins over Queue_Id), columns in an order of their own.
	 * Row 1: start 1000000 ns = 1000 us, end 1004000 ns: 4 us; agent 2,
	 * stream 3, correlation 15, grid 262144x1x1, workgroup 256x1x1, ".kd" cut.
	 * Row 2: end before start: skipped. Row 3: an empty Stream_Id cell, so
	 * its stream is unknown (-1): the Stream_Id column, when there is one,
	 * is the stream.
	 */
	const char *text =
		"\"Grid_Size_X\",\"Guid\",\"End_Timestamp\",\"Kernel_Name\",\"Agent_Id\",\"Queue_Id\","
		"\"Stream_Id\",\"Correlation_ID\",\"Start_Timestamp\",\"Workgroup_Size_X\","
		"\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n"
		"262144,\"0f\",1004000,\"triton_poi_fused_add_0.kd\",\"Agent 2\",1,3,15,1000000,256,1,1,1,1\n"
		"1,\"0f\",10,\"backwards\",\"Agent 2\",1,3,16,20,1,1,1,1,1\n"
		"64,\"0f\",2002500,\"Cijk_Ailk [clone .kd]\",\"Agent 4\",5,,17,2000000,128,2,1,1,1\n";
	struct buf err = BUF_INIT;
	struct prof p;
	const struct prof_act *a;

	(void)state;
	assert_int_equal(read_with(rocprof_read_trace, text, &p, &err), 0);
	assert_int_equal(p.nacts, 2);
	assert_int_equal(p.skipped, 1);
	a = &p.acts[0];
	assert_string_equal(prof_str(&p, a->name), "triton_poi_fused_add_0");
	assert_true(a->start == 1000 && a->dur == 4);
	assert_int_equal(a->device, 2);
	assert_int_equal(a->stream, 3);
	assert_int_equal(a->correlation, 15);
	assert_int_equal(a->grid[0], 262144);
	assert_int_equal(a->block[0], 256);
	a = &p.acts[1];
	assert_string_equal(prof_str(&p, a->name), "Cijk_Ailk");
	assert_true(a->start == 2000 && a->dur == 2.5);	/* 2002500 - 2000000 ns */
	assert_int_equal(a->device, 4);
	assert_int_equal(a->stream, -1);
	assert_int_equal(a->block[1], 2);
	prof_release(&p);
	/* without a Stream_Id column the queue is the stream: queue 5, agent 3, 0 to 1000 ns = 1 us */
	assert_int_equal(read_with(rocprof_read_trace, "Kernel_Name,Start_Timestamp,End_Timestamp,"
				   "Queue_Id,Agent_Id\nk,0,1000,5,3\n", &p, &err), 0);
	assert_int_equal(p.acts[0].stream, 5);
	assert_int_equal(p.acts[0].device, 3);
	assert_true(p.acts[0].start == 0 && p.acts[0].dur == 1);
	assert_int_equal(p.acts[0].correlation, -1);
	prof_release(&p);
	buf_release(&err);
}

static void test_rocprof_stats_and_v1(void **state)
{
	struct buf err = BUF_INIT;
	struct prof p;

	(void)state;
	/* stats: 400 calls, 1200000 ns = 1200 us; a row with 0 calls is no row */
	assert_int_equal(read_with(rocprof_read_stats,
				   "\"Percentage\",\"TotalDurationNs\",\"Name\",\"Calls\"\n"
				   "60.0,1200000,\"triton_red_fused__softmax_0\",400\n"
				   "1.0,5,\"never\",0\n", &p, &err), 0);
	assert_int_equal(p.nacts, 1);
	assert_true(isnan(p.acts[0].start) && p.acts[0].dur == 1200);
	assert_int_equal(p.acts[0].calls, 400);
	assert_int_equal(p.skipped, 1);
	prof_release(&p);
	/* v1: BeginNs 1000, EndNs 3000: 1 us start, 2 us; gpu-id 1, queue-id 0, grd, wgr */
	assert_int_equal(read_with(rocprof_read_v1,
				   "Index,KernelName,gpu-id,queue-id,grd,wgr,BeginNs,EndNs\n"
				   "0,\"k.kd\",1,0,262144,256,1000,3000\n", &p, &err), 0);
	assert_int_equal(p.nacts, 1);
	assert_string_equal(prof_str(&p, p.acts[0].name), "k");
	assert_true(p.acts[0].start == 1 && p.acts[0].dur == 2);
	assert_int_equal(p.acts[0].device, 1);
	assert_int_equal(p.acts[0].stream, 0);
	assert_int_equal(p.acts[0].grid[0], 262144);
	assert_int_equal(p.acts[0].block[0], 256);
	prof_release(&p);
	buf_release(&err);
}

static void test_nsys_trace_units(void **state)
{
	struct buf err = BUF_INIT;
	struct prof p;

	(void)state;
	/*
	 * --timeunit ms for starts, us for durations: 1.5 ms = 1500 us, 2.25 us;
	 * the device's name without its "(0)"; a copy told from its name.
	 */
	assert_int_equal(read_with(nsys_read_trace,
				   "Start (ms),Duration (us),CorrId,Device,Strm,Name,GrdX\n"
				   "1.5,2.25,9,NVIDIA H200 (0),7,[CUDA memcpy Host-to-Device],\n"
				   "1.6,10,10,NVIDIA H200 (1),13,gemm_kernel,132\n", &p, &err), 0);
	assert_int_equal(p.nacts, 2);
	assert_true(p.acts[0].start == 1500 && p.acts[0].dur == 2.25);
	assert_int_equal(p.acts[0].kind, PROF_ACT_MEMCPY);
	assert_int_equal(p.acts[1].device, 1);
	assert_int_equal(p.acts[1].stream, 13);
	assert_int_equal(p.acts[1].correlation, 10);
	assert_int_equal(p.acts[1].grid[0], 132);
	assert_string_equal(p.device, "NVIDIA H200");
	prof_release(&p);
	/* a unit tko does not know is an error of its own, not an empty profile */
	assert_int_equal(read_with(nsys_read_trace, "Start (fortnights),Duration (ns),CorrId,Strm,Name\n"
				   "1,2,3,4,k\n", &p, &err), -1);
	assert_non_null(strstr(err.buf, "time unit"));
	prof_release(&p);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_quotes),
		cmocka_unit_test(test_columns_by_name),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_read_table),
		cmocka_unit_test(test_rocprofv3_trace_columns),
		cmocka_unit_test(test_rocprof_stats_and_v1),
		cmocka_unit_test(test_nsys_trace_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
