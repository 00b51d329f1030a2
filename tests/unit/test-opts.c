/* Unit tests for util/opts: the option-table parser. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/opts.h"

static const char *const usage[] = { "tko test [options] PATH...", NULL };

struct vals {
	const char *json;
	int quiet;
	long n;
	double t;
	struct strlist k;
};

static int parse(int argc, const char **argv, struct vals *v, unsigned flags,
		 int *rest)
{
	const struct opt options[] = {
		OPT_STRING(0, "json", &v->json, "FILE", "write JSON"),
		OPT_BOOL('q', "quiet", &v->quiet, "be quiet"),
		OPT_INT('n', "count", &v->n, "N", "a count"),
		OPT_DOUBLE(0, "timeout", &v->t, "S", "seconds"),
		OPT_LIST('k', "kernel", &v->k, "NAME", "repeatable"),
		OPT_END(),
	};
	return opts_parse(argc, argv, options, usage, flags, rest);
}

static void test_mixed_options_and_positionals(void **state)
{
	const char *argv[] = { "test", "a.s", "--json=out.json", "-q", "b.s",
			       "-n", "7", "--timeout", "2.5", "-kfoo",
			       "--kernel", "bar", NULL };
	struct vals v = { 0 };
	int n;

	(void)state;
	n = parse(12, argv, &v, 0, NULL);
	assert_int_equal(n, 2);
	assert_string_equal(argv[0], "a.s");
	assert_string_equal(argv[1], "b.s");
	assert_string_equal(v.json, "out.json");
	assert_int_equal(v.quiet, 1);
	assert_int_equal(v.n, 7);
	assert_true(v.t == 2.5);
	assert_int_equal(v.k.nr, 2);
	assert_string_equal(v.k.v[0], "foo");
	assert_string_equal(v.k.v[1], "bar");
	strlist_release(&v.k);
}

static void test_dashdash_rest(void **state)
{
	const char *argv[] = { "capture", "--json", "x", "RUN", "--", "python",
			       "-q", "m.py", NULL };
	struct vals v = { 0 };
	int rest, n;

	(void)state;
	n = parse(8, argv, &v, OPTS_REST, &rest);
	assert_int_equal(n, 4);
	assert_int_equal(rest, 1);
	assert_string_equal(argv[0], "RUN");
	assert_string_equal(argv[1], "python");
	assert_string_equal(argv[2], "-q");
	assert_int_equal(v.quiet, 0);
}

static void test_errors(void **state)
{
	const char *bad_int[] = { "t", "-n", "12x", NULL };
	const char *unknown[] = { "t", "--nope", NULL };
	const char *missing[] = { "t", "--json", NULL };
	const char *bool_val[] = { "t", "--quiet=1", NULL };
	struct vals v = { 0 };

	(void)state;
	assert_int_equal(parse(3, bad_int, &v, 0, NULL), OPTS_ERROR);
	assert_int_equal(parse(2, unknown, &v, 0, NULL), OPTS_ERROR);
	assert_int_equal(parse(2, missing, &v, 0, NULL), OPTS_ERROR);
	assert_int_equal(parse(2, bool_val, &v, 0, NULL), OPTS_ERROR);
	assert_int_equal(opts_exit_code(OPTS_ERROR), 2);
	assert_int_equal(opts_exit_code(OPTS_HELP), 0);
}

static void test_no_prefix_and_lone_dash(void **state)
{
	const char *argv[] = { "t", "-q", "--no-quiet", "-", NULL };
	struct vals v = { 0 };

	(void)state;
	assert_int_equal(parse(4, argv, &v, 0, NULL), 1);
	assert_int_equal(v.quiet, 0);
	assert_string_equal(argv[0], "-");
}

static void test_parse_numbers(void **state)
{
	long l;
	double d;

	(void)state;
	assert_int_equal(parse_long("42", &l), 0);
	assert_int_equal(l, 42);
	assert_int_equal(parse_long("", &l), -1);
	assert_int_equal(parse_long("4 2", &l), -1);
	assert_int_equal(parse_long("99999999999999999999999", &l), -1);
	assert_int_equal(parse_double("0.051744", &d), 0);
	assert_true(d == 0.051744);
	assert_int_equal(parse_double("nan", &d), -1);
	assert_int_equal(parse_double("1e400", &d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed_options_and_positionals),
		cmocka_unit_test(test_dashdash_rest),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_prefix_and_lone_dash),
		cmocka_unit_test(test_parse_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
