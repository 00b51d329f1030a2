/*
 * The commands of tko. Each lives in src/cmd/<name>.c and only parses its
 * options and wires modules together; logic that grows there moves into a
 * module under src/isa, src/parse, src/analyse or src/report, with a unit
 * test.
 *
 * To add a command "foo":
 *  1. write `int cmd_foo(int argc, const char **argv)` in src/cmd/foo.c;
 *     argv[0] is "foo". Parse options with opts_parse() (util/opts.h), so
 *     "--help" works; return an exit code from exitcode.h; print
 *     errors with msg_error() (util/msg.h), one line each.
 *  2. declare it below;
 *  3. add a row to the `commands` table in src/tko.c (name, function, what
 *     its arguments are: enum cmd_flags, the struct rd_need that makes a
 *     directory a RUN for it, one line of help), in pipeline order; a
 *     command that reads a RUN opens it with cmd_open_run(), which uses
 *     the row's need, so what a RUN is for a command is said once;
 *  4. add src/cmd/foo.c to CMD_SRC in the Makefile;
 *  5. add tests/cli/tNNNN-foo.sh and document the command in README.md and
 *     its JSON in docs/json.md.
 */
#ifndef TKO_CMD_H
#define TKO_CMD_H

#include "rundir/layout.h"
#include "util/buf.h"

/* What a command's positional arguments are. */
enum cmd_flags {
	CMD_RUN = 1,		/* the first is a RUN (collect, apply) */
	CMD_RUN_OR_CMD = 2,	/* a RUN, or "-- CMD" that makes one (investigate) */
	CMD_RUN_OR_FILES = 4,	/* RUN directories or files (summarize, report, diff; cluster:
				   a RUN or kernel directories) */
	CMD_MAKES_RUN = 8,	/* it creates a RUN (capture) */
	CMD_KERNEL_DIRS = 16,	/* RUN/capture/kernels/<dir> folders (run, tune) */
};

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	unsigned flags;			/* enum cmd_flags */
	const struct rd_need *need;	/* what makes a directory a RUN for it, or NULL: any */
	const char *help;		/* one line for "tko --help" */
};

/* The command running (set by the dispatcher next to msg_setup()), or NULL. */
extern const struct command *cmd_current;

/* What makes a directory a RUN for the running command: its row's need, else any directory. */
const struct rd_need *cmd_need(void);
/*
 * Opens `path` as the RUN the running command needs (cmd_need()). 0, or
 * -1 with the need's one-line message in err.
 */
int cmd_open_run(const char *path, struct rundir *rd, struct buf *err);
/* 1 when `path` is a RUN the running command needs (for a RUN-or-folders argument). */
int cmd_is_run(const char *path);

int cmd_env(int argc, const char **argv);
int cmd_capture(int argc, const char **argv);
int cmd_summarize(int argc, const char **argv);
int cmd_meta(int argc, const char **argv);
int cmd_isa(int argc, const char **argv);
int cmd_collect(int argc, const char **argv);
int cmd_run(int argc, const char **argv);
int cmd_tune(int argc, const char **argv);
int cmd_cluster(int argc, const char **argv);
int cmd_apply(int argc, const char **argv);
int cmd_profile(int argc, const char **argv);
int cmd_investigate(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);

#endif
