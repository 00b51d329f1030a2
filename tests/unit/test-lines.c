/*
 * Unit tests for util/lines: the 64-byte newline masks must split exactly
 * as a plain memchr loop does, at every length and boundary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/lines.h"

/* The reference: split with memchr, one line at a time. */
static size_t naive_split(const char *d, size_t len, size_t *starts,
			  size_t *lens, int *unterminated)
{
	const char *p = d, *end = d + len;
	size_t k = 0;

	*unterminated = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		starts[k] = (size_t)(p - d);
		*unterminated = !nl;
		if (n && p[n - 1] == '\r')
			n--;
		lens[k++] = n;
		p = nl ? nl + 1 : end;
	}
	return k;
}

static void check_same(const char *d, size_t len)
{
	size_t starts[4096], lens[4096], k, i = 0, n;
	int unterminated;
	struct lines it = LINES_INIT(d, len);
	const char *s;

	k = naive_split(d, len, starts, lens, &unterminated);
	while (lines_next(&it, &s, &n)) {
		assert_true(i < k);
		assert_int_equal((size_t)(s - d), starts[i]);
		assert_int_equal(n, lens[i]);
		assert_int_equal(it.lineno, i + 1);
		i++;
	}
	assert_int_equal(i, k);
	if (k)
		assert_int_equal(it.last_unterminated, unterminated);
}

static void test_boundaries(void **state)
{
	char buf[400];
	size_t len, at;

	(void)state;
	for (len = 0; len <= 260; len++) {
		memset(buf, 'x', len);
		check_same(buf, len);			/* no newline at all */
		for (at = 0; at < len; at += 7) {
			memset(buf, 'x', len);
			buf[at] = '\n';
			check_same(buf, len);		/* one newline anywhere */
		}
		memset(buf, '\n', len);
		check_same(buf, len);			/* only empty lines */
	}
}

static void test_random_text(void **state)
{
	static char buf[20000];
	const char alphabet[] = "ab \t\n\n\r;v_";
	unsigned seed = 12345;
	int round;

	(void)state;
	for (round = 0; round < 50; round++) {
		size_t len = (size_t)(seed % sizeof(buf)), i;

		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		check_same(buf, len);
		seed = seed * 1103515245u + 12345u;
	}
}

static void test_crlf_and_last_line(void **state)
{
	const char d[] = "global_load_dwordx4 v[0:3]\r\n\r\ns_endpgm";
	struct lines it = LINES_INIT(d, sizeof(d) - 1);
	const char *s;
	size_t n;

	(void)state;
	assert_true(lines_next(&it, &s, &n));
	assert_int_equal(n, strlen("global_load_dwordx4 v[0:3]"));
	assert_true(lines_next(&it, &s, &n));
	assert_int_equal(n, 0);
	assert_true(lines_next(&it, &s, &n));
	assert_memory_equal(s, "s_endpgm", 8);
	assert_int_equal(it.last_unterminated, 1);
	assert_false(lines_next(&it, &s, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_random_text),
		cmocka_unit_test(test_crlf_and_last_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
