/*
 * Unit tests for env/rocminfo: the agents of rocminfo output (a MI300X, a DCU node),
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

#include "env/rocminfo.h"
#include "env-data.h"

static void test_rocminfo_mi300x_takes_agent_level_fields(void **state)
{
	struct buf text = BUF_INIT, err = BUF_INIT;
	struct rocminfo ri = ROCMINFO_INIT;

	(void)state;
	env_data_load("rocminfo-mi300x.txt", &text);
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
	env_data_load("rocminfo-dcu.txt", &text);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rocminfo_mi300x_takes_agent_level_fields),
		cmocka_unit_test(test_rocminfo_dcu_agents_are_hcu),
		cmocka_unit_test(test_rocminfo_rejects_unrelated_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
