/*
 * Unit tests for model/apply_plan (tko apply's plan.json as a typed
 * model). The expected document is written out by hand below, key by key
 * as docs/apply.md ("The plan") orders them, with one kernel of each
 * identity: a @triton.autotune kernel (launcher before source_hash), an
 * Inductor template kernel (launcher after fused, mechanisms), and a
 * skipped one; the model must read it, and write it back byte for byte.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/apply_plan.h"
#include "util/mem.h"

static const char plan_text[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"tool\": \"tko apply\",\n"
	"  \"backend\": \"hip\",\n"
	"  \"target\": \"gfx928\",\n"
	"  \"versions\": {\n"
	"    \"torch\": \"2.5.1\",\n"
	"    \"triton\": \"3.1.0\"\n"
	"  },\n"
	"  \"inductor_settings\": {\n"
	"    \"online_softmax\": false\n"
	"  },\n"
	"  \"source_variants\": true,\n"
	"  \"proof\": {\n"
	"    \"launches_per_kernel\": 3,\n"
	"    \"max_kernels\": 1000\n"
	"  },\n"
	"  \"kernels\": [\n"
	"    {\n"
	"      \"kernel\": \"add_kernel\",\n"
	"      \"config\": {\n"
	"        \"num_warps\": 4\n"
	"      },\n"
	"      \"predicted\": {\n"
	"        \"speedup\": 1.5,\n"
	"        \"time_ms\": -1.0\n"
	"      },\n"
	"      \"id\": \"add_kernel-1\",\n"
	"      \"source\": {\n"
	"        \"path\": \"k/tune/winner/kernel.py\"\n"
	"      },\n"
	"      \"launcher\": \"triton\",\n"
	"      \"source_hash\": \"ab12\"\n"
	"    },\n"
	"    {\n"
	"      \"kernel\": \"triton_tem_fused_mm_0\",\n"
	"      \"config\": {\n"
	"        \"num_warps\": 8\n"
	"      },\n"
	"      \"inductor_settings\": {\n"
	"        \"online_softmax\": false\n"
	"      },\n"
	"      \"predicted\": {\n"
	"        \"speedup\": 1.25,\n"
	"        \"time_ms\": 0.5,\n"
	"        \"warm_speedup\": 1.1,\n"
	"        \"warm_ci95\": [\n"
	"          1.05,\n"
	"          1.15\n"
	"        ]\n"
	"      },\n"
	"      \"id\": \"triton_tem_fused_mm_0-2\",\n"
	"      \"lookup_hash\": \"cd34\",\n"
	"      \"size_hints\": \"{'x': 64}\",\n"
	"      \"fused\": true,\n"
	"      \"launcher\": \"template\",\n"
	"      \"mechanisms\": [\n"
	"        \"hook\"\n"
	"      ]\n"
	"    }\n"
	"  ],\n"
	"  \"skipped\": [\n"
	"    {\n"
	"      \"id\": \"k-3\",\n"
	"      \"kernel\": \"k\",\n"
	"      \"reason\": \"default_is_best\",\n"
	"      \"detail\": null\n"
	"    }\n"
	"  ]\n"
	"}\n";

static char *written(const struct apply_plan_doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(rf_write_doc(fp, &apply_plan_doc_desc, d, APPLY_PLAN_SCHEMA,
				      APPLY_DOC_TOOL), 0);
	fclose(fp);
	return text;
}

static void test_read_and_write_back(void **state)
{
	struct apply_plan_doc d;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(plan_text, 0, NULL);
	const struct apply_plan_kernel *k;
	char *again;

	(void)state;
	assert_non_null(j);
	rf_init(&apply_plan_doc_desc, &d);
	assert_int_equal(apply_plan_doc_read(&d, j, "plan.json", &err), 0);
	assert_string_equal(d.backend, "hip");
	assert_true(d.versions.known);
	assert_string_equal(d.versions.triton, "3.1.0");
	assert_true(d.source_variants);
	assert_int_equal(d.proof.max_kernels, 1000);
	assert_int_equal(d.nkernels, 2);
	k = &d.kernels[0];
	assert_string_equal(apply_plan_kernel_launcher(k), "triton");
	assert_null(k->launcher_tail);
	assert_string_equal(k->source.path, "k/tune/winner/kernel.py");
	assert_float_equal(k->predicted.time_ms, -1, 0);
	assert_true(isnan(k->predicted.warm_speedup));
	assert_int_equal(k->fused, RF_TRI_UNKNOWN);
	k = &d.kernels[1];
	assert_string_equal(apply_plan_kernel_launcher(k), "template");
	assert_null(k->launcher_head);
	assert_null(k->source.path);
	assert_int_equal(k->fused, 1);
	assert_float_equal(k->predicted.warm_speedup, 1.1, 0);
	assert_int_equal(k->nmechanisms, 1);
	assert_string_equal(k->mechanisms[0], "hook");
	assert_int_equal(d.nskipped, 1);
	assert_null(d.skipped[0].detail);
	assert_string_equal(d.skipped[0].reason, "default_is_best");
	again = written(&d);
	assert_string_equal(again, plan_text);
	free(again);
	json_decref(j);
	buf_release(&err);
	rf_release(&apply_plan_doc_desc, &d);
}

/* The launcher goes to the row of its kind: after the lookup hash when there is one. */
static void test_set_launcher(void **state)
{
	struct apply_plan_kernel *k = apply_plan_kernel_new();

	(void)state;
	apply_plan_kernel_set_launcher(k, "triton");
	assert_string_equal(k->launcher_head, "triton");
	assert_null(k->launcher_tail);
	apply_plan_kernel_free(k);
	k = apply_plan_kernel_new();
	k->lookup_hash = xstrdup("cd34");
	apply_plan_kernel_set_launcher(k, "template");
	assert_null(k->launcher_head);
	assert_string_equal(apply_plan_kernel_launcher(k), "template");
	apply_plan_kernel_free(k);
}

