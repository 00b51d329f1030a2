/*
 * Unit tests for env/hcu: finding the Hygon rows of target/target.c by
 * any spelling, and tko env's DCU section and warnings on hand-made env
 * documents. The expected HCU set is the brief's table as
 * docs/seed-scripts.md section 1 lists it, typed here by hand (test-target.c
 * checks the rows' columns).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "env/hcu.h"
#include "json/jsonio.h"
#include "model/env.h"
#include "util/buf.h"

static const char *const brief_names[] = {
	"gfx926", "gfx928", "gfx936", "gfx938", "gfx946", "gfx948", "gfx92a",
};

static void test_every_name(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < 7; i++) {
		const struct target *t = hcu_target_find(brief_names[i]);

		assert_non_null(t);
		assert_string_equal(t->name, brief_names[i]);
		assert_non_null(t->hcu);
	}
	assert_false(hcu_target_find("gfx948")->hcu->das);
}

static void test_find_spellings(void **state)
{
	(void)state;
	assert_string_equal(hcu_target_find("gfx936:sramecc-:xnack-")->name, "gfx936");
	assert_string_equal(hcu_target_find("GFX92A")->name, "gfx92a");
	assert_null(hcu_target_find("gfx942"));
	assert_null(hcu_target_find("gfx9360"));
	assert_null(hcu_target_find(NULL));
}

/* env_hcu on {"gpus": gpus, "env": env, "torch": torch, "dcu": false}, as JSON again. */
static json_t *run(const char *gpus, const char *env, const char *torch)
{
	char *text = NULL;
	struct env_doc doc;
	struct buf err = BUF_INIT;
	json_t *j;
	size_t n;

	n = (size_t)snprintf(NULL, 0, "{\"gpus\": %s, \"env\": %s, \"torch\": %s, \"dcu\": false}",
			     gpus, env, torch);
	text = test_malloc(n + 1);
	snprintf(text, n + 1, "{\"gpus\": %s, \"env\": %s, \"torch\": %s, \"dcu\": false}",
		 gpus, env, torch);
	j = json_loads(text, 0, NULL);
	test_free(text);
	assert_non_null(j);
	env_doc_init(&doc);
	if (env_doc_read(&doc, j, "doc", &err) < 0)
		fail_msg("%s", err.buf);
	env_hcu(&doc);
	json_decref(j);
	j = env_doc_to_json(&doc);
	env_doc_release(&doc);
	buf_release(&err);
	return j;
}

static const char *warning(const json_t *doc, size_t i)
{
	return json_string_value(json_array_get(json_object_get(doc, "warnings"), i));
}

static void test_gfx948_and_buffer_ops_off(void **state)
{
	json_t *doc = run("[{\"arch\": \"gfx948\", \"device_type\": \"HCU\", \"source\": \"rocminfo\"},"
			  " {\"arch\": \"gfx948\", \"device_type\": \"HCU\", \"source\": \"rocminfo\"}]",
			  "{\"AMDGCN_USE_BUFFER_OPS\": \"0\"}", "null");

	(void)state;
	assert_true(json_is_true(json_object_get(doc, "dcu")));
	assert_int_equal(json_array_size(json_object_get(doc, "hcu_targets")), 1);
	assert_string_equal(json_str(json_array_get(json_object_get(doc, "hcu_targets"), 0), "arch"),
			    "gfx948");
	assert_int_equal(json_array_size(json_object_get(doc, "warnings")), 2);
	assert_non_null(strstr(warning(doc, 0), "triton-das does not list"));
	assert_non_null(strstr(warning(doc, 1), "AMDGCN_USE_BUFFER_OPS=0"));
	json_decref(doc);
}

static void test_unknown_arches(void **state)
{
	json_t *doc = run("[{\"arch\": \"gfx1030\"}, {\"arch\": \"gfx942\"}, {\"arch\": \"sm_90\"},"
			  " {\"arch\": \"gfx999\", \"device_type\": \"HCU\"}]",
			  "{\"AMDGCN_USE_BUFFER_OPS\": \"1\"}", "null");

	(void)state;
	assert_false(json_is_true(json_object_get(doc, "dcu")));
	assert_int_equal(json_array_size(json_object_get(doc, "hcu_targets")), 0);
	/* gfx1030 and gfx999; buffer ops forced is no warning off a DCU */
	assert_int_equal(json_array_size(json_object_get(doc, "warnings")), 2);
	assert_non_null(strstr(warning(doc, 0), "gfx1030 is outside"));
	assert_non_null(strstr(warning(doc, 1), "rocminfo calls gfx999 an HCU"));
	json_decref(doc);
}

static void test_forced_buffer_ops_and_blind_torch(void **state)
{
	json_t *doc = run("[{\"arch\": \"gfx936\", \"source\": \"rocminfo\"}]",
			  "{\"AMDGCN_USE_BUFFER_OPS\": \"1\"}",
			  "{\"version\": \"2.9.0\", \"hip\": null}");

	(void)state;
	assert_int_equal(json_array_size(json_object_get(doc, "warnings")), 2);
	assert_non_null(strstr(warning(doc, 0), "AMDGCN_USE_BUFFER_OPS=1 forces buffer ops"));
	assert_non_null(strstr(warning(doc, 1), "torch is importable but sees no GPU"));
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_name),
		cmocka_unit_test(test_find_spellings),
		cmocka_unit_test(test_gfx948_and_buffer_ops_off),
		cmocka_unit_test(test_unknown_arches),
		cmocka_unit_test(test_forced_buffer_ops_and_blind_torch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
