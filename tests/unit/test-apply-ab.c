/*
 * Unit tests for apply/ab, expected values by hand:
 * - 10 ratios: P(X<2) = 11/1024 <= 2.5% < P(X<3) = 56/1024 for X ~ B(10,
 *   1/2), so k = 2 and the interval is [2nd, 9th] smallest, coverage
 *   1 - 22/1024;
 * - 6 ratios: k = 1, [min, max], 1 - 2/64; 3 ratios: [min, max], 1 - 2/8;
 * - the order of 4 arms: 0 1 2 3 in round 0, 3 2 1 0 in round 1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apply/ab.h"

static void test_ten_rounds(void **state)
{
	double v[] = { 0.97, 1.01, 0.95, 0.99, 0.96, 0.98, 1.00, 0.94, 0.93, 1.02 };
	struct ab_stats s;

	(void)state;
	assert_int_equal(ab_ratio_stats(v, 10, &s), 0);
	/* sorted: .93 .94 .95 .96 .97 .98 .99 1.00 1.01 1.02 */
	assert_float_equal(s.median, 0.975, 1e-12);
	assert_float_equal(s.lo, 0.94, 1e-12);
	assert_float_equal(s.hi, 1.01, 1e-12);
	assert_float_equal(s.level, 1 - 22.0 / 1024, 1e-12);
}

static void test_few_rounds(void **state)
{
	double six[] = { 3, 1, 2, 6, 5, 4 }, three[] = { 1.2, 0.8, 1.0 };
	struct ab_stats s;

	(void)state;
	assert_int_equal(ab_ratio_stats(six, 6, &s), 0);
	assert_float_equal(s.median, 3.5, 1e-12);
	assert_float_equal(s.lo, 1, 0);
	assert_float_equal(s.hi, 6, 0);
	assert_float_equal(s.level, 1 - 2.0 / 64, 1e-12);
	assert_int_equal(ab_ratio_stats(three, 3, &s), 0);
	assert_float_equal(s.median, 1.0, 0);
	assert_float_equal(s.lo, 0.8, 0);
	assert_float_equal(s.hi, 1.2, 0);
	assert_float_equal(s.level, 0.75, 1e-12);
	assert_int_equal(ab_ratio_stats(three, 0, &s), -1);
}

static void test_order_and_arms(void **state)
{
	enum ab_arm arms[AB_NARMS];
	struct buf err = BUF_INIT;
	size_t n, i, got[8];

	(void)state;
	for (i = 0; i < 4; i++) {
		got[i] = ab_order(4, 0, i);
		got[4 + i] = ab_order(4, 1, i);
	}
	assert_memory_equal(got, ((size_t[]){ 0, 1, 2, 3, 3, 2, 1, 0 }), sizeof(got));
	assert_int_equal(ab_parse_arms("default,coordesc,max-autotune,applied", arms, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(arms[2], AB_MAX_AUTOTUNE);
	assert_int_equal(ab_parse_arms("applied,default", arms, &n, &err), 0);
	assert_int_equal(arms[0], AB_APPLIED);
	assert_int_equal(ab_parse_arms("default,coordesc", arms, &n, &err), -1);
	assert_string_equal(err.buf, "--arms must name default and applied");
	buf_reset(&err);
	assert_int_equal(ab_parse_arms("default,applied,default", arms, &n, &err), -1);
	assert_non_null(strstr(err.buf, "repeated arm 'default'"));
	buf_reset(&err);
	assert_int_equal(ab_parse_arms("default,fast,applied", arms, &n, &err), -1);
	assert_non_null(strstr(err.buf, "unknown arm 'fast'"));
	buf_reset(&err);
	/* the opt-in numerics arms, and their setting reaching the command's environment */
	assert_int_equal(ab_parse_arms("default,applied,tf32,applied+tf32", arms, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(arms[2], AB_TF32);
	assert_int_equal(arms[3], AB_APPLIED_TF32);
	assert_string_equal(ab_arms[AB_TF32].mode, "observe");
	assert_string_equal(ab_arms[AB_APPLIED_TF32].mode, "apply");
	assert_string_equal(ab_arms[AB_TF32].env, "TKO_APPLY_FLOAT32_MATMUL_PRECISION=high");
	assert_string_equal(ab_arms[AB_APPLIED_TF32].env, "TKO_APPLY_FLOAT32_MATMUL_PRECISION=high");
	assert_string_equal(ab_arms[AB_TF32].numerics, "tf32");
	for (i = AB_DEFAULT; i <= AB_APPLIED; i++)
		assert_null(ab_arms[i].numerics);
	assert_int_equal(ab_parse_arms("default,applied,tf32+applied", arms, &n, &err), -1);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ten_rounds),
		cmocka_unit_test(test_few_rounds),
		cmocka_unit_test(test_order_and_arms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
