/*
 * Unit tests for model/replay (the "tko run" document typed) and
 * report/replay_text (tko run's table). The recorded bytes are the golden
 * suite's: tests/golden/run/fake-mismatch (out.json and stdout) and
 * fake-ok (the kept run/analysis/replay.json), written by jansson from a
 * string-keyed tree before the document had a struct. The child-shaped
 * objects below are written by hand from python/tko/replay.py's keys,
 * their summary counted by hand. Also replay_into_run() on a bad directory.
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

#include "json/jsonio.h"
#include "model/replay.h"
#include "report/replay_text.h"
#include "run/replay.h"
#include "util/file.h"
#include "util/mem.h"
#include "test-file.h"

#define MISMATCH "tests/golden/run/fake-mismatch/expected/"
#define KEPT "tests/golden/run/fake-ok/expected/run/analysis/replay.json"

static void read_text(struct replay_doc *d, const char *text)
{
	struct buf err = BUF_INIT;
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);

	assert_non_null(j);
	replay_doc_init(d);
	assert_int_equal(replay_doc_read(d, j, "test", &err), 0);
	json_decref(j);
	buf_release(&err);
}

static void read_file(struct replay_doc *d, const char *path)
{
	size_t n;
	char *text = test_read_file(path, &n);

	read_text(d, text);
	free(text);
}

/* Read and written back, a recorded document is the same bytes. */
static void round_trip(const char *path)
{
	struct replay_doc d;
	struct buf err = BUF_INIT;
	char tmp[] = "/tmp/test-model-replay.XXXXXX";
	char *want, *got;
	size_t nwant, ngot;
	int fd = mkstemp(tmp);

	assert_true(fd >= 0);
	read_file(&d, path);
	assert_int_equal(replay_doc_save(&d, tmp, &err), 0);
	want = test_read_file(path, &nwant);
	got = test_read_file(tmp, &ngot);
	assert_string_equal(got, want);
	unlink(tmp);
	free(want);
	free(got);
	replay_doc_release(&d);
	buf_release(&err);
}

static void test_round_trip(void **state)
{
	(void)state;
	round_trip(MISMATCH "out.json");
	round_trip(KEPT);
}

/* The table of the recorded document is the recorded stdout of tko run --json FILE. */
static void test_text(void **state)
{
	struct replay_doc d;
	char *want, *got = NULL;
	size_t nwant, ngot = 0;
	FILE *fp = open_memstream(&got, &ngot);

	(void)state;
	read_file(&d, MISMATCH "out.json");
	replay_text_print(fp, &d);
	fclose(fp);
	want = test_read_file(MISMATCH "stdout", &nwant);
	assert_string_equal(got, want);
	free(want);
	free(got);
	replay_doc_release(&d);
}

/*
 * The child's document: its keys keep their order and presence (a config
 * that failed has no time_ms and no outputs_match), what tko adds follows.
 */
static const char child[] =
	"{\"versions\": {\"torch\": \"x\"}, \"error\": null, \"kernels\": ["
	"{\"kernel_dir\": \"a\", \"kernel\": \"ka\", \"error\": null, \"configs\": ["
	" {\"index\": 0, \"captured\": true, \"phase\": null, \"config\": {\"kwargs\": {}},"
	"  \"recorded_time_ms\": 0.5, \"error\": null, \"outputs_match\": true, \"time_ms\": 0.25},"
	" {\"index\": 1, \"captured\": false, \"error\": \"RuntimeError: x\"}]},"
	"{\"kernel_dir\": \"b\", \"kernel\": null, \"error\": \"ImportError: y\", \"configs\": []},"
	"{\"kernel_dir\": \"c\", \"kernel\": \"kc\", \"error\": null, \"configs\": ["
	" {\"index\": 0, \"outputs_match\": false, \"time_ms\": 1.0}]}]}";

static void assert_keys(const json_t *o, const char *const *want)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	json_object_foreach((json_t *)o, key, v) {
		assert_non_null(want[i]);
		assert_string_equal(key, want[i]);
		i++;
	}
	assert_null(want[i]);
}

