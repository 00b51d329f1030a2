/*
 * Unit tests for apply/steps, expected values by hand:
 * - the warm-up chosen: 1 step for 1 to 10 steps, 2 for 11 to 20, 50 from
 *   491 steps on;
 * - ms [null, 100, 4, 2, 3, 5, 6, 1, 3, 2, 4, 2] (12 steps): the chosen
 *   warm-up is 2 (a tenth of 12 rounded up), so steps 2..11 are timed,
 *   (4+2+3+5+6+1+3+2+4+2) / 10 = 3.2; with warm-up 1, 100 counts too:
 *   132 / 11 = 12; with warm-up 12 nothing is left (NAN);
 * - a null inside the timed steps is not counted: [null, 9, 2, null, 4]
 *   with warm-up 2: (2 + 4) / 2 = 3; the kernel window's steps and the
 *   one after it neither: window [3, 6) of the 12 steps above, auto
 *   warm-up 2: steps 2, 7..11, (4 + 1+3+2+4+2) / 6 = 16 / 6;
 * - the kernel window of tests/data/apply/kernel_window.json (2 steps):
 *   triton_poi_fused_zeros_0 3 launches, 10+12+14 us: 1.5 calls and 18 us
 *   a step; triton_red_fused_x_1 (5+7)/2 = 6 us, 1 call; the GEMM not named;
 *   the whole GPU time 10+5+50+12+4+7+14 = 102 us, 51 a step: tuned
 *   (10+12+14+5+7)/2 = 24, the rest (the GEMM and the copy) (50+4)/2 = 27;
 * - tests/data/apply/kernel_window_gpu.json (2 steps, every GPU activity
 *   kind): named triton_poi_fused_zeros_0 10+14 and triton_red_fused_x_1 6
 *   us: tuned 30/2 = 15 a step; the rest: an unnamed Triton kernel 3+5, a
 *   cuBLAS GEMM 40+42, a flash-attention kernel 20, a copy 4, a fill 2:
 *   116/2 = 58; the whole GPU time 146/2 = 73. Its ProfilerStep ranges
 *   (CPU and GPU annotation, 200 and 500 us), the CPU op and the launch
 *   are not GPU activities and count nowhere;
 * - the join: default 20, 22, 18 us and applied 16, 20, 15 us in rounds
 *   0..2: ratios 1.25, 1.1, 1.2, median 1.2; medians 20 and 16; round 3
 *   has no applied window and the warm-up run (round -1) is not measured.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apply/kwindow.h"
#include "apply/steps.h"

static void test_auto_warmup(void **state)
{
	(void)state;
	assert_int_equal(apply_steps_auto_warmup(0), 1);
	assert_int_equal(apply_steps_auto_warmup(1), 1);
	assert_int_equal(apply_steps_auto_warmup(10), 1);
	assert_int_equal(apply_steps_auto_warmup(11), 2);
	assert_int_equal(apply_steps_auto_warmup(20), 2);
	assert_int_equal(apply_steps_auto_warmup(490), 49);
	assert_int_equal(apply_steps_auto_warmup(491), 50);
	assert_int_equal(apply_steps_auto_warmup(100000), 50);
}

static void test_mean_after_warmup(void **state)
{
	json_t *ev = json_loads("{\"event\": \"steps\", \"role\": \"main\", \"source\": \"optimizer\","
				" \"clock\": \"perf_counter\", \"ms\": [null, 100, 4, 2, 3, 5, 6, 1, 3, 2, 4, 2],"
				" \"losses\": [2.5, 2.4, 2.3]}", 0, NULL);
	struct apply_steps st = APPLY_STEPS_INIT;

	(void)state;
	assert_int_equal(apply_steps_from_event(&st, ev, -1, NULL), 0);
	assert_int_equal(st.steps, 12);
	assert_int_equal(st.warmup, 2);
	assert_int_equal(st.timed, 10);
	assert_true(fabs(st.ms_per_step - 3.2) < 1e-12);
	assert_string_equal(st.source, "optimizer");
	assert_string_equal(st.clock, "perf_counter");
	assert_int_equal(json_array_size(st.losses), 3);
	assert_int_equal(apply_steps_from_event(&st, ev, 1, NULL), 0);
	assert_int_equal(st.timed, 11);
	assert_true(fabs(st.ms_per_step - 12) < 1e-12);
	assert_int_equal(apply_steps_from_event(&st, ev, 12, NULL), 0);
	assert_int_equal(st.timed, 0);
	assert_true(isnan(st.ms_per_step));
	apply_steps_release(&st);
	json_decref(ev);
	ev = json_loads("{\"event\": \"steps\", \"ms\": [null, 9, 2, null, 4]}", 0, NULL);
	assert_int_equal(apply_steps_from_event(&st, ev, 2, NULL), 0);
	assert_int_equal(st.timed, 2);
	assert_true(fabs(st.ms_per_step - 3) < 1e-12);
	assert_null(st.source);
	assert_null(st.losses);
	apply_steps_release(&st);
	json_decref(ev);
}

static void test_window_left_out(void **state)
{
	json_t *ev = json_loads("{\"event\": \"steps\", \"ms\": [null, 100, 4, 2, 3, 5, 6, 1, 3, 2, 4, 2], \"window\": [3, 6]}", 0, NULL);
	struct apply_steps st = APPLY_STEPS_INIT;

	(void)state;
	assert_int_equal(apply_steps_from_event(&st, ev, -1, NULL), 0);
	assert_int_equal(st.window[0], 3);
	assert_int_equal(st.window[1], 6);
	assert_int_equal(st.timed, 6);
	assert_true(fabs(st.ms_per_step - 16.0 / 6) < 1e-12);
	apply_steps_release(&st);
	json_decref(ev);
}

static void test_kernel_window_read(void **state)
{
	static const char *const names[] = { "triton_poi_fused_zeros_0", "triton_red_fused_x_1", "absent" };
	struct apply_kwindow w;
	const json_t *k;

	(void)state;
	memset(&w, 0, sizeof(w));
	apply_kwindow_read("tests/data/apply/kernel_window.json", 2, names, 3, &w);
	k = w.kernels;
	assert_null(w.note);
	assert_int_equal(w.steps, 2);
	assert_int_equal(json_object_size(k), 2);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(k, names[0]), "calls_per_step")) - 1.5) < 1e-12);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(k, names[0]), "us_per_step")) - 18) < 1e-12);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(k, names[1]), "calls_per_step")) - 1) < 1e-12);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(k, names[1]), "us_per_step")) - 6) < 1e-12);
	assert_true(fabs(w.gpu_us_per_step - 51) < 1e-12);
	assert_true(fabs(w.tuned_us_per_step - 24) < 1e-12);
	assert_true(fabs(w.other_us_per_step - 27) < 1e-12);
	free(w.trace);
	json_decref(w.kernels);
	memset(&w, 0, sizeof(w));
	apply_kwindow_read("/nonexistent/kernel_window.json", 2, names, 3, &w);
	assert_non_null(strstr(w.note, "/nonexistent/kernel_window.json"));
	assert_int_equal(json_object_size(w.kernels), 0);
	assert_true(isnan(w.gpu_us_per_step) && isnan(w.tuned_us_per_step) && isnan(w.other_us_per_step));
	free(w.trace);
	free(w.note);
	json_decref(w.kernels);
}

static void test_kernel_window_gpu_time(void **state)
{
	static const char *const names[] = { "triton_poi_fused_zeros_0", "triton_red_fused_x_1" };
	struct apply_kwindow w;
	const json_t *k;

	(void)state;
	memset(&w, 0, sizeof(w));
	apply_kwindow_read("tests/data/apply/kernel_window_gpu.json", 2, names, 2, &w);
	k = w.kernels;
	assert_null(w.note);
	assert_int_equal(json_object_size(k), 2);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(k, names[0]), "us_per_step")) - 12) < 1e-12);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(k, names[1]), "us_per_step")) - 3) < 1e-12);
	assert_true(fabs(w.tuned_us_per_step - 15) < 1e-12);
	assert_true(fabs(w.other_us_per_step - 58) < 1e-12);
	assert_true(fabs(w.gpu_us_per_step - 73) < 1e-12);
	free(w.trace);
	json_decref(w.kernels);
	/* no kernel named: all of it is the rest */
	memset(&w, 0, sizeof(w));
	apply_kwindow_read("tests/data/apply/kernel_window_gpu.json", 2, names, 0, &w);
	assert_true(fabs(w.tuned_us_per_step) < 1e-12);
	assert_true(fabs(w.other_us_per_step - 73) < 1e-12);
	assert_true(fabs(w.gpu_us_per_step - 73) < 1e-12);
	free(w.trace);
	json_decref(w.kernels);
}

