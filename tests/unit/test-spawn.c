/* Unit tests for util/spawn: argv children, capture, env, time limits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "util/spawn.h"

static void test_capture_and_status(void **state)
{
	const char *argv[] = { "sh", "-c", "printf \"a;b $x\"; echo err >&2; exit 3", NULL };
	const char *env[] = { "x=1", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	c.argv = argv;
	c.env_add = env;
	c.capture_out = c.capture_err = 1;
	assert_int_equal(child_run(&c, &err), 0);
	assert_string_equal(c.out.buf, "a;b 1");
	assert_string_equal(c.err.buf, "err\n");
	assert_int_equal(c.exit_status, 3);
	assert_int_equal(c.timed_out, 0);
	child_release(&c);
	buf_release(&err);
}

static void test_metacharacters_are_not_interpreted(void **state)
{
	/* A kernel name with shell metacharacters reaches the child verbatim. */
	const char *argv[] = { "printf", "%s", "k;$(rm -rf x)`id`|&", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	c.argv = argv;
	c.capture_out = 1;
	assert_int_equal(child_run(&c, &err), 0);
	assert_string_equal(c.out.buf, "k;$(rm -rf x)`id`|&");
	child_release(&c);
	buf_release(&err);
}

static void test_missing_program(void **state)
{
	const char *argv[] = { "tko-no-such-program", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	c.argv = argv;
	assert_int_equal(child_run(&c, &err), 0);
	assert_int_equal(c.not_found, 1);
	assert_non_null(strstr(err.buf, "cannot run 'tko-no-such-program'"));
	child_release(&c);
	buf_release(&err);
}

static void test_timeout_kills_the_group(void **state)
{
	const char *argv[] = { "sh", "-c", "sleep 30 & sleep 30; echo never", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;
	time_t t0 = time(NULL);

	(void)state;
	c.argv = argv;
	c.capture_out = 1;
	c.timeout_s = 0.3;
	assert_int_equal(child_run(&c, &err), 0);
	assert_int_equal(c.timed_out, 1);
	assert_true(time(NULL) - t0 < 10);
	assert_string_equal(c.out.buf, "");
	child_release(&c);
	buf_release(&err);
}

static void test_output_past_the_cap_stops_the_child(void **state)
{
	/* A tool that prints forever (a broken nvcc, a disassembler gone wrong). */
	const char *argv[] = { "sh", "-c", "yes 0123456789abcdef", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;
	time_t t0 = time(NULL);

	(void)state;
	c.argv = argv;
	c.capture_out = 1;
	c.max_out = 1 << 20;
	assert_int_equal(child_run(&c, &err), 0);
	assert_int_equal(c.overflowed, 1);
	assert_int_equal(c.out.len, 1 << 20);
	assert_memory_equal(c.out.buf, "0123456789abcdef\n", 17);
	assert_true(time(NULL) - t0 < 10);
	child_release(&c);
	buf_release(&err);
}

struct seen {
	struct buf streams[3];	/* what on_output got, per stream number */
	int calls;
};

static void record_output(void *data, int stream, const char *p, size_t n)
{
	struct seen *s = data;

	buf_add(&s->streams[stream], p, n);
	s->calls++;
}

static void test_output_callback_sees_both_streams(void **state)
{
	const char *argv[] = { "sh", "-c", "printf out1; printf err1 >&2; printf out2", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;
	struct seen s = { { BUF_INIT, BUF_INIT, BUF_INIT }, 0 };

	(void)state;
	c.argv = argv;
	c.capture_out = c.capture_err = 1;
	c.on_output = record_output;
	c.on_output_data = &s;
	assert_int_equal(child_run(&c, &err), 0);
	assert_int_equal(c.exit_status, 0);
	assert_string_equal(s.streams[1].buf, "out1out2");
	assert_string_equal(s.streams[2].buf, "err1");
	assert_true(s.calls >= 2);
	/* Handed over, not collected as well. */
	assert_int_equal(c.out.len, 0);
	assert_int_equal(c.err.len, 0);
	buf_release(&s.streams[1]);
	buf_release(&s.streams[2]);
	child_release(&c);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_and_status),
		cmocka_unit_test(test_metacharacters_are_not_interpreted),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_timeout_kills_the_group),
		cmocka_unit_test(test_output_past_the_cap_stops_the_child),
		cmocka_unit_test(test_output_callback_sees_both_streams),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
