/*
 * Unit tests for parse/inductor_log: TORCH_LOGS=+inductor autotune lines.
 * The lines are excerpts of corpus/h200-run1/log_profile.txt (prefixes
 * shortened where the test is not about them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"

#define V "V1202 15:29:32.921000 475 torch/_inductor/runtime/triton_heuristics.py:1149] "
#define VC "V1202 15:29:35.480000 475 torch/_inductor/runtime/triton_heuristics.py:373] [2/0] "
#define CD "V1202 15:30:17.593000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:278] "

static const char benchmark_log[] =
	"V1202 15:29:35.442000 475 torch/_inductor/codegen/simd.py:1923] [2/0] "
	"Generating kernel code with kernel_name: triton_poi_fused_zeros_0\n"
	VC "CachingAutotuner gets 2 configs for triton_poi_fused_zeros_0\n"
	VC "XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	VC "XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	VC "Triton cache dir: /tmp/w/cache/triton\n"
	"some unrelated line\n"
	V "Benchmark all input configs for triton_poi_fused_zeros_0, get:\n"
	V "XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.013920, nreg 6, nspill 0, #shared-mem 0\n"
	V "XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0\n"
	V "Best config for triton_poi_fused_zeros_0: XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0\n"
	"V1202 15:29:36.529000 475 torch/_inductor/runtime/autotune_cache.py:312] Save heuristic "
	"tuning result to /tmp/w/cache/inductor/d6/8e17.best_config\n";

static void test_benchmark(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	const struct at_config *best;
	enum at_method how;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, benchmark_log);
	assert_int_equal(set.nr, 1);
	k = kernel_by_id(&set, "triton_poi_fused_zeros_0");
	assert_string_equal(k->compile_id, "2/0");
	assert_int_equal(k->num_configs, 2);
	assert_int_equal(k->num_configs_src.line, 2);
	assert_int_equal(k->ndeclared, 2);
	assert_int_equal(k->declared[1].kw[0].value[0], '5');
	t = only_tuning(k);
	assert_int_equal(t->method, AT_BENCHMARK);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->best, 1);
	assert_int_equal(t->best_src.line, 10);
	assert_int_equal(t->complete, 1);
	assert_string_equal(t->saved_to, "/tmp/w/cache/inductor/d6/8e17.best_config");
	best = at_kernel_best(k, &how);
	assert_ptr_equal(best, &t->configs[1]);
	assert_int_equal(how, AT_BENCHMARK);
	assert_true(fabs(best->time_ms - 0.011456) < 1e-12);
	assert_int_equal(best->n_regs, 6);
	assert_int_equal(best->src.line, 9);
	assert_int_equal(best->src.fmt, AT_FMT_INDUCTOR_LOG);
	assert_int_equal(set.inputs[in].lines, 11);
	assert_int_equal(set.inputs[in].used, 9);
	assert_int_equal(set.inputs[in].ignored, 2);
	assert_int_equal(set.inputs[in].malformed, 0);
	assert_int_equal(set.inputs[in].format, AT_FMT_INDUCTOR_LOG);
	autotune_set_release(&set);
}

static const char coordesc_log[] =
	"V1202 15:30:17.593000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:308] "
	"= Do coordinate descent tuning for triton_poi_fused_relu_1 =\n"
	"V1202 15:30:17.593000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:309] "
	"triton_poi_fused_relu_1: Baseline Config XBLOCK: 512, num_warps: 8, num_ctas: 1, "
	"num_stages: 1, maxnreg: None, baseline timing 0.167872\n"
	CD "Try config XBLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	"V1202 15:30:17.683000 475 torch/_inductor/runtime/triton_heuristics.py:1341] COORDESC: "
	"XBLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None: 0.166592, nreg 11, "
	"nspill 0, #shared-mem 0\n"
	"V1202 15:30:17.683000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:286] Tune "
	"from XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None 0.167872 -> "
	"XBLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None 0.166592\n"
	CD "Try config XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	"V1202 15:30:17.859000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:102]   CACHED\n"
	CD "Try config XBLOCK: 4096, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	"V1202 15:30:17.859000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:291] "
	"Got exception out of resource: shared memory\n"
	"V1202 15:30:17.949000 475 torch/_inductor/runtime/coordinate_descent_tuner.py:365] "
	"triton_poi_fused_relu_1: Improve from XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, "
	"maxnreg: None 0.167872 -> XBLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: "
	"None 0.166592, 1.008x\n"
	"V1202 15:30:17.949000 475 torch/_inductor/runtime/autotune_cache.py:312] Save coordesc "
	"tuning result to /tmp/w/cache/inductor/sb/5131.best_config\n"
	"V1202 15:30:17.949000 475 torch/_inductor/runtime/triton_heuristics.py:1382] Function hash "
	"f3ea has best config XBLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None\n";

static void test_coordinate_descent(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, coordesc_log);
	k = kernel_by_id(&set, "triton_poi_fused_relu_1");
	t = only_tuning(k);
	assert_int_equal(t->method, AT_COORDESC);
	assert_int_equal(t->nr, 3);	/* baseline, the one timed, the one that failed */
	assert_true(fabs(t->configs[0].time_ms - 0.167872) < 1e-12);
	assert_int_equal(t->configs[1].n_regs, 11);
	assert_true(isinf(t->configs[2].time_ms));
	assert_string_equal(t->configs[2].error, "out of resource: shared memory");
	assert_int_equal(t->best, 1);
	assert_true(fabs(t->speedup - 1.008) < 1e-12);
	assert_int_equal(t->complete, 1);
	assert_string_equal(t->saved_to, "/tmp/w/cache/inductor/sb/5131.best_config");
	assert_int_equal(set.inputs[in].used, 12);
	assert_int_equal(set.inputs[in].malformed, 0);
	autotune_set_release(&set);
}

