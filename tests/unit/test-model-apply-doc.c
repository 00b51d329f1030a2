/*
 * Unit tests for model/apply_doc (tko apply's apply.json as a typed
 * model). The documents below are written out by hand in the key order
 * docs/json.md ("tko apply") gives: one with an A/B of default and
 * keep-off (a kernel row with "measured" and the hook's proof, a keep-off
 * arm and run), one without (the kernel rows with "detail", no
 * "measured", ab null and "step" at the top). The model must read each
 * and write it back byte for byte: the keys a row has or lacks (RF_PRESENT)
 * survive, and a value of the wrong type is one line naming the field.
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

#include "model/apply_doc.h"
#include "util/mem.h"

/* A step with no profile and no A/B, its keys indented by IN. */
#define STEP_NULLS(IN) \
	IN "\"predicted_gain\": null,\n" IN "\"predicted_saving_ms\": null,\n" \
	IN "\"predicted_gain_cold\": null,\n" IN "\"predicted_gain_warm\": null,\n" \
	IN "\"warm_kernels\": 0,\n" IN "\"difference_pp_cold\": null,\n" \
	IN "\"profile_step_ms\": null,\n" IN "\"measured_gain\": null,\n" \
	IN "\"measured_gain_ci95\": null,\n" IN "\"difference_pp\": null,\n" \
	IN "\"within_1pp\": null,\n" IN "\"conclusive\": null,\n" IN "\"profile\": null,\n" \
	IN "\"note\": \"the RUN has no profile\",\n" \
	IN "\"gpu_step_ms\": null,\n" IN "\"gpu_predicted_gain\": null,\n" \
	IN "\"gpu_measured_gain\": null,\n" IN "\"gpu_measured_gain_ci95\": null,\n" \
	IN "\"gpu_difference_pp\": null,\n" IN "\"gpu_within_1pp\": null,\n" \
	IN "\"gpu_conclusive\": null,\n" IN "\"gpu_busy\": null,\n" IN "\"gpu_note\": null\n"

