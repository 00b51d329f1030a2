/*
 * Unit tests for util/cleanup: a signal stops the children tko started and
 * removes its temporary files, then ends the process with that signal.
 * Each case runs in a forked process that the test signals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/cleanup.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/spawn.h"

static char *tmpdir_new(void)
{
	char *t = xstrdup("/tmp/tko-unit-XXXXXX");

	assert_non_null(mkdtemp(t));
	return t;
}

/* Reads the pid a process wrote to `path`, waiting for it to appear. */
static pid_t read_pid(const char *path)
{
	int i;
	long pid = 0;

	for (i = 0; i < 500 && !pid; i++) {
		FILE *fp = fopen(path, "r");

		if (fp) {
			if (fscanf(fp, "%ld", &pid) != 1)
				pid = 0;
			fclose(fp);
		}
		if (!pid)
			usleep(10000);
	}
	return (pid_t)pid;
}

/*
 * The process under test: an output half-written, a temporary folder, and
 * a child in its own process group (as tko run's replay has) that writes
 * its pid and sleeps. It tells the parent it is ready, then waits.
 */
static void victim(const char *dir, int ready)
{
	char *out = path_join(dir, "report.md"), *tmp = path_join(dir, "work");
	char *pidf = path_join(dir, "child.pid");
	char *script = xstrfmt("echo $$ >'%s'; exec sleep 60", pidf);
	const char *argv[] = { "sh", "-c", script, NULL };
	struct atomic_file af;
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	cleanup_install();
	if (atomic_open(&af, out, &err) < 0 || mkdir(tmp, 0777) < 0)
		_exit(3);
	cleanup_add_path(tmp, 1);
	fputs("half", af.fp);
	fflush(af.fp);
	if (write(ready, "r", 1) != 1)
		_exit(3);
	c.argv = argv;
	c.timeout_s = 120;	/* its own process group: a signal to ours does not reach it */
	child_run(&c, &err);
	_exit(4);
}

static void run_case(int sig)
{
	char *dir = tmpdir_new(), *pidf = path_join(dir, "child.pid");
	int p[2], st;
	char byte;
	pid_t pid, child;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		victim(dir, p[1]);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &byte, 1), 1);
	close(p[0]);
	child = read_pid(pidf);
	assert_true(child > 0);
	assert_int_equal(kill(pid, sig), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	/* Ended by the signal itself (a shell's 128+N), */
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), sig);
	/* the child of its own group stopped, */
	assert_int_equal(kill(child, 0), -1);
	/* and nothing left but the child's pid file: no .tko-* temporary, no work folder. */
	unlink(pidf);
	assert_int_equal(rmdir(dir), 0);
	free(pidf);
	free(dir);
}

static void test_sigint_cleans_up(void **state)
{
	(void)state;
	run_case(SIGINT);
}

static void test_sigterm_cleans_up(void **state)
{
	(void)state;
	run_case(SIGTERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigint_cleans_up),
		cmocka_unit_test(test_sigterm_cleans_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
