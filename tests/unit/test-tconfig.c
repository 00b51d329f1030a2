/* Unit tests for parse/tconfig: Triton config strings and log numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "parse/tconfig.h"

static int parse(struct at_config *c, const char *s)
{
	struct at_src src = { 0, 1, AT_FMT_INDUCTOR_LOG };

	at_config_init(c, src);
	return tconfig_parse(c, s, strlen(s));
}

static void assert_kw(const struct at_config *c, size_t i, const char *name,
		      const char *value)
{
	assert_true(i < c->nkw);
	assert_string_equal(c->kw[i].name, name);
	assert_string_equal(c->kw[i].value, value);
}

static void test_triton_str_form(void **state)
{
	struct at_config c;

	(void)state;
	assert_int_equal(parse(&c, "XBLOCK: 1, R0_BLOCK: 2048, num_warps: 16, "
			       "num_ctas: 1, num_stages: 1, maxnreg: None"), 0);
	assert_int_equal(c.nkw, 2);
	assert_kw(&c, 0, "XBLOCK", "1");
	assert_kw(&c, 1, "R0_BLOCK", "2048");
	assert_int_equal(c.num_warps, 16);
	assert_int_equal(c.num_ctas, 1);
	assert_int_equal(c.num_stages, 1);
	assert_int_equal(c.maxnreg, -1);
	assert_string_equal(c.text, "XBLOCK: 1, R0_BLOCK: 2048, num_warps: 16, "
			    "num_ctas: 1, num_stages: 1, maxnreg: None");
	at_config_release(&c);
}

static void test_template_form_and_quotes(void **state)
{
	struct at_config c;

	(void)state;
	assert_int_equal(parse(&c, "ACC_TYPE='tl.float32', ALLOW_TF32=False, BLOCK_K=64, "
			       "EVEN_K=True, num_stages=5, num_warps=8"), 0);
	assert_kw(&c, 0, "ACC_TYPE", "'tl.float32'");
	assert_kw(&c, 1, "ALLOW_TF32", "False");
	assert_kw(&c, 2, "BLOCK_K", "64");
	assert_int_equal(c.num_stages, 5);
	assert_int_equal(c.num_warps, 8);
	assert_int_equal(c.maxnreg, -1);
	at_config_release(&c);
	/* a comma inside a tuple or a quoted string is not a separator */
	assert_int_equal(parse(&c, "SHAPE: (1, 2), NAME: 'a, b', maxnreg: 128;"), 0);
	assert_kw(&c, 0, "SHAPE", "(1, 2)");
	assert_kw(&c, 1, "NAME", "'a, b'");
	assert_int_equal(c.maxnreg, 128);
	at_config_release(&c);
}

static void test_bad_configs(void **state)
{
	static const char *const bad[] = {
		"", "Triton cache dir: /tmp/w", "XBLOCK 1024", "num_warps: four",
		"9X: 1", ": 1", "XBLOCK: ",
	};
	struct at_config c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&c, bad[i]), -1);
		at_config_release(&c);
	}
}

static void test_timed(void **state)
{
	struct at_src src = { 0, 1, AT_FMT_INDUCTOR_LOG };
	const char *row = "XBLOCK: 16, YBLOCK: 256, num_warps: 8, num_ctas: 1, "
			  "num_stages: 1, maxnreg: None: 0.131264, nreg 38, nspill 0, "
			  "#shared-mem 2048";
	struct at_config c;

	(void)state;
	at_config_init(&c, src);
	assert_int_equal(tconfig_timed(&c, row, strlen(row)), 0);
	assert_true(fabs(c.time_ms - 0.131264) < 1e-12);
	assert_int_equal(c.n_regs, 38);
	assert_int_equal(c.n_spills, 0);
	assert_int_equal(c.shared_bytes, 2048);
	assert_kw(&c, 1, "YBLOCK", "256");
	at_config_release(&c);

	at_config_init(&c, src);
	row = "XBLOCK: 2048, num_warps: 8: inf, nreg 0, nspill 0, #shared-mem None";
	assert_int_equal(tconfig_timed(&c, row, strlen(row)), 0);
	assert_true(isinf(c.time_ms));
	assert_int_equal(c.shared_bytes, -1);
	at_config_release(&c);

	at_config_init(&c, src);
	row = "XBLOCK: 2048: 0.5, nreg x";
	assert_int_equal(tconfig_timed(&c, row, strlen(row)), -1);
	at_config_release(&c);
}

static void test_numbers(void **state)
{
	const char *arrows = "a -> b -> c";
	double d;
	long l;

	(void)state;
	assert_int_equal(span_double("12.57s", 5, &d), 0);
	assert_true(d == 12.57);
	assert_int_equal(span_double("12.57s", 6, &d), -1);
	assert_int_equal(span_double("", 0, &d), -1);
	assert_int_equal(span_lead_double("4.8515 seconds", 14, &d), 0);
	assert_true(d == 4.8515);
	assert_int_equal(span_long("2048", 4, &l), 0);
	assert_int_equal(l, 2048);
	assert_int_equal(span_long("+1", 2, &l), -1);
	assert_int_equal(span_long("99999999999999999999999", 23, &l), -1);
	assert_int_equal(span_long_or_none("None", 4, &l), 0);
	assert_int_equal(l, -1);
	assert_ptr_equal(span_rfind(arrows, strlen(arrows), " -> "), arrows + 6);
	assert_null(span_rfind("abc", 3, "abcd"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_triton_str_form),
		cmocka_unit_test(test_template_form_and_quotes),
		cmocka_unit_test(test_bad_configs),
		cmocka_unit_test(test_timed),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
