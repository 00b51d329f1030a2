/*
 * Unit tests for parse/pylit: every literal form Inductor and Triton users
 * write, the lenient fallback, errors with their positions, repr and JSON.
 * Expected values are what Python itself gives for the same text
 * (ast.literal_eval / repr), worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/pylit.h"
#include "parse/pylit_json.h"

static struct pylit *parse_ok(const char *text, unsigned flags)
{
	struct buf err = BUF_INIT;
	struct pylit *v = NULL;
	int ret = pylit_parse_all(text, strlen(text), flags, &v, &err);

	if (ret < 0)
		fail_msg("parse of <%s> failed: %s", text, err.buf);
	buf_release(&err);
	return v;
}

/* The error text for a span that must not parse. */
static char *parse_err(const char *text, unsigned flags)
{
	struct buf err = BUF_INIT;
	struct pylit *v = NULL;

	if (!pylit_parse_all(text, strlen(text), flags, &v, &err)) {
		pylit_free(v);
		fail_msg("<%s> parsed but should not", text);
	}
	assert_null(v);
	return buf_detach(&err, NULL);
}

static void assert_repr(const struct pylit *v, const char *want)
{
	struct buf b = BUF_INIT;

	pylit_repr(&b, v);
	assert_string_equal(b.buf, want);
	buf_release(&b);
}

/* Parses, then checks repr() against what Python prints for the same literal. */
static void assert_roundtrip(const char *text, const char *want_repr)
{
	struct pylit *v = parse_ok(text, 0);

	assert_repr(v, want_repr);
	pylit_free(v);
}

static void assert_error(const char *text, const char *want)
{
	char *msg = parse_err(text, 0);

	assert_string_equal(msg, want);
	free(msg);
}

static void test_inductor_triton_meta(void **state)
{
	const char *text =
		"{'signature': {'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, "
		"'device': DeviceProperties(type='hip', index=0, multi_processor_count=80, "
		"cc='gfx936', major=9, warp_size=64), 'constants': {}, "
		"'configs': [{(0,): [['tt.divisibility', 16], ['tt.pointer_range', 32]], "
		"(1,): [['tt.divisibility', 16]]}]}";
	struct pylit *v = parse_ok(text, 0);
	const struct pylit *sig, *dev, *cfg;
	long long i;

	(void)state;
	assert_int_equal(v->kind, PYLIT_DICT);
	assert_int_equal(v->n, 4);
	sig = pylit_get(v, "signature");
	assert_non_null(sig);
	assert_int_equal(sig->n, 3);
	assert_string_equal(pylit_str(pylit_get(sig, "in_ptr0")), "*fp32");
	assert_string_equal(sig->keys[2]->s, "XBLOCK");
	dev = pylit_get(v, "device");
	assert_int_equal(dev->kind, PYLIT_CALL);
	assert_string_equal(dev->s, "DeviceProperties");
	assert_string_equal(pylit_str(pylit_kwarg(dev, "cc")), "gfx936");
	assert_int_equal(pylit_int(pylit_kwarg(dev, "warp_size"), &i), 0);
	assert_int_equal(i, 64);
	assert_null(pylit_arg(dev, 0));
	assert_int_equal(pylit_get(v, "constants")->kind, PYLIT_DICT);
	cfg = pylit_get(v, "configs")->items[0];
	assert_int_equal(cfg->keys[0]->kind, PYLIT_TUPLE);
	assert_int_equal(cfg->keys[0]->n, 1);
	assert_int_equal(cfg->keys[0]->items[0]->i, 0);
	assert_string_equal(cfg->items[0]->items[1]->items[0]->s, "tt.pointer_range");
	assert_int_equal(cfg->items[0]->items[1]->items[1]->i, 32);
	assert_repr(cfg, "{(0,): [['tt.divisibility', 16], ['tt.pointer_range', 32]], "
			 "(1,): [['tt.divisibility', 16]]}");
	pylit_free(v);
}

static void test_containers(void **state)
{
	(void)state;
	assert_roundtrip("[]", "[]");
	assert_roundtrip("[1, 2,]", "[1, 2]");
	assert_roundtrip("()", "()");
	assert_roundtrip("(1,)", "(1,)");
	assert_roundtrip("(1)", "1");
	assert_roundtrip("((1, 2), (3,))", "((1, 2), (3,))");
	assert_roundtrip("{}", "{}");
	assert_roundtrip("set()", "set()");
	assert_roundtrip("{1, 2, 3}", "{1, 2, 3}");
	assert_roundtrip("{(0, 1): 'a', 2: None, True: [], 'k': {'n': ()}}",
			 "{(0, 1): 'a', 2: None, True: [], 'k': {'n': ()}}");
	assert_roundtrip("{ # a comment\n  'a': 1,  # another\n  'b': [\n 2,\n ],\n}",
			 "{'a': 1, 'b': [2]}");
	assert_roundtrip("[1, \\\n 2]", "[1, 2]");
}

