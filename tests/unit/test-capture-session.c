/*
 * Unit tests for the capture library: capture/childenv (the command's
 * environment), capture/summary (counting what the hook left) and
 * capture/session (a whole capture of a shell command into a fresh RUN,
 * with no Python: TKO_PYTHON points nowhere, as in the golden suite).
 * Expected values are written by hand from docs/design.md's RUN layout
 * and the hand-made inputs below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <cmocka.h>

#include "capture/childenv.h"
#include "capture/session.h"
#include "capture/summary.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "test-file.h"

static char *tmpdir;

static int setup(void **state)
{
	char tmpl[] = "/tmp/tko-test-capture.XXXXXX";

	(void)state;
	tmpdir = xstrdup(mkdtemp(tmpl));
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xstrfmt("rm -rf '%s'", tmpdir);

	(void)state;
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(tmpdir);
	return 0;
}

static void put(const char *path, const char *text)
{
	struct buf err = BUF_INIT;

	assert_int_equal(write_file_atomic(path, text, strlen(text), &err), 0);
	buf_release(&err);
}

/* The variables, in the order tko sets them (tests/golden/capture/fake's env_set). */
static void test_env_default(void **state)
{
	static const char *const want[][2] = {
		{ "PYTHONPATH", NULL },
		{ "TKO_PYTHONPATH", "/p" },
		{ "TKO_RUN_DIR", "/r" },
		{ "TKO_CAPTURE_DIR", "/r/capture" },
		{ "TORCHINDUCTOR_CACHE_DIR", "/r/cache/inductor" },
		{ "TRITON_CACHE_DIR", "/r/cache/triton" },
		{ "TKO_CAPTURE_KERNELS", "^triton_" },
		{ "TKO_PROFILE_DIR", "/r/profile" },
		{ "TKO_PROFILE_STEPS", "3" },
		{ "TKO_PROFILE_SECONDS", "1.5" },
		{ "TORCH_LOGS", "+inductor" },
		{ "TRITON_PRINT_AUTOTUNING", "1" },
		{ "TORCHINDUCTOR_BENCHMARK_KERNEL", "1" },
		{ "PYTHONUNBUFFERED", "1" },
		{ "TKO_LOG_FILE", "/r/log/model.log" },
		{ "TKO_LOG_ROUTE", "torch,triton" },
	};
	struct capture_env ce = CAPTURE_ENV_INIT;
	struct capture_profile po = { 0, 3, 1.5 };
	size_t i, n = sizeof(want) / sizeof(want[0]);

	(void)state;
	unsetenv("TORCH_LOGS");
	unsetenv("TRITON_PRINT_AUTOTUNING");
	unsetenv("TORCHINDUCTOR_BENCHMARK_KERNEL");
	unsetenv("PYTHONUNBUFFERED");
	unsetenv("PYTHONPATH");
	capture_env_build(&ce, "/r", "/p", "^triton_", &po, 0);
	assert_int_equal(ce.nset, n);
	assert_int_equal(ce.nkept, 0);
	for (i = 0; i < n; i++) {
		assert_string_equal(ce.set[i].key, want[i][0]);
		if (want[i][1])
			assert_string_equal(ce.set[i].value, want[i][1]);
	}
	assert_string_equal(ce.set[0].value, "/p/tko/_hook:/p");
	/* the child's entries: the same, NAME=value, NULL-terminated */
	assert_int_equal(ce.add.nr, n + 1);
	assert_string_equal(ce.add.v[2], "TKO_RUN_DIR=/r");
	assert_null(ce.add.v[n]);
	capture_env_release(&ce);
}

/* The user's own values are kept, and their logging is not routed; -v routes none. */
static void test_env_kept(void **state)
{
	struct capture_env ce = CAPTURE_ENV_INIT;
	struct capture_profile po = { 1, 0, 0 };
	size_t i;

	(void)state;
	setenv("TORCH_LOGS", "output_code", 1);
	capture_env_build(&ce, "/r", "/p", NULL, &po, 0);
	assert_int_equal(ce.nkept, 1);
	assert_string_equal(ce.kept[0].key, "TORCH_LOGS");
	assert_string_equal(ce.kept[0].value, "output_code");
	assert_string_equal(ce.set[ce.nset - 1].key, "TKO_LOG_ROUTE");
	assert_string_equal(ce.set[ce.nset - 1].value, "triton");
	for (i = 0; i < ce.nset; i++) {
		assert_string_not_equal(ce.set[i].key, "TKO_PROFILE_DIR");
		assert_string_not_equal(ce.set[i].key, "TKO_CAPTURE_KERNELS");
	}
	capture_env_release(&ce);
	capture_env_build(&ce, "/r", "/p", NULL, &po, 1);
	for (i = 0; i < ce.nset; i++)
		assert_string_not_equal(ce.set[i].key, "TKO_LOG_ROUTE");
	capture_env_release(&ce);
	unsetenv("TORCH_LOGS");
}