static const char plan_only[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"tool\": \"tko apply\",\n"
	"  \"run\": \"run\",\n"
	"  \"target\": \"gfx928\",\n"
	"  \"backend\": \"hip\",\n"
	"  \"out_dir\": \"run/apply\",\n"
	"  \"command\": null,\n"
	"  \"plan\": \"run/apply/plan.json\",\n"
	"  \"artifact\": null,\n"
	"  \"inductor_settings\": {},\n"
	"  \"summary\": {\n"
	"    \"planned\": 1,\n"
	"    \"ran_winner\": 0,\n"
	"    \"not_planned\": 1,\n"
	"    \"every_winner_ran\": false\n"
	"  },\n"
	"  \"kernels\": [\n"
	"    {\n"
	"      \"id\": \"k-1\",\n"
	"      \"kernel\": \"k\",\n"
	"      \"planned\": true,\n"
	"      \"tune\": \"run/k-1/tune/tune.json\",\n"
	"      \"predicted_speedup\": 1.5,\n"
	"      \"predicted_warm_speedup\": 1.2,\n"
	"      \"predicted_warm_ci95\": [\n"
	"        1.1,\n"
	"        1.3\n"
	"      ],\n"
	"      \"ms_per_step\": 0.25,\n"
	"      \"share\": 0.5,\n"
	"      \"predicted_saving_ms\": 0.04166666667,\n"
	"      \"measured_speedup\": null,\n"
	"      \"measured_gain_ci95\": null,\n"
	"      \"verdict\": null,\n"
	"      \"status\": \"not_run\",\n"
	"      \"reason\": null,\n"
	"      \"detail\": null\n"
	"    },\n"
	"    {\n"
	"      \"id\": \"j-2\",\n"
	"      \"kernel\": \"j\",\n"
	"      \"planned\": false,\n"
	"      \"tune\": \"run/j-2/tune/tune.json\",\n"
	"      \"predicted_speedup\": null,\n"
	"      \"ms_per_step\": null,\n"
	"      \"share\": null,\n"
	"      \"predicted_saving_ms\": null,\n"
	"      \"measured_speedup\": null,\n"
	"      \"measured_gain_ci95\": null,\n"
	"      \"verdict\": null,\n"
	"      \"status\": \"not_planned\",\n"
	"      \"reason\": \"not_confirmed\",\n"
	"      \"detail\": \"the 95% interval includes 1\"\n"
	"    }\n"
	"  ],\n"
	"  \"runs\": [],\n"
	"  \"ab\": null,\n"
	"  \"step\": {\n"
	STEP_NULLS("    ")
	"  },\n"
	"  \"recommended_arms\": [],\n"
	"  \"keep_slower\": false,\n"
	"  \"slower_in_step\": [],\n"
	"  \"left_out\": [\n"
	"    {\n"
	"      \"id\": \"x-3\",\n"
	"      \"kernel\": \"x\",\n"
	"      \"reason\": \"excluded\",\n"
	"      \"detail\": \"--exclude\",\n"
	"      \"of\": \"plan\"\n"
	"    }\n"
	"  ]\n"
	"}\n";

#define STATS(median, lo, hi) \
	"{\n            \"rounds\": 2,\n            \"median\": " median ",\n" \
	"            \"ci95\": [\n              " lo ",\n              " hi "\n            ],\n" \
	"            \"level\": 0.5\n          }"

static const char with_ab[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"tool\": \"tko apply\",\n"
	"  \"run\": \"run\",\n"
	"  \"target\": \"sm_90\",\n"
	"  \"backend\": \"cuda\",\n"
	"  \"out_dir\": \"out\",\n"
	"  \"command\": [\n"
	"    \"python3\",\n"
	"    \"train.py\"\n"
	"  ],\n"
	"  \"plan\": \"out/plan.json\",\n"
	"  \"artifact\": \"art\",\n"
	"  \"inductor_settings\": {\n"
	"    \"online_softmax\": false\n"
	"  },\n"
	"  \"summary\": {\n"
	"    \"planned\": 1,\n"
	"    \"ran_winner\": 1,\n"
	"    \"not_planned\": 0,\n"
	"    \"every_winner_ran\": true\n"
	"  },\n"
	"  \"kernels\": [\n"
	"    {\n"
	"      \"id\": \"k-1\",\n"
	"      \"kernel\": \"k\",\n"
	"      \"planned\": true,\n"
	"      \"tune\": \"run/k-1/tune/tune.json\",\n"
	"      \"predicted_speedup\": 1.5,\n"
	"      \"ms_per_step\": null,\n"
	"      \"share\": null,\n"
	"      \"predicted_saving_ms\": null,\n"
	"      \"measured_speedup\": 0.9,\n"
	"      \"measured_gain_ci95\": [\n"
	"        0.85,\n"
	"        0.95\n"
	"      ],\n"
	"      \"verdict\": \"slower\",\n"
	"      \"measured\": {\n"
	"        \"rounds\": 2,\n"
	"        \"default_us_per_step\": 90.0,\n"
	"        \"applied_us_per_step\": 100.0\n"
	"      },\n"
	"      \"mechanism\": \"lookup_table\",\n"
	"      \"launches\": 5,\n"
	"      \"notes\": [],\n"
	"      \"constructed\": null,\n"
	"      \"status\": \"ran_winner\",\n"
	"      \"reason\": null\n"
	"    }\n"
	"  ],\n"
	"  \"runs\": [\n"
	"    {\n"
	"      \"n\": 1,\n"
	"      \"arm\": \"keep-off\",\n"
	"      \"round\": -1,\n"
	"      \"measured\": false,\n"
	"      \"exit_status\": 0,\n"
	"      \"ms_per_step\": 8.5,\n"
	"      \"step_source\": \"hook\",\n"
	"      \"hook_steps\": null,\n"
	"      \"kernel_window\": null,\n"
	"      \"wall_s\": 1.5,\n"
	"      \"losses\": null,\n"
	"      \"dir\": \"out/runs/1-keep-off\",\n"
	"      \"ran_planned_config\": [\n"
	"        \"triton_poi_fused_zeros_0\"\n"
	"      ],\n"
	"      \"keep_off\": [\n"
	"        {\n"
	"          \"region\": \"m:f\",\n"
	"          \"status\": \"took_effect\",\n"
	"          \"calls\": 3,\n"
	"          \"message\": null\n"
	"        }\n"
	"      ]\n"
	"    }\n"
	"  ],\n"
	"  \"ab\": {\n"
	"    \"rounds\": 2,\n"
	"    \"warmup\": 1,\n"
	"    \"loss_rtol\": 0.001,\n"
	"    \"loss_scale\": 2.5,\n"
	"    \"arms\": [\n"
	"      {\n"
	"        \"arm\": \"keep-off\",\n"
	"        \"numerics\": null,\n"
	"        \"ms_per_step\": [\n"
	"          8.5,\n"
	"          null\n"
	"        ],\n"
	"        \"step_source\": \"hook\",\n"
	"        \"median_ms\": 8.5,\n"
	"        \"vs_default\": null,\n"
	"        \"gpu_ms_per_step\": [\n"
	"          0.25,\n"
	"          null\n"
	"        ],\n"
	"        \"gpu_median_ms\": 0.25,\n"
	"        \"gpu_vs_default\": null,\n"
	"        \"loss_max_rel_diff\": null,\n"
	"        \"loss_equal\": null,\n"
	"        \"keep_off\": {\n"
	"          \"regions\": [\n"
	"            {\n"
	"              \"region\": \"m:f\",\n"
	"              \"calls\": [\n"
	"                3\n"
	"              ]\n"
	"            }\n"
	"          ],\n"
	"          \"vs\": \"default\",\n"
	"          \"ratio\": " STATS("0.85", "0.8", "0.9") ",\n"
	"          \"verdict\": \"faster\",\n"
	"          \"proposal\": \"confirmed\"\n"
	"        }\n"
	"      }\n"
	"    ],\n"
	"    \"applied_vs\": [\n"
	"      {\n"
	"        \"arm\": \"keep-off\",\n"
	"        \"numerics\": null,\n"
	"        \"ratio\": null,\n"
	"        \"slower_beyond_noise\": null,\n"
	"        \"gpu_ratio\": null,\n"
	"        \"gpu_slower_beyond_noise\": null\n"
	"      }\n"
	"    ],\n"
	"    \"step\": {\n"
	STEP_NULLS("      ")
	"    },\n"
	"    \"stopped\": {\n"
	"      \"signal\": \"SIGTERM\",\n"
	"      \"run\": null,\n"
	"      \"complete_rounds\": 0\n"
	"    }\n"
	"  },\n"
	"  \"recommended_arms\": [\n"
	"    {\n"
	"      \"arm\": \"keep-off\",\n"
	"      \"rule\": \"graph_break\",\n"
	"      \"op\": null,\n"
	"      \"kernel\": \"k\",\n"
	"      \"share\": 0.25,\n"
	"      \"in_ab\": true,\n"
	"      \"where\": \"m.py:3 in f\",\n"
	"      \"keep_off\": null\n"
	"    }\n"
	"  ],\n"
	"  \"keep_slower\": false,\n"
	"  \"slower_in_step\": [],\n"
	"  \"left_out\": []\n"
	"}\n";

static char *written(const struct apply_doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(apply_doc_write(fp, d), 0);
	fclose(fp);
	return text;
}

/* Reads `text` into d (rf_release frees it) and checks that it writes back the same. */
static void read_back(const char *text, struct apply_doc *d)
{
	struct buf err = BUF_INIT;
	json_t *j = json_loads(text, 0, NULL);
	char *again;

	assert_non_null(j);
	rf_init(&apply_doc_desc, d);
	assert_int_equal(apply_doc_read(d, j, "apply.json", &err), 0);
	again = written(d);
	assert_string_equal(again, text);
	free(again);
	json_decref(j);
	buf_release(&err);
}

static void test_plan_only(void **state)
{
	struct apply_doc d;

	(void)state;
	read_back(plan_only, &d);
	assert_null(d.command);
	assert_false(d.has_ab);
	assert_true(d.has_step);
	assert_string_equal(d.step.note, "the RUN has no profile");
	assert_int_equal(d.step.within_1pp, RF_TRI_UNKNOWN);
	assert_int_equal(d.nkernels, 2);
	assert_true(d.kernels[0].has_detail);
	assert_null(d.kernels[0].detail);
	assert_false(d.kernels[0].has_measured);
	assert_false(d.kernels[0].has_proof);
	assert_float_equal(d.kernels[0].predicted_warm_speedup, 1.2, 0);
	assert_true(isnan(d.kernels[1].predicted_speedup));
	assert_true(isnan(d.kernels[1].predicted_warm_speedup));
	assert_string_equal(d.kernels[1].detail, "the 95% interval includes 1");
	assert_int_equal(d.summary.not_planned, 1);
	assert_int_equal(d.left_out.nr, 1);
	assert_string_equal(d.left_out.v[0].of, "plan");
	rf_release(&apply_doc_desc, &d);
}

static void test_with_ab(void **state)
{
	struct apply_doc d;
	const struct apply_row *row;
	const struct apply_arm *arm;

	(void)state;
	read_back(with_ab, &d);
	assert_int_equal(json_array_size(d.command), 2);
	assert_true(d.has_ab);
	assert_false(d.has_step);
	row = &d.kernels[0];
	assert_true(row->has_measured);
	assert_int_equal(row->measured.rounds, 2);
	assert_float_equal(row->measured.applied_us_per_step, 100, 0);
	assert_true(row->has_proof);
	assert_int_equal(json_integer_value(row->launches), 5);
	assert_false(row->has_detail);
	assert_int_equal(d.runs.nr, 1);
	assert_int_equal(d.runs.v[0].round, -1);
	assert_int_equal(d.runs.v[0].keep_off.nr, 1);
	assert_string_equal(d.runs.v[0].keep_off.v[0].status, "took_effect");
	assert_int_equal(d.runs.v[0].keep_off.v[0].calls, 3);
	assert_false(d.runs.v[0].has_hook_steps);
	assert_false(d.runs.v[0].has_kernel_window);
	arm = &d.ab.arms[0];
	assert_false(arm->has_vs_default);
	assert_float_equal(arm->gpu_median_ms, 0.25, 0);
	assert_false(arm->has_gpu_vs_default);
	assert_true(isnan(d.ab.step.gpu_busy));
	assert_int_equal(d.ab.step.gpu_within_1pp, RF_TRI_UNKNOWN);
	assert_int_equal(arm->loss_equal, RF_TRI_UNKNOWN);
	assert_float_equal(d.ab.loss_scale, 2.5, 0);
	assert_true(arm->has_keep_off);
	assert_true(arm->keep_off.has_ratio);
	assert_float_equal(arm->keep_off.ratio.median, 0.85, 0);
	assert_string_equal(arm->keep_off.regions[0].region, "m:f");
	assert_true(d.ab.has_stopped);
	assert_string_equal(d.ab.stopped.signal, "SIGTERM");
	assert_int_equal(d.ab.stopped.run, -1);
	assert_int_equal(d.ab.stopped.complete_rounds, 0);
	assert_false(d.ab.applied_vs[0].has_ratio);
	assert_int_equal(d.ab.applied_vs[0].slower_beyond_noise, RF_TRI_UNKNOWN);
	assert_true(d.recommended_arms.v[0].has_where);
	assert_true(d.recommended_arms.v[0].has_keep_off);
	assert_null(d.recommended_arms.v[0].keep_off);
	rf_release(&apply_doc_desc, &d);
}

static void expect_error(const char *text, const char *field)
{
	struct apply_doc d;
	struct buf err = BUF_INIT;
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	rf_init(&apply_doc_desc, &d);
	assert_int_equal(apply_doc_read(&d, j, "run/apply/apply.json", &err), -1);
	assert_null(strchr(err.buf, '\n'));
	assert_non_null(strstr(err.buf, "'run/apply/apply.json'"));
	assert_non_null(strstr(err.buf, field));
	json_decref(j);
	buf_release(&err);
	rf_release(&apply_doc_desc, &d);
}

static void test_wrong_types(void **state)
{
	(void)state;
	expect_error("{\"summary\": {\"planned\": \"3\"}}", "summary.planned");
	expect_error("{\"kernels\": [{\"id\": \"k\", \"kernel\": \"k\", \"measured\": 3}]}",
		     "kernels[0].measured");
	expect_error("{\"runs\": [{\"arm\": \"default\", \"round\": 0.5}]}", "runs[0].round");
	expect_error("{\"ab\": {\"arms\": [{\"arm\": \"a\", \"keep_off\": {\"regions\": 1}}]}}",
		     "ab.arms[0].keep_off.regions");
	expect_error("{\"slower_in_step\": [{\"id\": \"k\", \"kernel\": \"k\", \"config\": []}]}",
		     "slower_in_step[0].config");
	expect_error("{\"kernels\": [{\"id\": \"k\"}]}", "kernels[0].kernel");
	expect_error("{\"runs\": [{\"arm\": \"keep-off\", \"keep_off\": [{\"region\": \"m:f\", "
		     "\"status\": \"took_effect\", \"calls\": -1}]}]}", "runs[0].keep_off[0].calls");
	expect_error("{\"runs\": [{\"arm\": \"default\", \"kernel_window\": {\"kernels\": []}}]}",
		     "runs[0].kernel_window.kernels");
	expect_error("{\"runs\": [{\"arm\": \"default\", \"kernel_window\": {\"gpu_us_per_step\": -1, \"kernels\": {}}}]}",
		     "runs[0].kernel_window.gpu_us_per_step");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_only),
		cmocka_unit_test(test_with_ab),
		cmocka_unit_test(test_wrong_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
