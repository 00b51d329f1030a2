/*
 * Unit tests for json/reflect: tables with every field type written with
 * rf_write and rf_to_json (the same bytes as jansson's dump of the tree),
 * read back with rf_read, and the repository's own documents round-tripped
 * byte for byte through typed tables (RF_OPEN keeps what a table does not
 * name). rf_read's messages in util/jcheck.c's words are checked against
 * jc_check itself on the same documents: the independent oracle for
 * "absorbs issue 22's type checks". The analysis model's kernels.json is
 * written by rf_write exactly as jansson dumped rf_to_json's tree.
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

#include "analyse/analysis.h"
#include "decide/decide.h"
#include "json/reflect.h"
#include "model/analysis_desc.h"
#include "model/analysis_store.h"
#include "json/jsonw.h"
#include "util/jcheck.h"
#include "util/mem.h"

/* ---- a struct with every field type ---- */

enum colour { RED, GREEN, BLUE };
static const char *const colour_names[] = { "red", "green", "blue", NULL };

struct item {
	char *name;
	double time_ms;
	json_t *open;	/* RF_OPEN */
};

struct inner {
	char *label;
	long long big;
};

struct every {
	char *s;
	long l;
	long long i64;
	double num;
	int flag;
	int colour;
	json_t *any;
	char **strs;
	size_t nstrs;
	struct item *items;
	size_t nitems;
	struct inner in;
	struct rf_pair *env;
	size_t nenv;
	struct rf_count *counts;
	size_t ncounts;
	double maybe;		/* RF_OMIT_NULL */
	char **extra;		/* RF_OMIT_NULL list */
	size_t nextra;
};

#define T struct item
static const struct rf_field item_fields[] = {
	RF_FX(T, "name", RF_STR, name, RF_NEED),
	RF_FX(T, "time_ms", RF_NUM, time_ms, RF_TIME | RF_OMIT_NULL),
	RF_FEND_OPEN(T, open, 0),
};
static const struct rf_struct item_desc = { "item", sizeof(T), item_fields };
#undef T

#define T struct inner
static const struct rf_field inner_fields[] = {
	RF_F(T, "label", RF_STR, label),
	RF_FX(T, "big", RF_I64, big, RF_COUNT),
	RF_FEND,
};
static const struct rf_struct inner_desc = { "inner", sizeof(T), inner_fields };
#undef T

#define T struct every
static const struct rf_field every_fields[] = {
	RF_F(T, "s", RF_STR, s),
	RF_F(T, "l", RF_LONG, l),
	RF_F(T, "i64", RF_I64, i64),
	RF_F(T, "num", RF_NUM, num),
	RF_F(T, "flag", RF_BOOL, flag),
	RF_E(T, "colour", colour, colour_names, 0),
	RF_F(T, "any", RF_JSON, any),
	RF_V(T, "strs", strs, nstrs),
	RF_A(T, "items", items, nitems, &item_desc),
	RF_S(T, "in", in, &inner_desc, RF_OPTIONAL),
	RF_P(T, "env", env, nenv, 0),
	RF_C(T, "counts", counts, ncounts, 0),
	RF_FX(T, "maybe", RF_NUM, maybe, RF_OMIT_NULL),
	{ "extra", RF_STRV, offsetof(T, extra), offsetof(T, nextra), NULL, RF_OMIT_NULL, NULL },
	RF_FEND,
};
static const struct rf_struct every_desc = { "every", sizeof(T), every_fields };
#undef T

