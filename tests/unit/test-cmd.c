/*
 * Unit tests for the dispatcher's one helper (cmd/cmd.h): a command opens
 * its RUN with the need of its row in the command table, and gets that
 * need's message. The messages are rundir/layout.c's, spelled out here by
 * hand from today's outputs (tests/golden/collect, summarize).
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

#include "cmd/cmd.h"
#include "util/file.h"
#include "util/mem.h"

static int fake(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void test_open_run_uses_the_row(void **state)
{
	const struct command collect = { "collect", fake, CMD_RUN, &rd_need_any_dir, "" };
	const struct command summarize = { "summarize", fake, CMD_RUN_OR_FILES,
					   &rd_need_summarize, "" };
	const struct command report = { "report", fake, CMD_RUN_OR_FILES, NULL, "" };
	char root[] = "/tmp/tko-cmd-XXXXXX";
	struct rundir rd = RUNDIR_INIT;
	struct buf err = BUF_INIT;
	char *want, *logdir;

	(void)state;
	assert_non_null(mkdtemp(root));
	/* outside the dispatcher: any directory */
	cmd_current = NULL;
	assert_ptr_equal(cmd_need(), &rd_need_any_dir);
	assert_int_equal(cmd_open_run(root, &rd, &err), 0);
	assert_string_equal(rd.root, root);
	rd_release(&rd);

	cmd_current = &collect;
	assert_int_equal(cmd_open_run("/nonexistent/run", &rd, &err), -1);
	assert_string_equal(err.buf, "'/nonexistent/run' is not a RUN directory");
	assert_null(rd.root);
	buf_reset(&err);

	/* an empty folder is no RUN for summarize, until it has a log/ */
	cmd_current = &summarize;
	assert_int_equal(cmd_open_run(root, &rd, &err), -1);
	want = xstrfmt("'%s' is a directory but not a RUN directory "
		       "(no log/, capture/, cache/inductor/ or tko-run.json)", root);
	assert_string_equal(err.buf, want);
	buf_reset(&err);
	logdir = path_join(root, "log");
	assert_int_equal(mkdir_p(logdir, &err), 0);
	assert_int_equal(cmd_open_run(root, &rd, &err), 0);
	rd_release(&rd);

	/* a row without a need takes any directory */
	cmd_current = &report;
	assert_ptr_equal(cmd_need(), &rd_need_any_dir);
	cmd_current = NULL;
	rmdir(logdir);
	rmdir(root);
	free(logdir);
	free(want);
	buf_release(&err);
}

/* A RUN-or-folders argument (tko cluster): a RUN is a folder with capture/kernels/ in it. */
static void test_is_run_uses_the_row(void **state)
{
	const struct command cluster = { "cluster", fake, CMD_RUN_OR_FILES, &rd_need_cluster, "" };
	char root[] = "/tmp/tko-cmd-XXXXXX";
	struct buf err = BUF_INIT;
	char *capture, *kernels, *file;

	(void)state;
	assert_non_null(mkdtemp(root));
	capture = path_join(root, "capture");
	kernels = path_join(root, "capture/kernels");
	file = path_join(root, "tko-run.json");
	cmd_current = &cluster;
	assert_int_equal(cmd_is_run("/nonexistent/run"), 0);
	assert_int_equal(cmd_is_run(root), 0);
	assert_int_equal(mkdir_p(capture, &err), 0);
	assert_int_equal(write_file_atomic(file, "{}", 2, &err), 0);
	assert_int_equal(cmd_is_run(root), 0);	/* capture/ alone is no RUN to tune */
	assert_int_equal(cmd_is_run(file), 0);
	assert_int_equal(mkdir_p(kernels, &err), 0);
	assert_int_equal(cmd_is_run(root), 1);
	/* outside the dispatcher any directory is one */
	cmd_current = NULL;
	assert_int_equal(cmd_is_run(capture), 1);
	assert_int_equal(cmd_is_run(file), 0);
	unlink(file);
	rmdir(kernels);
	rmdir(capture);
	rmdir(root);
	free(capture);
	free(kernels);
	free(file);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_run_uses_the_row),
		cmocka_unit_test(test_is_run_uses_the_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
