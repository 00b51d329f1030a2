/*
 * Unit tests for apply/steps, expected values by hand:
 * - the warm-up chosen: 1 step for 1 to 10 steps, 2 for 11 to 20, 50 from
 *   491 steps on;
 * - ms [null, 100, 4, 2, 3, 5, 6, 1, 3, 2, 4, 2] (12 steps): the chosen
 *   warm-up is 2 (a tenth of 12 rounded up), so steps 2..11 are timed,
 *   (4+2+3+5+6+1+3+2+4+2) / 10 = 3.2; with warm-up 1, 100 counts too:
 *   132 / 11 = 12; with warm-up 12 nothing is left (NAN);
 * - a null inside the timed steps is not counted: [null, 9, 2, null, 4]
 *   with warm-up 2: (2 + 4) / 2 = 3.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apply/steps.h"

static void test_auto_warmup(void **state)
{
	(void)state;
	assert_int_equal(apply_steps_auto_warmup(0), 1);
	assert_int_equal(apply_steps_auto_warmup(1), 1);
	assert_int_equal(apply_steps_auto_warmup(10), 1);
	assert_int_equal(apply_steps_auto_warmup(11), 2);
	assert_int_equal(apply_steps_auto_warmup(20), 2);
	assert_int_equal(apply_steps_auto_warmup(490), 49);
	assert_int_equal(apply_steps_auto_warmup(491), 50);
	assert_int_equal(apply_steps_auto_warmup(100000), 50);
}

static void test_mean_after_warmup(void **state)
{
	json_t *ev = json_loads("{\"event\": \"steps\", \"role\": \"main\", \"source\": \"optimizer\","
				" \"clock\": \"perf_counter\", \"ms\": [null, 100, 4, 2, 3, 5, 6, 1, 3, 2, 4, 2],"
				" \"losses\": [2.5, 2.4, 2.3]}", 0, NULL);
	struct apply_steps st = APPLY_STEPS_INIT;

	(void)state;
	apply_steps_from_event(&st, ev, -1);
	assert_int_equal(st.steps, 12);
	assert_int_equal(st.warmup, 2);
	assert_int_equal(st.timed, 10);
	assert_true(fabs(st.ms_per_step - 3.2) < 1e-12);
	assert_string_equal(st.source, "optimizer");
	assert_string_equal(st.clock, "perf_counter");
	assert_int_equal(json_array_size(st.losses), 3);
	apply_steps_from_event(&st, ev, 1);
	assert_int_equal(st.timed, 11);
	assert_true(fabs(st.ms_per_step - 12) < 1e-12);
	apply_steps_from_event(&st, ev, 12);
	assert_int_equal(st.timed, 0);
	assert_true(isnan(st.ms_per_step));
	apply_steps_release(&st);
	json_decref(ev);
	ev = json_loads("{\"ms\": [null, 9, 2, null, 4]}", 0, NULL);
	apply_steps_from_event(&st, ev, 2);
	assert_int_equal(st.timed, 2);
	assert_true(fabs(st.ms_per_step - 3) < 1e-12);
	assert_null(st.source);
	assert_null(st.losses);
	apply_steps_release(&st);
	json_decref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_warmup),
		cmocka_unit_test(test_mean_after_warmup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
