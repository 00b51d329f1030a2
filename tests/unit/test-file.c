/* Unit tests for util/file: mapping, text checks and atomic writes. */
#include <dirent.h>
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

/* A small file's text, in a static buffer, for comparisons. */
static const char *slurp(const char *path)
{
	static char text[256];
	FILE *fp = fopen(path, "r");
	size_t n = fp ? fread(text, 1, sizeof(text) - 1, fp) : 0;

	if (fp)
		fclose(fp);
	text[n] = '\0';
	return text;
}

/* Entries of `dir` other than . and .. (a temporary left behind shows here). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_mode & 07777 : 0;
}

static void test_outputs_refuse_inputs_and_read_only_files(void **state)
{
	struct buf err = BUF_INIT;
	struct mapped_file m;
	char *dir = tmpdir_new();
	char *log = path_join(dir, "log.txt"), *ro = path_join(dir, "ro.json");
	char *lnk = path_join(dir, "link.json"), *want;

	(void)state;
	assert_int_equal(write_file_atomic(log, "old\n", 4, &err), 0);
	assert_int_equal(write_file_atomic(ro, "old\n", 4, &err), 0);
	assert_int_equal(chmod(ro, 0444), 0);
	/* Tracking off (a library user): reading then writing the same file is allowed. */
	assert_int_equal(file_map(log, 0, &m, &err), 0);
	file_unmap(&m);
	assert_int_equal(write_file_atomic(log, "new\n", 4, &err), 0);
	/* Tracking on (tko's main): a file read is an input and is not overwritten, */
	file_track_inputs(1);
	assert_int_equal(file_map(log, 0, &m, &err), 0);
	file_unmap(&m);
	assert_int_equal(write_file_atomic(log, "gone\n", 5, &err), -1);
	want = xstrfmt("refusing to write '%s': it is one of this command's inputs", log);
	assert_string_equal(err.buf, want);
	free(want);
	assert_string_equal(slurp(log), "new\n");
	/* nor through a link to it; */
	assert_int_equal(symlink("log.txt", lnk), 0);
	buf_reset(&err);
	assert_int_equal(write_file_atomic(lnk, "gone\n", 5, &err), -1);
	/* an update in place forgets it first. */
	file_forget_input(log);
	buf_reset(&err);
	assert_int_equal(write_file_atomic(log, "upd\n", 4, &err), 0);
	file_track_inputs(0);
	/* A read-only file is not replaced, even by root. */
	assert_int_equal(write_file_atomic(ro, "new\n", 4, &err), -1);
	want = xstrfmt("refusing to replace '%s': it is read-only", ro);
	assert_string_equal(err.buf, want);
	free(want);
	assert_string_equal(slurp(ro), "old\n");
	assert_int_equal(entries(dir), 3);
	unlink(lnk);
	unlink(log);
	unlink(ro);
	assert_int_equal(rmdir(dir), 0);
	free(lnk);
	free(log);
	free(ro);
	free(dir);
	buf_release(&err);
}

static void test_outputs_keep_modes_and_follow_the_umask(void **state)
{
	struct buf err = BUF_INIT;
	char *dir = tmpdir_new();
	char *a = path_join(dir, "a.json"), *b = path_join(dir, "b.json");
	mode_t old = umask(077);

	(void)state;
	/* New: 0666 less the umask (it was always 0644). */
	assert_int_equal(write_file_atomic(a, "1\n", 2, &err), 0);
	assert_int_equal(mode_of(a), 0600);
	umask(022);
	assert_int_equal(write_file_atomic(b, "1\n", 2, &err), 0);
	assert_int_equal(mode_of(b), 0644);
	/* Replaced: the mode it had, whatever the umask. */
	assert_int_equal(chmod(a, 0640), 0);
	assert_int_equal(write_file_atomic(a, "2\n", 2, &err), 0);
	assert_int_equal(mode_of(a), 0640);
	assert_string_equal(slurp(a), "2\n");
	umask(old);
	unlink(a);
	unlink(b);
	assert_int_equal(rmdir(dir), 0);
	free(a);
	free(b);
	free(dir);
	buf_release(&err);
}

static void test_outputs_with_the_longest_names(void **state)
{
	struct buf err = BUF_INIT;
	char *dir = tmpdir_new(), name[256], *path;

	(void)state;
	/* 255 bytes: NAME_MAX. "name.tmp.XXXXXX" would not fit; the temporary is short. */
	memset(name, 'x', 250);
	memcpy(name + 250, ".json", 6);
	path = path_join(dir, name);
	assert_int_equal(write_file_atomic(path, "1\n", 2, &err), 0);
	assert_string_equal(slurp(path), "1\n");
	assert_int_equal(entries(dir), 1);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	free(path);
	free(dir);
	buf_release(&err);
}

