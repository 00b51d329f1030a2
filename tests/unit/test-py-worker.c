/*
 * Unit tests for py/worker: the JSON-lines channel to a long-lived
 * child, replies matched by id, the per-call time limit, a worker that
 * dies or answers garbage, the environment it is given, and a worker
 * script found through $TKO_PYTHON_DIR and run by $TKO_PYTHON. The
 * "worker" is a small sh loop, so no Python is needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <cmocka.h>

#include "json/jsonio.h"
#include "py/worker.h"

/* Answers each request with {"id": <its id>, "n": <count>, "env": $TKO_X};
 * a request with "sleep" sleeps first; one with "bad" gets non-JSON; one
 * with "die" exits 3 after a line on stderr; one with "other" also gets a
 * stray reply for another id first. */
static const char fake[] =
	"n=0; while IFS= read -r line; do n=$((n+1));"
	" id=$(printf '%s' \"$line\" | sed -n 's/.*\"id\": *\"\\([^\"]*\\)\".*/\\1/p');"
	" case $line in *sleep*) sleep 5;; esac;"
	" case $line in *bad*) echo 'not json'; continue;; esac;"
	" case $line in *die*) echo 'fatal: out of luck' >&2; exit 3;; esac;"
	" case $line in *other*) printf '{\"id\":\"zzz\"}\\n';; esac;"
	" printf '{\"id\":\"%s\",\"n\":%d,\"env\":\"%s\"}\\n' \"$id\" \"$n\" \"$TKO_X\";"
	" done";

static void start(struct py_worker *w)
{
	const char *argv[] = { "sh", "-c", fake, NULL };
	const char *env[] = { "TKO_X=hello", NULL };
	struct buf err = BUF_INIT;

	assert_int_equal(py_worker_spawn(w, argv, env, &err), 0);
	assert_true(py_worker_running(w));
	buf_release(&err);
}

static int call(struct py_worker *w, const char *id, const char *extra, double t,
		json_t **rep, struct buf *err)
{
	json_t *req = json_pack("{s:s, s:s}", "id", id, "x", extra);
	int r = py_worker_call(w, req, t, rep, err);

	json_decref(req);
	return r;
}

static void test_replies_by_id(void **state)
{
	struct py_worker w = PY_WORKER_INIT("tune worker");
	struct buf err = BUF_INIT;
	json_t *rep;

	(void)state;
	start(&w);
	assert_int_equal(call(&w, "a1", "", 10, &rep, &err), 0);
	assert_string_equal(json_str(rep, "id"), "a1");
	assert_string_equal(json_str(rep, "env"), "hello");
	assert_int_equal(json_int(rep, "n", 0), 1);
	json_decref(rep);
	/* the stray reply for "zzz" is skipped; the worker kept its state */
	assert_int_equal(call(&w, "b2", "other", 10, &rep, &err), 0);
	assert_string_equal(json_str(rep, "id"), "b2");
	assert_int_equal(json_int(rep, "n", 0), 2);
	json_decref(rep);
	py_worker_stop(&w);
	assert_false(py_worker_running(&w));
	buf_release(&err);
}

static void test_timeout_kills(void **state)
{
	struct py_worker w = PY_WORKER_INIT("tune worker");
	struct buf err = BUF_INIT;
	struct timespec t0, t1;
	json_t *rep;
	double s;

	(void)state;
	start(&w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(call(&w, "s", "sleep", 0.5, &rep, &err), PY_WORKER_TIMEOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(s < 4.0);
	assert_null(rep);
	assert_false(py_worker_running(&w));
	assert_int_equal(call(&w, "t", "", 1, &rep, &err), -1);
	assert_non_null(strstr(err.buf, "not running"));
	py_worker_stop(&w);
	buf_release(&err);
}

static void test_death_and_garbage(void **state)
{
	struct py_worker w = PY_WORKER_INIT("tune worker");
	struct buf err = BUF_INIT;
	json_t *rep;

	(void)state;
	start(&w);
	assert_int_equal(call(&w, "g", "bad", 10, &rep, &err), -1);
	assert_non_null(strstr(err.buf, "cannot parse 'tune worker reply'"));
	buf_reset(&err);
	assert_int_equal(call(&w, "d", "die", 10, &rep, &err), -1);
	assert_string_equal(err.buf, "the tune worker exited (status 3): fatal: out of luck");
	assert_false(py_worker_running(&w));
	py_worker_stop(&w);
	buf_release(&err);
}

static void test_an_endless_reply_is_cut_off(void **state)
{
	/* A $TKO_PYTHON that answers with one line that never ends. */
	const char *argv[] = { "sh", "-c", "yes '{\"id\": \"x\", \"pad\": \"' | tr -d '\\n'", NULL };
	struct py_worker w = PY_WORKER_INIT("tune worker");
	struct buf err = BUF_INIT;
	json_t *rep;
	time_t t0 = time(NULL);

	(void)state;
	assert_int_equal(py_worker_spawn(&w, argv, NULL, &err), 0);
	assert_int_equal(call(&w, "x", "hello", 60, &rep, &err), -1);
	assert_non_null(strstr(err.buf, "reply is longer than 64 MiB"));
	assert_false(py_worker_running(&w));
	assert_true(time(NULL) - t0 < 30);
	py_worker_stop(&w);
	buf_release(&err);
}

static void test_missing_program(void **state)
{
	const char *argv[] = { "tko-no-such-python", "x.py", NULL };
	struct py_worker w = PY_WORKER_INIT("tune worker");
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(py_worker_spawn(&w, argv, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "cannot run 'tko-no-such-python'"));
	assert_false(py_worker_running(&w));
	py_worker_stop(&w);
	buf_release(&err);
}

/* python/tko/<script> as $TKO_PYTHON_DIR finds it, run by $TKO_PYTHON (sh here). */
static void test_start_finds_the_script(void **state)
{
	char dir[] = "/tmp/tko-test-py-worker.XXXXXX", path[128];
	const char *rm[] = { "rm", "-rf", dir, NULL };
	struct py_worker w = PY_WORKER_INIT("tune worker");
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;
	json_t *rep;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tko", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/tko/fake_worker.sh", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(fake, fp);
	fclose(fp);
	setenv("TKO_PYTHON_DIR", dir, 1);
	setenv("TKO_PYTHON", "sh", 1);
	assert_int_equal(py_worker_start(&w, "fake_worker.sh", NULL, &err), 0);
	assert_int_equal(call(&w, "s1", "", 10, &rep, &err), 0);
	assert_int_equal(json_int(rep, "n", 0), 1);
	json_decref(rep);
	py_worker_stop(&w);
	assert_false(py_worker_running(&w));
	assert_int_equal(py_worker_start(&w, "no_such.py", NULL, &err), -1);
	assert_non_null(strstr(err.buf, "cannot find the tune worker '"));
	assert_non_null(strstr(err.buf, "/tko/no_such.py' (set TKO_PYTHON_DIR)"));
	py_worker_stop(&w);
	unsetenv("TKO_PYTHON_DIR");
	unsetenv("TKO_PYTHON");
	c.argv = rm;
	child_run(&c, &err);
	child_release(&c);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replies_by_id),
		cmocka_unit_test(test_timeout_kills),
		cmocka_unit_test(test_death_and_garbage),
		cmocka_unit_test(test_an_endless_reply_is_cut_off),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_start_finds_the_script),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
