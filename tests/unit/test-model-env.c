/*
 * Unit tests for model/env: env.json documents written by tko env before
 * the document was typed (tests/data/env/tko-env-*.json, SOURCES.md) read
 * into the struct and written again byte for byte; typed values against
 * the fixtures that produced them; the bandwidth's null and partial forms;
 * a malformed document refused with the key named.
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

#include "model/env.h"
#include "util/buf.h"
#include "util/file.h"

static char *data_path(const char *name)
{
	const char *base = getenv("TESTDATA");
	size_t n;
	char *p;

	assert_non_null(base);
	n = strlen(base) + strlen(name) + 8;
	p = malloc(n);
	snprintf(p, n, "%s/env/%s", base, name);
	return p;
}

static char *written(const struct env_doc *d)
{
	char *text = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&text, &n);

	assert_non_null(fp);
	assert_int_equal(env_doc_write(fp, d), 0);
	assert_int_equal(fclose(fp), 0);
	return text;
}

/* Reads a data file into d; returns its text. */
static char *load(const char *name, struct env_doc *d)
{
	char *path = data_path(name);
	struct buf text = BUF_INIT, err = BUF_INIT;
	json_error_t je;
	json_t *j;

	if (file_read(path, 0, &text, &err) < 0)
		fail_msg("%s", err.buf);
	j = json_loadb(text.buf, text.len, 0, &je);
	assert_non_null(j);
	env_doc_init(d);
	if (env_doc_read(d, j, path, &err) < 0)
		fail_msg("%s", err.buf);
	json_decref(j);
	buf_release(&err);
	free(path);
	return buf_detach(&text, NULL);
}

/* Written again: the same bytes, and the tree is what was written. */
static void check_round_trip(const char *name)
{
	struct env_doc d;
	char *want = load(name, &d), *got = written(&d), *tree;
	json_t *j = env_doc_to_json(&d);

	assert_string_equal(got, want);
	tree = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	assert_int_equal(strlen(tree) + 1, strlen(want));
	assert_memory_equal(tree, want, strlen(tree));
	free(tree);
	json_decref(j);
	free(got);
	free(want);
	env_doc_release(&d);
}

static void test_round_trip(void **state)
{
	(void)state;
	check_round_trip("tko-env-measure.json");
	check_round_trip("tko-env-dcu.json");
}

/*
 * The values, from what produced the files (tests/golden/fixtures/probe-ok
 * and env-dcu's fake tools, SOURCES.md): the probe's 4243.0 GB/s of 20
 * repeats, the four flags set, nvcc 13.0 from nvcc-version.txt, gfx936's
 * HCU row with a 768-VGPR file.
 */
static void test_typed_values(void **state)
{
	struct env_doc m, c;
	char *a = load("tko-env-measure.json", &m), *b = load("tko-env-dcu.json", &c);
	struct env_gpu g;

	(void)state;
	assert_true(env_doc_has_bandwidth(&m));
	assert_true(env_doc_copy_gbps(&m) == 4243.0);
	assert_int_equal(m.bandwidth.repeats, 20);
	assert_true(isnan(m.bandwidth.median_ms));
	assert_null(m.bandwidth.method);
	assert_string_equal(env_doc_flag(&m, "AMDGCN_USE_BUFFER_OPS"), "1");
	assert_string_equal(env_doc_flag(&m, "TRITON_DEBUG"), "1");
	assert_null(env_doc_flag(&m, "UNRELATED"));
	assert_string_equal(env_doc_tool(&m, "nvcc")->version, "13.0");
	assert_null(env_doc_tool(&m, "dcc")->path);
	assert_null(env_doc_tool(&m, "no-such-tool"));
	assert_int_equal(m.nwarnings, 2);

	assert_false(env_doc_has_bandwidth(&c));
	assert_true(env_doc_copy_gbps(&c) == 0);
	assert_true(c.dcu);
	assert_int_equal(c.nhcu_targets, 1);
	assert_string_equal(c.hcu_targets[0].arch, "gfx936");
	assert_true(c.hcu_targets[0].triton_das);
	assert_int_equal(c.hcu_targets[0].das_vgprs, 768);
	assert_int_equal(c.nnotes, 1);
	assert_null(c.python);
	free(a);
	/* gpus entries, passed through, give the keys tko reads (jq '.gpus[] | {name, arch, backend}') */
	env_doc_gpu(&m, 0, &g);
	assert_string_equal(g.name, "NVIDIA H200");
	assert_string_equal(g.arch, "sm_90");
	assert_string_equal(g.backend, "cuda");
	env_gpu_release(&g);
	env_doc_gpu(&c, 1, &g);
	assert_string_equal(g.arch, "gfx936");
	assert_string_equal(g.backend, "hip");
	env_gpu_release(&g);
	env_doc_gpu(&m, 1, &g);
	assert_null(g.name);
	assert_null(g.arch);
	env_doc_gpu(NULL, 0, &g);
	assert_null(g.backend);
	free(b);
	env_doc_release(&m);
	env_doc_release(&c);
}

