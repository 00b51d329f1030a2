/*
 * Unit tests for apply/keepoff (the --keep-off syntax, the verdict's
 * bounds, the proof merged over processes) and apply/pyqual (the function around a line). The expected
 * qualified names are read off the sources below by hand; the verdict's
 * bounds are keepoff.h's: faster only when the whole interval is under 1.
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

#include "apply/keepoff.h"
#include "apply/pyqual.h"

static void test_verdict_bounds(void **state)
{
	(void)state;
	assert_string_equal(keepoff_verdict(0.90, 0.99), "faster");
	assert_string_equal(keepoff_verdict(0.95, 1.00), "not_faster");	/* 1 inside */
	assert_string_equal(keepoff_verdict(1.00, 1.10), "not_faster");
	assert_string_equal(keepoff_verdict(1.01, 1.20), "slower");
}

static void test_parse(void **state)
{
	static const char *const good[] = { "a:b", "my_model.sub:Block.attn", "torch.nn.functional:gelu",
					    "m:_f1", NULL };
	static const char *const bad[] = { "a", "a:", ":b", "a:b.", "a:.b", "a:1b", "a::b", "a:b:c",
					   "a-b:c", "a:b c", ".a:b", NULL };
	struct buf err = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; good[i]; i++)
		assert_int_equal(keepoff_parse(good[i], &err), 0);
	assert_int_equal(err.len, 0);
	for (i = 0; bad[i]; i++) {
		buf_reset(&err);
		assert_int_equal(keepoff_parse(bad[i], &err), -1);
		assert_non_null(strstr(err.buf, bad[i]));
	}
	buf_release(&err);
}

