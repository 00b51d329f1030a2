/*
 * Unit tests for util/outdir: the relative paths an output folder accepts
 * (no "..", no absolute path, no empty or "." part, no control character),
 * so that tko collect writes only inside the folder it was given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/outdir.h"

static void test_output_paths_stay_inside(void **state)
{
	(void)state;
	assert_true(outdir_rel_ok("triton/ABC/k.ptx"));
	assert_true(outdir_rel_ok("capture/inputs/storage0.bin"));
	assert_false(outdir_rel_ok("../x"));
	assert_false(outdir_rel_ok("a/../../x"));
	assert_false(outdir_rel_ok("/etc/passwd"));
	assert_false(outdir_rel_ok("a//b"));
	assert_false(outdir_rel_ok("a/./b"));
	assert_false(outdir_rel_ok(""));
	assert_false(outdir_rel_ok("a/b\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_paths_stay_inside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
