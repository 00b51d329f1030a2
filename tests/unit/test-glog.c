/* Unit tests for parse/glog: TORCH_LOGS glog prefixes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "parse/glog.h"

static int split(const char *s, struct glog_line *g)
{
	return glog_split(s, strlen(s), g);
}

static void assert_span(const char *p, size_t n, const char *want)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

static void test_compile_id_and_message(void **state)
{
	struct glog_line g;

	(void)state;
	/* corpus/h200-run1/log_profile.txt line 1443 */
	assert_int_equal(split("V1202 15:29:31.668000 475 torch/_inductor/runtime/"
			       "triton_heuristics.py:373] [0/0] CachingAutotuner gets "
			       "1 configs for triton_per_fused_embedding_native_layer_norm_0", &g), 1);
	assert_int_equal(g.level, 'V');
	assert_span(g.where, g.where_len, "torch/_inductor/runtime/triton_heuristics.py:373");
	assert_span(g.compile_id, g.compile_id_len, "0/0");
	assert_span(g.msg, g.msg_len, "CachingAutotuner gets 1 configs for "
		    "triton_per_fused_embedding_native_layer_norm_0");
}

static void test_runtime_line_has_no_compile_id(void **state)
{
	struct glog_line g;

	(void)state;
	assert_int_equal(split("V1202 15:29:32.920000 475 torch/_inductor/runtime/"
			       "triton_heuristics.py:1147] Benchmark all input configs "
			       "for k, get:", &g), 1);
	assert_int_equal(g.compile_id_len, 0);
	assert_span(g.msg, g.msg_len, "Benchmark all input configs for k, get:");
}

static void test_other_brackets_stay_in_message(void **state)
{
	struct glog_line g;

	(void)state;
	assert_int_equal(split("V1202 15:29:29.120000 475 torch/_inductor/compile_fx.py:2463] "
			       "[0/0] [__pre_grad_graphs] TRACED GRAPH", &g), 1);
	assert_span(g.compile_id, g.compile_id_len, "0/0");
	assert_span(g.msg, g.msg_len, "[__pre_grad_graphs] TRACED GRAPH");
	assert_int_equal(split("E1202 15:29:54.899000 475 torch/_inductor/select_algorithm.py:3924] "
			       "[3/0_1] Ignoring this choice.", &g), 1);
	assert_int_equal(g.level, 'E');
	assert_span(g.compile_id, g.compile_id_len, "3/0_1");
}

static void test_empty_message(void **state)
{
	struct glog_line g;

	(void)state;
	assert_int_equal(split("I1202 15:30:18.675000 475 torch/_inductor/remote_cache.py:432] ", &g), 1);
	assert_int_equal(g.msg_len, 0);
}

static void test_lines_without_prefix(void **state)
{
	static const char *const plain[] = {
		"AUTOTUNE mm(2048x2048, 2048x2048)",
		"  triton_mm_18 0.0291 ms 100.0% ACC_TYPE='tl.float32'",
		"V1202 15:29:31",				/* cut off */
		"V1202 15:29:31.668000 475 torch/x.py:373]",	/* no space after ] */
		"Vx202 15:29:31.668000 475 torch/x.py:373] msg",
		"",
	};
	struct glog_line g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		assert_int_equal(split(plain[i], &g), 0);
		assert_int_equal(g.level, 0);
		assert_ptr_equal(g.msg, plain[i]);
		assert_int_equal(g.msg_len, strlen(plain[i]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_id_and_message),
		cmocka_unit_test(test_runtime_line_has_no_compile_id),
		cmocka_unit_test(test_other_brackets_stay_in_message),
		cmocka_unit_test(test_empty_message),
		cmocka_unit_test(test_lines_without_prefix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
