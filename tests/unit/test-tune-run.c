/*
 * Unit tests for tune/tune, the loop behind tko tune, where no worker is
 * needed: the empty document, a bad input that leaves the next one to
 * tune, and a missing Python that stops the run (tests/cli/t4000 runs the
 * same through the command).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tune/tune.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static void test_doc(void **state)
{
	struct tune_opts o = { 0 };
	json_t *d;

	(void)state;
	o.compile_only = 1;
	d = tune_doc_new(&o);
	assert_int_equal(json_integer_value(json_object_get(d, "schema_version")), 2);	/* docs/json.md */
	assert_string_equal(json_string_value(json_object_get(d, "tool")), "tko tune");
	assert_string_equal(json_string_value(json_object_get(d, "mode")), "compile-only");
	assert_int_equal(json_array_size(json_object_get(d, "kernels")), 0);
	json_decref(d);
	o.compile_only = 0;
	d = tune_doc_new(&o);
	assert_string_equal(json_string_value(json_object_get(d, "mode")), "gpu");
	json_decref(d);
}

static void count(void *data, const struct tune_sweep *s, const struct tune_outcome *out)
{
	(void)s;
	(void)out;
	(*(int *)data)++;
}

/*
 * Two missing files, then a real kernel with no worker to compile it: the
 * first two are input failures and the run goes on; the third cannot start
 * its worker and the run stops before the fourth.
 */
static void test_run_stops_only_for_tools(void **state)
{
	const char *data = getenv("TESTDATA");
	struct tune_opts o = { 0 };
	struct tune_sweep s[4];
	struct tune_outcome out[4];
	const char *inputs[4];
	char *foreach;
	int calls = 0;
	struct tune_each each = { count, &calls };
	struct tune_job j = { &o, inputs, 4 };
	json_t *doc;
	size_t i, tried;

	(void)state;
	if (!data)
		skip();
	setenv("TKO_PYTHON", "/no/such/python", 1);
	foreach = path_join(data, "tune/foreach.py");
	inputs[0] = "/no/such/kernel.py";
	inputs[1] = "/no/such/other.py";
	inputs[2] = foreach;
	inputs[3] = "/no/such/last.py";
	o.compile_only = 1;
	o.target = "sm_90";
	memset(s, 0, sizeof(s));
	doc = tune_doc_new(&o);
	tried = tune_run(&j, s, out, doc, &each);
	assert_int_equal(tried, 3);
	assert_int_equal(calls, 3);
	assert_int_equal(out[0].ran, 0);
	assert_int_equal(out[0].fail, TUNE_FAIL_INPUT);
	assert_int_equal(out[1].fail, TUNE_FAIL_INPUT);
	assert_int_equal(out[2].ran, 0);
	assert_int_equal(out[2].fail, TUNE_FAIL_TOOL);
	assert_int_equal(json_array_size(json_object_get(doc, "kernels")), 0);
	for (i = 0; i < tried; i++) {
		assert_null(s[i].pool);
		tune_sweep_release(&s[i]);
	}
	json_decref(doc);
	free(foreach);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc),
		cmocka_unit_test(test_run_stops_only_for_tools),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
