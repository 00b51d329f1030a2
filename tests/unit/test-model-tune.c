/*
 * Unit tests for model/tune: a tune.json kernel entry read into the typed
 * model (values as written in the literal below), the lookups measured.c
 * makes, a status tko does not write refused, and the status names
 * tune/result.c prints.
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

#include "json/jsonio.h"
#include "json/jsonw.h"
#include "model/tune.h"
#include "tune/result.h"
#include "util/file.h"
#include "banned.h"

static const char entry[] =
	"{\"kernel\": \"triton_poi_fused_0\", \"source\": \"k.py\", \"target\": \"sm_90\","
	" \"kind\": \"pointwise\", \"variants\": ["
	"  {\"id\": \"v000\", \"label\": \"base\", \"status\": \"ok\", \"time_ms\": 2.0,"
	"   \"speedup\": 1.0, \"source_variants\": [], \"env\": {}, \"same_as\": null},"
	"  {\"id\": \"v001\", \"label\": \"hints\", \"status\": \"duplicate\", \"time_ms\": null,"
	"   \"speedup\": null, \"source_variants\": [\"hints\"], \"same_as\": \"v000\","
	"   \"env\": {\"AMDGCN_USE_BUFFER_OPS\": \"1\"}, \"error\": null}],"
	" \"winner\": {\"label\": \"base\", \"time_ms\": 2.0, \"speedup\": 1.25,"
	"   \"inductor_settings\": {\"online_softmax\": false}}}";

static void test_read(void **state)
{
	struct tune_doc_kernel k;
	struct buf err = BUF_INIT;
	json_error_t e;
	json_t *j = json_loads(entry, 0, &e);

	(void)state;
	assert_non_null(j);
	rf_init(&tune_doc_kernel_desc, &k);
	assert_int_equal(rf_read(&tune_doc_kernel_desc, &k, j, "tune.json", &err), 0);
	assert_string_equal(k.kernel, "triton_poi_fused_0");
	assert_string_equal(k.target, "sm_90");
	assert_int_equal(k.nvariants, 2);
	assert_int_equal(k.variants[0].status, TUNE_ST_OK);
	assert_true(k.variants[0].time_ms == 2.0);
	assert_int_equal(k.variants[1].status, TUNE_ST_DUPLICATE);
	assert_true(isnan(k.variants[1].time_ms));
	assert_true(tune_doc_made_with(&k.variants[1], "hints"));
	assert_false(tune_doc_made_with(&k.variants[0], "hints"));
	assert_string_equal(tune_doc_env(&k.variants[1], "AMDGCN_USE_BUFFER_OPS"), "1");
	assert_null(tune_doc_env(&k.variants[0], "AMDGCN_USE_BUFFER_OPS"));
	assert_ptr_equal(tune_doc_variant(&k, k.variants[1].same_as), &k.variants[0]);
	assert_null(tune_doc_variant(&k, "v009"));
	assert_string_equal(k.winner.label, "base");
	assert_true(k.winner.speedup == 1.25);
	assert_true(json_is_false(json_object_get(k.winner.inductor_settings, "online_softmax")));
	rf_release(&tune_doc_kernel_desc, &k);
	json_decref(j);
	buf_release(&err);
}

static void test_unknown_status_and_null_winner(void **state)
{
	struct tune_doc_kernel k;
	struct buf err = BUF_INIT;
	json_error_t e;
	json_t *j = json_loads("{\"kernel\": \"k\", \"winner\": null,"
			       " \"variants\": [{\"id\": \"v000\", \"status\": \"great\"}]}", 0, &e);

	(void)state;
	rf_init(&tune_doc_kernel_desc, &k);
	assert_int_equal(rf_read(&tune_doc_kernel_desc, &k, j, "tune.json", &err), -1);
	assert_non_null(strstr(err.buf, "status"));
	rf_release(&tune_doc_kernel_desc, &k);
	json_decref(j);
	j = json_loads("{\"kernel\": \"k\", \"winner\": null, \"variants\": []}", 0, &e);
	rf_init(&tune_doc_kernel_desc, &k);
	assert_int_equal(rf_read(&tune_doc_kernel_desc, &k, j, "tune.json", &err), 0);
	assert_null(k.winner.label);
	rf_release(&tune_doc_kernel_desc, &k);
	json_decref(j);
	buf_release(&err);
}

/*
 * The tables hold every key tko tune writes: each kernel of the recorded
 * golden outputs (tests/golden/tune/CASE/expected) reads into the model and
 * comes back as the same JSON. The goldens write volatile numbers (wall_s)
 * as @NUM@ (tests/golden/normalise.sh): they are read as 1.5 here.
 */

static json_t *load_golden(const char *path)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	char *p;
	json_error_t e;
	json_t *j;

	assert_int_equal(file_read(path, 1u << 24, &text, &err), 0);
	while ((p = strstr(text.buf, "@NUM@")))
		memcpy(p, "  1.5", 5);
	j = json_loads(text.buf, 0, &e);
	buf_release(&text);
	buf_release(&err);
	return j;
}

