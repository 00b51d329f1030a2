/*
 * Child processes, always from an argv array and never through a shell
 * (DESIGN.md; git's run-command.h is the model).
 *
 * Usage:
 *
 *	struct child c = CHILD_INIT;
 *	const char *argv[] = { "cuobjdump", "-sass", path, NULL };
 *	c.argv = argv;
 *	c.capture_out = 1;
 *	if (child_run(&c, &err) < 0)	(could not start, or I/O failure)
 *		...
 *	if (c.timed_out || c.exit_status != 0)
 *		...			(c.out / c.err hold what it printed)
 *	child_release(&c);
 *
 * child_run() is child_start() then child_finish(). A long-lived child
 * talked to in lines (py/worker.h) is started with `stdio_socket` set and
 * then read and written by its owner through out_fd and err_fd; it ends
 * with child_kill(), and child_release() closes what is left.
 *
 * A child with `timeout_s` > 0 (or `own_group`) runs in its own process
 * group, which is killed as one: at the time limit with SIGTERM, then
 * SIGKILL after two seconds. What a captured stream keeps is capped
 * (`max_out`, default CHILD_OUT_MAX): a child that prints past it is
 * killed and `overflowed` is set, what it printed up to the cap is kept.
 * While it runs the child is registered with util/cleanup.h, so a signal
 * that stops tko stops it.
 *
 * With `on_output` set, what the child writes to a captured stream is
 * handed to it as it arrives (to show it live and log it, as tee does)
 * instead of being collected in `out` / `err`. With `on_tick` set, it is
 * called about every `tick_s` seconds while the child runs (for a progress
 * line), with `on_output_data`.
 */
#ifndef TKO_SPAWN_H
#define TKO_SPAWN_H

#include <sys/types.h>

#include "util/buf.h"

/* What a captured stream keeps at most: a SASS listing of a large cubin is tens of MB. */
#define CHILD_OUT_MAX ((size_t)256 << 20)

struct child {
	const char *const *argv;	/* program and arguments; argv[0] is looked up in PATH */
	const char *const *env_add;	/* "NAME=value" entries added to the environment, or NULL */
	const char *const *env_del;	/* names removed from the environment, or NULL */
	const char *dir;		/* working directory, or NULL */
	int capture_out;		/* collect stdout into `out` (else inherited) */
	int capture_err;		/* collect stderr into `err` (else inherited) */
	int null_in;			/* stdin from /dev/null (else inherited) */
	double timeout_s;		/* 0: no limit */
	size_t max_out;			/* cap of each captured stream; 0: CHILD_OUT_MAX */
	struct buf out;			/* captured stdout */
	struct buf err;			/* captured stderr */
	int exit_status;		/* exit code, or 128+signal */
	int timed_out;			/* 1 when killed for the time limit */
	int not_found;			/* 1 when argv[0] could not be executed */
	int overflowed;			/* 1 when killed for printing past max_out */
	/* called with each chunk read from stream 1 or 2, or NULL */
	void (*on_output)(void *data, int stream, const char *p, size_t n);
	void *on_output_data;		/* passed to on_output and on_tick */
	void (*on_tick)(void *data);	/* called every tick_s seconds, or NULL */
	double tick_s;
	int own_group;			/* its own process group even without a time limit */
	int stdio_socket;		/* stdin and stdout are one end of a socket pair, out_fd the
					   other (writes to a dead child fail with EPIPE, no SIGPIPE) */
	char **argv_owned;		/* argv and env_add when a helper built them (freed by */
	char **env_owned;		/* child_release), else NULL */
	/* while it runs: set by child_start */
	pid_t pid;			/* the process, 0 when not running */
	int out_fd;			/* our end of its stdout (capture_out, stdio_socket), or -1 */
	int err_fd;			/* its stderr (capture_err), or -1 */
};
#define CHILD_INIT { NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, BUF_INIT, BUF_INIT, 0, 0, 0, 0, \
		     NULL, NULL, NULL, 0, 0, 0, NULL, NULL, 0, -1, -1 }

/*
 * Runs the child to completion. Returns 0 when it ran (see exit_status,
 * timed_out, not_found), -1 with a line in `err` when it could not start.
 */
int child_run(struct child *c, struct buf *err);

/*
 * Starts the child: its pipes, fork and exec, its process group. 0, or -1
 * with a line in err: it could not start ("cannot create a pipe", "cannot
 * start"), or argv[0] could not be executed (not_found set, exit_status
 * 127, "cannot run 'X': why").
 */
int child_start(struct child *c, struct buf *err);
/*
 * Reads its captured streams until it exits or its time is up, then
 * reaps it. 0, or -1 with a line in err when it could not be waited for.
 */
int child_finish(struct child *c, struct buf *err);
/*
 * Stops a started child now: SIGKILL to its group (to it, without one)
 * unless it has already exited, then reaps it (exit_status). Its pipes
 * stay open, so what it wrote before can still be read.
 */
void child_kill(struct child *c);
/* Closes what is still open and frees the captured output and owned argv/env. */
void child_release(struct child *c);

/*
 * The environment a child gets: ours, without the names in `del` and
 * those `add` replaces, then `add` ("NAME=value"). The array is new, its
 * strings borrowed (from environ and add): free() the array alone.
 */
char **child_env_build(const char *const *add, const char *const *del);

/* Finds `prog` in PATH; returns a newly allocated path or NULL. */
char *find_in_path(const char *prog);

#endif