static void expect_qual(const char *src, long line, const char *function, const char *want)
{
	char *got = py_qualname_at(src, strlen(src), line, function);

	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

static void test_qualname(void **state)
{
	const char *src =
		"import torch\n"			/* 1 */
		"class A:\n"				/* 2 */
		"\tclass B:\n"				/* 3 */
		"\t\tasync def f(self):\n"		/* 4 */
		"\t\t\ts = '(' + \"[\"  # (\n"		/* 5: brackets in strings and a comment */
		"\t\t\treturn s\n"			/* 6 */
		"\tx = 1\n"				/* 7: in A, not in a function */
		"\n"					/* 8 */
		"def g(a,\n"				/* 9 */
		"b):\n"				/* 10: a continuation line, dedented */
		"    return a + b\n"			/* 11 */
		"def h():\n"				/* 12 */
		"    '''\n"				/* 13 */
		"def fake():\n"				/* 14: inside the docstring */
		"    '''\n"				/* 15 */
		"    return 0\n";			/* 16 */

	(void)state;
	expect_qual(src, 6, "f", "A.B.f");
	expect_qual(src, 5, "f", "A.B.f");
	expect_qual(src, 7, "x", NULL);
	expect_qual(src, 11, "g", "g");
	expect_qual(src, 11, "h", NULL);	/* the origin names another function */
	expect_qual(src, 16, "h", "h");
	expect_qual(src, 99, "h", NULL);	/* past the end */
	expect_qual(src, 0, "h", NULL);
	expect_qual("def outer():\n    def inner():\n        return 1\n", 3, "inner", NULL);
}

static void test_script_in(void **state)
{
	static const char *const python[] = { "python", "-u", "train.py", "--lr", "x.py", NULL };
	static const char *const direct[] = { "./train.py", NULL };
	static const char *const none[] = { "python", "-m", "pkg.train", NULL };
	static const char *const short_name[] = { "python", ".py", NULL };

	(void)state;
	assert_string_equal(py_script_in(python), "train.py");
	assert_string_equal(py_script_in(direct), "./train.py");
	assert_null(py_script_in(none));
	assert_null(py_script_in(short_name));
	assert_null(py_script_in(NULL));
}

static void test_module_of(void **state)
{
	static const char *const cases[][2] = {
		{ "/home/u/capture_demo.py", "capture_demo" }, { "model.py", "model" },
		{ "/a/b/notes.txt", NULL }, { "/a/1model.py", NULL }, { "/a/my-model.py", NULL },
		{ "/a/.py", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = py_module_of(cases[i][0]);

		if (cases[i][1])
			assert_string_equal(got, cases[i][1]);
		else
			assert_null(got);
		free(got);
	}
}

/* The keep_off events of an apply.jsonl, one a line, into a new file; its path (free it). */
static char *jsonl(const char *const *lines)
{
	char path[] = "/tmp/test-apply-keepoff-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	while (*lines)
		fprintf(f, "%s\n", *lines++);
	fclose(f);
	return strdup(path);
}

static void assert_region(const struct apply_region_proofs *list, size_t i, const char *name,
			  const char *status, long long calls)
{
	const struct apply_region_proof *r = &list->v[i];

	assert_true(i < list->nr);
	assert_string_equal(r->region, name);
	assert_string_equal(r->status, status);
	assert_int_equal(r->calls, calls);
}

#define EV(role, regions) "{\"event\": \"keep_off\", \"role\": \"" role "\", \"regions\": [" regions "]}"
#define R(name, status, calls) "{\"region\": \"" name "\", \"status\": \"" status "\", \"calls\": " #calls "}"

/*
 * An Inductor helper (python -c) says no_script on the script's region
 * before the script's process says took_effect; a compile worker's event
 * does not count; a process that says no_script after changes nothing. A
 * module's region keeps the first status that is not took_effect. By hand:
 * __main__:f took_effect, 0 + 3 + 0 calls; m:g never_called, 2 + 0 calls.
 */
static void test_read_over_processes(void **state)
{
	static const char *const lines[] = {
		EV("main", R("__main__:f", "no_script", 0) ", " R("m:g", "took_effect", 2)),
		EV("compile_worker", R("__main__:f", "not_found", 0)),
		"{\"event\": \"steps\", \"role\": \"main\"}",
		EV("main", R("__main__:f", "took_effect", 3) ", " R("m:g", "never_called", 0)),
		EV("main", R("__main__:f", "no_script", 0)),
		NULL
	};
	static const char *const alone[] = { EV("main", R("__main__:f", "no_script", 0)), NULL };
	char *path = jsonl(lines);
	struct apply_region_proofs got = { NULL, 0 };

	(void)state;
	keepoff_read(path, &got);
	assert_int_equal(got.nr, 2);
	assert_region(&got, 0, "__main__:f", "took_effect", 3);
	assert_region(&got, 1, "m:g", "never_called", 2);
	apply_region_proofs_release(&got);
	unlink(path);
	free(path);
	/* no process but a helper spoke (tko apply -- python -c ...): its word stands, and fails the proof */
	path = jsonl(alone);
	keepoff_read(path, &got);
	assert_int_equal(got.nr, 1);
	assert_region(&got, 0, "__main__:f", "no_script", 0);
	apply_region_proofs_release(&got);
	unlink(path);
	free(path);
}

/*
 * The proof of a run from apply.jsonl's keep_off events (by hand): the
 * main process's regions, calls summed (2 + 3), the worst status kept with
 * its message; a worker's event and a line that is no JSON are ignored.
 */
static void test_read_proof(void **state)
{
	static const char lines[] =
		"{\"event\": \"keep_off\", \"role\": \"main\", \"regions\": [{\"region\": \"m:f\", "
		"\"status\": \"took_effect\", \"calls\": 2, \"message\": null}, {\"region\": \"m:g\", "
		"\"status\": \"took_effect\", \"calls\": 1}]}\n"
		"{\"event\": \"keep_off\", \"role\": \"worker\", \"regions\": [{\"region\": \"m:w\", "
		"\"status\": \"not_found\", \"calls\": 0}]}\n"
		"{\"event\": \"keep_off\", \"role\": \"main\", \"regions\": [{\"region\": \"m:f\", "
		"\"status\": \"never_called\", \"calls\": 3, \"message\": \"not called\"}]}\n"
		"{\"event\": \"keep_o\n";
	char path[] = "/tmp/test-apply-keepoff-XXXXXX";
	int fd = mkstemp(path);
	struct apply_region_proofs got = { NULL, 0 };
	struct buf err = BUF_INIT;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, lines, sizeof(lines) - 1), (ssize_t)(sizeof(lines) - 1));
	close(fd);
	keepoff_read(path, &got);
	assert_int_equal(got.nr, 2);
	assert_string_equal(got.v[0].region, "m:f");
	assert_string_equal(got.v[0].status, "never_called");
	assert_int_equal(got.v[0].calls, 5);
	assert_string_equal(json_string_value(got.v[0].message), "not called");
	assert_string_equal(got.v[1].region, "m:g");
	assert_int_equal(got.v[1].calls, 1);
	assert_int_equal(keepoff_check(&got, "keep-off", path, &err), -1);
	assert_non_null(strstr(err.buf, "keep-off region 'm:f' never_called in arm keep-off: not called"));
	apply_region_proofs_release(&got);
	buf_reset(&err);
	assert_int_equal(keepoff_check(&got, "keep-off", path, &err), -1);
	assert_non_null(strstr(err.buf, "no keep_off record"));
	unlink(path);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_bounds),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_qualname),
		cmocka_unit_test(test_module_of),
		cmocka_unit_test(test_script_in),
		cmocka_unit_test(test_read_over_processes),
		cmocka_unit_test(test_read_proof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