/* A document in jansson's JSON_INDENT(2) layout, reals to 10 digits. */
static const char every_text[] =
	"{\n"
	"  \"s\": \"caf\xc3\xa9 \\u001B\",\n"
	"  \"l\": 42,\n"
	"  \"i64\": -9007199254740993,\n"
	"  \"num\": 1e-7,\n"
	"  \"flag\": true,\n"
	"  \"colour\": \"blue\",\n"
	"  \"any\": {\n"
	"    \"kwargs\": {\n"
	"      \"XBLOCK\": 1024\n"
	"    },\n"
	"    \"list\": [\n"
	"      1,\n"
	"      2.5,\n"
	"      null\n"
	"    ]\n"
	"  },\n"
	"  \"strs\": [\n"
	"    \"a\",\n"
	"    \"b\"\n"
	"  ],\n"
	"  \"items\": [\n"
	"    {\n"
	"      \"zeta\": 1,\n"
	"      \"name\": \"first\",\n"
	"      \"time_ms\": 0.021,\n"
	"      \"alpha\": [\n"
	"        true\n"
	"      ]\n"
	"    },\n"
	"    {\n"
	"      \"name\": \"second\"\n"
	"    }\n"
	"  ],\n"
	"  \"in\": {\n"
	"    \"label\": \"x\",\n"
	"    \"big\": 150109880320\n"
	"  },\n"
	"  \"env\": {\n"
	"    \"CUDA_HOME\": \"/usr/local/cuda\",\n"
	"    \"UNSET\": null\n"
	"  },\n"
	"  \"counts\": {\n"
	"    \"kernel\": 28,\n"
	"    \"none\": null\n"
	"  }\n"
	"}\n";

static char *write_text(const struct rf_struct *d, const void *p, int precision)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);
	struct jsonw w;

	assert_non_null(fp);
	jsonw_init_prec(&w, fp, precision);
	assert_int_equal(rf_write(&w, d, p), 0);
	assert_int_equal(jsonw_finish(&w), 0);
	assert_int_equal(fclose(fp), 0);
	return s;
}

/* rf_to_json's tree dumped by jansson, with the newline rf_write's documents end with. */
static char *jansson_text(const struct rf_struct *d, const void *p, int precision)
{
	json_t *j = rf_to_json(d, p);
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(precision)), *out;

	assert_non_null(s);
	out = xstrfmt("%s\n", s);
	free(s);
	json_decref(j);
	return out;
}

static void read_text(const struct rf_struct *d, void *p, const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	struct buf err = BUF_INIT;

	if (!j)
		fail_msg("test document does not parse: %s", je.text);
	rf_init(d, p);
	if (rf_read(d, p, j, "t.json", &err) < 0)
		fail_msg("rf_read: %s", err.buf);
	buf_release(&err);
	json_decref(j);
}

/* The document is jansson's own layout, so reading and writing it must give it back. */
static void test_every_type_round_trip(void **state)
{
	struct every e;
	json_error_t je;
	json_t *j = json_loads(every_text, 0, &je);
	char *canon, *ours, *theirs;

	(void)state;
	assert_non_null(j);
	canon = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	assert_int_equal(strlen(canon) + 1, strlen(every_text));
	assert_memory_equal(canon, every_text, strlen(canon));
	free(canon);
	json_decref(j);

	read_text(&every_desc, &e, every_text);
	assert_int_equal(e.colour, BLUE);
	assert_true(e.i64 == -9007199254740993LL);
	assert_true(e.in.big == 150109880320LL);
	assert_int_equal(e.nenv, 2);
	assert_null(e.env[1].value);
	assert_true(e.counts[1].n == RF_I64_NONE);
	assert_true(isnan(e.maybe));
	assert_true(isnan(e.items[1].time_ms));
	ours = write_text(&every_desc, &e, 10);
	assert_string_equal(ours, every_text);
	theirs = jansson_text(&every_desc, &e, 10);
	assert_string_equal(ours, theirs);
	free(ours);
	free(theirs);
	rf_release(&every_desc, &e);
}

