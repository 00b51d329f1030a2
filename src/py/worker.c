/*
 * A Python worker's process and its JSON-lines channel (see worker.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "json/jsonio.h"
#include "json/jsonw.h"
#include "py/pyenv.h"
#include "py/worker.h"
#include "util/mem.h"
#include "banned.h"

/* How much of the worker's stderr is kept for messages. */
#define ERR_KEEP 65536

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int py_worker_running(const struct py_worker *w)
{
	return w->c.pid > 0;
}

int py_worker_spawn(struct py_worker *w, const char *const *argv, const char *const *env_add,
		    struct buf *err)
{
	child_release(&w->c);
	w->c = (struct child)CHILD_INIT;
	w->c.argv = argv;
	w->c.env_add = env_add;
	w->c.stdio_socket = 1;
	w->c.capture_err = 1;
	w->c.own_group = 1;
	buf_reset(&w->in);
	buf_reset(&w->err);
	w->scanned = 0;
	/* argv and env_add are the caller's: only needed until exec */
	if (child_start(&w->c, err) < 0)
		return -1;
	w->c.argv = NULL;
	w->c.env_add = NULL;
	return 0;
}

int py_worker_start(struct py_worker *w, const char *script_rel, const char *const *env_add,
		    struct buf *err)
{
	char *script = pyenv_script(script_rel, w->name, err);
	const char *argv[3];
	int ret;

	if (!script)
		return -1;
	argv[0] = pyenv_python();
	argv[1] = script;
	argv[2] = NULL;
	ret = py_worker_spawn(w, argv, env_add, err);
	free(script);
	return ret;
}

static void keep_err(struct py_worker *w, const char *p, size_t n)
{
	buf_add(&w->err, p, n);
	if (w->err.len > ERR_KEEP) {
		size_t cut = w->err.len - ERR_KEEP / 2;

		memmove(w->err.buf, w->err.buf + cut, w->err.len - cut);
		buf_setlen(&w->err, w->err.len - cut);
	}
}

/* The last non-empty line of the worker's stderr, for messages. */
static void last_err_line(const struct py_worker *w, struct buf *out)
{
	size_t end = w->err.len, start;

	while (end && (w->err.buf[end - 1] == '\n' || w->err.buf[end - 1] == ' '))
		end--;
	start = end;
	while (start && w->err.buf[start - 1] != '\n')
		start--;
	if (end > start)
		buf_addf(out, ": %.*s", (int)(end - start), w->err.buf + start);
}

static void close_fds(struct py_worker *w)
{
	if (w->c.out_fd >= 0)
		close(w->c.out_fd);
	if (w->c.err_fd >= 0)
		close(w->c.err_fd);
	w->c.out_fd = w->c.err_fd = -1;
}

static void kill_worker(struct py_worker *w)
{
	child_kill(&w->c);
	close_fds(w);
}

