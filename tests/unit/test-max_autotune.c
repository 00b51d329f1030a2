/*
 * Unit tests for parse/max_autotune: AUTOTUNE choice tables. The first
 * case is corpus/h200-run1/log_profile.txt lines 5688-5711, shortened to
 * three rows; the second the older, unindented and aligned spelling.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"

#define SA "V1202 15:29:36.999000 475 torch/_inductor/select_algorithm.py:"

static const char table_log[] =
	SA "2915] [3/0] Max autotune selects from 21 choices.\n"
	SA "3229] [3/0] Precompilation elapsed time: 4.85s\n"
	"E1202 15:29:54.899000 475 torch/_inductor/select_algorithm.py:3924] [3/0] Runtime error during autotuning: \n"
	"E1202 15:29:54.899000 475 torch/_inductor/select_algorithm.py:3924] [3/0] No valid triton configs. "
	"OutOfMemoryError: out of resource: triton_mm Required: 262144 Hardware limit:232448\n"
	"E1202 15:29:54.899000 475 torch/_inductor/select_algorithm.py:3924] [3/0] Ignoring this choice.\n"
	"Autotune Choices Stats:\n"
	"{\"num_choices\": 21, \"num_triton_choices\": 20, \"best_kernel\": \"triton_mm_18\", "
	"\"best_time\": 0.029055999591946602, \"best_triton_pos\": 0}\n"
	SA "3321] [3/0] Autotuning elapsed time: 12.57s\n"
	"AUTOTUNE mm(2048x2048, 2048x2048)\n"
	"strides: [2048, 1], [2048, 1]\n"
	"dtypes: torch.float16, torch.float16\n"
	"  triton_mm_18 0.0291 ms 100.0% ACC_TYPE='tl.float32', ALLOW_TF32=False, BLOCK_K=64, "
	"BLOCK_M=128, BLOCK_N=128, EVEN_K=True, GROUP_M=8, USE_FAST_ACCUM=False, num_stages=5, num_warps=8\n"
	"  triton_mm_9 0.0338 ms 85.9% ACC_TYPE='tl.float32', ALLOW_TF32=False, BLOCK_K=32, "
	"BLOCK_M=64, BLOCK_N=128, EVEN_K=True, GROUP_M=8, USE_FAST_ACCUM=False, num_stages=3, num_warps=4\n"
	"  mm 0.0388 ms 74.8% \n"
	"SingleProcess AUTOTUNE benchmarking takes 12.5744 seconds and 4.8515 seconds precompiling for 21 choices\n";

static void test_table(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, table_log);
	k = kernel_by_id(&set, "mm(2048x2048, 2048x2048)");
	assert_string_equal(k->kind, "max_autotune");
	assert_int_equal(k->nerrors, 1);
	assert_non_null(strstr(k->errors[0].text, "OutOfMemoryError"));
	assert_non_null(strstr(k->errors[0].text, "Ignoring this choice."));
	assert_int_equal(k->errors[0].src.line, 3);
	t = only_tuning(k);
	assert_int_equal(t->method, AT_MAX_AUTOTUNE);
	assert_int_equal(t->num_choices, 21);
	assert_int_equal(t->nr, 3);
	assert_int_equal(t->best, 0);
	assert_string_equal(t->configs[0].label, "triton_mm_18");
	assert_true(fabs(t->configs[0].time_ms - 0.0291) < 1e-12);
	assert_true(fabs(t->configs[1].pct_of_best - 85.9) < 1e-12);
	assert_int_equal(t->configs[0].num_warps, 8);
	assert_int_equal(t->configs[0].num_stages, 5);
	assert_string_equal(t->configs[0].kw[2].name, "BLOCK_K");
	assert_string_equal(t->configs[2].label, "mm");
	assert_int_equal(t->configs[2].nkw, 0);
	assert_string_equal(t->key, "strides: [2048, 1], [2048, 1]; dtypes: torch.float16, torch.float16");
	assert_true(fabs(t->elapsed_ms - 12574.4) < 1e-6);
	assert_int_equal(t->elapsed_src.line, 15);
	assert_true(fabs(t->precompile_ms - 4851.5) < 1e-6);
	assert_int_equal(t->complete, 1);
	assert_int_equal(set.inputs[in].used, 15);
	assert_int_equal(set.inputs[in].ignored, 0);
	assert_int_equal(set.inputs[in].formats,
			 (1u << AT_FMT_MAX_AUTOTUNE));
	autotune_set_release(&set);
}

static void test_old_spelling_and_cut_table(void **state)
{
	static const char log[] =
		"AUTOTUNE addmm(4096x3072, 3072x768)\n"
		"triton_mm_12 0.0389 ms 100.0%\n"
		"  bias_addmm   0.0498 ms  78.1%\n"
		"  triton_mm_16 0.0511 ms  x%\n"
		"AUTOTUNE mm(4x4096, 4096x8)\n"
		"  mm 0.0134 ms 100.0%\n"
		"  triton_mm_99 0.0134 ms 99.8% ACC_TYPE='tl.float32', BLOCK_K=128, BLOCK_M=16, .......\n";
	struct autotune_set set;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	t = only_tuning(kernel_by_id(&set, "addmm(4096x3072, 3072x768)"));
	assert_int_equal(t->nr, 2);
	assert_string_equal(t->configs[1].label, "bias_addmm");
	assert_int_equal(t->best, 0);
	assert_int_equal(t->complete, 1);
	assert_int_equal(t->num_choices, -1);
	t = only_tuning(kernel_by_id(&set, "mm(4x4096, 4096x8)"));
	assert_int_equal(t->nr, 2);
	/* a description that is not a config is kept as text */
	assert_string_equal(t->configs[1].text, "ACC_TYPE='tl.float32', BLOCK_K=128, BLOCK_M=16, .......");
	assert_int_equal(t->complete, 0);	/* the input ended inside it */
	assert_int_equal(set.inputs[in].malformed, 1);
	assert_int_equal(set.inputs[in].bad_lines[0], 4);
	autotune_set_release(&set);
}

static void test_bad_header_and_stats(void **state)
{
	static const char log[] =
		"AUTOTUNE benchmarking is slow\n"
		"Autotune Choices Stats:\n"
		"{not json\n"
		"Autotuning elapsed time: soon\n";
	struct autotune_set set;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	assert_int_equal(set.nr, 0);
	assert_int_equal(set.inputs[in].malformed, 3);
	assert_int_equal(set.inputs[in].used, 1);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_old_spelling_and_cut_table),
		cmocka_unit_test(test_bad_header_and_stats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
