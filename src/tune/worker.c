/*
 * The tuning worker's process and its JSON-lines channel (see worker.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tune/worker.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

extern char **environ;

/* How much of the worker's stderr is kept for messages. */
#define ERR_KEEP 65536

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int worker_running(const struct worker *w)
{
	return w->pid > 0;
}

static int replaced(const char *entry, const char *const *env_add)
{
	const char *const *a;

	for (a = env_add; a && *a; a++) {
		size_t n = strcspn(*a, "=");

		if (!strncmp(entry, *a, n) && entry[n] == '=')
			return 1;
	}
	return 0;
}

static char **make_env(const char *const *env_add)
{
	size_t n = 0, i = 0;
	char **e, **env;
	const char *const *a;

	for (e = environ; *e; e++)
		n++;
	for (a = env_add; a && *a; a++)
		n++;
	env = xcalloc(n + 1, sizeof(*env));
	for (e = environ; *e; e++)
		if (!replaced(*e, env_add))
			env[i++] = *e;
	for (a = env_add; a && *a; a++)
		env[i++] = (char *)*a;
	return env;
}

static void exec_worker(const char *const *argv, char **env, int sock, int errw,
			int status)
{
	int e;

	dup2(sock, 0);
	dup2(sock, 1);
	dup2(errw, 2);
	environ = env;
	execvp(argv[0], (char *const *)argv);
	e = errno;
	if (write(status, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void reap(struct worker *w)
{
	int st = 0, r;

	if (w->pid <= 0)
		return;
	while ((r = waitpid(w->pid, &st, 0)) < 0 && errno == EINTR)
		;
	cleanup_drop_child(w->pid);
	w->exit_status = r < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	w->pid = 0;
}

static void close_fds(struct worker *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->fd = w->err_fd = -1;
}

int worker_start(struct worker *w, const char *const *argv,
		 const char *const *env_add, struct buf *err)
{
	int sv[2], ep[2], st[2], e = 0;
	char **env;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    pipe2(ep, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0) {
		buf_addf(err, "cannot create the worker's pipes: %s", strerror(errno));
		return -1;
	}
	buf_reset(&w->in);
	buf_reset(&w->err);
	w->scanned = 0;
	env = make_env(env_add);
	fflush(NULL);
	w->pid = cleanup_fork(1);
	if (w->pid < 0) {
		buf_addf(err, "cannot start '%s': %s", argv[0], strerror(errno));
		free(env);
		w->pid = 0;
		return -1;
	}
	if (w->pid == 0)
		exec_worker(argv, env, sv[1], ep[1], st[1]);
	free(env);
	close(sv[1]);
	close(ep[1]);
	close(st[1]);
	w->fd = sv[0];
	w->err_fd = ep[0];
	n = read(st[0], &e, sizeof(e));
	close(st[0]);
	if (n == (ssize_t)sizeof(e)) {
		reap(w);
		close_fds(w);
		buf_addf(err, "cannot run '%s': %s", argv[0], strerror(e));
		return -1;
	}
	return 0;
}

static void keep_err(struct worker *w, const char *p, size_t n)
{
	buf_add(&w->err, p, n);
	if (w->err.len > ERR_KEEP) {
		size_t cut = w->err.len - ERR_KEEP / 2;

		memmove(w->err.buf, w->err.buf + cut, w->err.len - cut);
		buf_setlen(&w->err, w->err.len - cut);
	}
}

/* The last non-empty line of the worker's stderr, for messages. */
static void last_err_line(const struct worker *w, struct buf *out)
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

static void kill_worker(struct worker *w)
{
	if (w->pid > 0)
		kill(-w->pid, SIGKILL);
	reap(w);
	close_fds(w);
}

static int send_all(struct worker *w, const char *p, size_t n, struct buf *err)
{
	while (n) {
		ssize_t k = send(w->fd, p, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			buf_addf(err, "cannot write to the tune worker: %s", strerror(errno));
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Reads what is there; 0 at end of stdout, 1 otherwise, -1 on error. */
static int pump(struct worker *w, int timeout_ms)
{
	struct pollfd fds[2] = { { w->fd, POLLIN, 0 }, { w->err_fd, POLLIN, 0 } };
	int nfds = w->err_fd >= 0 ? 2 : 1, i;
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
			close(w->err_fd);
			w->err_fd = -1;
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
static int take_line(struct worker *w, struct buf *line)
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
static void drain_err(struct worker *w)
{
	char tmp[4096];
	ssize_t n;

	while (w->err_fd >= 0 && (n = read(w->err_fd, tmp, sizeof(tmp))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		keep_err(w, tmp, (size_t)n);
	}
}

static int died(struct worker *w, struct buf *err)
{
	if (w->pid > 0)
		kill(-w->pid, SIGKILL);
	reap(w);
	drain_err(w);
	close_fds(w);
	buf_addf(err, "the tune worker exited (status %d)", w->exit_status);
	last_err_line(w, err);
	return -1;
}

/* Waits for the reply whose id is `id`; replies to other ids are dropped. */
static int wait_reply(struct worker *w, const char *id, double deadline,
		      json_t **reply, struct buf *err)
{
	struct buf line = BUF_INIT;
	int ret = -1;

	for (;;) {
		int ms = -1, r;

		while (take_line(w, &line)) {
			json_t *j = json_load_span("tune worker reply", line.buf, line.len, err);

			if (!j)
				goto out;
			if (json_str(j, "id") && !strcmp(json_str(j, "id"), id)) {
				*reply = j;
				ret = 0;
				goto out;
			}
			json_decref(j);
		}
		if (w->in.len > WORKER_REPLY_MAX) {
			kill_worker(w);
			buf_addf(err, "the tune worker's reply is longer than %d MiB (no end of line); "
				 "it was stopped", WORKER_REPLY_MAX >> 20);
			goto out;
		}
		if (deadline > 0) {
			double left = deadline - now_s();

			if (left <= 0) {
				kill_worker(w);
				ret = WORKER_TIMEOUT;
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
	return ret;
}

int worker_call(struct worker *w, const json_t *req, double timeout_s,
		json_t **reply, struct buf *err)
{
	const char *id = json_string_value(json_object_get(req, "id"));
	char *text;
	int ret;

	*reply = NULL;
	if (!worker_running(w)) {
		buf_adds(err, "the tune worker is not running");
		return -1;
	}
	if (!id) {
		buf_adds(err, "a tune worker request needs a string id");
		return -1;
	}
	text = json_dumps(req, JSON_COMPACT);
	ret = send_all(w, text, strlen(text), err);
	if (!ret)
		ret = send_all(w, "\n", 1, err);
	free(text);
	if (ret < 0)
		return died(w, err);
	return wait_reply(w, id, timeout_s > 0 ? now_s() + timeout_s : 0, reply, err);
}

void worker_stop(struct worker *w)
{
	static const char quit[] = "{\"op\":\"quit\",\"id\":\"quit\"}\n";
	double deadline = now_s() + 5.0;

	if (worker_running(w)) {
		struct buf ignore = BUF_INIT;

		send_all(w, quit, sizeof(quit) - 1, &ignore);
		buf_release(&ignore);
		shutdown(w->fd, SHUT_WR);
		while (now_s() < deadline && pump(w, 100) > 0)
			;
		if (waitpid(w->pid, NULL, WNOHANG) == 0)
			kill(-w->pid, SIGKILL);
		reap(w);
	}
	close_fds(w);
	buf_release(&w->in);
	buf_release(&w->err);
}

static char *exe_dir(void)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(path);
}

int worker_locate(struct buf *python, struct buf *script, struct buf *err)
{
	const char *py = getenv("TKO_PYTHON"), *dir = getenv("TKO_PYTHON_DIR");
	char *exe = NULL;

	buf_adds(python, py && *py ? py : "python3");
	if (dir && *dir) {
		buf_addf(script, "%s/tko/tune_worker.py", dir);
	} else {
		exe = exe_dir();
		buf_addf(script, "%s/../python/tko/tune_worker.py", exe ? exe : ".");
		free(exe);
	}
	if (!is_file(script->buf)) {
		buf_addf(err, "cannot find the tune worker '%s' (set TKO_PYTHON_DIR)",
			 script->buf);
		return -1;
	}
	return 0;
}