/* An unknown bandwidth is null; a partial one keeps only what it has. */
static void test_bandwidth_forms(void **state)
{
	struct env_doc d;
	struct buf err = BUF_INIT;
	json_t *bw = json_loads("{\"copy_gbps\": 900.5, \"method\": \"m\"}", 0, NULL);
	char *text;

	(void)state;
	env_doc_init(&d);
	text = written(&d);
	assert_non_null(strstr(text, "\n  \"bandwidth\": null\n}\n"));
	assert_non_null(strstr(text, "\n  \"tools\": [],\n  \"env\": {},\n  \"warnings\": [],\n"));
	free(text);
	assert_int_equal(env_bandwidth_read(&d.bandwidth, bw, "bw", &err), 0);
	text = written(&d);
	assert_non_null(strstr(text, "\"bandwidth\": {\n    \"copy_gbps\": 900.5,\n"
				     "    \"method\": \"m\"\n  }\n}\n"));
	free(text);
	env_bandwidth_clear(&d.bandwidth);
	assert_false(env_doc_has_bandwidth(&d));
	json_decref(bw);
	buf_release(&err);
	env_doc_release(&d);
}

static void test_bad_document(void **state)
{
	static const char *const bad[][2] = {
		{ "{\"notes\": \"x\"}", "'e.json': notes: not a list" },
		{ "{\"tools\": [{\"name\": 3}]}", "'e.json': tools[0].name: not a string" },
		{ "{\"bandwidth\": {\"repeats\": \"20\"}}", "'e.json': bandwidth.repeats:" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i][0], 0, NULL);
		struct buf err = BUF_INIT;
		struct env_doc d;

		env_doc_init(&d);
		assert_int_equal(env_doc_read(&d, j, "e.json", &err), -1);
		if (strncmp(err.buf, bad[i][1], strlen(bad[i][1])))
			fail_msg("'%s': %s", bad[i][0], err.buf);
		env_doc_release(&d);
		buf_release(&err);
		json_decref(j);
	}
}

/*
 * What the analysis checked of env.json with a util/jcheck.c table of its
 * own (analyse/gather.c) before it read the document typed, in the same
 * words (jcheck.c's what()); the nulls it allowed still read.
 */
static void test_analysis_checks(void **state)
{
	static const char *const bad[][2] = {
		{ "[]", "'e.json' is not a JSON object" },
		{ "{\"gpus\": 3}", "'e.json': gpus: not a list of objects" },
		{ "{\"gpus\": [{}, 1]}", "'e.json': gpus: not a list of objects" },
		{ "{\"gpus\": [{\"name\": 3}]}", "'e.json': gpus[0].name: not a string" },
		{ "{\"gpus\": [{\"name\": null}, {\"arch\": []}]}", "'e.json': gpus[1].arch: not a string" },
		{ "{\"gpus\": [{\"backend\": true}]}", "'e.json': gpus[0].backend: not a string" },
		{ "{\"bandwidth\": 3}", "'e.json': bandwidth: not an object" },
		{ "{\"bandwidth\": {\"copy_gbps\": -5}}", "'e.json': bandwidth.copy_gbps: not a rate (a number >= 0)" },
		{ "{\"bandwidth\": {\"copy_gbps\": \"x\"}}", "'e.json': bandwidth.copy_gbps: not a rate (a number >= 0)" },
	};
	static const char *const good = "{\"gpus\": [{\"name\": null, \"x\": 1}], \"bandwidth\": {\"copy_gbps\": null}, \"new\": 1}";
	struct buf err = BUF_INIT;
	struct env_doc d;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loads(bad[i][0], JSON_DECODE_ANY, NULL);
		env_doc_init(&d);
		assert_int_equal(env_doc_read(&d, j, "e.json", &err), -1);
		assert_string_equal(err.buf, bad[i][1]);
		env_doc_release(&d);
		buf_reset(&err);
		json_decref(j);
	}
	j = json_loads(good, 0, NULL);
	env_doc_init(&d);
	assert_int_equal(env_doc_read(&d, j, "e.json", &err), 0);
	assert_int_equal(json_array_size(d.gpus), 1);
	assert_true(isnan(d.bandwidth.copy_gbps));
	env_doc_release(&d);
	json_decref(j);
	buf_release(&err);
}

/* What is not UTF-8 cannot be a JSON string: such notes and warnings are left out. */
static void test_not_utf8(void **state)
{
	struct env_doc d;
	char *s = env_utf8_dup("caf\xc3\xa9");

	(void)state;
	env_doc_init(&d);
	env_doc_note(&d, "no python: cannot run '/opt/py\xff'");
	env_doc_note(&d, "kept");
	env_doc_warn(&d, "arch \xc3(");
	assert_int_equal(d.nnotes, 1);
	assert_string_equal(d.notes[0], "kept");
	assert_int_equal(d.nwarnings, 0);
	assert_string_equal(s, "caf\xc3\xa9");
	assert_null(env_utf8_dup("a\xff" "b"));
	assert_null(env_utf8_dup(NULL));
	free(s);
	env_doc_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_bandwidth_forms),
		cmocka_unit_test(test_bad_document),
		cmocka_unit_test(test_analysis_checks),
		cmocka_unit_test(test_not_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
