/*
 * Unit tests for env/fields: the "Key: value" splitting and number reading the tool readers share.
 * Expected values are counted by hand from the literals.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "env/fields.h"

static void test_fields(void **state)
{
	const char *k, *v;
	size_t kn, vn, pos = 0;
	double d;

	(void)state;
	assert_int_equal(field_split("  Name:   gfx936  ", 18, &k, &kn, &v, &vn), 0);
	assert_int_equal(kn, 4);
	assert_int_equal(vn, 6);
	assert_int_equal(field_split("no colon", 8, &k, &kn, &v, &vn), -1);
	assert_int_equal(field_leading_long("64(0x40)", 8, -1), 64);
	assert_int_equal(field_leading_long("x64", 3, -1), -1);
	assert_int_equal(field_leading_long("99999999999999999999999", 23, -7), -7);
	assert_true(field_leading_double("40.0C", 5, &d) && fabs(d - 40.0) < 1e-12);
	assert_false(field_leading_double("C", 1, &d));
	assert_int_equal(field_next_word("  a bb ", 7, &pos, &k, &kn), 1);
	assert_int_equal(kn, 1);
	assert_int_equal(field_next_word("  a bb ", 7, &pos, &k, &kn), 1);
	assert_int_equal(kn, 2);
	assert_int_equal(field_next_word("  a bb ", 7, &pos, &k, &kn), 0);
	assert_true(field_eq_nocase("Driver Version", 14, "driver version"));
	assert_false(field_eq_nocase("Driver", 6, "driver version"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
