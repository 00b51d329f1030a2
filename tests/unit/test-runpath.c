/* Unit tests for parse/runpath: finding logged paths in a RUN directory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse/runpath.h"
#include "util/file.h"
#include "util/mem.h"

static void test_tail2(void **state)
{
	const char *p = "/tmp/w/cache/inductor/sk/0ebd.best_config";

	(void)state;
	assert_string_equal(runpath_tail2(p, strlen(p)), "sk/0ebd.best_config");
	assert_string_equal(runpath_tail2("a/b", 3), "a/b");
	assert_string_equal(runpath_tail2("b", 1), "b");
}

static void test_resolve_and_root(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT;
	char *dir, *file, *log, *got, *r;
	const char *logged = "/tmp/elsewhere/cache/inductor/sk/csk.py";

	(void)state;
	assert_non_null(mkdtemp(root));
	dir = xstrfmt("%s/cache/inductor/sk", root);
	file = xstrfmt("%s/csk.py", dir);
	log = xstrfmt("%s/log/model.log", root);
	assert_int_equal(mkdir_p(dir, &err), 0);
	assert_int_equal(write_file_atomic(file, "x", 1, &err), 0);
	got = runpath_resolve(root, logged, strlen(logged));
	assert_non_null(got);
	assert_string_equal(got, file);
	free(got);
	assert_null(runpath_resolve(NULL, logged, strlen(logged)));
	got = runpath_resolve(NULL, file, strlen(file));	/* exists as given */
	assert_string_equal(got, file);
	free(got);
	r = runpath_root_of(log);	/* RUN/log/model.log: the parent */
	assert_string_equal(r, root);
	free(r);
	got = xstrfmt("%s/top.txt", root);
	r = runpath_root_of(got);
	assert_string_equal(r, root);
	free(r);
	free(got);
	assert_null(runpath_root_of("/nonexistent/x.log"));
	assert_int_equal(runpath_is_run(root), 1);
	assert_int_equal(runpath_is_run(dir), 0);
	unlink(file);
	rmdir(dir);
	free(file);
	file = xstrfmt("%s/cache/inductor", root);
	rmdir(file);
	free(file);
	file = xstrfmt("%s/cache", root);
	rmdir(file);
	free(file);
	rmdir(root);
	free(dir);
	free(log);
}

/*
 * A RUN's files lead only inside it: a logged path outside the RUN is not
 * opened even when it exists, and a part that is a link out is refused.
 */
static void test_paths_stay_inside_the_run(void **state)
{
	char root[] = "/tmp/tko-unit-XXXXXX";
	struct buf err = BUF_INIT, why = BUF_INIT;
	char *run = xstrfmt("%s/run", root), *out = xstrfmt("%s/outside/sk", root);
	char *secret = xstrfmt("%s/secret.py", out), *cache = xstrfmt("%s/cache", run);
	char *lnk = xstrfmt("%s/inductor", cache), *got, *want;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(mkdir_p(cache, &err), 0);
	assert_int_equal(mkdir_p(out, &err), 0);
	assert_int_equal(write_file_atomic(secret, "x", 1, &err), 0);
	/* Read where it was written, a log names the file outside: not opened. */
	assert_null(runpath_resolve(run, secret, strlen(secret)));
	/* A loose log (no RUN) may name it. */
	got = runpath_resolve(NULL, secret, strlen(secret));
	assert_string_equal(got, secret);
	free(got);
	/* RUN/cache/inductor as a link out of the RUN: refused, with why. */
	assert_int_equal(symlink("../../outside", lnk), 0);
	assert_null(runpath_resolve(run, "/w/cache/inductor/sk/secret.py", 30));
	assert_null(runpath_part(run, "cache/inductor", &why));
	want = xstrfmt("'%s/cache/inductor' leads out of the RUN (a symbolic link); not read", run);
	assert_string_equal(why.buf, want);
	free(want);
	buf_reset(&why);
	assert_null(runpath_part(run, "../outside", &why));
	assert_string_equal(why.buf, "'../outside' is not a path inside the RUN; not read");
	buf_reset(&why);
	assert_null(runpath_part(run, "capture/kernels", &why));	/* missing: no why */
	assert_int_equal(why.len, 0);
	got = runpath_part(run, "cache", &why);
	assert_string_equal(got, cache);
	free(got);
	assert_int_equal(runpath_rel_ok("capture/kernels/k-1"), 1);
	assert_int_equal(runpath_rel_ok("/etc"), 0);
	assert_int_equal(runpath_rel_ok("a//b"), 0);
	unlink(lnk);
	unlink(secret);
	rmdir(out);
	*strrchr(out, '/') = '\0';
	rmdir(out);
	rmdir(cache);
	rmdir(run);
	assert_int_equal(rmdir(root), 0);
	free(run);
	free(out);
	free(secret);
	free(cache);
	free(lnk);
	buf_release(&err);
	buf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tail2),
		cmocka_unit_test(test_resolve_and_root),
		cmocka_unit_test(test_paths_stay_inside_the_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
