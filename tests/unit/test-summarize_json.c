/* Unit tests for report/summarize_json: the --json document. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "autotune-test.h"
#include "report/summarize_json.h"

static const char log_text[] =
	"V1202 15:29:35.480000 475 torch/_inductor/runtime/triton_heuristics.py:373] [2/0] "
	"CachingAutotuner gets 2 configs for triton_poi_fused_zeros_0\n"
	"V1202 15:29:35.480000 475 torch/_inductor/runtime/triton_heuristics.py:379] [2/0] "
	"XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	"V1202 15:29:35.480000 475 torch/_inductor/runtime/triton_heuristics.py:379] [2/0] "
	"XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None\n"
	"Best config for triton_poi_fused_zeros_0: XBLOCK: 512, num_warps: 8, num_ctas: 1, "
	"num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0\n"
	"garbage line\n";

static void test_document(void **state)
{
	struct autotune_set set;
	json_t *j, *k, *best, *from, *in;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, log_text);
	j = autotune_set_to_json(&set, NULL);
	assert_int_equal(json_integer_value(json_object_get(j, "schema_version")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "tool")), "tko summarize");
	assert_true(json_is_null(json_object_get(j, "device")));
	in = json_array_get(json_object_get(j, "inputs"), 0);
	assert_string_equal(json_string_value(json_object_get(in, "format")), "inductor_log");
	assert_int_equal(json_integer_value(json_object_get(in, "used")), 4);
	assert_int_equal(json_integer_value(json_object_get(in, "ignored")), 1);
	k = json_array_get(json_object_get(j, "kernels"), 0);
	assert_string_equal(json_string_value(json_object_get(k, "id")), "triton_poi_fused_zeros_0");
	assert_string_equal(json_string_value(json_object_get(k, "compile_id")), "2/0");
	assert_int_equal(json_integer_value(json_object_get(k, "num_configs")), 2);
	assert_int_equal(json_array_size(json_object_get(k, "declared")), 2);
	assert_string_equal(json_string_value(json_object_get(k, "chosen_by")), "benchmark");
	best = json_object_get(k, "best");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(best, "kwargs"), "XBLOCK")), 512);
	assert_true(json_is_null(json_object_get(best, "maxnreg")));
	assert_true(fabs(json_real_value(json_object_get(best, "time_ms")) - 0.011456) < 1e-12);
	assert_int_equal(json_integer_value(json_object_get(best, "n_regs")), 6);
	assert_true(json_is_false(json_object_get(best, "failed")));
	from = json_object_get(best, "from");
	assert_string_equal(json_string_value(json_object_get(from, "file")), "test.log");
	assert_int_equal(json_integer_value(json_object_get(from, "line")), 4);
	assert_string_equal(json_string_value(json_object_get(from, "format")), "inductor_log");
	from = json_object_get(json_object_get(k, "from"), "num_configs");
	assert_int_equal(json_integer_value(json_object_get(from, "line")), 1);
	assert_true(json_is_null(json_object_get(k, "launches")));
	json_decref(j);
	autotune_set_release(&set);
}

static void test_values(void **state)
{
	static const struct {
		const char *text;
		const char *json;
	} cases[] = {
		{ "1024", "1024" }, { "-1", "-1" }, { "True", "true" }, { "False", "false" },
		{ "None", "null" }, { "'tl.float32'", "\"tl.float32\"" }, { "\"x\"", "\"x\"" },
		{ "0.5", "0.5" }, { "(1, 2)", "\"(1, 2)\"" }, { "nan", "\"nan\"" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = NULL;
		size_t n = 0;
		FILE *fp = open_memstream(&s, &n);
		struct jsonw w;

		jsonw_init_prec(&w, fp, 10);
		at_value_write(&w, cases[i].text);
		fclose(fp);
		assert_string_equal(s, cases[i].json);
		free(s);
	}
}

static void test_failed_time_is_null(void **state)
{
	struct autotune_set set;
	struct at_src src = { 0, 1, AT_FMT_INDUCTOR_LOG };
	struct at_kernel *k;
	struct at_tuning *t;
	json_t *j, *c;

	(void)state;
	autotune_set_init(&set);
	src.file = at_input_add(&set, "x.log");
	k = at_kernel_current(&set, "k", 1, src);
	t = at_tuning_add(k, AT_COORDESC, src);
	at_config_push(&t->configs, &t->nr, &t->alloc, src)->time_ms = INFINITY;
	j = at_kernel_to_json(&set, k);
	c = json_array_get(json_object_get(json_array_get(json_object_get(j, "tunings"), 0), "configs"), 0);
	assert_true(json_is_null(json_object_get(c, "time_ms")));
	assert_true(json_is_true(json_object_get(c, "failed")));
	assert_true(json_is_null(json_object_get(j, "best")));
	json_decref(j);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_failed_time_is_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
