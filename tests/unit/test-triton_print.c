/*
 * Unit tests for parse/triton_print: TRITON_PRINT_AUTOTUNING=1 output.
 * The four-line form is what triton/runtime/autotuner.py in Triton 3.6
 * prints (the f-string in Autotuner.run); the one-line form is the older
 * one, as printed in public READMEs; the results block is Triton-Ascend's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"

static void test_four_line_form(void **state)
{
	static const char log[] =
		"Autotuning failed with out of resource: shared memory, Required: 262144\n"
		"Triton autotuning for function add_kernel,\n"
		"with key as (4096, 'torch.float32', 'torch.float32', 'torch.float32'),\n"
		"finished after 0.52s,\n"
		"best config selected: BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None;\n"
		"Triton autotuning for function add_kernel,\n"
		"with key as (1048576, 'torch.float32', 'torch.float32', 'torch.float32'),\n"
		"finished after 1.25s,\n"
		"best config selected: BLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 3, maxnreg: None;\n";
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	k = kernel_by_id(&set, "add_kernel");
	assert_string_equal(k->kind, "user_autotune");
	assert_int_equal(k->ntunings, 2);
	assert_int_equal(k->nerrors, 1);
	assert_string_equal(k->errors[0].text, "out of resource: shared memory, Required: 262144");
	t = k->tunings[0];
	assert_int_equal(t->method, AT_USER_AUTOTUNE);
	assert_string_equal(t->key, "(4096, 'torch.float32', 'torch.float32', 'torch.float32')");
	assert_true(fabs(t->elapsed_ms - 520.0) < 1e-9);
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->best, 0);
	assert_string_equal(t->configs[0].kw[0].value, "128");
	assert_int_equal(t->configs[0].num_stages, 3);
	assert_int_equal(t->best_src.line, 5);
	assert_int_equal(at_kernel_best(k, NULL)->num_warps, 8);	/* the last tuning */
	assert_int_equal(set.inputs[in].used, 9);
	autotune_set_release(&set);
}

static void test_one_line_forms(void **state)
{
	static const char log[] =
		"Triton autotuning for function add_kernel finished after 0.48s; best config "
		"selected: BLOCK_SIZE: 128, num_warps: 4, num_ctas: 1, num_stages: 2, maxnreg: None;\n"
		"[2024-05-01 10:00:00] Triton autotuning for function mm_kernel finished after 3.10s; "
		"best config selected: BLOCK_M: 64, num_warps: 4 with benchmark time [0.01, 0.009, 0.011];  "
		"evaluated 12 configurations;\n"
		"Triton autotuning for function broken finished after soon; best config selected: x;\n";
	struct autotune_set set;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	t = only_tuning(kernel_by_id(&set, "add_kernel"));
	assert_true(fabs(t->elapsed_ms - 480.0) < 1e-9);
	assert_int_equal(t->configs[0].num_stages, 2);
	t = only_tuning(kernel_by_id(&set, "mm_kernel"));
	assert_string_equal(t->configs[0].text, "BLOCK_M: 64, num_warps: 4");
	assert_int_equal(set.inputs[in].malformed, 1);
	assert_int_equal(set.inputs[in].bad_lines[0], 3);
	autotune_set_release(&set);
}

static void test_results_block(void **state)
{
	static const char log[] =
		"Triton autotuning for function kernel finished after 0.12s; best config selected: "
		"BLOCK_M: 128, BLOCK_N: 128;\n"
		"Triton autotuning benchmark results for function kernel:\n"
		"  config=BLOCK_M: 128, BLOCK_N: 128; p50=0.0100 ms, p20=0.0090 ms, p80=0.0110 ms [selected]\n"
		"  config=BLOCK_M: 64, BLOCK_N: 256; p50=0.0140 ms, p20=0.0130 ms, p80=0.0150 ms\n"
		"  config=BLOCK_M: 32, BLOCK_N: 256; mean=0.0200 ms\n"
		"Triton autotuning: config=BLOCK_M: 256, BLOCK_N: 256; compile_failed; reason=CompileTimeAssertionFailure: x\n";
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, log);
	k = kernel_by_id(&set, "kernel");
	t = only_tuning(k);
	assert_int_equal(t->nr, 3);
	assert_int_equal(t->best, 0);
	assert_true(fabs(t->configs[0].time_ms - 0.01) < 1e-12);
	assert_true(fabs(t->configs[2].time_ms - 0.02) < 1e-12);
	assert_int_equal(k->nerrors, 1);
	assert_non_null(strstr(k->errors[0].text, "compile_failed"));
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_line_form),
		cmocka_unit_test(test_one_line_forms),
		cmocka_unit_test(test_results_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