/* Unknown members are null; RF_OMIT_NULL keys appear once known. */
static void test_unknown_and_omitted(void **state)
{
	static const char want_empty[] =
		"{\n  \"s\": null,\n  \"l\": null,\n  \"i64\": null,\n  \"num\": null,\n"
		"  \"flag\": false,\n  \"colour\": null,\n  \"any\": null,\n  \"strs\": [],\n"
		"  \"items\": [],\n  \"in\": null,\n  \"env\": {},\n  \"counts\": {}\n}\n";
	struct every e;
	char *ours, *theirs;

	(void)state;
	rf_init(&every_desc, &e);
	ours = write_text(&every_desc, &e, 10);
	assert_string_equal(ours, want_empty);
	theirs = jansson_text(&every_desc, &e, 10);
	assert_string_equal(ours, theirs);
	free(ours);
	free(theirs);

	e.maybe = 0.5;
	e.colour = 7;		/* out of its table: null, as unknown */
	e.extra = xcalloc(8, sizeof(char *));
	e.extra[e.nextra++] = xstrdup("x");
	ours = write_text(&every_desc, &e, 10);
	assert_non_null(strstr(ours, "  \"colour\": null,\n"));
	assert_non_null(strstr(ours, "  \"counts\": {},\n  \"maybe\": 0.5,\n  \"extra\": [\n    \"x\"\n  ]\n}\n"));
	theirs = jansson_text(&every_desc, &e, 10);
	assert_string_equal(ours, theirs);
	free(ours);
	free(theirs);
	rf_release(&every_desc, &e);
}

/* RF_OPEN: the kept keys in their order, typed values where the table names the key. */
static void test_open_keeps_order(void **state)
{
	static const char doc[] = "{\"items\": [{\"zeta\": 1, \"name\": \"a\", \"alpha\": 2}]}";
	struct every e;
	char *ours;

	(void)state;
	read_text(&every_desc, &e, doc);
	free(e.items[0].name);
	e.items[0].name = xstrdup("renamed");
	e.items[0].time_ms = 0.25;	/* not in the document: appended, being known */
	ours = write_text(&every_desc, &e, 10);
	assert_non_null(strstr(ours, "    {\n      \"zeta\": 1,\n      \"name\": \"renamed\",\n"
				     "      \"alpha\": 2,\n      \"time_ms\": 0.25\n    }\n"));
	free(ours);
	rf_release(&every_desc, &e);
}

/* rf_read's errors: the default words, enum names, RF_NONNULL. */
static char *read_error(const struct rf_struct *d, const char *text)
{
	static char out[512];
	json_error_t je;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &je);
	struct buf err = BUF_INIT;
	struct every e;

	assert_non_null(j);
	assert_true(d->size <= sizeof(e));
	rf_init(d, &e);
	rf_read(d, &e, j, "t.json", &err);
	snprintf(out, sizeof(out), "%s", err.len ? err.buf : "");
	buf_release(&err);
	rf_release(d, &e);
	json_decref(j);
	return out;
}

static void test_read_errors(void **state)
{
	(void)state;
	assert_string_equal(read_error(&every_desc, "[]"), "'t.json': every is not an object");
	assert_string_equal(read_error(&every_desc, "{\"l\": -1}"), "'t.json': l: not a count");
	assert_string_equal(read_error(&every_desc, "{\"l\": 1.5}"), "'t.json': l: not a count");
	assert_string_equal(read_error(&every_desc, "{\"i64\": 1.5}"), "'t.json': i64: not an integer");
	assert_string_equal(read_error(&every_desc, "{\"num\": \"1\"}"), "'t.json': num: not a number");
	assert_string_equal(read_error(&every_desc, "{\"colour\": \"mauve\"}"),
			    "'t.json': colour: 'mauve' is not a known value");
	assert_string_equal(read_error(&every_desc, "{\"colour\": 1}"), "'t.json': colour: not a string");
	assert_string_equal(read_error(&every_desc, "{\"strs\": [1]}"),
			    "'t.json': strs: not a list of strings");
	assert_string_equal(read_error(&every_desc, "{\"strs\": {}}"), "'t.json': strs: not a list");
	assert_string_equal(read_error(&every_desc, "{\"items\": [{\"name\": \"a\"}, 3]}"),
			    "'t.json': items[1]: not an object");
	assert_string_equal(read_error(&every_desc, "{\"items\": [{}]}"), "'t.json': items[0].name: missing");
	assert_string_equal(read_error(&every_desc, "{\"items\": [{\"name\": null}]}"),
			    "'t.json': items[0].name: null where a value belongs");
	assert_string_equal(read_error(&every_desc, "{\"items\": [{\"name\": \"a\", \"time_ms\": -2}]}"),
			    "'t.json': items[0].time_ms: not a time (a number >= 0)");
	assert_string_equal(read_error(&every_desc, "{\"in\": {\"big\": -1}}"),
			    "'t.json': in.big: not a count (an integer >= 0)");
	assert_string_equal(read_error(&every_desc, "{\"env\": {\"A\": 1}}"),
			    "'t.json': env: not an object of strings");
	assert_string_equal(read_error(&every_desc, "{\"counts\": {\"a\": \"1\"}}"),
			    "'t.json': counts: not an object of counts");
	assert_string_equal(read_error(&every_desc, "{\"in\": null, \"any\": null, \"maybe\": null}"), "");
}