static void test_kernel_gain_join(void **state)
{
	const char *text =
		"[{\"arm\": \"default\", \"round\": -1, \"measured\": false,"
		"  \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 900}}}},"
		" {\"arm\": \"default\", \"round\": 0, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 20}}}},"
		" {\"arm\": \"applied\", \"round\": 0, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 16}}}},"
		" {\"arm\": \"applied\", \"round\": 1, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 20}}}},"
		" {\"arm\": \"default\", \"round\": 1, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 22}}}},"
		" {\"arm\": \"coordesc\", \"round\": 1, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 1}}}},"
		" {\"arm\": \"default\", \"round\": 2, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 18}}}},"
		" {\"arm\": \"applied\", \"round\": 2, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 15}}}},"
		" {\"arm\": \"default\", \"round\": 3, \"measured\": true, \"kernel_window\": {\"kernels\": {\"k\": {\"us_per_step\": 30}}}},"
		" {\"arm\": \"applied\", \"round\": 3, \"measured\": true, \"kernel_window\": null}]";
	json_t *list = json_loads(text, 0, NULL);
	struct apply_runs runs = APPLY_RUNS_INIT;
	struct apply_kgain g;
	struct buf err = BUF_INIT;

	(void)state;
	assert_non_null(list);
	assert_int_equal(apply_runs_read(&runs, list, "runs.json", &err), 0);
	assert_int_equal(apply_kernel_gain(&runs, "k", 4, &g), 3);
	assert_true(fabs(g.gain - 1.2) < 1e-12);
	assert_true(fabs(g.default_us - 20) < 1e-12);
	assert_true(fabs(g.applied_us - 16) < 1e-12);
	/* ratios 1.25, 1.1, 1.2: t-interval by hand (t 4.303, 2 df) [1.00473, 1.38976] */
	assert_true(fabs(g.lo - 1.0047271931856354) < 1e-9);
	assert_true(fabs(g.hi - 1.3897642616804675) < 1e-9);
	assert_string_equal(apply_kgain_verdict(&g), "faster");
	assert_int_equal(apply_kernel_gain(&runs, "other", 4, &g), 0);
	assert_true(isnan(g.gain));
	assert_string_equal(apply_kgain_verdict(&g), "not_seen");
	apply_runs_release(&runs);
	json_decref(list);
	buf_release(&err);
}

