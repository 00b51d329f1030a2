/*
 * Unit tests for json/jsonw: its text must be what jansson (an
 * independent JSON library, the one tko's other documents are dumped with)
 * prints for the same value: reals at every precision tko uses, strings of
 * every byte, whole documents read from the repository, indented and
 * compact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "json/jsonio.h"
#include "json/jsonw.h"
#include "util/buf.h"

enum mode { PREC10, PREC17, COMPACT };

struct text {
	char *s;
	size_t n;
	FILE *fp;
	struct jsonw w;
};

static void text_open(struct text *t, enum mode m)
{
	t->s = NULL;
	t->n = 0;
	t->fp = open_memstream(&t->s, &t->n);
	assert_non_null(t->fp);
	if (m == PREC10)
		jsonw_init_prec(&t->w, t->fp, 10);
	else if (m == PREC17)
		jsonw_init_prec(&t->w, t->fp, 17);
	else
		jsonw_init_compact(&t->w, t->fp);
}

static char *text_close(struct text *t)
{
	assert_int_equal(fclose(t->fp), 0);
	return t->s;
}

/* What jansson prints for v in the mode's flags. */
static char *jansson_text(const json_t *v, enum mode m)
{
	size_t flags = JSON_ENCODE_ANY;

	if (m == PREC10)
		flags |= JSON_INDENT(2) | JSON_REAL_PRECISION(10);
	else if (m == PREC17)
		flags |= JSON_INDENT(2) | JSON_REAL_PRECISION(17);
	else
		flags |= JSON_COMPACT;
	return json_dumps(v, flags);
}

static char *jsonw_real_text(double v, enum mode m)
{
	struct text t;

	text_open(&t, m);
	jsonw_real(&t.w, v);
	return text_close(&t);
}

/* Doubles that exercise every branch of %g and of the exponent rewrite. */
static const double fixed_reals[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, M_PI, -M_E,
	0.051744, 18.0, 4243.0, 4246.187013, 0.5057440102, 209.7152, 0.1048576,
	1e15, 1e16, 1e17, 1e20, 1e21, 1e22, 1e100, 1e300, 1e308,
	1e-4, 1e-5, 1e-6, 1e-7, 1e-12, 1e-100, 1e-300, 1e-308, 5e-324,
	DBL_MAX, -DBL_MAX, DBL_MIN, DBL_EPSILON, 9007199254740993.0,
	123456789012.0, 1.419247333e12, 4.671323106e-06, 1234567890.5, 12345678901.5,
	99999999999.0, 9999999999.0, 0.00001234, 1.7976931348623157e308,
};

static void check_real(double v, enum mode m)
{
	json_t *j;
	char *theirs, *ours;

	if (!isfinite(v))	/* jansson has no such real; jsonw writes null (test_document_as_jansson) */
		return;
	j = json_real(v);
	theirs = jansson_text(j, m);
	ours = jsonw_real_text(v, m);

	assert_non_null(theirs);
	if (strcmp(ours, theirs))
		fail_msg("%.17g (mode %d): jsonw '%s', jansson '%s'", v, (int)m, ours, theirs);
	free(theirs);
	free(ours);
	json_decref(j);
}

/* Every fixed real, and 1, 1.5, 1.2345678901234567 and 9.99 times 10^-320..308. */
static void test_reals_as_jansson(void **state)
{
	static const double mant[] = { 1.0, 1.5, 1.2345678901234567, 9.99, 7.0 / 3 };
	static const enum mode modes[] = { PREC10, PREC17, COMPACT };
	size_t i, k, m;
	int e;

	(void)state;
	for (m = 0; m < 3; m++) {
		for (i = 0; i < sizeof(fixed_reals) / sizeof(*fixed_reals); i++)
			check_real(fixed_reals[i], modes[m]);
		for (e = -320; e <= 308; e++)
			for (k = 0; k < sizeof(mant) / sizeof(*mant); k++)
				check_real(mant[k] * pow(10, e), modes[m]);
	}
}

/* Reals to `digits` places, beside jansson's JSON_REAL_PRECISION(digits). */
static void test_every_precision(void **state)
{
	size_t i;
	int p;

	(void)state;
	for (p = 1; p <= 31; p++) {
		for (i = 0; i < sizeof(fixed_reals) / sizeof(*fixed_reals); i++) {
			json_t *j = json_real(fixed_reals[i]);
			char *theirs = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(p));
			struct text t;
			char *ours;

			text_open(&t, PREC10);
			jsonw_init_prec(&t.w, t.fp, p);
			jsonw_real(&t.w, fixed_reals[i]);
			ours = text_close(&t);
			if (strcmp(ours, theirs))
				fail_msg("%.17g at %d digits: jsonw '%s', jansson '%s'",
					 fixed_reals[i], p, ours, theirs);
			free(ours);
			free(theirs);
			json_decref(j);
		}
	}
}

