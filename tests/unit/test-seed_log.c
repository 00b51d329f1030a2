/*
 * Unit tests for parse/seed_log: the seed skill's autotune.log. The text
 * is written by hand from the grammar in docs/seed-scripts.md section 2.1
 * (no real sample exists in the corpus).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"

#define TS "2026-12-02 15:29:22 "

static const char seed_log[] =
	TS "[capture] enabled dir=/work/autotune_kernels\n"
	TS "\n"
	TS "================================================================\n"
	TS "[AUTOTUNE] kernel=triton_poi_fused_add_0  configs=2\n"
	TS "  in_ptr0             : shape=[4096, 8192]  dtype=torch.bfloat16  stride=[8192, 1]\n"
	TS "  xnumel              : 33554432\n"
	TS "  [TIMING] kernel=triton_poi_fused_add_0  autotune elapsed: 0.123s (123.4ms)\n"
	TS "\n"
	TS "Config                                                         Time(ms)\n"
	TS "----------------------------------------------------------------------\n"
	TS "XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None     0.0626  BEST\n"
	TS "XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None      0.0675\n"
	TS "\n"
	TS "Total tensor bytes      : 201.33 MB\n"
	TS "Best config time        : 0.0626 ms\n"
	TS "Effective bandwidth     : 3216.14 GB/s\n"
	TS "HW peak bandwidth       : nan GB/s\n"
	TS "Bandwidth utilization   : nan%\n"
	TS "  Kernel source saved    : /work/autotune_kernels/triton_poi_fused_add_0.py\n"
	TS "================================================================\n"
	TS "\n"
	TS "================================================================\n"
	TS "[SINGLE-CONFIG] kernel=triton_red_fused_sum_1  configs=1\n"
	TS "  in_ptr0             : shape=[64]  dtype=torch.float32  stride=[1]\n"
	TS "Total tensor bytes      : 0.00 MB\n"
	TS "  [NOTE] single config path; no autotune timing was collected\n"
	TS "================================================================\n";

static void test_blocks(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, seed_log);
	assert_int_equal(set.nr, 2);
	k = kernel_by_id(&set, "triton_poi_fused_add_0");
	assert_int_equal(k->num_configs, 2);
	assert_string_equal(k->source_file, "/work/autotune_kernels/triton_poi_fused_add_0.py");
	t = only_tuning(k);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->best, 0);
	assert_int_equal(t->best_src.line, 11);
	assert_true(fabs(t->configs[1].time_ms - 0.0675) < 1e-12);
	assert_int_equal(t->configs[1].num_warps, 8);
	assert_true(fabs(t->elapsed_ms - 123.4) < 1e-9);
	assert_int_equal(t->complete, 1);
	k = kernel_by_id(&set, "triton_red_fused_sum_1");
	assert_int_equal(k->num_configs, 1);
	assert_int_equal(k->ntunings, 0);
	assert_int_equal(set.inputs[in].used, 25);
	assert_int_equal(set.inputs[in].ignored, 2);	/* the blank lines between blocks */
	assert_int_equal(set.inputs[in].malformed, 0);
	assert_int_equal(set.inputs[in].format, AT_FMT_SEED_LOG);
	autotune_set_release(&set);
}

static void test_runner_output_and_bad_rows(void **state)
{
	static const char log[] =
		"[AUTOTUNE] kernel=k  configs=2\n"
		"Config                                                         Time(ms)\n"
		"----------------------------------------------------------------------\n"
		"XBLOCK: 64, num_warps: 2                                         fast\n"
		"XBLOCK: 128, num_warps: 4                                      0.5000  BEST\n"
		"[AUTOTUNE] kernel=  configs=x\n";
	struct autotune_set set;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	t = only_tuning(kernel_by_id(&set, "k"));
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->best, 0);
	assert_int_equal(t->complete, 0);
	assert_int_equal(set.inputs[in].malformed, 2);
	assert_int_equal(set.inputs[in].bad_lines[0], 4);
	assert_int_equal(set.inputs[in].bad_lines[1], 6);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_runner_output_and_bad_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