/* Measured rounds of one kernel "k": default d[r] us a step, applied a[r]. */
static struct apply_runs kernel_rounds(const double *d, const double *a, int n)
{
	struct apply_runs typed = APPLY_RUNS_INIT;
	struct buf err = BUF_INIT;
	json_t *runs = json_array();
	int r;

	for (r = 0; r < n; r++) {
		json_array_append_new(runs, json_pack("{s:s, s:i, s:b, s:{s:{s:{s:f}}}}", "arm", "default",
						      "round", r, "measured", 1, "kernel_window", "kernels",
						      "k", "us_per_step", d[r]));
		json_array_append_new(runs, json_pack("{s:s, s:i, s:b, s:{s:{s:{s:f}}}}", "arm", "applied",
						      "round", r, "measured", 1, "kernel_window", "kernels",
						      "k", "us_per_step", a[r]));
	}
	assert_int_equal(apply_runs_read(&typed, runs, "runs.json", &err), 0);
	json_decref(runs);
	buf_release(&err);
	return typed;
}

/*
 * The verdict beyond the window's noise. Expected intervals computed by
 * hand (python3, math.log/exp; t 4.303 for 2 df, 12.706 for 1): the
 * geometric mean of the ratios default/applied, exp(m +- t s / sqrt(n)).
 */
static void test_kernel_verdict(void **state)
{
	static const double hundred[3] = { 100, 100, 100 };
	static const double slow[3] = { 90, 91, 92 };		/* 0.90, 0.91, 0.92 */
	static const double mixed[3] = { 90, 110, 100 };	/* 0.9, 1.1, 1.0 */
	static const double two[2] = { 90, 95 };		/* 0.90, 0.95 */
	struct apply_kgain g;
	struct apply_runs runs;

	(void)state;
	runs = kernel_rounds(slow, hundred, 3);
	assert_int_equal(apply_kernel_gain(&runs, "k", 3, &g), 3);
	assert_true(fabs(g.gain - 0.91) < 1e-12);
	assert_true(fabs(g.geomean - 0.90996336848881) < 1e-9);
	assert_true(fabs(g.lo - 0.8854559304922885) < 1e-9);
	assert_true(fabs(g.hi - 0.9351491175073372) < 1e-9);
	assert_string_equal(apply_kgain_verdict(&g), "slower");
	apply_runs_release(&runs);

	runs = kernel_rounds(mixed, hundred, 3);
	apply_kernel_gain(&runs, "k", 3, &g);
	assert_true(fabs(g.lo - 0.7766843620955692) < 1e-9);
	assert_true(fabs(g.hi - 1.2789264481512503) < 1e-9);
	assert_string_equal(apply_kgain_verdict(&g), "inconclusive");
	apply_runs_release(&runs);

	/* two rounds, both below 1: t = 12.706 makes the interval [0.6559, 1.3036] */
	runs = kernel_rounds(two, hundred, 2);
	apply_kernel_gain(&runs, "k", 2, &g);
	assert_true(fabs(g.hi - 1.3036423464731306) < 1e-9);
	assert_string_equal(apply_kgain_verdict(&g), "inconclusive");
	apply_runs_release(&runs);

	/* one round, however slow: no interval, never "slower" */
	runs = kernel_rounds(slow, hundred, 1);
	assert_int_equal(apply_kernel_gain(&runs, "k", 1, &g), 1);
	assert_true(fabs(g.gain - 0.9) < 1e-12);
	assert_true(isnan(g.lo) && isnan(g.hi));
	assert_string_equal(apply_kgain_verdict(&g), "inconclusive");
	apply_runs_release(&runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_warmup),
		cmocka_unit_test(test_mean_after_warmup),
		cmocka_unit_test(test_window_left_out),
		cmocka_unit_test(test_kernel_window_read),
		cmocka_unit_test(test_kernel_window_gpu_time),
		cmocka_unit_test(test_kernel_gain_join),
		cmocka_unit_test(test_kernel_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