static void test_round_trip_of_goldens(void **state)
{
	static const char *const docs[] = {
		"../golden/tune/fake-gpu/expected/g.json",
		"../golden/tune/fake-template/expected/t.json",
		"../golden/tune/fake-mix-order/expected/g.json",
	};
	const char *data = getenv("TESTDATA");
	size_t d, i, n = 0;

	(void)state;
	if (!data)
		skip();
	for (d = 0; d < sizeof(docs) / sizeof(docs[0]); d++) {
		char *path = path_join(data, docs[d]);
		struct buf err = BUF_INIT;
		json_t *doc = load_golden(path), *k;

		assert_non_null(doc);
		json_array_foreach(json_object_get(doc, "kernels"), i, k) {
			struct tune_doc_kernel m;
			json_t *back;

			rf_init(&tune_doc_kernel_desc, &m);
			assert_int_equal(rf_read(&tune_doc_kernel_desc, &m, k, path, &err), 0);
			back = rf_to_json(&tune_doc_kernel_desc, &m);
			assert_true(json_equal(back, k));
			assert_int_equal(json_object_size(back), json_object_size(k));
			json_decref(back);
			rf_release(&tune_doc_kernel_desc, &m);
			n++;
		}
		json_decref(doc);
		buf_release(&err);
		free(path);
	}
	assert_int_equal(n, 3);
}

/*
 * A winner whose source patch v014 was refused and whose config-only v009
 * won in its place, in tko's layout (docs/json.md, "winner.confirmation"):
 * the members tko reads are typed, the rest kept, and the bytes come back.
 */
static const char confirmed_winner[] =
	"{\n"
	"  \"id\": \"v009\",\n"
	"  \"label\": \"XBLOCK=2048\",\n"
	"  \"time_ms\": 0.5,\n"
	"  \"speedup\": 1.9,\n"
	"  \"sweep_speedup\": 2.0,\n"
	"  \"confirmed\": true,\n"
	"  \"ci95\": [\n    1.8,\n    2.0\n  ],\n"
	"  \"is_base\": false,\n"
	"  \"inductor_settings\": {\n"
	"    \"triton.mix_order_reduction_split_size\": 8\n"
	"  },\n"
	"  \"confirmation\": {\n"
	"    \"method\": \"t-interval\",\n"
	"    \"candidate\": \"v014\",\n"
	"    \"candidate_label\": \"XBLOCK=2048+hints\",\n"
	"    \"rounds\": 2,\n"
	"    \"accepted\": false,\n"
	"    \"winner\": \"v009\",\n"
	"    \"reason\": \"the patch adds nothing\",\n"
	"    \"sweep_speedup\": 2.1,\n"
	"    \"ratio\": 2.05,\n"
	"    \"ci95\": [\n      2.0,\n      2.1\n    ],\n"
	"    \"round_ratios\": [\n      2.0,\n      2.1\n    ],\n"
	"    \"times_ms\": {\n      \"v000\": [\n        1.0\n      ]\n    },\n"
	"    \"warm\": {\n"
	"      \"variant\": \"v009\",\n"
	"      \"ratio\": 0.95,\n"
	"      \"ci95\": [\n        0.92,\n        0.98\n      ],\n"
	"      \"rounds\": 2,\n"
	"      \"round_ratios\": [\n        0.94,\n        0.96\n      ]\n"
	"    },\n"
	"    \"vs_config_only\": {\n"
	"      \"id\": \"v009\",\n"
	"      \"label\": \"XBLOCK=2048\",\n"
	"      \"ratio\": 1.01,\n"
	"      \"ci95\": [\n        0.99,\n        1.03\n      ],\n"
	"      \"round_ratios\": [\n        1.0,\n        1.02\n      ],\n"
	"      \"vs_base\": {\n"
	"        \"ratio\": 1.9,\n"
	"        \"ci95\": [\n          1.8,\n          2.0\n        ]\n"
	"      }\n"
	"    },\n"
	"    \"error\": null,\n"
	"    \"wall_s\": 0.25\n"
	"  }\n"
	"}\n";

static char *write_winner(const struct tune_doc_winner *w)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);
	struct jsonw jw;

	assert_non_null(fp);
	jsonw_init_prec(&jw, fp, 10);
	assert_int_equal(rf_write(&jw, &tune_doc_winner_desc, w), 0);
	assert_int_equal(jsonw_finish(&jw), 0);
	assert_int_equal(fclose(fp), 0);
	return s;
}

static void read_winner(struct tune_doc_winner *w, const char *text)
{
	struct buf err = BUF_INIT;
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	assert_non_null(j);
	rf_init(&tune_doc_winner_desc, w);
	if (rf_read(&tune_doc_winner_desc, w, j, "tune.json", &err) < 0)
		fail_msg("%s", err.buf);
	json_decref(j);
	buf_release(&err);
}