/* ---- util/jcheck's tables beside the same tables in rf words ---- */

static const struct jc_field jc_dev[] = {
	{ "name", JC_STR, JC_NULL, NULL },
	{ NULL, 0, 0, NULL },
};
static const struct jc_field jc_cfg[] = {
	{ "time_ms", JC_TIME, JC_NULL, NULL },
	{ "label", JC_STR, 0, NULL },
	{ "rate", JC_RATE, JC_NULL, NULL },
	{ "n", JC_COUNT, JC_NULL, NULL },
	{ "ok", JC_BOOL, JC_NULL, NULL },
	{ "config", JC_OBJ, JC_NULL, NULL },
	{ "args", JC_LIST, JC_NULL, NULL },
	{ "flag", JC_BOOL, JC_NULL, NULL },
	{ "devs", JC_LIST, JC_NULL, jc_dev },
	{ "names", JC_STRS, JC_NULL, NULL },
	{ NULL, 0, 0, NULL },
};
static const struct jc_field jc_peak[] = {
	{ "copy_gbps", JC_RATE, JC_NULL, NULL },
	{ "source", JC_STR, JC_NULL, NULL },
	{ NULL, 0, 0, NULL },
};
static const struct jc_field jc_top[] = {
	{ "kernels", JC_LIST, JC_NEED, jc_cfg },
	{ "counts", JC_COUNTS, JC_NULL, NULL },
	{ "peak", JC_OBJ, JC_NULL, jc_peak },
	{ "mode", JC_STR, JC_NULL, NULL },
	{ NULL, 0, 0, NULL },
};

struct t_cfg {
	double time_ms, rate;
	char *label;
	long long n;
	int ok;
	json_t *config, *args, *flag, *devs;
	char **names;
	size_t nnames;
	json_t *open;
};
struct t_peak {
	double copy_gbps;
	char *source;
};
struct t_top {
	struct t_cfg *kernels;
	size_t nkernels;
	struct rf_count *counts;
	size_t ncounts;
	struct t_peak peak;
	char *mode;
	json_t *open;
};

