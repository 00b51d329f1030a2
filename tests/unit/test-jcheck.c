/* Unit tests for util/jcheck: JSON documents checked against field tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/jcheck.h"

static const struct jc_field cfg[] = {
	{ "time_ms", JC_TIME, JC_NULL, NULL },
	{ "label", JC_STR, 0, NULL },
	{ NULL, 0, 0, NULL },
};

static const struct jc_field top[] = {
	{ "kernels", JC_LIST, JC_NEED, cfg },
	{ "counts", JC_COUNTS, JC_NULL, NULL },
	{ NULL, 0, 0, NULL },
};

/* The error jc_check gives for `text` ("" when it passes). */
static char *check(const char *text)
{
	static char out[512];
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	struct buf err = BUF_INIT;

	assert_non_null(doc);
	jc_check(doc, top, "r.json", &err);
	snprintf(out, sizeof(out), "%s", err.buf);
	buf_release(&err);
	json_decref(doc);
	return out;
}

static void test_fields_are_checked_by_type(void **state)
{
	(void)state;
	assert_string_equal(check("{\"kernels\": [{\"time_ms\": 0.5, \"label\": \"a\", \"x\": 1}],"
				  " \"counts\": {\"a\": 1, \"b\": null}}"), "");
	assert_string_equal(check("{\"kernels\": [{\"time_ms\": null}]}"), "");
	assert_string_equal(check("{}"), "'r.json': kernels: missing");
	assert_string_equal(check("{\"kernels\": [{}, {\"time_ms\": -1}]}"),
			    "'r.json': kernels[1].time_ms: not a time (a number >= 0)");
	assert_string_equal(check("{\"kernels\": [{\"label\": null}]}"),
			    "'r.json': kernels[0].label: null where a string belongs");
	assert_string_equal(check("{\"kernels\": [{\"label\": 7}]}"),
			    "'r.json': kernels[0].label: not a string");
	assert_string_equal(check("{\"kernels\": [3]}"),
			    "'r.json': kernels: not a list of objects");
	assert_string_equal(check("{\"kernels\": [], \"counts\": {\"a\": -2}}"),
			    "'r.json': counts: not an object of counts");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_are_checked_by_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
