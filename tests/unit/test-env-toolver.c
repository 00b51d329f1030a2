/*
 * Unit tests for env/toolver: the version line of nvcc, hipcc, dcc and ncu,
 * on the real excerpts in tests/data/env/ where a file is read.
 * Expected values are read off those files by hand.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "env/toolver.h"
#include "env-data.h"

static void test_tool_versions(void **state)
{
	struct buf text = BUF_INIT;
	struct tool_version v;
	const char hip[] = "HIP version: 6.3.42134-a9a80e791\nAMD clang version 18.0.0git\n";
	const char dcc[] = "dcc version: 25.10.0-0\nTarget: x86_64-unknown-linux-gnu\n";
	const char ncu[] = "NVIDIA (R) Nsight Compute Command Line Profiler\nVersion 2025.3.1.0 (build 36398880) (public-release)\n";

	(void)state;
	env_data_load("nvcc-version.txt", &text);
	assert_int_equal(tool_version_parse(text.buf, text.len, "release", &v), 0);
	assert_string_equal(v.version, "13.0");
	assert_string_equal(v.line, "Cuda compilation tools, release 13.0, V13.0.88");
	assert_int_equal(tool_version_parse(hip, sizeof(hip) - 1, "HIP version", &v), 0);
	assert_string_equal(v.version, "6.3.42134-a9a80e791");
	assert_int_equal(tool_version_parse(dcc, sizeof(dcc) - 1, NULL, &v), 0);
	assert_string_equal(v.version, "25.10.0-0");
	assert_int_equal(tool_version_parse(ncu, sizeof(ncu) - 1, "Version", &v), 0);
	assert_string_equal(v.version, "2025.3.1.0");
	assert_int_equal(tool_version_parse("no digits here\n", 15, NULL, &v), -1);
	assert_string_equal(v.version, "");
	assert_int_equal(tool_version_parse("", 0, "x", &v), -1);
	buf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tool_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
