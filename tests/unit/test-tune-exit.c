/*
 * Unit tests for tune/exit: a kernel's tuning outcome as tko tune's exit
 * status. The expected numbers are docs/exit-codes.md's table (1 bad input
 * or a failed step, 3 a missing tool, 4 --kernel matched none or several,
 * 5 a child failed), written here as numbers, not as the enum.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tune/exit.h"

static int status_of(int ran, int failed, enum tune_fail fail)
{
	struct tune_outcome out = { ran, failed, fail };

	return tune_exit_of(&out);
}

static void test_ran(void **state)
{
	(void)state;
	/* the fail field means nothing once the sweep ran */
	assert_int_equal(status_of(1, 0, TUNE_FAIL_TOOL), 0);
	assert_int_equal(status_of(1, 1, TUNE_FAIL_TOOL), 1);
}

static void test_did_not_start(void **state)
{
	(void)state;
	assert_int_equal(status_of(0, 0, TUNE_FAIL_INPUT), 1);
	assert_int_equal(status_of(0, 0, TUNE_FAIL_NOMATCH), 4);
	assert_int_equal(status_of(0, 0, TUNE_FAIL_TOOL), 3);
	assert_int_equal(status_of(0, 0, TUNE_FAIL_CHILD), 5);
	assert_int_equal(status_of(0, 0, TUNE_FAIL_TARGET), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ran),
		cmocka_unit_test(test_did_not_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