/* A capture without versions: "versions" is {}, and stays so. */
static void test_no_versions(void **state)
{
	static const char text[] =
		"{\n  \"schema_version\": 1,\n  \"tool\": \"tko apply\",\n  \"backend\": \"cuda\",\n"
		"  \"target\": \"sm_90\",\n  \"versions\": {},\n  \"inductor_settings\": {},\n"
		"  \"source_variants\": false,\n  \"proof\": {\n    \"launches_per_kernel\": 3,\n"
		"    \"max_kernels\": 1000\n  },\n  \"kernels\": [],\n  \"skipped\": []\n}\n";
	struct apply_plan_doc d;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(text, 0, NULL);
	char *again;

	(void)state;
	assert_non_null(j);
	rf_init(&apply_plan_doc_desc, &d);
	assert_int_equal(apply_plan_doc_read(&d, j, "plan.json", &err), 0);
	assert_false(d.versions.known);
	again = written(&d);
	assert_string_equal(again, text);
	free(again);
	json_decref(j);
	buf_release(&err);
	rf_release(&apply_plan_doc_desc, &d);
}

static void expect_error(const char *text, const char *field)
{
	struct apply_plan_doc d;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	rf_init(&apply_plan_doc_desc, &d);
	assert_int_equal(apply_plan_doc_read(&d, j, "plan.json", &err), -1);
	assert_null(strchr(err.buf, '\n'));
	assert_non_null(strstr(err.buf, "'plan.json'"));
	assert_non_null(strstr(err.buf, field));
	json_decref(j);
	buf_release(&err);
	rf_release(&apply_plan_doc_desc, &d);
}

static void test_wrong_types(void **state)
{
	(void)state;
	expect_error("{\"backend\": \"cuda\", \"target\": \"sm_90\", \"kernels\": "
		     "[{\"kernel\": \"k\", \"id\": \"k-1\", \"config\": \"num_warps=4\"}]}",
		     "kernels[0].config");
	expect_error("{\"backend\": \"cuda\", \"target\": \"sm_90\", \"skipped\": "
		     "[{\"id\": \"k-1\", \"kernel\": \"k\", \"reason\": 3}]}", "skipped[0].reason");
	expect_error("{\"backend\": \"cuda\", \"target\": \"sm_90\", \"kernels\": "
		     "[{\"kernel\": \"k\", \"id\": \"k-1\", \"config\": {}, \"fused\": \"yes\"}]}",
		     "kernels[0].fused");
	expect_error("{\"backend\": \"cuda\"}", "target");
	expect_error("{\"backend\": \"cuda\", \"target\": \"sm_90\", \"versions\": {\"torch\": 2}}",
		     "versions.torch");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_and_write_back),
		cmocka_unit_test(test_set_launcher),
		cmocka_unit_test(test_no_versions),
		cmocka_unit_test(test_wrong_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
