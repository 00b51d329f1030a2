/*
 * Unit tests for report/jsonw: the streaming writer's text must be what
 * jansson (an independent JSON library) prints for the same value with
 * JSON_INDENT(2), and must parse back to that value.
 */
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

#include "report/jsonw.h"

static char *write_doc(void)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);
	struct jsonw w;

	jsonw_init(&w, fp);
	jsonw_object(&w);
	jsonw_key(&w, "schema_version");
	jsonw_int(&w, 1);
	jsonw_key(&w, "text");
	jsonw_str(&w, "quote \" backslash \\ tab\t newline\n bell\a caf\xc3\xa9");
	jsonw_key(&w, "empty_list");
	jsonw_array(&w);
	jsonw_end(&w);
	jsonw_key(&w, "empty_map");
	jsonw_object(&w);
	jsonw_end(&w);
	jsonw_key(&w, "list");
	jsonw_array(&w);
	jsonw_real(&w, 0.051744);
	jsonw_real(&w, 18.0);
	jsonw_real(&w, 1e-12);
	jsonw_real(&w, NAN);
	jsonw_bool(&w, 1);
	jsonw_str_or_null(&w, NULL);
	jsonw_object(&w);
	jsonw_key(&w, "k\x01");
	jsonw_strn(&w, "abc", 2);
	jsonw_end(&w);
	jsonw_end(&w);
	jsonw_end(&w);
	assert_int_equal(jsonw_finish(&w), 0);
	fclose(fp);
	return s;
}

static void test_same_text_as_jansson(void **state)
{
	char *ours = write_doc(), *theirs;
	json_error_t e;
	json_t *j = json_loads(ours, 0, &e);

	(void)state;
	if (!j)
		fail_msg("jsonw wrote what jansson cannot parse: %s\n%s", e.text, ours);
	theirs = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	assert_non_null(theirs);
	assert_int_equal(strlen(ours), strlen(theirs) + 1);
	assert_memory_equal(ours, theirs, strlen(theirs));
	assert_string_equal(json_string_value(json_object_get(j, "text")),
			    "quote \" backslash \\ tab\t newline\n bell\a caf\xc3\xa9");
	assert_true(json_is_null(json_array_get(json_object_get(j, "list"), 3)));
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(j, "list"), 6), "k\x01")), "ab");
	free(ours);
	free(theirs);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_text_as_jansson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