static void test_calls_and_names(void **state)
{
	struct pylit *v;

	(void)state;
	v = parse_ok("triton.Config({'XBLOCK': 128, 'R0_BLOCK': 8}, num_warps=4, num_stages=1)", 0);
	assert_int_equal(v->kind, PYLIT_CALL);
	assert_string_equal(v->s, "triton.Config");
	assert_int_equal(v->n, 3);
	assert_null(v->kw[0]);
	assert_string_equal(v->kw[1], "num_warps");
	assert_int_equal(pylit_arg(v, 0)->kind, PYLIT_DICT);
	assert_int_equal(pylit_kwarg(v, "num_stages")->i, 1);
	pylit_free(v);
	assert_roundtrip("f()", "f()");
	assert_roundtrip("f (1, x = 2)", "f(1, x=2)");
	assert_roundtrip("ReductionHint.INNER", "ReductionHint.INNER");
	assert_roundtrip("__file__", "__file__");
	assert_roundtrip("[True, False, None]", "[True, False, None]");
	v = parse_ok("TileHint.DEFAULT", 0);
	assert_int_equal(v->kind, PYLIT_NAME);
	assert_true(pylit_is_name(v, "TileHint.DEFAULT"));
	pylit_free(v);
}

static void test_strings(void **state)
{
	struct pylit *v;

	(void)state;
	assert_roundtrip("'a'", "'a'");
	assert_roundtrip("\"it's\"", "\"it's\"");
	assert_roundtrip("'''x\ny'''", "'x\\ny'");
	assert_roundtrip("\"\"\"q\"\"\"", "'q'");
	assert_roundtrip("u'x'", "'x'");
	assert_roundtrip("'a' \"b\" '''c'''", "'abc'");
	assert_roundtrip("('a'\n 'b')", "'ab'");
	assert_roundtrip("'\\t\\n\\\\\\'\\\"'", "'\\t\\n\\\\\\'\"'");
	assert_roundtrip("'\\x41\\101\\u00e9'", "'AA\xc3\xa9'");
	assert_roundtrip("'\\U0001F600'", "'\xf0\x9f\x98\x80'");
	assert_roundtrip("'a\\\nb'", "'ab'");
	assert_roundtrip("'\\d'", "'\\\\d'");
	assert_roundtrip("r'\\d\\n'", "'\\\\d\\\\n'");
	assert_roundtrip("R'\\''", "\"\\\\'\"");
	assert_roundtrip("b'\\x00\\xffA'", "b'\\x00\\xffA'");
	assert_roundtrip("rb'\\x'", "b'\\\\x'");
	assert_roundtrip("Br'a' b'b'", "b'ab'");
	assert_roundtrip("'''a\r\nb'''", "'a\\nb'");
	v = parse_ok("'a\\x00b'", 0);
	assert_int_equal(v->kind, PYLIT_STR);
	assert_int_equal(v->slen, 3);
	assert_memory_equal(v->s, "a\0b", 3);
	pylit_free(v);
}

static void test_numbers(void **state)
{
	struct pylit *v;
	double d;

	(void)state;
	assert_roundtrip("0", "0");
	assert_roundtrip("00", "0");
	assert_roundtrip("-1", "-1");
	assert_roundtrip("+5", "5");
	assert_roundtrip("- 7", "-7");
	assert_roundtrip("1_000_000", "1000000");
	assert_roundtrip("0x1F", "31");
	assert_roundtrip("0o17", "15");
	assert_roundtrip("0b101", "5");
	assert_roundtrip("0x_ff", "255");
	assert_roundtrip("-0x10", "-16");
	assert_roundtrip("1.5", "1.5");
	assert_roundtrip(".5", "0.5");
	assert_roundtrip("5.", "5.0");
	assert_roundtrip("1e3", "1000.0");
	assert_roundtrip("-2.5e-3", "-0.0025");
	assert_roundtrip("0.025165824", "0.025165824");
	assert_roundtrip("1e16", "1e+16");
	assert_roundtrip("1e15", "1000000000000000.0");
	assert_roundtrip("0.0001", "0.0001");
	assert_roundtrip("0.00001", "1e-05");
	assert_roundtrip("123.456", "123.456");
	assert_roundtrip("1.5e300", "1.5e+300");
	assert_roundtrip("-0.0", "-0.0");
	assert_roundtrip("0.1", "0.1");
	assert_roundtrip("9223372036854775807", "9223372036854775807");
	assert_roundtrip("-9223372036854775808", "-9223372036854775808");
	v = parse_ok("18446744073709551616", 0);
	assert_int_equal(v->kind, PYLIT_INT);
	assert_true(v->big);
	assert_int_equal(pylit_number(v, &d), 0);
	assert_true(d == 18446744073709551616.0);
	assert_repr(v, "18446744073709551616");
	pylit_free(v);
	v = parse_ok("17179869184", 0);
	assert_false(v->big);
	assert_true(v->i == 17179869184LL);
	pylit_free(v);
}