static void check_string(const char *s, size_t n, enum mode m)
{
	json_t *j = json_stringn(s, n);
	char *theirs, *ours;
	struct text t;

	assert_non_null(j);
	theirs = jansson_text(j, m);
	text_open(&t, m);
	jsonw_strn(&t.w, s, n);
	ours = text_close(&t);
	if (strcmp(ours, theirs))
		fail_msg("string of %zu bytes (first %#x): jsonw '%s', jansson '%s'", n,
			 n ? (unsigned char)s[0] : 0, ours, theirs);
	free(theirs);
	free(ours);
	json_decref(j);
}

/* Every ASCII byte alone and inside text, NUL included, and UTF-8 of 2-4 bytes. */
static void test_strings_as_jansson(void **state)
{
	static const char *const utf8[] = {
		"caf\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87", "\xf0\x9f\x98\x80 emoji",
		"\xe4\xbc\xaf\xe6\xb8\xa9 a0", "\xc2\x9b""31m", "/slash/", "", "\x7f",
	};
	static const enum mode modes[] = { PREC10, COMPACT };
	char buf[8];
	size_t i, m;
	int c;

	(void)state;
	for (m = 0; m < 2; m++) {
		for (c = 0; c < 0x80; c++) {
			buf[0] = (char)c;
			check_string(buf, 1, modes[m]);
			memcpy(buf, "a", 1);
			buf[1] = (char)c;
			memcpy(buf + 2, "b\"", 2);
			check_string(buf, 4, modes[m]);
		}
		for (i = 0; i < sizeof(utf8) / sizeof(*utf8); i++)
			check_string(utf8[i], strlen(utf8[i]), modes[m]);
	}
}

/* A document written value by value (keys, nesting, empties, every type). */
static char *write_doc(enum mode m)
{
	struct text t;

	text_open(&t, m);
	jsonw_object(&t.w);
	jsonw_key(&t.w, "schema_version");
	jsonw_int(&t.w, 1);
	jsonw_key(&t.w, "text");
	jsonw_str(&t.w, "quote \" backslash \\ tab\t newline\n bell\a caf\xc3\xa9");
	jsonw_key(&t.w, "empty_list");
	jsonw_array(&t.w);
	jsonw_end(&t.w);
	jsonw_key(&t.w, "empty_map");
	jsonw_object(&t.w);
	jsonw_end(&t.w);
	jsonw_key(&t.w, "list");
	jsonw_array(&t.w);
	jsonw_real(&t.w, 0.051744);
	jsonw_real(&t.w, 18.0);
	jsonw_real(&t.w, 1e-12);
	jsonw_real(&t.w, NAN);
	jsonw_bool(&t.w, 1);
	jsonw_str_or_null(&t.w, NULL);
	jsonw_object(&t.w);
	jsonw_key(&t.w, "k\x01");
	jsonw_strn(&t.w, "abc", 2);
	jsonw_end(&t.w);
	jsonw_int(&t.w, -9223372036854775807LL - 1);
	jsonw_end(&t.w);
	jsonw_end(&t.w);
	assert_int_equal(jsonw_finish(&t.w), 0);
	return text_close(&t);
}

/* The same document parsed by jansson and dumped again gives the same bytes. */
static void test_document_as_jansson(void **state)
{
	static const enum mode modes[] = { PREC10, PREC17, COMPACT };
	size_t m;

	(void)state;
	for (m = 0; m < 3; m++) {
		char *ours = write_doc(modes[m]), *theirs;
		json_error_t e;
		json_t *j = json_loads(ours, 0, &e);

		if (!j)
			fail_msg("jsonw wrote what jansson cannot parse: %s\n%s", e.text, ours);
		theirs = jansson_text(j, modes[m]);
		assert_non_null(theirs);
		assert_int_equal(strlen(ours), strlen(theirs) + 1);
		assert_memory_equal(ours, theirs, strlen(theirs));
		assert_int_equal(ours[strlen(theirs)], '\n');
		assert_string_equal(json_string_value(json_object_get(j, "text")),
				    "quote \" backslash \\ tab\t newline\n bell\a caf\xc3\xa9");
		assert_true(json_is_null(json_array_get(json_object_get(j, "list"), 3)));
		assert_string_equal(json_string_value(json_object_get(
			json_array_get(json_object_get(j, "list"), 6), "k\x01")), "ab");
		free(ours);
		free(theirs);
		json_decref(j);
	}
}

static json_t *load_example(const char *rel)
{
	const char *base = getenv("TESTDATA");
	char path[4096];
	json_error_t e;
	json_t *j;

	assert_non_null(base);
	snprintf(path, sizeof(path), "%s/../../%s", base, rel);
	j = json_load_file(path, 0, &e);
	if (!j)
		fail_msg("%s: %s", path, e.text);
	return j;
}

