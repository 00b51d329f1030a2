/*
 * Unit tests for model/step_report on hand-written standard output: the
 * report is the last line that is a JSON object with "ms_per_step"
 * (docs/apply.md); the expected figures are read off the lines.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/step_report.h"

static int find(const char *out, struct step_report *r)
{
	r->ms_per_step = NAN;
	r->losses = NULL;
	return step_report_find(r, out, strlen(out), "run/stdout.txt");
}

static void test_last_report(void **state)
{
	struct step_report r;

	(void)state;
	/* the last report wins; the command's other JSON and text are passed over */
	assert_int_equal(find("step 1\n{\"ms_per_step\": 9, \"loss\": 1}\n{\"ms_per_step\": 2.5,"
			      " \"losses\": [3, null, 1.5]}\n{\"epoch\": 2}\ndone\n", &r), 0);
	assert_true(r.ms_per_step == 2.5);
	assert_int_equal(json_array_size(r.losses), 3);
	assert_true(json_is_null(json_array_get(r.losses, 1)));
	json_decref(r.losses);
	/* "loss" alone becomes a list of one, its JSON kept (an integer stays one); no newline at the end */
	assert_int_equal(find("{\"ms_per_step\": 4, \"loss\": 7}", &r), 0);
	assert_true(r.ms_per_step == 4);
	assert_true(json_is_integer(json_array_get(r.losses, 0)));
	json_decref(r.losses);
	assert_int_equal(find("{\"ms_per_step\": 4}\n", &r), 0);
	assert_null(r.losses);
	assert_int_equal(find("no report\n{\"ms_per\n", &r), -1);
	assert_int_equal(find("", &r), -1);
}

static void assert_warns(const char *line, const char *words)
{
	struct step_report r = { NAN, NULL };
	struct buf warn = BUF_INIT;

	assert_int_equal(step_report_line(&r, line, strlen(line), "o.txt", 3, &warn), -1);
	if (strcmp(warn.buf, words))
		fail_msg("%s: got \"%s\", want \"%s\"", line, warn.buf, words);
	assert_null(r.losses);
	buf_release(&warn);
}

/* A report with a field of the wrong type is passed over: an earlier one counts. */
static void test_wrong_types(void **state)
{
	struct step_report r;

	(void)state;
	assert_warns("{\"ms_per_step\": \"2.5\"}", "'o.txt' line 3: ms_per_step: not a number");
	assert_warns("{\"ms_per_step\": null}", "'o.txt' line 3: ms_per_step: null where a value belongs");
	assert_warns("{\"ms_per_step\": 1, \"loss\": \"x\"}", "'o.txt' line 3: loss: not a number");
	assert_warns("{\"ms_per_step\": 1, \"losses\": 2}", "'o.txt' line 3: losses: not a list");
	assert_warns("{\"ms_per_step\": 1, \"losses\": [1, \"2\"]}", "'o.txt' line 3: losses[1]: not a number");
	assert_int_equal(find("{\"ms_per_step\": 3}\n{\"ms_per_step\": \"fast\"}\n", &r), 0);
	assert_true(r.ms_per_step == 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_report),
		cmocka_unit_test(test_wrong_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
