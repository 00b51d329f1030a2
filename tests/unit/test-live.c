/*
 * Unit tests for the GPU-free logic of replay and collect: the footprint of
 * captured arguments (run/replay.c), output path checks (util/outdir.c)
 * and kernel names (rundir/index.c). Expected byte counts are worked out
 * by hand in comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rundir/index.h"
#include "util/outdir.h"
#include "run/replay.h"
#include "model/traffic.h"

static long long footprint_of(const char *json)
{
	json_error_t e;
	json_t *args = json_loads(json, 0, &e);
	long long n;

	assert_non_null(args);
	n = traffic_footprint(args);
	json_decref(args);
	return n;
}

static void test_footprint_counts_each_storage_once(void **state)
{
	(void)state;
	/* 1024 fp32 in + 1024 fp32 out on two storages: 8192 bytes; the scalar adds nothing. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":1},"
		"{\"kind\":\"scalar\",\"value\":1024}]"), 8192);
	/* An in-place argument passed twice (same storage, same view): 4096 bytes. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0}]"), 4096);
}

static void test_footprint_of_views(void **state)
{
	(void)state;
	/*
	 * Two halves of one fp16 buffer, overlapping by 10 elements: elements
	 * [0, 60) and [50, 110) -> [0, 110) = 220 bytes.
	 */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[60],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":2,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[60],\"stride\":[1],\"storage_offset\":50,"
		"\"element_size\":2,\"storage\":0}]"), 220);
	/* A transposed 4x3 view, strides (1, 4): last element 3*1 + 2*4 = 11 -> 12 elements * 4 B. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[4,3],\"stride\":[1,4],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0}]"), 48);
	/* A broadcast (stride 0) row of 8 x 1024: one row, 4096 bytes; an empty tensor: 0. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[8,1024],\"stride\":[0,1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[0,5],\"stride\":[5,1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":1}]"), 4096);
	assert_int_equal(footprint_of("[{\"kind\":\"tensor\",\"shape\":[2]}]"), -1);
	assert_int_equal(footprint_of("[]"), 0);
}

static void test_output_paths_stay_inside(void **state)
{
	(void)state;
	assert_true(outdir_rel_ok("triton/ABC/k.ptx"));
	assert_true(outdir_rel_ok("capture/inputs/storage0.bin"));
	assert_false(outdir_rel_ok("../x"));
	assert_false(outdir_rel_ok("a/../../x"));
	assert_false(outdir_rel_ok("/etc/passwd"));
	assert_false(outdir_rel_ok("a//b"));
	assert_false(outdir_rel_ok("a/./b"));
	assert_false(outdir_rel_ok(""));
	assert_false(outdir_rel_ok("a/b\n"));
}

static void test_kernel_names(void **state)
{
	(void)state;
	assert_true(rd_kernel_spec_ok("triton_poi_fused_add_0"));
	assert_true(rd_kernel_spec_ok("triton_mm-1eaacdc2"));
	assert_false(rd_kernel_spec_ok("triton_mm-1EAACDC2"));
	assert_false(rd_kernel_spec_ok("triton_mm-1eaacd"));
	assert_false(rd_kernel_spec_ok("../etc/passwd"));
	assert_false(rd_kernel_spec_ok("/abs"));
	assert_false(rd_kernel_spec_ok("a b"));
	assert_false(rd_kernel_spec_ok("9lives"));
	assert_false(rd_kernel_spec_ok(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_footprint_counts_each_storage_once),
		cmocka_unit_test(test_footprint_of_views),
		cmocka_unit_test(test_output_paths_stay_inside),
		cmocka_unit_test(test_kernel_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