/*
 * Five lines: two autotune events, one error event, a truncated line and
 * an empty one (not counted); two kernel folders and a .tmp- one of a
 * capture still writing (not counted).
 */
static void test_summary(void **state)
{
	char *run = xstrfmt("%s/sum", tmpdir), *p;
	struct buf err = BUF_INIT;
	struct run_manifest m;

	(void)state;
	p = xstrfmt("%s/capture/kernels/triton_a-0123abcd", run);
	assert_int_equal(mkdir_p(p, &err), 0);
	free(p);
	p = xstrfmt("%s/capture/kernels/triton_b-89abcdef", run);
	assert_int_equal(mkdir_p(p, &err), 0);
	free(p);
	p = xstrfmt("%s/capture/kernels/.tmp-triton_c", run);
	assert_int_equal(mkdir_p(p, &err), 0);
	free(p);
	p = xstrfmt("%s/capture/events.jsonl", run);
	/* blank lines, whitespace only too, are neither events nor unreadable */
	put(p, "{\"event\": \"autotune\"}\n{\"event\": \"error\", \"why\": \"x\"}\n"
	       "\n \t\n{\"event\": \"autotune\"}\n{\"event\": \"snap");
	free(p);
	manifest_init(&m);
	capture_summary_read(run, &m.capture);
	assert_int_equal(m.capture.events, 3);
	assert_int_equal(m.capture.errors, 1);
	assert_int_equal(m.capture.unreadable_lines, 1);
	assert_int_equal(m.capture.kernel_dirs, 2);
	assert_int_equal(m.capture.nby_type, 2);
	assert_string_equal(m.capture.by_type[0].key, "autotune");
	assert_int_equal(m.capture.by_type[0].n, 2);
	assert_string_equal(m.capture.by_type[1].key, "error");
	manifest_release(&m);
	/* no events file: nothing, and no error */
	manifest_init(&m);
	capture_summary_read(tmpdir, &m.capture);
	assert_int_equal(m.capture.events, 0);
	assert_int_equal(m.capture.nby_type, 0);
	manifest_release(&m);
	free(run);
	buf_release(&err);
}

/* Runs `fn` with fd `fd` sent to `path`. */
static int with_fd_to(int fd, const char *path, int (*fn)(void *), void *data)
{
	int saved = dup(fd), f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ret;

	assert_true(saved >= 0 && f >= 0);
	fflush(fd == 1 ? stdout : stderr);
	dup2(f, fd);
	close(f);
	ret = fn(data);
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	return ret;
}

struct run_args {
	struct capture_session *s;
	const struct capture_opts *o;
	const char *const *cmd;
};

static int run_capture(void *data)
{
	struct run_args *a = data;
	int n = 0;

	while (a->cmd[n])
		n++;
	return capture_session_run(a->s, a->o, a->cmd, n);
}

static int run_quietly(struct run_args *a)
{
	char *out = xstrfmt("%s/stdout", tmpdir);
	int ret = with_fd_to(1, out, run_capture, a);

	free(out);
	return ret;
}

/* A command that prints two lines and exits 3: the RUN, its log and tko-run.json. */
static void test_session(void **state)
{
	const char *cmd[] = { "/bin/sh", "-c", "printf 'one\\ntwo\\n'; exit 3", NULL };
	struct capture_opts o = CAPTURE_OPTS_INIT;
	struct capture_session s;
	struct run_args a = { &s, &o, cmd };
	struct buf err = BUF_INIT;
	char *out = xstrfmt("%s/run1", tmpdir), *p, *log;
	json_t *j;

	(void)state;
	o.out = out;
	o.profile.off = 1;
	capture_session_init(&s);
	assert_int_equal(run_quietly(&a), 3);
	assert_true(s.ran);
	assert_non_null(strstr(s.run, "/run1"));
	assert_int_equal(s.m.exit_status, 3);
	assert_true(s.m.signal == RF_I64_NONE);
	assert_true(s.m.command_found);
	assert_int_equal(s.m.nargv, 3);
	assert_true(s.m.duration_s >= 0);
	p = xstrfmt("%s/log/model.log", out);
	log = test_read_file(p, NULL);
	assert_string_equal(log, "one\ntwo\n");
	free(log);
	free(p);
	p = xstrfmt("%s/tko-run.json", out);
	j = json_load_path(p, &err);
	assert_non_null(j);
	assert_string_equal(json_str(j, "tool"), "tko capture");
	assert_int_equal(json_int(j, "exit_status", -1), 3);
	assert_string_equal(json_str(json_object_get(j, "env_set"), "TKO_RUN_DIR"), s.run);
	json_decref(j);
	free(p);
	p = xstrfmt("%s/env.json", out);
	assert_true(is_file(p));
	free(p);
	capture_session_release(&s);
	free(out);
	buf_release(&err);
}

