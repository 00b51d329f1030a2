/*
 * A long-lived Python child driven in JSON lines: tko tune's worker
 * (python/tko/tune_worker.py) gets one JSON request per line on its stdin
 * and answers one JSON reply per line on its stdout (docs/json.md, "tko
 * tune worker protocol"). Its stderr (Triton's warnings, tracebacks) is
 * kept, the last part of it, for error messages.
 *
 * The process is a util/spawn.h child (from an argv array, never a shell,
 * in its own process group, registered with util/cleanup.h while it runs)
 * whose stdin and stdout are one socket pair, so writing to a worker that
 * died returns EPIPE instead of raising SIGPIPE in tko. Unlike
 * child_run() it stays up between requests, because importing Triton (and
 * torch, on a GPU) costs seconds. Each call has its own time limit: a
 * request that runs past it gets the whole group killed, and the caller
 * may start a fresh worker. A reply line longer than PY_WORKER_REPLY_MAX
 * is an error (the worker is killed).
 *
 *	struct py_worker w = PY_WORKER_INIT("tune worker");
 *	if (py_worker_start(&w, "tune_worker.py", env_add, &err) < 0) ...
 *	r = py_worker_call(&w, req, 120.0, &reply, &err);
 *	(r == 0: reply is the answer; r == PY_WORKER_TIMEOUT; r < 0: it died)
 *	py_worker_stop(&w);
 */
#ifndef TKO_PY_WORKER_H
#define TKO_PY_WORKER_H

#include <jansson.h>

#include "util/buf.h"
#include "util/spawn.h"

#define PY_WORKER_TIMEOUT 1
/* The longest reply line read: a compile reply with its metadata is well under 1 MiB. */
#define PY_WORKER_REPLY_MAX (64 << 20)

struct py_worker {
	const char *name;	/* what messages call it: "tune worker" */
	struct child c;		/* the process; c.out_fd is our end of its stdin/stdout */
	struct buf in;		/* stdout bytes not yet consumed */
	size_t scanned;		/* bytes of `in` known to hold no newline */
	struct buf err;		/* the tail of its stderr */
};
#define PY_WORKER_INIT(name) { name, CHILD_INIT, BUF_INIT, 0, BUF_INIT }

/*
 * Starts $TKO_PYTHON (else python3) on python/tko/<script_rel>, found as
 * py/pyenv.h says, with `env_add` ("NAME=value", NULL-terminated, may be
 * NULL) added to tko's environment. 0, or -1 with a line in err (the
 * script is not there, the interpreter cannot start or is not found).
 */
int py_worker_start(struct py_worker *w, const char *script_rel, const char *const *env_add,
		    struct buf *err);
/* The same for a given argv (argv[0] looked up in PATH). */
int py_worker_spawn(struct py_worker *w, const char *const *argv, const char *const *env_add,
		    struct buf *err);

/*
 * Sends `req` (which must carry a string "id") and waits up to timeout_s
 * seconds (0: no limit) for the reply with the same id; replies to other
 * ids are dropped. Returns 0 with *reply set (a new reference),
 * PY_WORKER_TIMEOUT after killing the worker, or -1 with a line in err
 * when the worker died or answered something that is not JSON.
 */
int py_worker_call(struct py_worker *w, const json_t *req, double timeout_s, json_t **reply,
		   struct buf *err);

/* Asks the worker to quit, waits a moment, kills it if needed, frees. */
void py_worker_stop(struct py_worker *w);

/* 1 while the worker process is up. */
int py_worker_running(const struct py_worker *w);

#endif