static void test_confirmation(void **state)
{
	struct tune_doc_winner w;
	double lo, hi;
	char *back;

	(void)state;
	read_winner(&w, confirmed_winner);
	assert_int_equal(w.confirmed, 1);
	assert_int_equal(w.has_confirmation, 1);
	assert_int_equal(w.confirmation.accepted, 0);
	assert_int_equal(w.confirmation.rounds, 2);
	assert_string_equal(w.confirmation.candidate, "v014");
	assert_string_equal(w.confirmation.reason, "the patch adds nothing");
	assert_true(w.confirmation.sweep_speedup == 2.1);
	assert_int_equal(w.confirmation.has_vs_config_only, 1);
	assert_string_equal(w.confirmation.vs_config_only.id, "v009");
	assert_true(w.confirmation.vs_config_only.ratio == 1.01);
	assert_int_equal(w.confirmation.vs_config_only.has_vs_base, 1);
	assert_true(w.confirmation.vs_config_only.vs_base.ratio == 1.9);
	tune_doc_ci(w.confirmation.vs_config_only.ci95, &lo, &hi);
	assert_true(lo == 0.99 && hi == 1.03);
	tune_doc_ci(NULL, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(w.confirmation.has_warm, 1);
	assert_string_equal(w.confirmation.warm.variant, "v009");
	assert_true(w.confirmation.warm.ratio == 0.95);
	assert_int_equal(w.confirmation.warm.rounds, 2);
	tune_doc_ci(w.confirmation.warm.ci95, &lo, &hi);
	assert_true(lo == 0.92 && hi == 0.98);
	assert_int_equal(tune_doc_split_size(&w), 8);
	assert_false(tune_doc_two_pass(&w));
	back = write_winner(&w);
	assert_string_equal(back, confirmed_winner);
	free(back);
	rf_release(&tune_doc_winner_desc, &w);
}

/* Untimed, the config-only variant is its id and label alone; results older than "confirmed". */
static void test_confirmation_untimed(void **state)
{
	static const char text[] =
		"{\n"
		"  \"id\": \"v003\",\n"
		"  \"label\": null,\n"
		"  \"time_ms\": null,\n"
		"  \"speedup\": null,\n"
		"  \"sweep_speedup\": null,\n"
		"  \"ci95\": null,\n"
		"  \"is_base\": false,\n"
		"  \"inductor_settings\": {\n"
		"    \"online_softmax\": false\n"
		"  },\n"
		"  \"confirmation\": {\n"
		"    \"rounds\": 0,\n"
		"    \"ratio\": null,\n"
		"    \"vs_config_only\": {\n"
		"      \"id\": \"v001\",\n"
		"      \"label\": \"XBLOCK=64\"\n"
		"    }\n"
		"  }\n"
		"}\n";
	struct tune_doc_winner w;
	char *back;

	(void)state;
	read_winner(&w, text);
	assert_int_equal(w.confirmed, RF_TRI_UNKNOWN);
	assert_int_equal(w.confirmation.accepted, RF_TRI_UNKNOWN);
	assert_int_equal(w.confirmation.has_vs_config_only, 1);
	assert_int_equal(w.confirmation.vs_config_only.has_vs_base, 0);
	assert_int_equal(w.confirmation.has_warm, 0);
	assert_true(isnan(w.confirmation.vs_config_only.ratio));
	assert_int_equal(tune_doc_split_size(&w), 0);
	assert_true(tune_doc_two_pass(&w));
	/* the kept keys come back as they were; the table's others follow, unknown */
	back = write_winner(&w);
	assert_non_null(strstr(back, "  \"sweep_speedup\": null,\n  \"confirmed\": null,\n"));
	assert_non_null(strstr(back, "\"confirmation\": {\n    \"rounds\": 0,\n    \"ratio\": null,\n"
				     "    \"vs_config_only\": {\n      \"id\": \"v001\",\n"
				     "      \"label\": \"XBLOCK=64\"\n    },\n"));
	free(back);
	rf_release(&tune_doc_winner_desc, &w);
}

/* The names tune has always written (docs/json.md's status list). */
static void test_status_names(void **state)
{
	static const char *const want[] = {
		"pending", "compiled", "ok", "wrong", "compile_error", "launch_error",
		"timeout", "skipped", "duplicate", "error",
	};
	int i;

	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]), TUNE_ST_NR);
	for (i = 0; i < TUNE_ST_NR; i++)
		assert_string_equal(tune_status_name((enum tune_status)i), want[i]);
	assert_null(tune_status_names[TUNE_ST_NR]);
	assert_string_equal(tune_status_name((enum tune_status)99), "error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_unknown_status_and_null_winner),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_confirmation),
		cmocka_unit_test(test_confirmation_untimed),
		cmocka_unit_test(test_round_trip_of_goldens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
