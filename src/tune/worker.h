/*
 * The tuning worker: a long-lived Python child (python/tko/tune_worker.py)
 * that tko tune drives with one JSON request per line on its stdin and
 * reads one JSON reply per line from its stdout (docs/json.md, "tko tune
 * worker protocol"). Its stderr (Triton's warnings, tracebacks) is kept,
 * the last part of it, for error messages.
 *
 * Like util/spawn.h the child is started from an argv array, never a
 * shell, in its own process group. Unlike child_run() it stays up between
 * requests, because importing Triton (and torch, on a GPU) costs seconds.
 * Each call has its own time limit: a request that runs past it gets the
 * whole group killed, and the caller may start a fresh worker.
 *
 *	struct worker w = WORKER_INIT;
 *	if (worker_start(&w, argv, env_add, &err) < 0) ...
 *	r = worker_call(&w, req, 120.0, &reply, &err);
 *	(r == 0: reply is the answer; r == WORKER_TIMEOUT; r < 0: it died)
 *	worker_stop(&w);
 *
 * The pipes are a socket pair, so writing to a worker that died returns
 * EPIPE instead of raising SIGPIPE in tko. A reply line longer than
 * WORKER_REPLY_MAX is an error (the worker is killed), and the worker is
 * registered with util/cleanup.h while it runs.
 */
#ifndef TKO_TUNE_WORKER_H
#define TKO_TUNE_WORKER_H

#include <jansson.h>
#include <sys/types.h>

#include "util/buf.h"

#define WORKER_TIMEOUT 1
/* The longest reply line read: a describe reply with a kernel's text is well under 1 MiB. */
#define WORKER_REPLY_MAX (64 << 20)

struct worker {
	pid_t pid;		/* the child, or 0 when not running */
	int fd;			/* our end of its stdin/stdout socket */
	int err_fd;		/* its stderr, or -1 */
	struct buf in;		/* stdout bytes not yet consumed */
	size_t scanned;		/* bytes of `in` known to hold no newline */
	struct buf err;		/* the tail of its stderr */
	int exit_status;	/* after it ended: exit code or 128+signal */
};
#define WORKER_INIT { 0, -1, -1, BUF_INIT, 0, BUF_INIT, 0 }

/*
 * Starts argv (argv[0] looked up in PATH) with `env_add` ("NAME=value",
 * NULL-terminated, may be NULL) added to tko's environment. 0, or -1 with
 * a line in err (cannot start, or argv[0] is not found).
 */
int worker_start(struct worker *w, const char *const *argv,
		 const char *const *env_add, struct buf *err);

/*
 * Sends `req` (which must carry an "id") and waits up to timeout_s seconds
 * (0: no limit) for the reply with the same id. Returns 0 with *reply set
 * (a new reference), WORKER_TIMEOUT after killing the worker, or -1 with a
 * line in err when the worker died or answered something that is not JSON.
 */
int worker_call(struct worker *w, const json_t *req, double timeout_s,
		json_t **reply, struct buf *err);

/* Asks the worker to quit, waits a moment, kills it if needed, frees. */
void worker_stop(struct worker *w);

/* 1 while the worker process is up. */
int worker_running(const struct worker *w);

/*
 * Where the worker is: the interpreter ($TKO_PYTHON, else "python3") and
 * the script ($TKO_PYTHON_DIR/tko/tune_worker.py, else python/tko/ beside
 * the directory holding the tko binary). 0, or -1 with a line in err when
 * the script is not there.
 */
int worker_locate(struct buf *python, struct buf *script, struct buf *err);

#endif
