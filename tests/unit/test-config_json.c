/* Unit tests for parse/config_json: configs stored as JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/config_json.h"

static int skip_meta(const char *key)
{
	return !strcmp(key, "num_warps") || !strcmp(key, "configs_hash");
}

static void test_python_spelling(void **state)
{
	static const struct {
		const char *json;
		const char *py;
	} cases[] = {
		{ "1024", "1024" }, { "0.5", "0.5" }, { "true", "True" }, { "false", "False" },
		{ "null", "None" }, { "\"tl.float32\"", "'tl.float32'" }, { "[1, 2]", "[1,2]" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v = json_loads(cases[i].json, JSON_DECODE_ANY, NULL);
		char *s = py_value_new(v);

		assert_string_equal(s, cases[i].py);
		free(s);
		json_decref(v);
	}
}

static void test_kwargs_and_fields(void **state)
{
	struct at_src src = { 0, 0, AT_FMT_BEST_CONFIG };
	json_t *j = json_loads("{\"XBLOCK\": 32, \"YBLOCK\": 32, \"num_warps\": 4, "
			       "\"num_stages\": 1, \"configs_hash\": \"9de5\", \"maxnreg\": null}", 0, NULL);
	struct at_config c;

	(void)state;
	at_config_init(&c, src);
	at_config_from_json(&c, j, skip_meta, j);
	assert_int_equal(c.nkw, 4);	/* this filter lets num_stages and maxnreg through */
	assert_string_equal(c.kw[0].name, "XBLOCK");
	assert_string_equal(c.kw[1].value, "32");
	assert_string_equal(c.kw[2].name, "num_stages");
	assert_string_equal(c.kw[3].value, "None");
	assert_int_equal(c.num_warps, 4);
	assert_int_equal(c.num_stages, 1);
	assert_int_equal(c.num_ctas, -1);
	assert_int_equal(c.maxnreg, -1);
	at_config_release(&c);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_python_spelling),
		cmocka_unit_test(test_kwargs_and_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