static void test_child_order(void **state)
{
	static const char *const cfg0[] = { "index", "captured", "phase", "config",
		"recorded_time_ms", "error", "outputs_match", "time_ms", "gbps", "copy_fraction",
		"rate_doubt", "autotuner_method_vs_recorded", NULL };
	static const char *const cfg1[] = { "index", "captured", "error", "gbps", "copy_fraction",
		"rate_doubt", "autotuner_method_vs_recorded", NULL };
	static const char *const kernel[] = { "kernel_dir", "kernel", "error", "configs",
		"footprint_bytes", "inductor_num_bytes", "bytes", "bytes_estimate", "bytes_note", NULL };
	static const char *const top[] = { "schema_version", "tool", "peak", "replay", "kernels",
		"summary", NULL };
	struct replay_doc d;
	json_t *j, *k0;

	(void)state;
	read_text(&d, child);
	d.kernels[0].configs[0].gbps = 10;
	j = replay_doc_to_json(&d);
	assert_keys(j, top);
	k0 = json_array_get(json_object_get(j, "kernels"), 0);
	assert_keys(k0, kernel);
	assert_keys(json_array_get(json_object_get(k0, "configs"), 0), cfg0);
	assert_keys(json_array_get(json_object_get(k0, "configs"), 1), cfg1);
	assert_true(json_is_null(json_object_get(j, "peak")));
	assert_string_equal(json_str(json_object_get(j, "replay"), "torch"), "x");
	assert_true(json_number_value(json_object_get(json_array_get(json_object_get(k0, "configs"), 0),
						      "gbps")) == 10);
	json_decref(j);
	replay_doc_release(&d);
}

/*
 * By hand: 3 kernels; b failed; a has a config with an error and c one
 * whose outputs differ, so both disagree; configs 2 + 0 + 1.
 */
static void test_summary(void **state)
{
	struct replay_doc d;

	(void)state;
	read_text(&d, child);
	assert_int_equal(d.summary.kernels, 3);
	assert_int_equal(d.summary.failed, 1);
	assert_int_equal(d.summary.mismatched, 2);
	assert_int_equal(d.summary.configs, 3);
	assert_true(replay_true(d.kernels[0].configs[0].captured));
	assert_false(replay_true(d.kernels[0].configs[1].outputs_match));
	assert_true(isnan(d.kernels[0].configs[1].time_ms));
	replay_doc_release(&d);
}

/* A config without outputs_match and without an error does not disagree. */
static void test_missing_flag_agrees(void **state)
{
	struct replay_doc d;

	(void)state;
	read_text(&d, "{\"kernels\": [{\"kernel_dir\": \"a\", \"configs\": [{\"time_ms\": 1}]}]}");
	assert_int_equal(d.summary.mismatched, 0);
	assert_int_equal(replay_kernel_disagrees(&d.kernels[0]), 0);
	replay_doc_release(&d);
}

/*
 * replay_into_run() refuses a directory that is not a kernel directory
 * before any child starts: tko run's exit status 1 and its message
 * (tests/golden/run/bad-dirs), no document and nothing kept.
 */
static void test_into_run_bad_dir(void **state)
{
	struct replay_opts o = REPLAY_OPTS_INIT;
	struct replay_outcome out = REPLAY_OUTCOME_INIT;
	struct strlist dirs = STRLIST_INIT;

	(void)state;
	strlist_push(&dirs, "no-such-dir");
	assert_int_equal(replay_into_run(&dirs, &o, 1, &out), 1);
	assert_int_equal(out.exit_code, 1);
	assert_null(out.doc);
	assert_null(out.kept);
	assert_string_equal(out.error, "'no-such-dir' is not a kernel directory");
	replay_outcome_release(&out);
	assert_null(out.error);
	strlist_release(&dirs);
}

/*
 * The reader checks what util/jcheck.c's table in run/replay.c checked
 * before the table's flags took it over; each message below is what
 * that table said for the same document (its words, jcheck.c's what()).
 */
