/*
 * Unit tests for py/pyenv: the interpreter, the package folder's search
 * order ($TKO_PYTHONPATH, $TKO_PYTHON_DIR, beside the binary), a script's
 * search order ($TKO_PYTHON_DIR/tko/, beside the binary), and the argv and
 * environment of `python -m module`. The folders are made here in a
 * temporary directory; the binary's own folder comes from argv[0].
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "py/pyenv.h"
#include "util/mem.h"

static char tmp[] = "/tmp/tko-test-pyenv.XXXXXX";
static char self_dir[PATH_MAX];

/* dir/tko/<file> with one line in it. */
static void put(const char *dir, const char *file)
{
	char *d = xstrfmt("%s/tko", dir), *p = xstrfmt("%s/%s", d, file);
	FILE *fp;

	mkdir(dir, 0700);
	mkdir(d, 0700);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs("# test\n", fp);
	fclose(fp);
	free(d);
	free(p);
}

static void clear_env(void)
{
	unsetenv("TKO_PYTHONPATH");
	unsetenv("TKO_PYTHON_DIR");
	unsetenv("TKO_PYTHON");
}

static void test_python(void **state)
{
	(void)state;
	clear_env();
	assert_string_equal(pyenv_python(), "python3");
	setenv("TKO_PYTHON", "/opt/py/bin/python", 1);
	assert_string_equal(pyenv_python(), "/opt/py/bin/python");
	setenv("TKO_PYTHON", "", 1);
	assert_string_equal(pyenv_python(), "python3");
	clear_env();
}

static void test_exe_dir(void **state)
{
	char *d = pyenv_exe_dir();

	(void)state;
	assert_non_null(d);
	assert_string_equal(d, self_dir);
	free(d);
}

static void test_package_order(void **state)
{
	char *a = xstrfmt("%s/a", tmp), *b = xstrfmt("%s/b", tmp), *empty = xstrfmt("%s/e", tmp);
	struct buf err = BUF_INIT;
	char *got, *want;

	(void)state;
	clear_env();
	put(a, "__init__.py");
	put(b, "__init__.py");
	mkdir(empty, 0700);
	setenv("TKO_PYTHONPATH", a, 1);
	setenv("TKO_PYTHON_DIR", b, 1);
	got = pyenv_package_dir(&err);
	assert_string_equal(got, a);
	free(got);
	unsetenv("TKO_PYTHONPATH");
	got = pyenv_package_dir(&err);
	assert_string_equal(got, b);
	free(got);
	setenv("TKO_PYTHONPATH", empty, 1);
	assert_null(pyenv_package_dir(&err));
	want = xstrfmt("TKO_PYTHONPATH='%s' holds no tko/__init__.py", empty);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	/* nothing set: beside the binary, build/tests/unit/../python has no package */
	clear_env();
	assert_null(pyenv_package_dir(&err));
	want = xstrfmt("tko's Python package not found in '%s/../python'", self_dir);
	assert_non_null(strstr(err.buf, want));
	free(want);
	buf_release(&err);
	free(a);
	free(b);
	free(empty);
}

static void test_script_order(void **state)
{
	char *dir = xstrfmt("%s/w", tmp), *want;
	struct buf err = BUF_INIT;
	char *got;

	(void)state;
	clear_env();
	put(dir, "tune_worker.py");
	setenv("TKO_PYTHON_DIR", dir, 1);
	/* TKO_PYTHONPATH is not the script's search path */
	setenv("TKO_PYTHONPATH", "/nonexistent", 1);
	got = pyenv_script("tune_worker.py", "tune worker", &err);
	want = xstrfmt("%s/tko/tune_worker.py", dir);
	assert_string_equal(got, want);
	free(got);
	free(want);
	assert_null(pyenv_script("nope.py", "tune worker", &err));
	want = xstrfmt("cannot find the tune worker '%s/tko/nope.py' (set TKO_PYTHON_DIR)", dir);
	assert_string_equal(err.buf, want);
	free(want);
	buf_reset(&err);
	clear_env();
	assert_null(pyenv_script("tune_worker.py", "tune worker", &err));
	want = xstrfmt("'%s/../python/tko/tune_worker.py'", self_dir);
	assert_non_null(strstr(err.buf, want));
	free(want);
	buf_release(&err);
	free(dir);
}

static void test_module_child(void **state)
{
	char *pkg = xstrfmt("%s/m", tmp), *want;
	const char *args[] = { "--measure", NULL };
	const char *extra[] = { "TKO_X=1", NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	clear_env();
	put(pkg, "__init__.py");
	setenv("TKO_PYTHONPATH", pkg, 1);
	setenv("TKO_PYTHON", "/opt/py", 1);
	setenv("PYTHONPATH", "/user/lib", 1);
	assert_int_equal(pyenv_module_child(&c, "tko.probe", args, extra, &err), 0);
	assert_string_equal(c.argv[0], "/opt/py");
	assert_string_equal(c.argv[1], "-m");
	assert_string_equal(c.argv[2], "tko.probe");
	assert_string_equal(c.argv[3], "--measure");
	assert_null(c.argv[4]);
	want = xstrfmt("PYTHONPATH=%s:/user/lib", pkg);
	assert_string_equal(c.env_add[0], want);
	assert_string_equal(c.env_add[1], "TKO_X=1");
	assert_null(c.env_add[2]);
	child_release(&c);
	assert_null(c.argv_owned);
	/* no package: the same line as pyenv_package_dir, nothing set */
	c = (struct child)CHILD_INIT;
	setenv("TKO_PYTHONPATH", "/nonexistent", 1);
	assert_int_equal(pyenv_module_child(&c, "tko.probe", NULL, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "holds no tko/__init__.py"));
	assert_null(c.argv);
	unsetenv("PYTHONPATH");
	clear_env();
	free(want);
	free(pkg);
	buf_release(&err);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_python),
		cmocka_unit_test(test_exe_dir),
		cmocka_unit_test(test_package_order),
		cmocka_unit_test(test_script_order),
		cmocka_unit_test(test_module_child),
	};
	char *real, *slash;
	int ret;

	(void)argc;
	real = realpath(argv[0], NULL);
	if (!real || !mkdtemp(tmp))
		return 1;
	slash = strrchr(real, '/');
	*slash = '\0';
	snprintf(self_dir, sizeof(self_dir), "%s", real);
	free(real);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	{
		const char *rm[] = { "rm", "-rf", tmp, NULL };
		struct child c = CHILD_INIT;
		struct buf err = BUF_INIT;

		c.argv = rm;
		child_run(&c, &err);
		child_release(&c);
		buf_release(&err);
	}
	return ret;
}
