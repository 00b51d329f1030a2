/*
 * Unit tests for profile/jscan.c, the streaming JSON scanner, and for the
 * window it works in (profile/input.c through chrome_read): values found
 * the same wherever the input is cut, strings and their escapes, nested
 * arguments skipped, numbers in every JSON form, truncated values.
 * Expected values are worked out by hand (in the comments) or are C's own
 * literals, which the compiler rounds independently of the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profile/chrome.h"
#include "profile/jscan.h"
#include "util/file.h"
#include "util/mem.h"

/* One call over the whole text, at end of input. */
static int extent(const char *s, size_t *off)
{
	struct jscan js = JSCAN_INIT;
	int r = jscan_extent(&js, s, strlen(s), 1);

	*off = js.off;
	return r;
}

/*
 * The text given k bytes first (not at end of input), then all of it: the
 * result must be what one call gives, for every k.
 */
static void check_every_split(const char *s, int want, size_t want_off)
{
	size_t n = strlen(s), k;

	for (k = 0; k <= n; k++) {
		struct jscan js = JSCAN_INIT;
		int r = jscan_extent(&js, s, k, 0);

		if (r == 0)
			r = jscan_extent(&js, s, n, 1);
		assert_int_equal(r, want);
		if (want == 1)
			assert_int_equal(js.off, want_off);
	}
}

static void test_extent_at_every_split(void **state)
{
	/* each value's length counted by hand; the escaped quote and backslash must not end the string */
	static const struct { const char *text; int r; size_t off; } cases[] = {
		{ "{\"name\": \"a\\\"}b\", \"args\": {\"x\": [1, {\"y\": \"]\"}]}} trailing", 1, 49 },
		{ "[\"\\\\\", \"}\"]", 1, 11 },
		{ "\"just \\u00e9 a string\" ,", 1, 22 },
		{ "-12.5e+3,", 1, 8 },
		{ "true]", 1, 4 },
		{ "12", 1, 2 },			/* a number ends at the end of input */
		{ "{\"cut\": [1, 2", -1, 0 },	/* never closed */
		{ "\"open string", -1, 0 },
		{ "}", -1, 0 },			/* no value starts with '}' */
	};
	size_t i, off;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(extent(cases[i].text, &off), cases[i].r);
		if (cases[i].r == 1)
			assert_int_equal(off, cases[i].off);
		check_every_split(cases[i].text, cases[i].r, cases[i].off);
	}
}

static void test_extent_needs_more(void **state)
{
	struct jscan js = JSCAN_INIT;
	const char *s = "{\"a\": \"b\\";

	(void)state;
	/* cut right after a backslash: more bytes are needed, then the escape is honoured */
	assert_int_equal(jscan_extent(&js, s, strlen(s), 0), 0);
	assert_int_equal(js.esc, 1);
	s = "{\"a\": \"b\\\"\"}";	/* {"a": "b\""} : 12 bytes */
	assert_int_equal(jscan_extent(&js, s, strlen(s), 1), 1);
	assert_int_equal(js.off, 12);
}

static void check_unescape(const char *raw, const char *want, size_t want_len)
{
	struct buf out = BUF_INIT;

	assert_int_equal(json_unescape(raw, strlen(raw), &out), 0);
	assert_int_equal(out.len, want_len);
	assert_memory_equal(out.buf, want, want_len);
	buf_release(&out);
}

static void test_strings_and_escapes(void **state)
{
	struct jcur c;
	struct buf out = BUF_INIT;
	const char *s, *text = " \"a\\\"b\\\\c\" ";
	size_t n;
	int esc;

	(void)state;
	c.p = text;
	c.end = text + strlen(text);
	assert_int_equal(jc_peek(&c), JT_STRING);
	assert_int_equal(jc_string(&c, &s, &n, &esc), 0);
	assert_int_equal(n, 7);			/* a\"b\\c: the raw span, escapes kept */
	assert_memory_equal(s, "a\\\"b\\\\c", 7);
	assert_int_equal(esc, 1);

	check_unescape("a\\\"b\\\\c", "a\"b\\c", 5);
	check_unescape("\\/\\b\\f\\n\\r\\t", "/\b\f\n\r\t", 6);
	check_unescape("caf\\u00e9", "caf\xc3\xa9", 5);			/* U+00E9: C3 A9 */
	check_unescape("\\u20AC", "\xe2\x82\xac", 3);			/* U+20AC: E2 82 AC */
	check_unescape("\\ud83d\\ude00", "\xf0\x9f\x98\x80", 4);	/* U+1F600 from its surrogates */
	check_unescape("\\ud83dx", "\xef\xbf\xbdx", 4);			/* a lone surrogate: U+FFFD */
	check_unescape("\\u0000", "\0", 1);
	assert_int_equal(json_unescape("\\x", 2, &out), -1);
	assert_int_equal(json_unescape("\\u12", 4, &out), -1);
	assert_int_equal(json_unescape("ab\\", 3, &out), -1);
	buf_release(&out);

	/* a raw control byte inside a string is not JSON */
	text = "\"a\tb\"";
	c.p = text;
	c.end = text + strlen(text);
	assert_int_equal(jc_string(&c, &s, &n, &esc), -1);
}

