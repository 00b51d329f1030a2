/* Unit tests for util/buf: growth, formatting, detach and release. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/buf.h"

static void test_init_is_empty_string(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	assert_int_equal(b.len, 0);
	assert_string_equal(b.buf, "");
	buf_release(&b);
	assert_string_equal(b.buf, "");
}

static void test_add_and_format(void **state)
{
	struct buf b = BUF_INIT;
	int i;

	(void)state;
	buf_adds(&b, "line ");
	buf_addf(&b, "%d: %s", 34, "global_load_dwordx4");
	buf_addch(&b, '!');
	assert_string_equal(b.buf, "line 34: global_load_dwordx4!");
	assert_int_equal(b.len, strlen("line 34: global_load_dwordx4!"));
	for (i = 0; i < 10000; i++)
		buf_addch(&b, 'x');
	assert_int_equal(b.len, 29 + 10000);
	assert_int_equal(b.buf[b.len], '\0');
	buf_release(&b);
}

static void test_embedded_nul_and_setlen(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add(&b, "a\0b", 3);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.buf, "a\0b", 3);
	buf_setlen(&b, 1);
	assert_string_equal(b.buf, "a");
	buf_reset(&b);
	assert_int_equal(b.len, 0);
	buf_release(&b);
}

static void test_detach_hands_over(void **state)
{
	struct buf b = BUF_INIT;
	size_t n;
	char *s;

	(void)state;
	s = buf_detach(&b, &n);
	assert_int_equal(n, 0);
	assert_string_equal(s, "");
	free(s);
	buf_adds(&b, "kernel  ");
	buf_rtrim(&b);
	s = buf_detach(&b, &n);
	assert_string_equal(s, "kernel");
	assert_int_equal(n, 6);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.buf, "");
	free(s);
}

static void test_shell_words(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add_shell_word(&b, "run-1/capture/kernels/k_0-ab12:x=y@z%+,");
	assert_string_equal(b.buf, "run-1/capture/kernels/k_0-ab12:x=y@z%+,");
	buf_reset(&b);
	buf_add_shell_word(&b, "r;touch PWNED;#");
	assert_string_equal(b.buf, "'r;touch PWNED;#'");
	buf_reset(&b);
	buf_add_shell_word(&b, "it's $(id) `x` ~");
	assert_string_equal(b.buf, "'it'\\''s $(id) `x` ~'");
	buf_reset(&b);
	buf_add_shell_word(&b, "");
	assert_string_equal(b.buf, "''");
	buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_is_empty_string),
		cmocka_unit_test(test_shell_words),
		cmocka_unit_test(test_add_and_format),
		cmocka_unit_test(test_embedded_nul_and_setlen),
		cmocka_unit_test(test_detach_hands_over),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
