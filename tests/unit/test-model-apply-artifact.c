/*
 * Unit tests for model/apply_artifact (tko_winners.json) and
 * model/apply_left (apply.json's left_out and slower_in_step). The
 * expected documents are written out by hand, key by key in the order
 * docs/apply.md gives ("The plain artifact", "Winners slower inside the
 * step"); the models must read them and write them back byte for byte,
 * and name the field of a value of the wrong type.
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

#include "model/apply_artifact.h"
#include "util/mem.h"

static const char artifact_text[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"torch\": \"2.5.1\",\n"
	"  \"triton\": null,\n"
	"  \"left_out\": [\n"
	"    {\n"
	"      \"id\": \"k-a\",\n"
	"      \"kernel\": \"triton_poi_fused_a\",\n"
	"      \"reason\": \"excluded\",\n"
	"      \"detail\": \"--exclude\",\n"
	"      \"of\": \"plan\"\n"
	"    }\n"
	"  ],\n"
	"  \"inductor_settings\": {\n"
	"    \"online_softmax\": false\n"
	"  },\n"
	"  \"autotune_lookup_table\": {\n"
	"    \"ab12\": {\n"
	"      \"XBLOCK\": 64,\n"
	"      \"num_warps\": 4,\n"
	"      \"num_stages\": 1\n"
	"    }\n"
	"  },\n"
	"  \"template_lookup_table\": {},\n"
	"  \"configs\": {},\n"
	"  \"triton_autotune\": [\n"
	"    {\n"
	"      \"kernel\": \"add_kernel\",\n"
	"      \"source_hash\": \"cd34\",\n"
	"      \"config\": {\n"
	"        \"num_warps\": 8\n"
	"      }\n"
	"    }\n"
	"  ],\n"
	"  \"not_carried\": [\n"
	"    {\n"
	"      \"id\": \"k-c\",\n"
	"      \"kernel\": \"triton_poi_fused_c\",\n"
	"      \"reason\": \"kpack\"\n"
	"    }\n"
	"  ]\n"
	"}\n";

static char *written(const struct apply_artifact_doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(apply_artifact_doc_write(fp, d), 0);
	fclose(fp);
	return text;
}

static void test_artifact_round_trip(void **state)
{
	struct apply_artifact_doc d;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(artifact_text, 0, NULL);
	char *again;

	(void)state;
	assert_non_null(j);
	rf_init(&apply_artifact_doc_desc, &d);
	assert_int_equal(apply_artifact_doc_read(&d, j, "tko_winners.json", &err), 0);
	assert_string_equal(d.torch, "2.5.1");
	assert_null(d.triton);
	assert_int_equal(d.left_out.nr, 1);
	assert_string_equal(d.left_out.v[0].of, "plan");
	assert_non_null(apply_left_outs_find(&d.left_out, "k-a"));
	assert_null(apply_left_outs_find(&d.left_out, "k-b"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d.autotune_lookup_table,
									    "ab12"), "XBLOCK")), 64);
	assert_int_equal(d.ntriton_autotune, 1);
	assert_string_equal(d.triton_autotune[0].source_hash, "cd34");
	assert_int_equal(d.nnot_carried, 1);
	assert_string_equal(d.not_carried[0].reason, "kpack");
	again = written(&d);
	assert_string_equal(again, artifact_text);
	free(again);
	json_decref(j);
	buf_release(&err);
	apply_artifact_doc_release(&d);
}

/* Built through the adders, the empty tables are there as {} and []. */
static void test_artifact_built(void **state)
{
	static const char want[] =
		"{\n  \"schema_version\": 1,\n  \"torch\": null,\n  \"triton\": null,\n"
		"  \"left_out\": [],\n  \"inductor_settings\": {},\n  \"autotune_lookup_table\": {},\n"
		"  \"template_lookup_table\": {},\n  \"configs\": {},\n  \"triton_autotune\": [],\n"
		"  \"not_carried\": [\n    {\n      \"id\": \"k-s\",\n      \"kernel\": \"s\",\n"
		"      \"reason\": \"a source variant\"\n    }\n  ]\n}\n";
	struct apply_artifact_doc d;
	char *got;

	(void)state;
	apply_artifact_doc_init(&d);
	apply_artifact_add_not_carried(&d, "k-s", "s", "a source variant");
	got = written(&d);
	assert_string_equal(got, want);
	free(got);
	apply_artifact_doc_release(&d);
}

