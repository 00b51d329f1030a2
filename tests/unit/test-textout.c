/* Unit tests for util/textout: control characters escaped in text outputs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/buf.h"
#include "util/textout.h"

static void test_escape_one_string(void **state)
{
	/* ESC [2J clears the screen, OSC 0 retitles the window, CSI as the C1 byte U+009B. */
	const char name[] = "k\x1b[2J\x1b]0;x\x07\r\n\tok\x7f\xc2\x9b""31m \xc3\xa9";
	struct buf b = BUF_INIT;

	(void)state;
	text_escape(&b, name, sizeof(name) - 1, 0);
	assert_string_equal(b.buf, "k\\x1b[2J\\x1b]0;x\\x07\\x0d\\x0a\tok\\x7f\\u009b31m \xc3\xa9");
	buf_reset(&b);
	text_escape(&b, "a\nb", 3, 1);
	assert_string_equal(b.buf, "a\nb");
	assert_int_equal(text_needs_escape("plain \xc3\xa9\t", 9, 0), 0);
	assert_int_equal(text_needs_escape("a\nb", 3, 1), 0);
	assert_int_equal(text_needs_escape("a\nb", 3, 0), 1);
	buf_release(&b);
}

/* What a text stream over a pipe wrote, given the bytes in pieces of `step`. */
static char *through_stream(const char *in, size_t n, size_t step)
{
	static char out[1024];
	int p[2];
	FILE *fp;
	size_t i, got = 0;
	ssize_t r;

	assert_int_equal(pipe(p), 0);
	fp = text_fdopen(p[1]);
	assert_non_null(fp);
	for (i = 0; i < n; i += step) {
		fwrite(in + i, 1, i + step < n ? step : n - i, fp);
		fflush(fp);	/* each piece reaches the filter on its own */
	}
	assert_int_equal(fclose(fp), 0);
	while ((r = read(p[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += (size_t)r;
	close(p[0]);
	out[got] = '\0';
	return out;
}

static void test_stream_escapes_across_pieces(void **state)
{
	const char in[] = "a\x1b[31mred\r\nnext\xc2\x9b""0m \xc2\xa9 end\n";
	const char want[] = "a\\x1b[31mred\\x0d\nnext\\u009b0m \xc2\xa9 end\n";
	size_t step;

	(void)state;
	/* Whatever the pieces, a C1 control split across two of them is still caught. */
	for (step = 1; step <= sizeof(in); step++)
		assert_string_equal(through_stream(in, sizeof(in) - 1, step), want);
}

static void test_stream_reports_write_errors(void **state)
{
	FILE *fp = fopen("/dev/full", "w");
	FILE *t;

	(void)state;
	assert_non_null(fp);
	t = text_fdopen(dup(fileno(fp)));
	fclose(fp);
	assert_non_null(t);
	fputs("something\n", t);
	assert_int_not_equal(fclose(t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_one_string),
		cmocka_unit_test(test_stream_escapes_across_pieces),
		cmocka_unit_test(test_stream_reports_write_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
