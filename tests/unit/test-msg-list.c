/*
 * Unit tests for util/msg's lists: the lines a --kernel miss prints under
 * its error, read back from stderr (redirected to a file) and compared with
 * hand-written text.
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

#include "util/msg.h"

static int saved_fd = -1;
static FILE *capture;

/* From here until stderr_text(), stderr goes to a temporary file. */
static void stderr_capture(void)
{
	fflush(stderr);
	capture = tmpfile();
	assert_non_null(capture);
	saved_fd = dup(2);
	assert_true(saved_fd >= 0);
	assert_int_equal(dup2(fileno(capture), 2), 2);
}

/* What was written to stderr since stderr_capture(); stderr is restored. */
static char *stderr_text(void)
{
	static char text[4096];
	size_t n;

	fflush(stderr);
	assert_int_equal(dup2(saved_fd, 2), 2);
	close(saved_fd);
	rewind(capture);
	n = fread(text, 1, sizeof(text) - 1, capture);
	text[n] = '\0';
	fclose(capture);
	return text;
}

/* Five items, three shown: the rest counted in one line. */
static void test_list_past_max(void **state)
{
	struct msg_list l = MSG_LIST_INIT(3);
	int i;

	(void)state;
	stderr_capture();
	for (i = 1; i <= 5; i++)
		msg_list_item(&l, "k%d  f.py:%d", i, i * 10);
	msg_list_end(&l);
	assert_string_equal(stderr_text(),
			    "  k1  f.py:10\n  k2  f.py:20\n  k3  f.py:30\n  ... and 2 more\n");
	assert_int_equal(l.n, 5);
}

/* Exactly max items: no "more" line; no limit: every item. */
static void test_list_at_max_and_unlimited(void **state)
{
	struct msg_list l = MSG_LIST_INIT(2), all = MSG_LIST_INIT(0);
	int i;

	(void)state;
	stderr_capture();
	msg_list_item(&l, "%s", "a");
	msg_list_item(&l, "%s", "b");
	msg_list_end(&l);
	for (i = 0; i < 4; i++)
		msg_list_item(&all, "#%d", i);
	msg_list_end(&all);
	assert_string_equal(stderr_text(), "  a\n  b\n  #0\n  #1\n  #2\n  #3\n");
	assert_int_equal(all.n, 4);
}

/* Another indent, an empty list, and a name with control bytes (escaped as msg_detail does). */
static void test_list_indent_empty_escape(void **state)
{
	struct msg_list deep = { 0, 0, "    " }, none = MSG_LIST_INIT(1);

	(void)state;
	stderr_capture();
	msg_list_end(&none);
	msg_list_item(&deep, "k\x1b[2J-%s", "abcd1234");
	msg_list_end(&deep);
	assert_string_equal(stderr_text(), "    k\\x1b[2J-abcd1234\n");
	assert_int_equal(none.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_past_max),
		cmocka_unit_test(test_list_at_max_and_unlimited),
		cmocka_unit_test(test_list_indent_empty_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
