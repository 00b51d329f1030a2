/*
 * Unit tests for parse/logscan: one pass over a log that mixes formats,
 * as a model's stdout+stderr does, with line counts and format detection.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"

static const char mixed[] =
	"V1202 15:29:32.920000 475 torch/_inductor/runtime/triton_heuristics.py:1147] "
	"Benchmark all input configs for k_0, get:\r\n"
	"Triton autotuning for function add_kernel finished after 0.48s; best config selected: "
	"BLOCK_SIZE: 128, num_warps: 4, num_ctas: 1, num_stages: 2, maxnreg: None;\r\n"
	"V1202 15:29:32.921000 475 torch/_inductor/runtime/triton_heuristics.py:1149] "
	"XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.051744, nreg 30, "
	"nspill 0, #shared-mem 0\r\n"
	"DONE 4096.0 torch.Size([4096, 8192])\n"
	"\n"
	"AUTOTUNE mm(8x8, 8x8)\n"
	"  mm 0.0100 ms 100.0% \n"
	"[AUTOTUNE] kernel=k_1  configs=1\n"
	"Best config for k_0: XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_st";

static void test_mixed_formats(void **state)
{
	struct autotune_set set;
	const struct at_input *in;
	const struct at_tuning *t;
	unsigned f;

	(void)state;
	autotune_set_init(&set);
	f = scan_text(&set, mixed);
	in = &set.inputs[f];
	assert_int_equal(in->lines, 9);
	assert_int_equal(in->used, 6);
	assert_int_equal(in->ignored, 3);	/* the model's print, the blank line, the cut line */
	assert_int_equal(in->malformed, 0);
	assert_int_equal(in->truncated, 1);	/* the "Best config" line has no newline */
	assert_int_equal(in->formats, (1u << AT_FMT_INDUCTOR_LOG) | (1u << AT_FMT_MAX_AUTOTUNE) |
					(1u << AT_FMT_TRITON_PRINT) | (1u << AT_FMT_SEED_LOG));
	assert_int_equal(in->format, AT_FMT_INDUCTOR_LOG);
	/* the Triton print between the header and its row did not break the block */
	t = only_tuning(kernel_by_id(&set, "k_0"));
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->complete, 0);
	assert_int_equal(set.nr, 4);
	autotune_set_release(&set);
}

static void test_empty_and_blank(void **state)
{
	struct autotune_set set;
	unsigned f;

	(void)state;
	autotune_set_init(&set);
	f = scan_text(&set, "");
	assert_int_equal(set.inputs[f].lines, 0);
	f = scan_text(&set, "\n\n   \n");
	assert_int_equal(set.inputs[f].lines, 3);
	assert_int_equal(set.inputs[f].ignored, 3);
	assert_int_equal(set.inputs[f].format, AT_FMT_NONE);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed_formats),
		cmocka_unit_test(test_empty_and_blank),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
