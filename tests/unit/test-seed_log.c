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
#include "parse/autotune_launch.h"

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

/*
 * A v2+ block as autotune_capture_patch.py at 321d7b2 writes it: the
 * saved paths after the arguments, two-space indented tables and the
 * footprint keys. Expected values are the text's own numbers, read by eye.
 */
static const char v3_log[] =
	TS "\n"
	TS "================================================================\n"
	TS "[AUTOTUNE] kernel=k  configs=2\n"
	TS "  in_ptr0             : shape=[100000, 256]  dtype=torch.float32  stride=[256, 1]\n"
	TS "  out_ptr0            : shape=[5000, 256]  dtype=torch.float32  stride=[256, 1]\n"
	TS "  xnumel              : 256\n"
	TS "  Kernel source saved    : /c/k_470ead050c_b3f29a10/k.py\n"
	TS "  Inputs saved           : /c/k_470ead050c_b3f29a10/k_inputs.pt\n"
	TS "  Run standalone         : python /c/k_470ead050c_b3f29a10/k.py\n"
	TS "  [TIMING] kernel=k  autotune elapsed: 0.225s (224.9ms)\n"
	TS "\n"
	TS "  Config                                                         Time(ms)\n"
	TS "  ----------------------------------------------------------------------\n"
	TS "  XBLOCK: 32, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None     0.1302  BEST\n"
	TS "  XBLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None     0.1319\n"
	TS "\n"
	TS "  Total tensor bytes      : 113.44 MB\n"
	TS "  Best config time        : 0.1302 ms\n"
	TS "  Footprint rate estimate     : 871.44 GB/s\n"
	TS "  HW peak bandwidth       : nan GB/s\n"
	TS "  Footprint/peak ratio (not HBM utilization)   : nan%\n"
	TS "================================================================\n";

static void test_v3_arguments_and_estimates(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_launch *l;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, v3_log);
	assert_int_equal(set.nr, 1);
	k = kernel_by_id(&set, "k");
	l = k->launch;
	assert_non_null(l);
	assert_int_equal(l->nargs, 3);
	assert_string_equal(l->args[0].name, "in_ptr0");
	assert_string_equal(l->args[0].shape, "[100000, 256]");
	assert_string_equal(l->args[0].dtype, "torch.float32");
	assert_string_equal(l->args[0].stride, "[256, 1]");
	assert_null(l->args[0].value);
	assert_string_equal(l->args[2].name, "xnumel");
	assert_null(l->args[2].shape);
	assert_string_equal(l->args[2].value, "256");
	assert_true(fabs(l->total_bytes - 113440000.0) < 1e-3);
	assert_true(fabs(l->best_ms - 0.1302) < 1e-12);
	assert_true(fabs(l->rate_gbps - 871.44) < 1e-9);
	assert_true(isnan(l->peak_gbps));
	assert_true(isnan(l->peak_pct));
	assert_int_equal(l->src.line, 3);
	assert_int_equal(l->metrics_src.line, 17);
	assert_string_equal(l->inputs_saved, "/c/k_470ead050c_b3f29a10/k_inputs.pt");
	assert_string_equal(l->run_standalone, "python /c/k_470ead050c_b3f29a10/k.py");
	assert_string_equal(k->source_file, "/c/k_470ead050c_b3f29a10/k.py");
	assert_int_equal(only_tuning(k)->nr, 2);
	assert_int_equal(only_tuning(k)->best, 0);
	assert_int_equal(set.inputs[in].used, 21);
	assert_int_equal(set.inputs[in].ignored, 1);	/* the blank line before the block */
	assert_int_equal(set.inputs[in].malformed, 0);
	autotune_set_release(&set);
}

/* v1 prints "Effective bandwidth" / "Bandwidth utilization" and the paths last. */
static void test_v1_keys(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, seed_log);
	k = kernel_by_id(&set, "triton_poi_fused_add_0");
	assert_non_null(k->launch);
	assert_true(fabs(k->launch->rate_gbps - 3216.14) < 1e-9);
	assert_true(isnan(k->launch->peak_pct));
	assert_true(fabs(k->launch->total_bytes - 201330000.0) < 1e-3);
	k = kernel_by_id(&set, "triton_red_fused_sum_1");
	assert_int_equal(k->launch->nargs, 1);
	assert_true(fabs(k->launch->total_bytes) < 1e-12);
	autotune_set_release(&set);
}

#define HDR(kind, n) TS "================================================================\n" \
	TS "[" kind "] kernel=triton_  configs=" n "\n"
#define END TS "================================================================\n"

/*
 * A name logged again: other arguments or another config count make the
 * next instance; the same arguments again (a second run appended to the
 * log) are the same kernel.
 */