static void test_lenient_expressions(void **state)
{
	const char *text =
		"triton.heuristics(values={'EVEN': lambda args, k=1: args['n'] % 16 == 0,\n"
		"  'W': 2**3, 'S': x[0], 'F': f'{x}', 'N': -n}, key=(a + b), z=1)";
	struct pylit *v = parse_ok(text, PYLIT_LENIENT);
	const struct pylit *vals = pylit_kwarg(v, "values");

	(void)state;
	assert_int_equal(vals->kind, PYLIT_DICT);
	assert_int_equal(vals->n, 5);
	assert_int_equal(pylit_get(vals, "EVEN")->kind, PYLIT_EXPR);
	assert_string_equal(pylit_get(vals, "EVEN")->s, "lambda args, k=1: args['n'] % 16 == 0");
	assert_string_equal(pylit_get(vals, "W")->s, "2**3");
	assert_string_equal(pylit_get(vals, "S")->s, "x[0]");
	assert_string_equal(pylit_get(vals, "F")->s, "f'{x}'");
	assert_string_equal(pylit_get(vals, "N")->s, "-n");
	assert_string_equal(pylit_kwarg(v, "key")->s, "a + b");
	assert_int_equal(pylit_kwarg(v, "z")->i, 1);
	pylit_free(v);
}

static void test_errors_have_positions(void **state)
{
	(void)state;
	assert_error("{'a': 1", "line 1 column 1: '{' is never closed");
	assert_error("{'a': [1,\n 2", "line 1 column 7: '[' is never closed");
	assert_error("[1 2]", "line 1 column 4: expected ',' or ']' after a list item, found '2'");
	assert_error("{\n 'a': [1,\n 2 3]}",
		     "line 3 column 4: expected ',' or ']' after a list item, found '3'");
	assert_error("{'a' 1}", "line 1 column 6: expected ',' or '}' after a set item, found '1'");
	assert_error("{'a': 1, 'b' 2}", "line 1 column 14: expected ':' after a dict key, found '2'");
	assert_error("f(1 2)", "line 1 column 5: expected ',' or ')' after a call argument, found '2'");
	assert_error("'abc", "line 1 column 1: unterminated string");
	assert_error("'ab\nc'", "line 1 column 1: unterminated string");
	assert_error("'''abc''", "line 1 column 1: unterminated string");
	assert_error("01", "line 1 column 1: leading zeros in a decimal integer are not allowed");
	assert_error("1j", "line 1 column 1: complex numbers are not supported");
	assert_error("12abc", "line 1 column 3: invalid number literal: unexpected 'a'");
	assert_error("1__0", "line 1 column 2: invalid number literal: unexpected '_'");
	assert_error("1e", "line 1 column 1: invalid exponent in number literal");
	assert_error("'\\N{EM DASH}'", "line 1 column 2: \\N{...} escapes are not supported");
	assert_error("'\\x4'", "line 1 column 2: truncated \\xXX escape");
	assert_error("'\\ud800'", "line 1 column 2: surrogate code point U+D800 is not supported");
	assert_error("b'\xc3\xa9'", "line 1 column 3: bytes can only contain ASCII literal characters");
	assert_error("f'x'", "line 1 column 1: f-strings are not literals");
	assert_error("'a' b'b'", "line 1 column 5: cannot mix bytes and str literals");
	assert_error("1 2", "line 1 column 3: unexpected '2' after the value");
	assert_error("", "line 1 column 1: expected a value, found end of input");
	assert_error("-x", "line 1 column 1: a sign must be followed by a number");
	assert_error("lambda: 1", "line 1 column 1: 'lambda' does not start a literal");
	assert_error("[1, *x]", "line 1 column 5: expected a value, found '*'");
	assert_error("\x01", "line 1 column 1: expected a value, found byte 0x01");
}

