/* Unit tests for util/file: mapping, text checks and atomic writes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/file.h"
#include "util/mem.h"

static char *tmpdir_new(void)
{
	char *t = xstrdup("/tmp/tko-unit-XXXXXX");

	assert_non_null(mkdtemp(t));
	return t;
}

static void test_map_errors_name_the_file(void **state)
{
	struct mapped_file m;
	struct buf err = BUF_INIT;
	char *dir = tmpdir_new();

	(void)state;
	assert_int_equal(file_map("/nonexistent/x.s", 0, &m, &err), -1);
	assert_string_equal(err.buf,
		"cannot open '/nonexistent/x.s': No such file or directory");
	buf_reset(&err);
	assert_int_equal(file_map(dir, 0, &m, &err), -1);
	assert_non_null(strstr(err.buf, "is a directory"));
	rmdir(dir);
	free(dir);
	buf_release(&err);
}

static void test_atomic_write_and_map(void **state)
{
	struct buf err = BUF_INIT;
	struct mapped_file m;
	struct atomic_file af;
	char *dir = tmpdir_new();
	char *path = path_join(dir, "out.txt");

	(void)state;
	assert_int_equal(write_file_atomic(path, "hello\n", 6, &err), 0);
	assert_int_equal(file_map(path, 0, &m, &err), 0);
	assert_int_equal(m.len, 6);
	assert_memory_equal(m.data, "hello\n", 6);
	file_unmap(&m);
	assert_int_equal(file_map(path, 3, &m, &err), -1);
	assert_non_null(strstr(err.buf, "larger than 3 bytes"));

	/* An aborted write leaves the old file and no temporary behind. */
	assert_int_equal(atomic_open(&af, path, &err), 0);
	fputs("half", af.fp);
	atomic_abort(&af);
	assert_int_equal(file_map(path, 0, &m, &err), 0);
	assert_memory_equal(m.data, "hello\n", 6);
	file_unmap(&m);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	free(path);
	free(dir);
	buf_release(&err);
}

static void test_atomic_write_keeps_devices(void **state)
{
	struct buf err = BUF_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(write_file_atomic("/dev/null", "x", 1, &err), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	buf_release(&err);
}

static void test_text_checks(void **state)
{
	struct buf err = BUF_INIT;
	size_t off;
	const char zh[] = "; \xe5\x86\x85\xe6\xa0\xb8 kernel";	/* valid UTF-8 */
	const char bad[] = "global_load\xff";
	const char overlong[] = "a\xc0\xafz";

	(void)state;
	assert_int_equal(utf8_check(zh, strlen(zh), &off), 0);
	assert_int_equal(utf8_check(bad, strlen(bad), &off), -1);
	assert_int_equal(off, 11);
	assert_int_equal(utf8_check(overlong, strlen(overlong), &off), -1);
	assert_int_equal(off, 1);
	assert_int_equal(text_input_check("k.s", "", 0, &err), -1);
	assert_string_equal(err.buf, "'k.s' is empty");
	buf_reset(&err);
	assert_int_equal(text_input_check("k.s", "ab\0c", 4, &err), -1);
	assert_string_equal(err.buf, "'k.s' is binary, not text (NUL byte at offset 2)");
	buf_reset(&err);
	{
		/* Past the 16-byte fast path, a bad byte and then a NUL: binary wins. */
		char long_bad[80];

		memset(long_bad, 'a', sizeof(long_bad));
		long_bad[37] = (char)0xfe;
		long_bad[70] = '\0';
		assert_int_equal(utf8_check(long_bad, 37, &off), 0);
		assert_int_equal(utf8_check(long_bad, 60, &off), -1);
		assert_int_equal(off, 37);
		assert_int_equal(text_input_check("b.s", long_bad, 80, &err), -1);
		assert_string_equal(err.buf,
			"'b.s' is binary, not text (NUL byte at offset 70)");
		buf_reset(&err);
		long_bad[37] = 'a';
		assert_int_equal(text_input_check("b.s", long_bad, 80, &err), -1);
		assert_string_equal(err.buf,
			"'b.s' is binary, not text (NUL byte at offset 70)");
		buf_reset(&err);
	}
	assert_int_equal(text_input_check("k.s", bad, strlen(bad), &err), -1);
	assert_string_equal(err.buf,
		"'k.s' is not UTF-8 text (invalid byte at offset 11)");
	buf_release(&err);
}

static void test_mkdir_p_and_paths(void **state)
{
	struct buf err = BUF_INIT;
	char *dir = tmpdir_new();
	char *deep = xstrfmt("%s/a/b/c", dir);
	char *a = xstrfmt("%s/a", dir), *b = xstrfmt("%s/a/b", dir);
	char *j;

	(void)state;
	assert_int_equal(mkdir_p(deep, &err), 0);
	assert_true(is_dir(deep));
	assert_int_equal(mkdir_p(deep, &err), 0);
	rmdir(deep);
	rmdir(b);
	rmdir(a);
	rmdir(dir);
	j = path_join("RUN/", "report");
	assert_string_equal(j, "RUN/report");
	free(j);
	assert_string_equal(path_base("a/b/k.amdgcn"), "k.amdgcn");
	free(deep);
	free(a);
	free(b);
	free(dir);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_errors_name_the_file),
		cmocka_unit_test(test_atomic_write_and_map),
		cmocka_unit_test(test_atomic_write_keeps_devices),
		cmocka_unit_test(test_text_checks),
		cmocka_unit_test(test_mkdir_p_and_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