/* Two "triton_" benchmark kernels and the same name in two graphs. */
static void test_instances(void **state)
{
	static const char log[] =
		VC "CachingAutotuner gets 2 configs for triton_\n"
		VC "XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None\n"
		VC "XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None\n"
		"V1202 15:29:54.925000 475 torch/_inductor/codegen/triton.py:6241] [3/0] kernel src code "
		"for OrderedSet(['op1']) written to: /tmp/w/cache/inductor/p6/cp6m.py\n"
		VC "CachingAutotuner gets 1 configs for triton_\n"
		VC "num_warps: 8, num_ctas: 1, num_stages: 5, maxnreg: None\n"
		"V1202 15:30:03.938000 475 torch/_inductor/codegen/triton.py:6241] [3/0] kernel src code "
		"for OrderedSet(['unknown']) "
		"written to: /tmp/w/cache/inductor/5c/c5cp.py\n"
		"V1202 15:29:33.406000 475 torch/_inductor/codegen/simd.py:1923] [0/0] Generating kernel "
		"code with kernel_name: k_7\n"
		"V1202 15:29:33.411000 475 torch/_inductor/codegen/simd.py:1923] [0/0] Generating kernel "
		"code with kernel_name: k_7\n"
		"V1202 15:29:35.442000 475 torch/_inductor/codegen/simd.py:1923] [2/0] Generating kernel "
		"code with kernel_name: k_7\n";
	struct autotune_set set;
	const struct at_kernel *k;
	char *id;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, log);
	assert_int_equal(set.nr, 4);
	k = kernel_by_id(&set, "triton_#1");
	assert_int_equal(k->num_configs, 2);
	assert_string_equal(k->source_file, "/tmp/w/cache/inductor/p6/cp6m.py");
	k = kernel_by_id(&set, "triton_#2");
	assert_int_equal(k->ndeclared, 1);
	assert_int_equal(k->declared[0].num_stages, 5);
	assert_string_equal(k->source_file, "/tmp/w/cache/inductor/5c/c5cp.py");
	id = at_kernel_id(k);
	assert_string_equal(id, "triton_#2");
	free(id);
	assert_string_equal(kernel_by_id(&set, "k_7#1")->compile_id, "0/0");
	assert_string_equal(kernel_by_id(&set, "k_7#2")->compile_id, "2/0");
	assert_int_equal(autotune_set_find(&set, "k_7", &k), 2);
	autotune_set_release(&set);
}

static void test_truncated_and_malformed(void **state)
{
	static const char log[] =
		V "Best config for k: XBLOCK: 512: not-a-number, nreg 6\n"
		V "CachingAutotuner gets many configs for k\n"
		V "Benchmark all input configs for triton_poi_fused_zeros_0, get:\n"
		V "XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.013920, nreg 6, nspill 0, #shared-mem 0\n"
		V "Best config for triton_poi_fused_zeros_0: XBLOCK: 512, num_war";
	struct autotune_set set;
	const struct at_tuning *t;
	unsigned in;

	(void)state;
	autotune_set_init(&set);
	in = scan_text(&set, log);
	t = only_tuning(kernel_by_id(&set, "triton_poi_fused_zeros_0"));
	assert_int_equal(t->complete, 0);	/* cut before its Best config line */
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->best, -1);
	assert_int_equal(set.inputs[in].malformed, 2);
	assert_int_equal(set.inputs[in].bad_lines[0], 1);
	assert_int_equal(set.inputs[in].bad_lines[1], 2);
	assert_int_equal(set.inputs[in].truncated, 1);
	assert_int_equal(set.inputs[in].used, 2);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_benchmark),
		cmocka_unit_test(test_coordinate_descent),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_truncated_and_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