/* Real documents of the repository through jsonw_value, in every layout. */
static void test_value_as_jansson(void **state)
{
	static const char *const files[] = {
		"examples/h200-run/env.json", "examples/h200-run/tko-run.json",
		"examples/h200-run/analysis/replay.json",
		"examples/isa/triton_poi_fused_index_add_zeros_1.gfx942.json",
		"tests/data/bench/tune-gpu-results.json",
		"tests/data/tune/online_softmax.capture.json",
	};
	static const enum mode modes[] = { PREC10, PREC17, COMPACT };
	size_t i, m;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(*files); i++) {
		json_t *j = load_example(files[i]);

		for (m = 0; m < 3; m++) {
			char *theirs = jansson_text(j, modes[m]), *ours;
			struct text t;

			text_open(&t, modes[m]);
			jsonw_value(&t.w, j);
			ours = text_close(&t);
			if (strcmp(ours, theirs))
				fail_msg("%s (mode %d): jsonw and jansson differ", files[i], (int)m);
			free(ours);
			free(theirs);
		}
		json_decref(j);
	}
}

/* jsonw_compact_string == json_dumps(JSON_COMPACT | JSON_ENCODE_ANY), any value. */
static void test_compact_string(void **state)
{
	static const char *const docs[] = {
		"{\"kwargs\": {\"XBLOCK\": 1024, \"R0_BLOCK\": 8}, \"num_warps\": 4, \"t\": 0.021}",
		"[1, 2.5, \"x\\u001b\", null, true, false, {}, [], {\"a\": [{}]}]",
		"\"just a string\"", "1e-7", "-0.0", "12345678901234567890e3", "null",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(docs) / sizeof(*docs); i++) {
		json_error_t e;
		json_t *j = json_loads(docs[i], JSON_DECODE_ANY, &e);
		char *theirs, *ours;

		assert_non_null(j);
		theirs = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
		ours = jsonw_compact_string(j);
		assert_non_null(ours);
		assert_string_equal(ours, theirs);
		free(ours);
		free(theirs);
		json_decref(j);
	}
	assert_null(jsonw_compact_string(NULL));
}

/* A tree as deep as jansson parses (JSONW_MAX_DEPTH) is written, not refused. */
static void test_deep_value(void **state)
{
	json_t *root = json_array(), *cur = root;
	char *ours, *theirs;
	int i;

	(void)state;
	for (i = 1; i < JSONW_MAX_DEPTH; i++) {
		json_t *next = json_array();

		json_array_append_new(cur, next);
		cur = next;
	}
	ours = jsonw_compact_string(root);
	theirs = json_dumps(root, JSON_COMPACT);
	assert_non_null(ours);
	assert_string_equal(ours, theirs);
	free(ours);
	free(theirs);
	json_decref(root);
}

/* jsonw_write_doc == json_dumpf(INDENT(2) | REAL_PRECISION(p)) and a newline. */
static void test_write_doc(void **state)
{
	static const int precs[] = { 10, 17 };
	json_t *j = load_example("examples/h200-run/analysis/replay.json");
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char *theirs = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(precs[i]));
		struct text t;
		char *ours;

		text_open(&t, PREC10);
		assert_int_equal(jsonw_write_doc(t.fp, j, precs[i]), 0);
		ours = text_close(&t);
		assert_int_equal(strlen(ours), strlen(theirs) + 1);
		assert_memory_equal(ours, theirs, strlen(theirs));
		assert_int_equal(ours[strlen(theirs)], '\n');
		free(ours);
		free(theirs);
	}
	json_decref(j);
}

/* json/jsonio's file writers go through jsonw: jansson's bytes at 10 digits, scalars refused. */
static void test_json_write_path(void **state)
{
	char dir[] = "/tmp/tko-jsonw-XXXXXX", path[64];
	json_t *j = load_example("examples/h200-run/env.json"), *one = json_integer(1);
	char *theirs = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(10)), *ours;
	struct buf err = BUF_INIT;
	FILE *fp;
	long n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/env.json", dir);
	assert_int_equal(json_write_path(j, path, &err), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	rewind(fp);
	ours = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(ours, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	assert_int_equal((size_t)n, strlen(theirs) + 1);
	assert_memory_equal(ours, theirs, strlen(theirs));
	free(ours);

	snprintf(path, sizeof(path), "%s/one.json", dir);
	assert_int_equal(json_write_path(one, path, &err), -1);
	assert_non_null(strstr(err.buf, "cannot encode JSON for '"));
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(json_write_fp(one, stdout), -1);
	snprintf(path, sizeof(path), "%s/env.json", dir);
	unlink(path);
	rmdir(dir);
	buf_release(&err);
	free(theirs);
	json_decref(one);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reals_as_jansson),
		cmocka_unit_test(test_every_precision),
		cmocka_unit_test(test_strings_as_jansson),
		cmocka_unit_test(test_document_as_jansson),
		cmocka_unit_test(test_value_as_jansson),
		cmocka_unit_test(test_compact_string),
		cmocka_unit_test(test_deep_value),
		cmocka_unit_test(test_write_doc),
		cmocka_unit_test(test_json_write_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
