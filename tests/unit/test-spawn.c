/*
 * Unit tests for util/spawn: argv children, capture, env, time limits,
 * and the pieces child_run is made of: child_start, child_finish,
 * child_kill, a child talked to over a socket, the environment builder.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
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

static void test_start_then_finish(void **state)
{
	const char *argv[] = { "sh", "-c", "echo started; exit 4", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	c.argv = argv;
	c.capture_out = 1;
	assert_int_equal(child_start(&c, &err), 0);
	assert_true(c.pid > 0);
	assert_true(c.out_fd >= 0);
	assert_int_equal(c.err_fd, -1);
	assert_int_equal(child_finish(&c, &err), 0);
	assert_int_equal(c.pid, 0);
	assert_int_equal(c.exit_status, 4);
	assert_string_equal(c.out.buf, "started\n");
	assert_int_equal(c.out_fd, -1);
	child_release(&c);
	/* a program that is not there: start fails, saying so */
	argv[0] = "tko-no-such-program";
	c = (struct child)CHILD_INIT;
	c.argv = argv;
	assert_int_equal(child_start(&c, &err), -1);
	assert_int_equal(c.not_found, 1);
	assert_int_equal(c.exit_status, 127);
	assert_int_equal(c.pid, 0);
	child_release(&c);
	buf_release(&err);
}

static void test_socket_child_and_kill(void **state)
{
	/* a line server: answers each line with "got <line>", then would run for a minute */
	const char *argv[] = { "sh", "-c", "read -r l; echo \"got $l\"; sleep 60", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;
	char reply[64];
	ssize_t n;
	time_t t0;

	(void)state;
	c.argv = argv;
	c.stdio_socket = 1;
	c.own_group = 1;
	assert_int_equal(child_start(&c, &err), 0);
	assert_int_equal(send(c.out_fd, "ping\n", 5, MSG_NOSIGNAL), 5);
	n = read(c.out_fd, reply, sizeof(reply) - 1);
	assert_true(n > 0);
	reply[n] = '\0';
	assert_string_equal(reply, "got ping\n");
	t0 = time(NULL);
	child_kill(&c);
	assert_true(time(NULL) - t0 < 5);
	assert_int_equal(c.pid, 0);
	assert_int_equal(c.exit_status, 128 + 9);
	/* the socket stays open until released: what is left reads as its end */
	assert_true(c.out_fd >= 0);
	assert_int_equal(read(c.out_fd, reply, sizeof(reply)), 0);
	child_release(&c);
	assert_int_equal(c.out_fd, -1);
	/* killing what has already exited keeps its own status */
	argv[2] = "exit 7";
	c = (struct child)CHILD_INIT;
	c.argv = argv;
	assert_int_equal(child_start(&c, &err), 0);
	sleep(1);
	child_kill(&c);
	assert_int_equal(c.exit_status, 7);
	child_release(&c);
	buf_release(&err);
}

static int has(char **env, const char *entry)
{
	size_t i;

	for (i = 0; env[i]; i++)
		if (!strcmp(env[i], entry))
			return 1;
	return 0;
}

static void test_env_build(void **state)
{
	const char *add[] = { "TKO_SPAWN_A=new", "TKO_SPAWN_C=3", NULL };
	const char *del[] = { "TKO_SPAWN_B", NULL };
	char **env;

	(void)state;
	setenv("TKO_SPAWN_A", "old", 1);
	setenv("TKO_SPAWN_B", "gone", 1);
	setenv("TKO_SPAWN_KEEP", "kept", 1);
	env = child_env_build(add, del);
	assert_true(has(env, "TKO_SPAWN_A=new"));
	assert_false(has(env, "TKO_SPAWN_A=old"));
	assert_false(has(env, "TKO_SPAWN_B=gone"));
	assert_true(has(env, "TKO_SPAWN_C=3"));
	assert_true(has(env, "TKO_SPAWN_KEEP=kept"));
	free(env);
	env = child_env_build(NULL, NULL);
	assert_true(has(env, "TKO_SPAWN_B=gone"));
	free(env);
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
		cmocka_unit_test(test_start_then_finish),
		cmocka_unit_test(test_socket_child_and_kill),
		cmocka_unit_test(test_env_build),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