/* The value of key `want` in the object at c, skipping the others: 1 found, 0 not, -1 bad. */
static int find_key(struct jcur *c, const char *want)
{
	const char *k;
	size_t n;
	int r;

	if (jc_object(c) < 0)
		return -1;
	while ((r = jc_key(c, &k, &n)) == 1) {
		if (n == strlen(want) && !memcmp(k, want, n))
			return 1;
		if (jc_skip(c) < 0)
			return -1;
	}
	return r;
}

static void test_nested_args_skipped(void **state)
{
	/* args nests arrays, objects and brackets inside strings before the key we want */
	const char *text = "{\"args\": {\"a\": [1, {\"b\": [2, \"]}\"]}], \"c\": {\"d\": {}}, "
			   "\"External id\": 42}, \"ts\": 7}";
	struct jcur c = { text, text + strlen(text) };
	const char *k;
	size_t n;
	double v;

	(void)state;
	assert_int_equal(find_key(&c, "args"), 1);
	assert_int_equal(find_key(&c, "External id"), 1);
	assert_int_equal(jc_number(&c, &v), 0);
	assert_true(v == 42);
	/* then args closes, and "ts" follows in the event */
	assert_int_equal(jc_key(&c, &k, &n), 0);
	assert_int_equal(jc_key(&c, &k, &n), 1);
	assert_int_equal(n, 2);
	assert_memory_equal(k, "ts", 2);
	assert_int_equal(jc_number(&c, &v), 0);
	assert_true(v == 7);
	assert_int_equal(jc_key(&c, &k, &n), 0);
}

static int number(const char *s, double *v)
{
	struct jcur c = { s, s + strlen(s) };

	if (jc_number(&c, v) < 0)
		return -1;
	return c.p == c.end ? 0 : 1;	/* 1: stopped before the end */
}

static void test_numbers_in_every_form(void **state)
{
	/* the expected doubles are C literals: the compiler rounds them on its own */
	static const struct { const char *text; double v; } ok[] = {
		{ "0", 0.0 }, { "-0", -0.0 }, { "7", 7.0 }, { "-12", -12.0 },
		{ "3.25", 3.25 }, { "0.1", 0.1 }, { "-0.000001", -0.000001 },
		{ "1e3", 1e3 }, { "1E+3", 1e3 }, { "2.5e-3", 2.5e-3 }, { "-4.2E1", -42.0 },
		{ "9007199254740993", 9007199254740992.0 },	/* 2^53 + 1 ties to even: 2^53 */
		{ "18446744073709551616", 18446744073709551616.0 },	/* 2^64: past uint64 */
		{ "123456789012345678901234567890", 123456789012345678901234567890.0 },
		{ "0.12345678901234567890123", 0.12345678901234567890123 },	/* 23 decimals: slow path */
		{ "3603029046213.755", 3603029046213.755 },	/* a Kineto ts */
		/* 70 characters: longer than the old 64-byte copy, which refused it */
		{ "1.00000000000000000000000000000000000000000000000000000000000000000001",
		  1.0 },
	};
	static const char *const bad[] = { "-", "1.", ".5", "1e", "1e+", "+1", "-x", "" };
	size_t i;
	double v;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(number(ok[i].text, &v), 0);
		assert_true(v == ok[i].v);
		assert_int_equal(signbit(v), signbit(ok[i].v));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(number(bad[i], &v), -1);
	/* a number stops at what cannot be part of it */
	assert_int_equal(number("12,", &v), 1);
	assert_true(v == 12);
}