static void test_lenient_still_rejects_broken_text(void **state)
{
	char *msg;

	(void)state;
	msg = parse_err("{'a': f(x, [1, 2}", PYLIT_LENIENT);
	assert_string_equal(msg, "line 1 column 17: '}' does not match '['");
	free(msg);
	msg = parse_err("dict(a={'b': (1,", PYLIT_LENIENT);
	assert_string_equal(msg, "line 1 column 14: '(' is never closed");
	free(msg);
	msg = parse_err("{'a': 'x}", PYLIT_LENIENT);
	assert_string_equal(msg, "line 1 column 7: unterminated string");
	free(msg);
}

static void test_nesting_limit(void **state)
{
	char deep[1001];
	char *msg;

	(void)state;
	memset(deep, '[', 1000);
	deep[1000] = '\0';
	msg = parse_err(deep, 0);
	assert_non_null(strstr(msg, "nesting deeper than"));
	free(msg);
	msg = parse_err(deep, PYLIT_LENIENT);
	assert_non_null(strstr(msg, "nesting deeper than"));
	free(msg);
}

static void test_parse_from_offset(void **state)
{
	const char *text = "x = {'a': 1}  # comment\ny = 2";
	struct buf err = BUF_INIT;
	struct pylit *v;
	size_t pos = 4;

	(void)state;
	assert_int_equal(pylit_parse(text, strlen(text), &pos, 0, &v, &err), 0);
	assert_int_equal(v->kind, PYLIT_DICT);
	assert_int_equal(v->off, 4);
	assert_int_equal(pos, 12);
	pylit_free(v);
	pos = 4;
	assert_int_equal(pylit_parse("x = [1,\n  2 3]", 14, &pos, 0, &v, &err), -1);
	assert_string_equal(err.buf, "line 2 column 5: expected ',' or ']' after a list item, found '3'");
	buf_release(&err);
}

/* Reads the span without a NUL after it: the parser must stop at n. */
static void test_no_nul_terminator(void **state)
{
	char *text = malloc(7);
	struct buf err = BUF_INIT;
	struct pylit *v;

	(void)state;
	memcpy(text, "[1, 22", 6);
	text[6] = ']';
	assert_int_equal(pylit_parse_all(text, 6, 0, &v, &err), -1);
	assert_string_equal(err.buf, "line 1 column 1: '[' is never closed");
	buf_release(&err);
	memcpy(text, "'abcd'", 6);
	assert_int_equal(pylit_parse_all(text, 5, 0, &v, &err), -1);
	buf_release(&err);
	free(text);
}

static void test_json(void **state)
{
	struct pylit *v = parse_ok("{'d': DeviceProperties(type='cuda', cc=90), (0,): {1, 2}, "
				   "'h': ReductionHint.INNER, 'x': 1.5, 'n': None, 'b': b'\\xff', "
				   "'big': 18446744073709551616}", PYLIT_LENIENT);
	json_t *j = pylit_to_json(v);
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));

	(void)state;
	assert_string_equal(s, "{\"(0,)\":[1,2],\"b\":{\"$bytes\":\"\xc3\xbf\"},"
			       "\"big\":1.8446744073709552e19,"
			       "\"d\":{\"$call\":\"DeviceProperties\",\"args\":[],"
			       "\"kwargs\":{\"cc\":90,\"type\":\"cuda\"}},"
			       "\"h\":{\"$name\":\"ReductionHint.INNER\"},\"n\":null,\"x\":1.5}");
	free(s);
	json_decref(j);
	pylit_free(v);
}

static void test_lookup_helpers(void **state)
{
	struct pylit *v = parse_ok("{'t': True, 'z': 0, 'f': 2.5, 'n': None, 's': 'x'}", 0);
	long long i;
	double d;

	(void)state;
	assert_int_equal(pylit_truth(pylit_get(v, "t")), 1);
	assert_int_equal(pylit_truth(pylit_get(v, "z")), 0);
	assert_int_equal(pylit_truth(pylit_get(v, "n")), 0);
	assert_int_equal(pylit_truth(pylit_get(v, "s")), -1);
	assert_int_equal(pylit_int(pylit_get(v, "f"), &i), -1);
	assert_int_equal(pylit_number(pylit_get(v, "f"), &d), 0);
	assert_true(d == 2.5);
	assert_null(pylit_get(v, "missing"));
	assert_null(pylit_str(pylit_get(v, "t")));
	assert_null(pylit_kwarg(v, "t"));
	assert_string_equal(pylit_kind_name(pylit_get(v, "s")->kind), "str");
	pylit_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inductor_triton_meta),
		cmocka_unit_test(test_containers),
		cmocka_unit_test(test_calls_and_names),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_lenient_expressions),
		cmocka_unit_test(test_errors_have_positions),
		cmocka_unit_test(test_lenient_still_rejects_broken_text),
		cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_parse_from_offset),
		cmocka_unit_test(test_no_nul_terminator),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_lookup_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