static void expect_artifact_error(const char *text, const char *field)
{
	struct apply_artifact_doc d;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	rf_init(&apply_artifact_doc_desc, &d);
	assert_int_equal(apply_artifact_doc_read(&d, j, "tko_winners.json", &err), -1);
	assert_null(strchr(err.buf, '\n'));
	assert_non_null(strstr(err.buf, "'tko_winners.json'"));
	assert_non_null(strstr(err.buf, field));
	json_decref(j);
	buf_release(&err);
	apply_artifact_doc_release(&d);
}

static void test_artifact_wrong_types(void **state)
{
	(void)state;
	expect_artifact_error("{\"configs\": []}", "configs");
	expect_artifact_error("{\"left_out\": [{\"id\": \"k\", \"kernel\": \"k\", \"reason\": \"x\", "
			      "\"of\": 1}]}", "left_out[0].of");
	expect_artifact_error("{\"triton_autotune\": [{\"kernel\": \"k\", \"config\": 4}]}",
			      "triton_autotune[0].config");
}

/* An apply.json's slower_in_step, as tko apply writes it (docs/json.md, "tko apply"). */
static const char slower_text[] =
	"{\"schema_version\": 1, \"tool\": \"tko apply\", \"kernels\": [], \"slower_in_step\": [\n"
	"  {\"id\": \"k-z\", \"kernel\": \"triton_poi_fused_zeros_0\", \"lookup_hash\": \"1a14\",\n"
	"   \"source_hash\": null, \"config\": {\"num_warps\": 4, \"kwargs\": {\"XBLOCK\": 512}},\n"
	"   \"predicted_speedup\": 1.25, \"measured_gain\": 0.91,\n"
	"   \"measured_gain_ci95\": [0.885, 0.935], \"rounds\": 3, \"carried\": false}]}";

static void test_judgements_read(void **state)
{
	struct apply_judgements l = APPLY_JUDGEMENTS_INIT, copy = APPLY_JUDGEMENTS_INIT;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(slower_text, 0, NULL), *back;

	(void)state;
	assert_non_null(j);
	assert_int_equal(apply_judgements_read(&l, j, "apply.json", &err), 0);
	assert_int_equal(l.nr, 1);
	assert_string_equal(l.v[0].lookup_hash, "1a14");
	assert_null(l.v[0].source_hash);
	assert_float_equal(l.v[0].measured_gain, 0.91, 0);
	assert_float_equal(json_number_value(json_array_get(l.v[0].measured_gain_ci95, 0)), 0.885, 0);
	assert_int_equal(l.v[0].rounds, 3);
	assert_false(l.v[0].carried);
	apply_judgements_copy(&copy, &l.v[0]);
	copy.v[0].carried = 1;
	back = rf_to_json(&apply_judgement_desc, &copy.v[0]);
	assert_true(json_is_true(json_object_get(back, "carried")));
	assert_true(json_equal(json_object_get(back, "config"),
			       json_object_get(json_array_get(json_object_get(j, "slower_in_step"), 0),
					       "config")));
	json_decref(back);
	json_decref(j);
	apply_judgements_release(&copy);
	apply_judgements_release(&l);
	/* an apply.json without judgements has none */
	j = json_loads("{\"kernels\": []}", 0, NULL);
	assert_int_equal(apply_judgements_read(&l, j, "apply.json", &err), 0);
	assert_int_equal(l.nr, 0);
	json_decref(j);
	j = json_loads("{\"slower_in_step\": [{\"id\": \"k\", \"kernel\": \"k\", \"config\": {}, "
		       "\"rounds\": \"3\"}]}", 0, NULL);
	assert_int_equal(apply_judgements_read(&l, j, "apply.json", &err), -1);
	assert_non_null(strstr(err.buf, "'apply.json'"));
	assert_non_null(strstr(err.buf, "slower_in_step[0].rounds"));
	json_decref(j);
	apply_judgements_release(&l);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_artifact_round_trip),
		cmocka_unit_test(test_artifact_built),
		cmocka_unit_test(test_artifact_wrong_types),
		cmocka_unit_test(test_judgements_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