/* The keys of a passed-through object that are checked (RF_JX). */
struct t_dev {
	char *name;
};
#define T struct t_dev
static const struct rf_field t_dev_fields[] = {
	RF_F(T, "name", RF_STR, name),
	RF_FEND_X(RF_JC_WORDS),
};
static const struct rf_struct t_dev_desc = { "dev", sizeof(T), t_dev_fields };
#undef T
#define T struct t_cfg
static const struct rf_field t_cfg_fields[] = {
	RF_FX(T, "time_ms", RF_NUM, time_ms, RF_TIME),
	RF_FX(T, "label", RF_STR, label, RF_NONNULL),
	RF_FX(T, "rate", RF_NUM, rate, RF_RATE),
	RF_FX(T, "n", RF_I64, n, RF_COUNT),
	RF_F(T, "ok", RF_BOOL, ok),
	RF_FX(T, "config", RF_JSON, config, RF_OBJECT),
	RF_FX(T, "args", RF_JSON, args, RF_OBJECTS),
	RF_FX(T, "flag", RF_JSON, flag, RF_BOOLEAN),
	RF_JX(T, "devs", devs, &t_dev_desc, RF_OBJECTS),
	RF_V(T, "names", names, nnames),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_cfg_desc = { "config", sizeof(T), t_cfg_fields };
#undef T
#define T struct t_peak
static const struct rf_field t_peak_fields[] = {
	RF_FX(T, "copy_gbps", RF_NUM, copy_gbps, RF_RATE),
	RF_F(T, "source", RF_STR, source),
	RF_FEND_X(RF_JC_WORDS),
};
static const struct rf_struct t_peak_desc = { "peak", sizeof(T), t_peak_fields };
#undef T
#define T struct t_top
static const struct rf_field t_top_fields[] = {
	RF_AX(T, "kernels", kernels, nkernels, &t_cfg_desc, RF_NEED),
	RF_C(T, "counts", counts, ncounts, 0),
	RF_S(T, "peak", peak, &t_peak_desc, 0),
	RF_F(T, "mode", RF_STR, mode),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_top_desc = { "document", sizeof(T), t_top_fields };
#undef T

/* Documents, good and bad, each type's every way of being wrong. */
static const char *const jc_docs[] = {
	"{\"kernels\": [{\"time_ms\": 0.5, \"label\": \"a\", \"x\": 1}], \"counts\": {\"a\": 1, \"b\": null}}",
	"{\"kernels\": [{\"time_ms\": null}]}",
	"{}",
	"[]",
	"{\"kernels\": null}",
	"{\"kernels\": {}}",
	"{\"kernels\": [3]}",
	"{\"kernels\": [{}, 3]}",
	"{\"kernels\": [{}, {\"time_ms\": -1}]}",
	"{\"kernels\": [{\"time_ms\": \"1\"}]}",
	"{\"kernels\": [{\"label\": null}]}",
	"{\"kernels\": [{\"label\": 7}]}",
	"{\"kernels\": [{\"rate\": -0.5}]}",
	"{\"kernels\": [{\"n\": -1}]}",
	"{\"kernels\": [{\"n\": 1.0}]}",
	"{\"kernels\": [{\"ok\": 1}]}",
	"{\"kernels\": [{\"config\": []}]}",
	"{\"kernels\": [{\"args\": [{}, 1]}]}",
	"{\"kernels\": [{\"args\": {}}]}",
	"{\"kernels\": [{\"flag\": false}, {\"flag\": null}]}",
	"{\"kernels\": [{\"flag\": 0}]}",
	"{\"kernels\": [{\"flag\": \"true\"}]}",
	"{\"kernels\": [{\"devs\": [{\"name\": \"a\", \"x\": 1}, {\"name\": null}]}]}",
	"{\"kernels\": [{\"devs\": [{}, {\"name\": 1}]}]}",
	"{\"kernels\": [{\"devs\": [{\"name\": \"a\"}, 2]}]}",
	"{\"kernels\": [{\"devs\": {\"name\": 1}}]}",
	"{\"kernels\": [{\"names\": [\"a\", 2]}]}",
	"{\"kernels\": [{\"names\": \"a\"}]}",
	"{\"kernels\": [], \"counts\": {\"a\": -2}}",
	"{\"kernels\": [], \"counts\": []}",
	"{\"kernels\": [], \"peak\": 1}",
	"{\"kernels\": [], \"peak\": {\"copy_gbps\": -5}}",
	"{\"kernels\": [], \"peak\": {\"source\": 5}}",
	"{\"kernels\": [], \"mode\": 3}",
};

static void test_jcheck_words(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(jc_docs) / sizeof(*jc_docs); i++) {
		json_error_t je;
		json_t *j = json_loads(jc_docs[i], JSON_DECODE_ANY, &je);
		struct buf a = BUF_INIT, b = BUF_INIT;
		struct t_top t;

		assert_non_null(j);
		jc_check(j, jc_top, "r.json", &a);
		rf_init(&t_top_desc, &t);
		rf_read(&t_top_desc, &t, j, "r.json", &b);
		if (strcmp(a.len ? a.buf : "", b.len ? b.buf : ""))
			fail_msg("%s\n  jc_check: %s\n  rf_read:  %s", jc_docs[i], a.buf, b.buf);
		rf_release(&t_top_desc, &t);
		buf_release(&a);
		buf_release(&b);
		json_decref(j);
	}
}

/* ---- the repository's documents through typed tables, byte for byte ---- */

/* env.json: its environment as RF_PAIRS, the measured copy rate typed, the rest kept. */
struct t_bw {
	double copy_gbps, median_ms;
	long long buffer_bytes, repeats, device_index;
	char *method;
};
struct t_env {
	char **notes;
	size_t nnotes;
	struct rf_pair *env;
	size_t nenv;
	struct t_bw bw;
	json_t *open;
};
#define T struct t_bw
static const struct rf_field t_bw_fields[] = {
	RF_FX(T, "copy_gbps", RF_NUM, copy_gbps, RF_RATE),
	RF_FX(T, "buffer_bytes", RF_I64, buffer_bytes, RF_COUNT),
	RF_FX(T, "repeats", RF_I64, repeats, RF_COUNT),
	RF_FX(T, "median_ms", RF_NUM, median_ms, RF_TIME),
	RF_FX(T, "device_index", RF_I64, device_index, RF_COUNT),
	RF_F(T, "method", RF_STR, method),
	RF_FEND_X(RF_JC_WORDS),
};
static const struct rf_struct t_bw_desc = { "bandwidth", sizeof(T), t_bw_fields };
#undef T
#define T struct t_env
static const struct rf_field t_env_fields[] = {
	RF_V(T, "notes", notes, nnotes),
	RF_P(T, "env", env, nenv, 0),
	RF_S(T, "bandwidth", bw, &t_bw_desc, 0),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_env_desc = { "env", sizeof(T), t_env_fields };
#undef T

/* tko-run.json: the environment given and kept as RF_PAIRS, the capture's counts. */
struct t_capture {
	long long events, errors;
	struct rf_count *by_type;
	size_t nby_type;
	json_t *open;
};
struct t_manifest {
	char **argv;
	size_t nargv;
	double duration_s;
	long long exit_status;
	int command_found;
	struct rf_pair *env_set, *env_kept;
	size_t nenv_set, nenv_kept;
	struct t_capture capture;
	json_t *open;
};
#define T struct t_capture
static const struct rf_field t_capture_fields[] = {
	RF_FX(T, "events", RF_I64, events, RF_COUNT),
	RF_FX(T, "errors", RF_I64, errors, RF_COUNT),
	RF_C(T, "by_type", by_type, nby_type, 0),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_capture_desc = { "capture", sizeof(T), t_capture_fields };
#undef T
#define T struct t_manifest
static const struct rf_field t_manifest_fields[] = {
	RF_V(T, "argv", argv, nargv),
	RF_FX(T, "duration_s", RF_NUM, duration_s, RF_TIME),
	RF_F(T, "exit_status", RF_I64, exit_status),
	RF_F(T, "command_found", RF_BOOL, command_found),
	RF_P(T, "env_set", env_set, nenv_set, 0),
	RF_P(T, "env_kept", env_kept, nenv_kept, 0),
	RF_S(T, "capture", capture, &t_capture_desc, 0),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_manifest_desc = { "manifest", sizeof(T), t_manifest_fields };
#undef T

/* analysis/replay.json: kernels and their configs typed, Python's other keys kept. */
struct t_rcfg {
	long long index;
	int captured;
	json_t *config;
	double time_ms, recorded_time_ms, no_copy_ms, gbps;
	char *error;
	json_t *open;
};
struct t_rkernel {
	char *kernel_dir, *kernel, *error;
	struct t_rcfg *configs;
	size_t nconfigs;
	long long footprint_bytes;
	json_t *open;
};
struct t_replay {
	struct t_rkernel *kernels;
	size_t nkernels;
	json_t *open;
};
#define T struct t_rcfg
static const struct rf_field t_rcfg_fields[] = {
	RF_FX(T, "index", RF_I64, index, RF_COUNT),
	RF_F(T, "captured", RF_BOOL, captured),
	RF_FX(T, "config", RF_JSON, config, RF_OBJECT),
	RF_FX(T, "time_ms", RF_NUM, time_ms, RF_TIME),
	RF_FX(T, "recorded_time_ms", RF_NUM, recorded_time_ms, RF_TIME),
	RF_FX(T, "autotuner_method_no_cpu_copy_ms", RF_NUM, no_copy_ms, RF_TIME | RF_OMIT_NULL),
	RF_FX(T, "footprint_gbps", RF_NUM, gbps, RF_RATE),
	RF_F(T, "error", RF_STR, error),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_rcfg_desc = { "config", sizeof(T), t_rcfg_fields };
#undef T
#define T struct t_rkernel
static const struct rf_field t_rkernel_fields[] = {
	RF_F(T, "kernel_dir", RF_STR, kernel_dir),
	RF_F(T, "kernel", RF_STR, kernel),
	RF_F(T, "error", RF_STR, error),
	RF_A(T, "configs", configs, nconfigs, &t_rcfg_desc),
	RF_FX(T, "footprint_bytes", RF_I64, footprint_bytes, RF_COUNT),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_rkernel_desc = { "kernel", sizeof(T), t_rkernel_fields };
#undef T
#define T struct t_replay
static const struct rf_field t_replay_fields[] = {
	RF_AX(T, "kernels", kernels, nkernels, &t_rkernel_desc, RF_NEED),
	RF_FEND_OPEN(T, open, RF_JC_WORDS),
};
static const struct rf_struct t_replay_desc = { "replay", sizeof(T), t_replay_fields };
#undef T

static char *slurp(const char *rel)
{
	const char *base = getenv("TESTDATA");
	char *path, *s = NULL;
	size_t n = 0, got;
	FILE *fp;
	char chunk[65536];

	assert_non_null(base);
	path = xstrfmt("%s/../../%s", base, rel);
	fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open %s", path);
	while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		s = xrealloc(s, n + got + 1);
		memcpy(s + n, chunk, got);
		n += got;
	}
	fclose(fp);
	free(path);
	s[n] = '\0';
	return s;
}

/* Read into the typed table and written again at `precision`: the file's own bytes. */
static void round_trip(const char *rel, const struct rf_struct *d, void *p, int precision)
{
	char *file = slurp(rel), *ours;

	read_text(d, p, file);
	ours = write_text(d, p, precision);
	if (strcmp(ours, file))
		fail_msg("%s: written again, its bytes differ", rel);
	free(ours);
	free(file);
	rf_release(d, p);
}

static void test_repository_documents(void **state)
{
	struct t_env env;
	struct t_manifest m;
	struct t_replay r;

	(void)state;
	round_trip("examples/h200-run/env.json", &t_env_desc, &env, 10);
	round_trip("examples/h200-run/tko-run.json", &t_manifest_desc, &m, 10);
	round_trip("examples/h200-run/analysis/replay.json", &t_replay_desc, &r, 10);
}

/* The typed members hold what jansson finds at the same keys (not only kept text). */
static void test_repository_values(void **state)
{
	char *text = slurp("examples/h200-run/tko-run.json");
	json_t *j = json_loads(text, 0, NULL), *by_type;
	struct t_manifest m;
	const char *key;
	json_t *v;
	size_t i = 0;

	(void)state;
	assert_non_null(j);
	read_text(&t_manifest_desc, &m, text);
	assert_int_equal(m.nargv, json_array_size(json_object_get(j, "argv")));
	assert_true(m.duration_s == json_real_value(json_object_get(j, "duration_s")));
	assert_int_equal(m.nenv_set, json_object_size(json_object_get(j, "env_set")));
	json_object_foreach(json_object_get(j, "env_set"), key, v) {
		assert_string_equal(m.env_set[i].key, key);
		assert_string_equal(m.env_set[i++].value, json_string_value(v));
	}
	by_type = json_object_get(json_object_get(j, "capture"), "by_type");
	assert_int_equal(m.capture.nby_type, json_object_size(by_type));
	i = 0;
	json_object_foreach(by_type, key, v) {
		assert_string_equal(m.capture.by_type[i].key, key);
		assert_true(m.capture.by_type[i++].n == json_integer_value(v));
	}
	assert_true(m.capture.events == json_integer_value(
		json_object_get(json_object_get(j, "capture"), "events")));
	rf_release(&t_manifest_desc, &m);
	json_decref(j);
	free(text);
}

/* ---- the analysis model: rf_write is what jansson dumped of rf_to_json ---- */

static void test_kernels_json_as_jansson(void **state)
{
	struct an_opts o = AN_OPTS_INIT;
	struct buf err = BUF_INIT;
	struct an_run r;
	char *s = NULL, *dumped, *path;
	size_t n = 0, i;
	FILE *fp = open_memstream(&s, &n);
	json_t *doc;

	(void)state;
	an_run_init(&r);
	path = xstrfmt("%s/../../examples/h200-run", getenv("TESTDATA"));
	assert_int_equal(decide_run(path, &o, &r, &err), 0);
	assert_int_equal(r.nkernels, 7);	/* its report lists seven kernels */
	assert_int_equal(an_store_write(fp, &r, "tko investigate"), 0);
	fclose(fp);
	doc = an_run_to_json(&r, "tko investigate");
	dumped = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	assert_int_equal(strlen(s), strlen(dumped) + 1);
	assert_memory_equal(s, dumped, strlen(dumped));
	for (i = 0; i < r.nkernels; i++) {
		char *k = write_text(&an_kernel_desc, &r.kernels[i], 17);
		json_t *kj = rf_to_json(&an_kernel_desc, &r.kernels[i]);
		char *kd = json_dumps(kj, JSON_INDENT(2) | JSON_REAL_PRECISION(17));

		assert_int_equal(strlen(k), strlen(kd) + 1);
		assert_memory_equal(k, kd, strlen(kd));
		free(k);
		free(kd);
		json_decref(kj);
	}
	json_decref(doc);
	free(dumped);
	free(s);
	free(path);
	buf_release(&err);
	an_run_release(&r);
}

/* rf_diff compares the new scalar types too. */
static void test_diff_new_types(void **state)
{
	struct every a, b;
	struct rf_changes ch = RF_CHANGES_INIT;

	(void)state;
	read_text(&every_desc, &a, every_text);
	read_text(&every_desc, &b, every_text);
	rf_diff(&every_desc, &a, &b, "", 0.005, &ch);
	assert_int_equal(ch.nr, 0);
	b.colour = RED;
	b.i64 = 5;
	json_decref(b.any);
	b.any = json_pack("{s:i}", "XBLOCK", 512);
	rf_diff(&every_desc, &a, &b, "", 0.005, &ch);
	assert_int_equal(ch.nr, 3);
	assert_string_equal(ch.v[0].path, "i64");
	assert_string_equal(ch.v[0].b, "5");
	assert_string_equal(ch.v[1].path, "colour");
	assert_string_equal(ch.v[1].a, "blue");
	assert_string_equal(ch.v[1].b, "red");
	assert_string_equal(ch.v[2].path, "any");
	assert_string_equal(ch.v[2].b, "{\"XBLOCK\":512}");
	rf_changes_release(&ch);
	rf_release(&every_desc, &a);
	rf_release(&every_desc, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type_round_trip),
		cmocka_unit_test(test_unknown_and_omitted),
		cmocka_unit_test(test_open_keeps_order),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_jcheck_words),
		cmocka_unit_test(test_repository_documents),
		cmocka_unit_test(test_repository_values),
		cmocka_unit_test(test_kernels_json_as_jansson),
		cmocka_unit_test(test_diff_new_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
