/*
 * Unit tests for util/plural: English takes the singular for exactly one,
 * the plural for zero, for more than one and (as "-1 degrees") below zero.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "util/plural.h"

static void test_suffix(void **state)
{
	(void)state;
	assert_string_equal(plural(1), "");
	assert_string_equal(plural(0), "s");
	assert_string_equal(plural(2), "s");
	assert_string_equal(plural(-1), "s");
	assert_string_equal(plural(11), "s");
	assert_string_equal(plural(1LL << 40), "s");
}

static void test_word(void **state)
{
	(void)state;
	assert_string_equal(plural_word(1, "entry", "entries"), "entry");
	assert_string_equal(plural_word(0, "entry", "entries"), "entries");
	assert_string_equal(plural_word(3, "has", "have"), "have");
}

/* As the callers use it: a size_t count formatted beside its noun. */
static void test_in_format(void **state)
{
	char out[64];
	size_t one = 1, two = 2;

	(void)state;
	snprintf(out, sizeof(out), "%zu kernel%s in %zu task%s", two, plural(two), one,
		 plural(one));
	assert_string_equal(out, "2 kernels in 1 task");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suffix),
		cmocka_unit_test(test_word),
		cmocka_unit_test(test_in_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