static void test_checks(void **state)
{
	static const struct { const char *doc, *msg; } cases[] = {
		{ "[]", "'t' is not a JSON object" },
		{ "{}", "'t': kernels: missing" },
		{ "{\"kernels\": null}", "'t': kernels: null where a list of objects belongs" },
		{ "{\"kernels\": [1]}", "'t': kernels: not a list of objects" },
		{ "{\"kernels\": [], \"peak\": 3}", "'t': peak: not an object" },
		{ "{\"kernels\": [], \"peak\": {\"copy_gbps\": -1}}",
		  "'t': peak.copy_gbps: not a rate (a number >= 0)" },
		{ "{\"kernels\": [], \"peak\": {\"source\": 1}}", "'t': peak.source: not a string" },
		{ "{\"kernels\": [{\"kernel\": 1}]}", "'t': kernels[0].kernel: not a string" },
		{ "{\"kernels\": [{\"footprint_bytes\": -2}]}",
		  "'t': kernels[0].footprint_bytes: not a count (an integer >= 0)" },
		{ "{\"kernels\": [{\"bytes\": -2}]}", "'t': kernels[0].bytes: not a rate (a number >= 0)" },
		{ "{\"kernels\": [{\"bytes_estimate\": 1}]}", "'t': kernels[0].bytes_estimate: not true or false" },
		{ "{\"kernels\": [{\"configs\": {}}]}", "'t': kernels[0].configs: not a list of objects" },
		{ "{\"kernels\": [{\"configs\": [{\"config\": []}]}]}",
		  "'t': kernels[0].configs[0].config: not an object" },
		{ "{\"kernels\": [{\"configs\": [{\"captured\": 1}]}]}",
		  "'t': kernels[0].configs[0].captured: not true or false" },
		{ "{\"kernels\": [{\"configs\": [{\"outputs_exact\": \"yes\"}]}]}",
		  "'t': kernels[0].configs[0].outputs_exact: not true or false" },
		{ "{\"kernels\": [{\"configs\": [{\"min_ms\": -0.5}]}]}",
		  "'t': kernels[0].configs[0].min_ms: not a time (a number >= 0)" },
		{ "{\"kernels\": [{\"configs\": [{\"autotuner_method_cpu_copy_args\": [1]}]}]}",
		  "'t': kernels[0].configs[0].autotuner_method_cpu_copy_args: not a list of objects" },
		{ "{\"kernels\": [{\"configs\": [{\"copy_fraction\": -1}]}]}",
		  "'t': kernels[0].configs[0].copy_fraction: not a rate (a number >= 0)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct replay_doc d;
		struct buf err = BUF_INIT;
		json_error_t jerr;
		json_t *j = json_loads(cases[i].doc, JSON_DECODE_ANY, &jerr);

		assert_non_null(j);
		replay_doc_init(&d);
		assert_int_equal(replay_doc_read(&d, j, "t", &err), -1);
		assert_string_equal(err.buf, cases[i].msg);
		replay_doc_release(&d);
		json_decref(j);
		buf_release(&err);
	}
}

/* Nulls are unknown; a peak without a rate has none, and is written with 0 as it always was. */
static void test_checks_nulls(void **state)
{
	struct replay_doc d;
	json_t *j;

	(void)state;

	read_text(&d, "{\"kernels\": [{\"kernel\": null, \"configs\": [{\"captured\": null,"
		  " \"time_ms\": null, \"config\": null}]}], \"peak\": {\"source\": \"x\"}}");
	assert_int_equal(d.have_peak, 1);
	assert_true(isnan(d.peak.copy_gbps));
	assert_string_equal(d.peak.source, "x");
	j = replay_doc_to_json(&d);
	assert_true(json_real_value(json_object_get(json_object_get(j, "peak"), "copy_gbps")) == 0);
	assert_true(json_is_real(json_object_get(json_object_get(j, "peak"), "copy_gbps")));
	json_decref(j);
	assert_null(d.kernels[0].configs[0].captured);
	assert_true(isnan(d.kernels[0].configs[0].time_ms));
	replay_doc_release(&d);
	read_text(&d, "{\"kernels\": [], \"peak\": {\"copy_gbps\": null}}");
	assert_true(d.have_peak && isnan(d.peak.copy_gbps));
	replay_doc_release(&d);
	read_text(&d, "{\"kernels\": [], \"peak\": null}");
	assert_false(d.have_peak);
	replay_doc_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_child_order),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_missing_flag_agrees),
		cmocka_unit_test(test_into_run_bad_dir),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_checks_nulls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