static void test_mkdir_in_refuses_links(void **state)
{
	struct buf err = BUF_INIT;
	char *dir = tmpdir_new(), *run = path_join(dir, "run"), *out = path_join(dir, "out");
	char *lnk = path_join(run, "analysis"), **made = NULL, *want;
	size_t nmade = 0, i;

	(void)state;
	assert_int_equal(mkdir(run, 0777), 0);
	assert_int_equal(mkdir(out, 0777), 0);
	assert_int_equal(mkdir_in(run, "report/x", &made, &nmade, &err), 0);
	assert_int_equal(nmade, 2);
	assert_true(is_dir(made[1]));
	assert_int_equal(mkdir_in(run, "report/x", &made, &nmade, &err), 0);
	assert_int_equal(nmade, 2);
	assert_int_equal(symlink("../out", lnk), 0);
	assert_int_equal(mkdir_in(run, "analysis", NULL, NULL, &err), -1);
	want = xstrfmt("refusing to write through '%s': it is a symbolic link "
		       "(tko writes only into folders that are really there)", lnk);
	assert_string_equal(err.buf, want);
	free(want);
	assert_int_equal(entries(out), 0);
	for (i = nmade; i-- > 0;) {
		rmdir(made[i]);
		free(made[i]);
	}
	free(made);
	unlink(lnk);
	rmdir(run);
	rmdir(out);
	assert_int_equal(rmdir(dir), 0);
	free(lnk);
	free(run);
	free(out);
	free(dir);
	buf_release(&err);
}

static void test_a_set_is_published_whole_or_not_at_all(void **state)
{
	struct buf err = BUF_INIT;
	struct atomic_set set = ATOMIC_SET_INIT;
	char *dir = tmpdir_new(), *a = path_join(dir, "a.json"), *b = path_join(dir, "sub/b.json");
	char *sub = path_join(dir, "sub");
	FILE *fp;

	(void)state;
	assert_int_equal(write_file_atomic(a, "old\n", 4, &err), 0);
	/* Nothing is renamed before the commit, and an abort removes folders and temporaries. */
	assert_int_equal(atomic_set_mkdir(&set, dir, "sub", &err), 0);
	assert_non_null(fp = atomic_set_open(&set, a, &err));
	fputs("new\n", fp);
	assert_non_null(fp = atomic_set_open(&set, b, &err));
	fputs("b\n", fp);
	assert_string_equal(slurp(a), "old\n");
	atomic_set_abort(&set);
	assert_string_equal(slurp(a), "old\n");
	assert_false(is_dir(sub));
	assert_int_equal(entries(dir), 1);
	/* A member that cannot be written (a full device) keeps the others out too. */
	assert_non_null(fp = atomic_set_open(&set, a, &err));
	fputs("new\n", fp);
	assert_non_null(fp = atomic_set_open(&set, "/dev/full", &err));
	fputs("x\n", fp);
	assert_int_equal(atomic_set_commit(&set, &err), -1);
	assert_non_null(strstr(err.buf, "cannot write '/dev/full'"));
	assert_string_equal(slurp(a), "old\n");
	assert_int_equal(entries(dir), 1);
	/* All written: all there. */
	buf_reset(&err);
	assert_int_equal(atomic_set_mkdir(&set, dir, "sub", &err), 0);
	assert_non_null(fp = atomic_set_open(&set, a, &err));
	fputs("new\n", fp);
	assert_non_null(fp = atomic_set_open(&set, b, &err));
	fputs("b\n", fp);
	assert_int_equal(atomic_set_commit(&set, &err), 0);
	assert_string_equal(slurp(a), "new\n");
	assert_string_equal(slurp(b), "b\n");
	assert_int_equal(entries(dir), 2);
	assert_int_equal(entries(sub), 1);
	unlink(b);
	rmdir(sub);
	unlink(a);
	assert_int_equal(rmdir(dir), 0);
	free(a);
	free(b);
	free(sub);
	free(dir);
	buf_release(&err);
}

static void test_streams_stop_at_a_nul_byte(void **state)
{
	struct buf err = BUF_INIT, out = BUF_INIT;
	struct mapped_file m;

	(void)state;
	/* /dev/zero: one read, not the memory. */
	assert_int_equal(file_map("/dev/zero", 0, &m, &err), -1);
	assert_string_equal(err.buf, "'/dev/zero' is binary, not text (NUL byte at offset 0)");
	buf_reset(&err);
	assert_int_equal(file_read("/dev/zero", 0, &out, &err), -1);
	assert_int_equal(out.len, 0);
	buf_release(&out);
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
		cmocka_unit_test(test_outputs_refuse_inputs_and_read_only_files),
		cmocka_unit_test(test_outputs_keep_modes_and_follow_the_umask),
		cmocka_unit_test(test_outputs_with_the_longest_names),
		cmocka_unit_test(test_mkdir_in_refuses_links),
		cmocka_unit_test(test_a_set_is_published_whole_or_not_at_all),
		cmocka_unit_test(test_streams_stop_at_a_nul_byte),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