static int send_all(struct py_worker *w, const char *p, size_t n, struct buf *err)
{
	while (n) {
		ssize_t k = send(w->c.out_fd, p, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			buf_addf(err, "cannot write to the %s: %s", w->name, strerror(errno));
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Reads what is there; 0 at end of stdout, 1 otherwise, -1 on error. */
static int pump(struct py_worker *w, int timeout_ms)
{
	struct pollfd fds[2] = { { w->c.out_fd, POLLIN, 0 }, { w->c.err_fd, POLLIN, 0 } };
	int nfds = w->c.err_fd >= 0 ? 2 : 1, i;
	char tmp[65536];

	if (poll(fds, (nfds_t)nfds, timeout_ms) < 0)
		return errno == EINTR ? 1 : -1;
	for (i = nfds - 1; i >= 0; i--) {
		ssize_t n;

		if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(fds[i].fd, tmp, sizeof(tmp));
		if (n > 0 && i == 0)
			buf_add(&w->in, tmp, (size_t)n);
		else if (n > 0)
			keep_err(w, tmp, (size_t)n);
		else if (n == 0 && i == 0)
			return 0;
		else if (n == 0 || errno != EINTR) {
			close(w->c.err_fd);
			w->c.err_fd = -1;
		}
	}
	return 1;
}

/*
 * Takes one complete line out of w->in into `line`; 0 when none yet. The
 * bytes searched before are not searched again (w->scanned), so a reply
 * that arrives in many pieces costs its length once, not its length
 * times the pieces.
 */
static int take_line(struct py_worker *w, struct buf *line)
{
	char *nl = memchr(w->in.buf + w->scanned, '\n', w->in.len - w->scanned);
	size_t n;

	if (!nl) {
		w->scanned = w->in.len;
		return 0;
	}
	n = (size_t)(nl - w->in.buf);
	buf_reset(line);
	buf_add(line, w->in.buf, n);
	memmove(w->in.buf, nl + 1, w->in.len - n - 1);
	buf_setlen(&w->in, w->in.len - n - 1);
	w->scanned = 0;
	return 1;
}

/* Reads what is left of a dead worker's stderr (its writers are gone). */
static void drain_err(struct py_worker *w)
{
	char tmp[4096];
	ssize_t n;

	while (w->c.err_fd >= 0 && (n = read(w->c.err_fd, tmp, sizeof(tmp))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		keep_err(w, tmp, (size_t)n);
	}
}

static int died(struct py_worker *w, struct buf *err)
{
	child_kill(&w->c);
	drain_err(w);
	close_fds(w);
	buf_addf(err, "the %s exited (status %d)", w->name, w->c.exit_status);
	last_err_line(w, err);
	return -1;
}

/* Waits for the reply whose id is `id`; replies to other ids are dropped. */
static int wait_reply(struct py_worker *w, const char *id, double deadline, json_t **reply,
		      struct buf *err)
{
	struct buf line = BUF_INIT, what = BUF_INIT;
	int ret = -1;

	buf_addf(&what, "%s reply", w->name);
	for (;;) {
		int ms = -1, r;

		while (take_line(w, &line)) {
			json_t *j = json_load_span(what.buf, line.buf, line.len, err);

			if (!j)
				goto out;
			if (json_str(j, "id") && !strcmp(json_str(j, "id"), id)) {
				*reply = j;
				ret = 0;
				goto out;
			}
			json_decref(j);
		}
		if (w->in.len > PY_WORKER_REPLY_MAX) {
			kill_worker(w);
			buf_addf(err, "the %s's reply is longer than %d MiB (no end of line); "
				 "it was stopped", w->name, PY_WORKER_REPLY_MAX >> 20);
			goto out;
		}
		if (deadline > 0) {
			double left = deadline - now_s();

			if (left <= 0) {
				kill_worker(w);
				ret = PY_WORKER_TIMEOUT;
				goto out;
			}
			ms = (int)(left * 1000) + 1;
		}
		r = pump(w, ms);
		if (r <= 0) {
			ret = died(w, err);
			goto out;
		}
	}
out:
	buf_release(&line);
	buf_release(&what);
	return ret;
}

int py_worker_call(struct py_worker *w, const json_t *req, double timeout_s, json_t **reply,
		   struct buf *err)
{
	const char *id = json_string_value(json_object_get(req, "id"));
	char *text;
	int ret;

	*reply = NULL;
	if (!py_worker_running(w)) {
		buf_addf(err, "the %s is not running", w->name);
		return -1;
	}
	if (!id) {
		buf_addf(err, "a %s request needs a string id", w->name);
		return -1;
	}
	text = jsonw_compact_string(req);
	ret = send_all(w, text, strlen(text), err);
	if (!ret)
		ret = send_all(w, "\n", 1, err);
	free(text);
	if (ret < 0)
		return died(w, err);
	return wait_reply(w, id, timeout_s > 0 ? now_s() + timeout_s : 0, reply, err);
}

void py_worker_stop(struct py_worker *w)
{
	static const char quit[] = "{\"op\":\"quit\",\"id\":\"quit\"}\n";
	double deadline = now_s() + 5.0;

	if (py_worker_running(w)) {
		struct buf ignore = BUF_INIT;

		send_all(w, quit, sizeof(quit) - 1, &ignore);
		buf_release(&ignore);
		shutdown(w->c.out_fd, SHUT_WR);
		while (now_s() < deadline && pump(w, 100) > 0)
			;
		child_kill(&w->c);
	}
	child_release(&w->c);
	buf_release(&w->in);
	buf_release(&w->err);
}
