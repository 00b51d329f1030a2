/*
 * Unit tests for the readers of GPU tool output (env/rocminfo, env/smi,
 * env/toolver, env/fields) on the real excerpts in tests/data/env/.
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

#include "env/fields.h"
#include "env/rocminfo.h"
#include "env/smi.h"
#include "env/toolver.h"
#include "util/file.h"

static void load(const char *name, struct buf *out)
{
	const char *dir = getenv("TESTDATA");
	char path[1024];
	struct buf err = BUF_INIT;

	snprintf(path, sizeof(path), "%s/env/%s", dir ? dir : "tests/data", name);
	assert_int_equal(file_read(path, 0, out, &err), 0);
	buf_release(&err);
}

static void test_rocminfo_mi300x_takes_agent_level_fields(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct rocminfo ri = ROCMINFO_INIT;

	(void)state;
	load("rocminfo-mi300x.txt", &text);
	assert_int_equal(rocminfo_parse(text.buf, text.len, &ri, &err), 0);
	assert_int_equal(ri.nr, 1);
	/* Not the nested "ISA 1 Name: amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-". */
	assert_string_equal(ri.agents[0].name, "gfx942");
	assert_string_equal(ri.agents[0].marketing_name, "AMD Instinct MI300X VF");
	assert_string_equal(ri.agents[0].device_type, "GPU");
	assert_int_equal(ri.agents[0].compute_units, 304);
	assert_int_equal(ri.agents[0].wavefront_size, 64);
	assert_true(rocm_agent_is_gpu(&ri.agents[0]));
	rocminfo_release(&ri);
	buf_release(&text);
	buf_release(&err);
}

static void test_rocminfo_dcu_agents_are_hcu(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct rocminfo ri = ROCMINFO_INIT;

	(void)state;
	load("rocminfo-dcu.txt", &text);
	assert_int_equal(rocminfo_parse(text.buf, text.len, &ri, &err), 0);
	assert_int_equal(ri.nr, 3);
	assert_string_equal(ri.agents[0].name, "Hygon C86 Processor");
	assert_false(rocm_agent_is_gpu(&ri.agents[0]));
	assert_string_equal(ri.agents[1].name, "gfx936");
	assert_string_equal(ri.agents[1].device_type, "HCU");
	assert_string_equal(ri.agents[2].marketing_name, "BW");
	assert_true(rocm_agent_is_gpu(&ri.agents[2]));
	assert_int_equal(ri.agents[1].compute_units, -1);
	rocminfo_release(&ri);
	buf_release(&text);
	buf_release(&err);
}

static void test_rocminfo_rejects_unrelated_text(void **state)
{
	struct buf err = BUF_INIT;
	struct rocminfo ri = ROCMINFO_INIT;
	const char text[] = "ROCk module is NOT loaded, possibly no GPU devices\n";

	(void)state;
	assert_int_equal(rocminfo_parse(text, sizeof(text) - 1, &ri, &err), -1);
	assert_non_null(strstr(err.buf, "no 'Agent'"));
	/* Not NUL-terminated input: the parser must stay within the span. */
	assert_int_equal(rocminfo_parse("Agent 1\n  Name: gfx90aXXXX", 22, &ri, &err), 0);
	assert_string_equal(ri.agents[0].name, "gfx90a");
	rocminfo_release(&ri);
	buf_release(&err);
}

static void test_hysmi_hcu_table(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct smi s = SMI_INIT;

	(void)state;
	load("hy-smi-hcu.txt", &text);
	assert_int_equal(hysmi_parse(text.buf, text.len, &s, &err), 0);
	assert_int_equal(s.nr, 3);
	assert_int_equal(s.dev[2].index, 7);
	assert_true(fabs(s.dev[0].temp_c - 40.0) < 1e-9);
	assert_true(fabs(s.dev[1].power_w - 162.0) < 1e-9);
	assert_true(fabs(s.dev[1].power_cap_w - 800.0) < 1e-9);
	assert_true(fabs(s.dev[0].vram_pct) < 1e-9);
	assert_true(fabs(s.dev[0].util_pct) < 1e-9);
	assert_string_equal(s.dev[2].perf, "high");
	assert_string_equal(s.dev[2].mode, "Normal");
	smi_release(&s);
	buf_release(&text);
	buf_release(&err);
}

static void test_hysmi_old_dcu_layout_and_card_lines(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct smi s = SMI_INIT;

	(void)state;
	load("hy-smi-dcu-old.txt", &text);
	assert_int_equal(hysmi_parse(text.buf, text.len, &s, &err), 0);
	assert_int_equal(s.nr, 2);
	assert_true(fabs(s.dev[0].vram_pct - 30.0) < 1e-9);
	assert_string_equal(s.dev[0].perf, "auto");
	assert_int_equal(s.dev[0].memory_bytes, 65520LL * 1048576LL);
	assert_int_equal(s.dev[1].index, 1);
	assert_string_equal(s.dev[1].name, "BW");
	assert_string_equal(s.driver, "6.3.32-V1.6.0");
	smi_release(&s);
	buf_release(&text);
	buf_release(&err);
}

static void test_hysmi_rejects_a_missing_tool_message(void **state)
{
	struct buf err = BUF_INIT;
	struct smi s = SMI_INIT;
	const char text[] = "bash: hy-smi: command not found\n";

	(void)state;
	assert_int_equal(hysmi_parse(text, sizeof(text) - 1, &s, &err), -1);
	smi_release(&s);
	buf_release(&err);
}

static void test_nvidia_smi_query_csv(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct smi s = SMI_INIT;

	(void)state;
	load("nvidia-smi-query.csv", &text);
	assert_int_equal(nvsmi_parse_csv(text.buf, text.len, &s, &err), 0);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.dev[0].name, "NVIDIA H200");
	assert_string_equal(s.dev[0].arch, "sm_90");
	assert_string_equal(s.dev[1].driver, "580.159.04");
	assert_int_equal(s.dev[1].memory_bytes, 143771LL * 1048576LL);
	smi_release(&s);
	assert_int_equal(nvsmi_parse_csv("Field \"compute_cap\" is not a valid field to query.\n",
					 52, &s, &err), -1);
	smi_release(&s);
	buf_release(&text);
	buf_release(&err);
}

static void test_tool_versions(void **state)
{
	struct buf text = BUF_INIT;
	struct tool_version v;
	const char hip[] = "HIP version: 6.3.42134-a9a80e791\nAMD clang version 18.0.0git\n";
	const char dcc[] = "dcc version: 25.10.0-0\nTarget: x86_64-unknown-linux-gnu\n";
	const char ncu[] = "NVIDIA (R) Nsight Compute Command Line Profiler\nVersion 2025.3.1.0 (build 36398880) (public-release)\n";

	(void)state;
	load("nvcc-version.txt", &text);
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
		cmocka_unit_test(test_rocminfo_mi300x_takes_agent_level_fields),
		cmocka_unit_test(test_rocminfo_dcu_agents_are_hcu),
		cmocka_unit_test(test_rocminfo_rejects_unrelated_text),
		cmocka_unit_test(test_hysmi_hcu_table),
		cmocka_unit_test(test_hysmi_old_dcu_layout_and_card_lines),
		cmocka_unit_test(test_hysmi_rejects_a_missing_tool_message),
		cmocka_unit_test(test_nvidia_smi_query_csv),
		cmocka_unit_test(test_tool_versions),
		cmocka_unit_test(test_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