static int run_stdout_away(void *data)
{
	return run_quietly(data);
}

/* A word of the command that is not UTF-8 is left out of tko-run.json, which stays JSON. */
static void test_not_utf8_argv(void **state)
{
	const char *cmd[] = { "/bin/sh", "-c", "exit 0", "a\377b", "c", NULL };
	struct capture_opts o = CAPTURE_OPTS_INIT;
	struct capture_session s;
	struct run_args a = { &s, &o, cmd };
	struct buf err = BUF_INIT;
	char *out = xstrfmt("%s/run5", tmpdir), *p = xstrfmt("%s/tko-run.json", out);
	json_t *j;

	(void)state;
	o.out = out;
	o.profile.off = 1;
	capture_session_init(&s);
	assert_int_equal(run_quietly(&a), 0);
	j = json_load_path(p, &err);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "argv")), 4);
	assert_string_equal(json_string_value(json_array_get(json_object_get(j, "argv"), 3)), "c");
	json_decref(j);
	capture_session_release(&s);
	free(out);
	free(p);
	buf_release(&err);
}

/*
 * A command that cannot be started: 127, recorded; the error line is the
 * capture's own ("tko capture: ...") whichever command called the library.
 */
static void test_not_found(void **state)
{
	const char *cmd[] = { "/no/such/model", NULL };
	struct capture_opts o = CAPTURE_OPTS_INIT;
	struct capture_session s;
	struct run_args a = { &s, &o, cmd };
	char *out = xstrfmt("%s/run2", tmpdir), *errf = xstrfmt("%s/stderr", tmpdir), *text;
	const char *was = msg_settings.command;

	(void)state;
	o.out = out;
	msg_settings.command = "investigate";
	capture_session_init(&s);
	assert_int_equal(with_fd_to(2, errf, run_stdout_away, &a), 127);
	msg_settings.command = was;
	assert_true(s.ran);
	assert_false(s.m.command_found);
	text = test_read_file(errf, NULL);
	assert_true(!strncmp(text, "tko capture: ", 13));
	assert_null(strstr(text, "tko investigate"));
	free(text);
	capture_session_release(&s);
	free(out);
	free(errf);
}

/*
 * A command that runs past the first one-second tick: a progress line
 * under the capture's name, with the command's base name, even when
 * `tko investigate` is the running command.
 */
static void test_progress_line(void **state)
{
	const char *cmd[] = { "/bin/sh", "-c", "sleep 1.3", NULL };
	struct capture_opts o = CAPTURE_OPTS_INIT;
	struct capture_session s;
	struct run_args a = { &s, &o, cmd };
	char *out = xstrfmt("%s/run4", tmpdir), *errf = xstrfmt("%s/stderr", tmpdir), *text;
	const char *was = msg_settings.command;

	(void)state;
	o.out = out;
	msg_settings.command = "investigate";
	msg_settings.progress = 1;
	capture_session_init(&s);
	assert_int_equal(with_fd_to(2, errf, run_stdout_away, &a), 0);
	msg_settings.command = was;
	msg_settings.progress = 0;
	text = test_read_file(errf, NULL);
	assert_non_null(strstr(text, "tko capture: running sh: 1 s, 0 kernels captured\n"));
	assert_null(strstr(text, "tko investigate"));
	free(text);
	capture_session_release(&s);
	free(out);
	free(errf);
}

/* A RUN that is there and not empty is refused before anything runs. */
static void test_not_empty(void **state)
{
	const char *cmd[] = { "/bin/true", NULL };
	struct capture_opts o = CAPTURE_OPTS_INIT;
	struct capture_session s;
	struct run_args a = { &s, &o, cmd };
	char *out = xstrfmt("%s/run3", tmpdir), *keep = xstrfmt("%s/run3/keep", tmpdir);
	char *errf = xstrfmt("%s/stderr", tmpdir);
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(mkdir_p(out, &err), 0);
	put(keep, "x");
	o.out = out;
	capture_session_init(&s);
	assert_int_equal(with_fd_to(2, errf, run_stdout_away, &a), 1);
	assert_false(s.ran);
	assert_null(s.run);
	capture_session_release(&s);
	free(out);
	free(keep);
	free(errf);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_default),
		cmocka_unit_test(test_env_kept),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_not_utf8_argv),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_not_empty),
		cmocka_unit_test(test_progress_line),
	};

	char cwd[4096], *pkg;

	/* no Python: env.json is written from what C finds, quickly */
	setenv("TKO_PYTHON", "/no/such/python", 1);
	/* make unit runs in the repository: its python/ is the package */
	pkg = xstrfmt("%s/python", getcwd(cwd, sizeof(cwd)) ? cwd : ".");
	setenv("TKO_PYTHONPATH", pkg, 1);
	free(pkg);
	setenv("TKO_PROGRESS", "0", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
