/*
 * Unit tests for env/smi: hy-smi tables (HCU and the older DCU layout) and nvidia-smi's query CSV,
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

#include "env/smi.h"
#include "env-data.h"

static void test_hysmi_hcu_table(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct smi s = SMI_INIT;

	(void)state;
	env_data_load("hy-smi-hcu.txt", &text);
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
	env_data_load("hy-smi-dcu-old.txt", &text);
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
	env_data_load("nvidia-smi-query.csv", &text);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hysmi_hcu_table),
		cmocka_unit_test(test_hysmi_old_dcu_layout_and_card_lines),
		cmocka_unit_test(test_hysmi_rejects_a_missing_tool_message),
		cmocka_unit_test(test_nvidia_smi_query_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
