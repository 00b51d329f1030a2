/*
 * Unit tests for util/msg's lines: the running command's name and, with
 * msg_*_as, a step's name instead (a library step inside another command,
 * "tko run: ..." during tko investigate), with no global swap. Expected
 * lines written by hand from msg.h's format "tko CMD: [kind: ]what".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/mem.h"
#include "util/msg.h"

/* Runs fn with stderr sent to a file; returns what it wrote. */
static char *stderr_of(void (*fn)(void))
{
	char tmp[] = "/tmp/test-msg.XXXXXX";
	int fd = mkstemp(tmp), saved = dup(2);
	FILE *fp;
	char *s = xcalloc(1, 4096);
	size_t n;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	assert_int_equal(dup2(fd, 2), 2);
	fn();
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	fp = fopen(tmp, "r");
	assert_non_null(fp);
	n = fread(s, 1, 4095, fp);
	s[n] = '\0';
	fclose(fp);
	unlink(tmp);
	return s;
}

static void lines(void)
{
	msg_error("cannot open '%s'", "x");
	msg_error_as("run", "%d of %d kernels failed", 1, 2);
	msg_warn_as("capture", "the command exited with status %d", 3);
	msg_note_as("run", "a note");
	msg_warn("after the steps");
}

static void test_as(void **state)
{
	char *got;

	(void)state;
	msg_setup("investigate");
	msg_settings.quiet = 0;
	got = stderr_of(lines);
	assert_string_equal(got,
		"tko investigate: cannot open 'x'\n"
		"tko run: 1 of 2 kernels failed\n"
		"tko capture: warning: the command exited with status 3\n"
		"tko run: note: a note\n"
		"tko investigate: warning: after the steps\n");
	assert_string_equal(msg_command(), "investigate");
	free(got);
}

static void quiet_note(void)
{
	msg_note_as("run", "hidden");
	msg_error_as("run", "shown");
}

/* --quiet hides a step's notes as it hides the command's, never its errors. */
static void test_quiet(void **state)
{
	char *got;

	(void)state;
	msg_setup("investigate");
	msg_settings.quiet = 1;
	got = stderr_of(quiet_note);
	msg_settings.quiet = 0;
	assert_string_equal(got, "tko run: shown\n");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_as),
		cmocka_unit_test(test_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