static void test_instances_by_arguments(void **state)
{
	static const char log[] =
		HDR("AUTOTUNE", "2")
		TS "  in_ptr0             : shape=[4096, 1024]  dtype=torch.float16  stride=[1024, 1]\n"
		TS "  Config                                                         Time(ms)\n"
		TS "  XBLOCK: 1024, num_warps: 4     0.0093  BEST\n"
		TS "  XBLOCK: 512, num_warps: 8     0.0101\n"
		END
		HDR("SINGLE-CONFIG", "1")
		TS "  in_ptr0             : shape=[64]  dtype=torch.float32  stride=[1]\n"
		TS "  Total tensor bytes      : 0.00 MB\n"
		END
		HDR("AUTOTUNE", "2")
		TS "  in_ptr0             : shape=[4096, 1024]  dtype=torch.float16  stride=[1024, 1]\n"
		TS "  Config                                                         Time(ms)\n"
		TS "  XBLOCK: 1024, num_warps: 4     0.0094  BEST\n"
		TS "  XBLOCK: 512, num_warps: 8     0.0100\n"
		END
		HDR("SINGLE-CONFIG", "1")
		TS "  in_ptr0             : shape=[64]  dtype=torch.float32  stride=[2]\n"
		END;
	struct autotune_set set;
	const struct at_kernel *k;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, log);
	/* 1: the autotuned one (twice); 2: [64] stride 1; 3: [64] stride 2 */
	assert_int_equal(set.nr, 3);
	k = kernel_by_id(&set, "triton_#1");
	assert_int_equal(k->ntunings, 2);
	assert_int_equal(k->num_configs, 2);
	k = kernel_by_id(&set, "triton_#2");
	assert_int_equal(k->num_configs, 1);
	assert_string_equal(k->launch->args[0].stride, "[1]");
	k = kernel_by_id(&set, "triton_#3");
	assert_string_equal(k->launch->args[0].stride, "[2]");
	autotune_set_release(&set);
}

/*
 * v2+ with TRITON_CAPTURE_SINGLE_CONFIG saves before the run: the saved
 * paths and warnings come before the SINGLE-CONFIG header; paths of
 * another kernel are not given to it.
 */
static void test_lines_before_their_block(void **state)
{
	static const char log[] =
		TS "  Kernel source saved    : /c/triton__e61b09f3c4_2a9d5f60/triton_.py\n"
		TS "  Inputs saved           : /c/triton__e61b09f3c4_2a9d5f60/triton__inputs.pt\n"
		TS "  Run standalone         : python /c/triton__e61b09f3c4_2a9d5f60/triton_.py\n"
		TS "\n"
		HDR("SINGLE-CONFIG", "1")
		TS "  in_ptr0             : shape=[64]  dtype=torch.float32  stride=[1]\n"
		TS "  Total tensor bytes      : 0.00 MB\n"
		TS "  [NOTE] single config path; no autotune timing was collected\n"
		END
		TS "  [WARN] kernel source file not found: None\n"
		TS "  Kernel source saved    : /c/other_1_aa_bb/other_1.py\n"
		HDR("SINGLE-CONFIG", "1")
		TS "  in_ptr0             : shape=[32]  dtype=torch.float32  stride=[1]\n"
		END;
	struct autotune_set set;
	const struct at_kernel *k;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	k = kernel_by_id(&set, "triton_#1");
	assert_string_equal(k->source_file, "/c/triton__e61b09f3c4_2a9d5f60/triton_.py");
	assert_int_equal(k->source_src.line, 1);
	assert_string_equal(k->launch->inputs_saved, "/c/triton__e61b09f3c4_2a9d5f60/triton__inputs.pt");
	assert_string_equal(k->launch->run_standalone, "python /c/triton__e61b09f3c4_2a9d5f60/triton_.py");
	k = kernel_by_id(&set, "triton_#2");
	assert_null(k->source_file);
	assert_int_equal(k->nerrors, 1);
	assert_string_equal(k->errors[0].text, "[WARN] kernel source file not found: None");
	assert_int_equal(set.inputs[in].ignored, 1);	/* the blank line */
	assert_int_equal(set.inputs[in].malformed, 0);
	autotune_set_release(&set);
}

static void test_bad_argument_and_estimate(void **state)
{
	static const char log[] =
		HDR("AUTOTUNE", "2")
		TS "  in_ptr0             : shape=[4096, x]  dtype=torch.float16  stride=[1024, 1]\n"
		TS "  in_ptr1             : shape=[4]  dtype=torch.float16\n"
		TS "  Total tensor bytes      : many MB\n"
		END;
	struct autotune_set set;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	assert_int_equal(set.inputs[in].malformed, 3);
	assert_int_equal(set.inputs[in].bad_lines[0], 3);
	assert_int_equal(set.inputs[in].bad_lines[2], 5);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_runner_output_and_bad_rows),
		cmocka_unit_test(test_v3_arguments_and_estimates),
		cmocka_unit_test(test_v1_keys),
		cmocka_unit_test(test_instances_by_arguments),
		cmocka_unit_test(test_lines_before_their_block),
		cmocka_unit_test(test_bad_argument_and_estimate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