static void test_number_or_string(void **state)
{
	static const struct { const char *text; int r; double v; } cases[] = {
		{ "\"3\"", 0, 3 }, { "\"20.5\"", 0, 20.5 }, { "4", 0, 4 },
		{ "\"3x\"", -1, 0 }, { "\"\"", -1, 0 }, { "\"\\u0033\"", -1, 0 }, { "null", -1, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jcur c = { cases[i].text, cases[i].text + strlen(cases[i].text) };
		double v = -1;

		assert_int_equal(jc_number_or_string(&c, &v), cases[i].r);
		if (!cases[i].r)
			assert_true(v == cases[i].v);
	}
}

static void test_truncated_values(void **state)
{
	/* each text is a value cut short: the cursor says so, never reads past the end */
	static const char *const cut[] = {
		"{\"a\": [1, 2", "{\"a\"", "{\"a\":", "[1, 2,", "\"abc", "{\"a\": \"b\\", "[", "{",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		size_t n = strlen(cut[i]), off;
		char *copy = xmalloc(n);	/* exactly n bytes: no NUL for the cursor to lean on */
		struct jcur c;

		memcpy(copy, cut[i], n);
		c.p = copy;
		c.end = copy + n;
		assert_int_equal(jc_skip(&c), -1);
		assert_int_equal(extent(cut[i], &off), -1);
		free(copy);
	}
}

/* A Chrome trace read through a window of `window` bytes (0: the default). */
static int read_window(const char *path, size_t window, struct prof *p, struct buf *err)
{
	struct prof_input in;
	int r;

	prof_init(p);
	p->path = xstrdup(path);
	if (input_open(&in, path, err) < 0)
		return -2;
	if (window) {
		free(in.buf);
		in.cap = window;
		in.buf = xmalloc(window + 1);
	}
	r = chrome_read(p, &in, err);
	input_close(&in);
	return r;
}

static char *write_tmp(const char *text)
{
	char *path = xstrdup("/tmp/tko-unit-trace-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_events_across_window_boundaries(void **state)
{
	/*
	 * 3 kernels (one with an escaped quote in its name), 1 op, 1 launch,
	 * 1 malformed event ("ts": 1x; skipped), and a deviceProperties
	 * after the events; a window of every size from 1 to the whole file
	 * puts a boundary everywhere, including between "traceEvents" and
	 * its '[' (where the key's bytes used to move under the reader).
	 */
	const char *text =
		"{\"schemaVersion\": 1, \"traceEvents\" :\n [\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\\\"1\", \"ts\": 10, \"dur\": 5,"
		" \"args\": {\"External id\": 3, \"grid\": [4, 1, 1]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"ts\": 1, \"dur\": 4,"
		" \"args\": {\"External id\": 3, \"Input type\": [\"float\", \"\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"ts\": 2,"
		" \"dur\": 1, \"args\": {\"correlation\": 9, \"External id\": 3}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"bad\", \"ts\": 1x, \"args\": {\"x\": [1]}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"ts\": \"16.5\", \"dur\": 2.5e0},\n"
		"{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", \"ts\": 20, \"dur\": 1}\n"
		"],\n \"deviceProperties\": [{\"name\": \"NVIDIA H200\"}]}\n";
	char *path = write_tmp(text);
	size_t w, n = strlen(text);

	(void)state;
	for (w = 1; w <= n + 1; w++) {
		struct buf err = BUF_INIT;
		struct prof p;

		assert_int_equal(read_window(path, w, &p, &err), 0);
		assert_int_equal(err.len, 0);
		assert_int_equal(p.nacts, 3);
		assert_int_equal(p.nops, 1);
		assert_int_equal(p.nlaunches, 1);
		assert_int_equal(p.skipped, 1);
		assert_string_equal(prof_str(&p, p.acts[0].name), "k\"1");
		assert_true(p.acts[1].start == 16.5 && p.acts[1].dur == 2.5);
		assert_int_equal(p.acts[0].grid[0], 4);
		assert_string_equal(p.device, "NVIDIA H200");
		prof_release(&p);
		buf_release(&err);
	}
	unlink(path);
	free(path);
}

static void test_trace_cut_in_an_event(void **state)
{
	/* two whole events, the third cut inside its name: two kept, the read flagged partial */
	const char *text =
		"[{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"ts\": 1, \"dur\": 1},\n"
		" {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"b\", \"ts\": 3, \"dur\": 1},\n"
		" {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"c";
	char *path = write_tmp(text);
	size_t w;

	(void)state;
	for (w = 1; w <= 8; w++) {
		struct buf err = BUF_INIT;
		struct prof p;

		assert_int_equal(read_window(path, w, &p, &err), 0);
		assert_int_equal(p.nacts, 2);
		assert_int_equal(p.partial, 1);
		assert_non_null(strstr(p.notes[0], "inside an event"));
		prof_release(&p);
		buf_release(&err);
	}
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extent_at_every_split),
		cmocka_unit_test(test_extent_needs_more),
		cmocka_unit_test(test_strings_and_escapes),
		cmocka_unit_test(test_nested_args_skipped),
		cmocka_unit_test(test_numbers_in_every_form),
		cmocka_unit_test(test_number_or_string),
		cmocka_unit_test(test_truncated_values),
		cmocka_unit_test(test_events_across_window_boundaries),
		cmocka_unit_test(test_trace_cut_in_an_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
