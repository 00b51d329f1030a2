/*
 * Unit tests for env/peak: each caller's order, which recorded rates
 * count, an env.json read from its path, the measurement asked for only
 * when it is reached, and the source texts the analysis has always
 * written (analyse/share.c before the resolver, quoted here by hand).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "env/peak.h"

static int measured;

static double measure_1500(void *data)
{
	(void)data;
	measured++;
	return 1500;
}

static double measure_fails(void *data)
{
	(void)data;
	measured++;
	return -1;
}

/* A loaded env.json whose measured copy rate is gbps (NAN: none measured). */
static struct env_doc *env_with(double gbps)
{
	struct env_doc *d = malloc(sizeof(*d));

	assert_non_null(d);
	env_doc_init(d);
	d->bandwidth.copy_gbps = gbps;
	return d;
}

static void env_free(struct env_doc *d)
{
	env_doc_release(d);
	free(d);
}

static void test_analyse_order(void **state)
{
	struct peak_inputs in = PEAK_INPUTS_INIT;
	struct peak p = PEAK_INIT;
	struct env_doc *env = env_with(4000);
	char *text;

	(void)state;
	in.order = peak_order_analyse;
	in.zero_counts = 1;
	in.env = env;
	in.env_path = "run/env.json";
	in.replay_gbps = 3000;
	in.option = 2000;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_OPTION);
	assert_true(p.gbps == 2000);
	text = peak_source_text(&p);
	assert_string_equal(text, "--peak-gbps");
	free(text);
	peak_release(&p);

	in.option = 0;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_ENV_JSON);
	assert_true(p.gbps == 4000);
	assert_string_equal(p.where, "run/env.json");
	text = peak_source_text(&p);
	assert_string_equal(text, "run/env.json: a device-to-device copy, read + written bytes");
	free(text);
	peak_release(&p);

	in.env = NULL;
	in.env_path = NULL;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_REPLAY_DOC);
	assert_true(p.gbps == 3000);
	text = peak_source_text(&p);
	assert_string_equal(text, "the replay document's peak (tko run)");
	free(text);
	peak_release(&p);

	in.replay_gbps = NAN;
	assert_int_equal(peak_resolve(&in, &p), 0);
	assert_int_equal(p.source, PEAK_NONE);
	assert_null(p.where);
	assert_null(peak_source_text(&p));
	env_free(env);
}

static void test_zero_and_bad_rates(void **state)
{
	struct peak_inputs in = PEAK_INPUTS_INIT;
	struct peak p = PEAK_INIT;
	struct env_doc *zero = env_with(0), *none = env_with(NAN);

	(void)state;
	in.order = peak_order_analyse;
	in.env = zero;
	in.env_path = "env.json";
	in.replay_gbps = 3000;
	/* without zero_counts a recorded 0 is no peak: the replay's is next */
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_REPLAY_DOC);
	peak_release(&p);
	/* the analysis takes it */
	in.zero_counts = 1;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_ENV_JSON);
	assert_true(p.gbps == 0);
	peak_release(&p);
	/* no rate measured, a negative option: skipped */
	in.env = none;
	in.option = -5;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_REPLAY_DOC);
	peak_release(&p);
	env_free(zero);
	env_free(none);
}

static void test_env_read_from_path(void **state)
{
	char dir[] = "/tmp/tko-test-peak.XXXXXX", path[64], bad[64];
	struct peak_inputs in = PEAK_INPUTS_INIT;
	struct peak p = PEAK_INIT;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/env.json", dir);
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	fp = fopen(path, "w");
	fputs("{\"bandwidth\": {\"copy_gbps\": 4243.5, \"repeats\": 20}}\n", fp);
	fclose(fp);
	fp = fopen(bad, "w");
	fputs("{\"bandwidth\": \n", fp);
	fclose(fp);
	in.order = peak_order_replay;
	in.env_path = path;
	in.replay_gbps = 3000;	/* not in tko run's order */
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_ENV_JSON);
	assert_true(p.gbps == 4243.5);
	assert_string_equal(p.where, path);
	peak_release(&p);
	in.env_path = bad;
	assert_int_equal(peak_resolve(&in, &p), 0);
	in.env_path = "/nonexistent/env.json";
	assert_int_equal(peak_resolve(&in, &p), 0);
	unlink(path);
	unlink(bad);
	rmdir(dir);
}

/*
 * tko run took env.json's copy rate by key, whatever else the file held:
 * read typed, a file with other members wrong still gives its rate, and
 * one whose rate is not a number >= 0 gives none.
 */
static void test_env_file_lenient(void **state)
{
	static const struct { const char *text; double gbps; } cases[] = {
		{ "{\"gpus\": 3, \"dcu\": \"x\", \"bandwidth\": {\"copy_gbps\": 100, \"repeats\": \"20\"}}", 100 },
		{ "{\"bandwidth\": {\"copy_gbps\": 2.5e3, \"method\": 7}}", 2500 },
		{ "{\"bandwidth\": {\"copy_gbps\": \"fast\"}}", 0 },
		{ "{\"bandwidth\": {\"copy_gbps\": -5}}", 0 },
		{ "{\"bandwidth\": [4000]}", 0 },
		{ "[1]", 0 },
	};
	char dir[] = "/tmp/tko-test-peak.XXXXXX", path[64];
	struct peak_inputs in = PEAK_INPUTS_INIT;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/env.json", dir);
	in.order = peak_order_replay;
	in.env_path = path;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct peak p = PEAK_INIT;
		FILE *fp = fopen(path, "w");

		assert_non_null(fp);
		fputs(cases[i].text, fp);
		fclose(fp);
		assert_int_equal(peak_resolve(&in, &p), cases[i].gbps > 0);
		if (cases[i].gbps == 0 ? p.source != PEAK_NONE : p.gbps != cases[i].gbps)
			fail_msg("%s: %g", cases[i].text, p.gbps);
		peak_release(&p);
	}
	unlink(path);
	rmdir(dir);
}

static void test_tune_measures_only_when_reached(void **state)
{
	struct peak_inputs in = PEAK_INPUTS_INIT;
	struct peak p = PEAK_INIT;
	struct env_doc *env = env_with(4000);

	(void)state;
	in.order = peak_order_tune;
	in.env = env;	/* not in tko tune's order */
	in.measure = measure_1500;
	in.option = 2000;
	measured = 0;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_OPTION);
	assert_int_equal(measured, 0);
	peak_release(&p);
	in.option = 0;
	assert_int_equal(peak_resolve(&in, &p), 1);
	assert_int_equal(p.source, PEAK_MEASURED);
	assert_true(p.gbps == 1500);
	assert_string_equal(p.where, "tune worker");
	assert_int_equal(measured, 1);
	peak_release(&p);
	in.measure = measure_fails;
	assert_int_equal(peak_resolve(&in, &p), 0);
	assert_int_equal(measured, 2);
	in.measure = NULL;	/* --compile-only: nothing to time */
	assert_int_equal(peak_resolve(&in, &p), 0);
	env_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_analyse_order),
		cmocka_unit_test(test_env_file_lenient),
		cmocka_unit_test(test_zero_and_bad_rates),
		cmocka_unit_test(test_env_read_from_path),
		cmocka_unit_test(test_tune_measures_only_when_reached),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
