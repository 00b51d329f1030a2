/* Child processes from argv arrays, with capture and time limits (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/spawn.h"
#include "banned.h"

extern char **environ;

char *find_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	const char *p;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? xstrdup(prog) : NULL;
	if (!path)
		path = "/usr/bin:/bin";
	for (p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = n ? xstrndup(p, n) : xstrdup(".");
		char *full = path_join(dir, prog);

		free(dir);
		if (is_file(full) && access(full, X_OK) == 0)
			return full;
		free(full);
		p += n;
		if (*p == ':')
			p++;
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "NAME=..." entries of `list` (or bare names) that name `entry`'s variable. */
static int names(const char *const *list, const char *entry)
{
	const char *const *d;

	for (d = list; d && *d; d++) {
		size_t n = strcspn(*d, "=");

		if (!strncmp(entry, *d, n) && entry[n] == '=')
			return 1;
	}
	return 0;
}

char **child_env_build(const char *const *add, const char *const *del)
{
	size_t n = 0, i = 0;
	char **e, **env;
	const char *const *a;

	for (e = environ; *e; e++)
		n++;
	for (a = add; a && *a; a++)
		n++;
	env = xcalloc(n + 1, sizeof(*env));
	for (e = environ; *e; e++)
		if (!names(del, *e) && !names(add, *e))
			env[i++] = *e;
	for (a = add; a && *a; a++)
		env[i++] = (char *)*a;
	env[i] = NULL;
	return env;
}

/* fd as descriptor `to` of the program about to be executed (close-on-exec cleared). */
static void move_fd(int fd, int to)
{
	if (fd == to)
		fcntl(fd, F_SETFD, 0);
	else
		dup2(fd, to);
}

static void exec_child(const struct child *c, char **env, const int out[2], const int errp[2],
		       int status_pipe)
{
	int e;

	if (c->null_in) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	if (c->stdio_socket)
		move_fd(out[1], 0);
	if (c->capture_out || c->stdio_socket)
		move_fd(out[1], 1);
	if (c->capture_err)
		move_fd(errp[1], 2);
	if (c->dir && chdir(c->dir) < 0) {
		e = errno;
		if (write(status_pipe, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	environ = env;
	execvp(c->argv[0], (char *const *)c->argv);
	e = errno;
	if (write(status_pipe, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_pair(int p[2])
{
	close_fd(&p[0]);
	close_fd(&p[1]);
}

static void close_streams(struct child *c)
{
	close_fd(&c->out_fd);
	close_fd(&c->err_fd);
}

static void free_strv(char **v)
{
	char **p;

	for (p = v; p && *p; p++)
		free(*p);
	free(v);
}

/*
 * The child's stdout (a pipe, or with stdio_socket its stdin and stdout
 * as one socket), its stderr and the status pipe that reports a failed
 * exec. Every descriptor is close-on-exec: only what exec_child moves to
 * 0, 1 and 2 reaches the program, and no other child inherits them.
 */
static int open_pipes(const struct child *c, int out[2], int errp[2], int status[2])
{
	if (c->stdio_socket && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out) < 0)
		return -1;
	if (!c->stdio_socket && c->capture_out && pipe2(out, O_CLOEXEC) < 0)
		return -1;
	if (c->capture_err && pipe2(errp, O_CLOEXEC) < 0)
		return -1;
	return pipe2(status, O_CLOEXEC);
}

/* Waits for it: 1 reaped (exit_status set, dropped from cleanup), 0 still running, -1 error. */
static int reap(struct child *c, int hang)
{
	int st = 0;
	pid_t r;

	while ((r = waitpid(c->pid, &st, hang ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return 0;
	cleanup_drop_child(c->pid);
	c->pid = 0;
	if (r < 0)
		return -1;
	c->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 1;
}

int child_start(struct child *c, struct buf *err)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, status[2] = { -1, -1 }, e = 0;
	char **env;
	ssize_t n;

	c->exit_status = 0;
	c->timed_out = c->not_found = c->overflowed = 0;
	c->pid = 0;
	c->out_fd = c->err_fd = -1;
	if (open_pipes(c, out, errp, status) < 0) {
		buf_addf(err, "cannot create a pipe: %s", strerror(errno));
		close_pair(out);
		close_pair(errp);
		return -1;
	}
	env = child_env_build(c->env_add, c->env_del);
	fflush(NULL);
	c->pid = cleanup_fork(c->own_group || c->timeout_s > 0);
	if (c->pid == 0)
		exec_child(c, env, out, errp, status[1]);
	e = errno;
	free(env);
	close_fd(&out[1]);
	close_fd(&errp[1]);
	close_fd(&status[1]);
	c->out_fd = out[0];
	c->err_fd = errp[0];
	if (c->pid < 0) {
		c->pid = 0;
		close_streams(c);
		close_fd(&status[0]);
		buf_addf(err, "cannot start '%s': %s", c->argv[0], strerror(e));
		return -1;
	}
	n = read(status[0], &e, sizeof(e));
	close_fd(&status[0]);
	if (n == (ssize_t)sizeof(e)) {
		reap(c, 1);
		close_streams(c);
		c->not_found = 1;
		c->exit_status = 127;
		buf_addf(err, "cannot run '%s': %s", c->argv[0], strerror(e));
		return -1;
	}
	return 0;
}

/*
 * Keeps a chunk the child wrote; 0, or -1 when the stream went past its
 * cap (the child is then stopped: its output is of no use cut short, and
 * a tool that prints forever would otherwise fill the memory).
 */
static int keep(struct child *c, int stream, const char *p, size_t n)
{
	struct buf *b = stream == 1 ? &c->out : &c->err;
	size_t cap = c->max_out ? c->max_out : CHILD_OUT_MAX;

	if (c->on_output) {
		c->on_output(c->on_output_data, stream, p, n);
		return 0;
	}
	if (b->len + n > cap) {
		buf_add(b, p, cap - b->len);
		c->overflowed = 1;
		kill(c->own_group || c->timeout_s > 0 ? -c->pid : c->pid, SIGKILL);
		return -1;
	}
	buf_add(b, p, n);
	return 0;
}

/* Nothing left to read: waits for the exit, keeping the deadline and the ticks. 1 when reaped. */
static int wait_exit(struct child *c, double deadline, double kill_at, double *tick_at)
{
	for (;;) {
		if (reap(c, 0))
			return 1;
		if (deadline && now_s() >= (kill_at ? kill_at : deadline))
			return 0;
		if (*tick_at && now_s() >= *tick_at) {
			c->on_tick(c->on_output_data);
			*tick_at = now_s() + c->tick_s;
		}
		usleep(10000);
	}
}

/* Reads one ready stream; -1 when the child went past its cap (both streams are then closed). */
static int read_ready(struct child *c, int *fd, int stream)
{
	char tmp[65536];
	ssize_t n = read(*fd, tmp, sizeof(tmp));

	if (n > 0 && keep(c, stream, tmp, (size_t)n) < 0) {
		/* Past the cap: stop reading, so a grandchild cannot keep us here. */
		close_streams(c);
		return -1;
	}
	if (n == 0 || (n < 0 && errno != EINTR))
		close_fd(fd);
	return 0;
}

/* Reads the capture pipes until both close or the deadline passes. */
static void pump(struct child *c)
{
	double deadline = c->timeout_s > 0 ? now_s() + c->timeout_s : 0;
	double kill_at = 0, tick_at = c->on_tick && c->tick_s > 0 ? now_s() + c->tick_s : 0;
	struct pollfd fds[2];

	for (;;) {
		int nfds = 0, timeout_ms = -1, i;

		if (c->out_fd >= 0)
			fds[nfds++] = (struct pollfd){ c->out_fd, POLLIN, 0 };
		if (c->err_fd >= 0)
			fds[nfds++] = (struct pollfd){ c->err_fd, POLLIN, 0 };
		if (deadline) {
			double left = (kill_at ? kill_at : deadline) - now_s();
			timeout_ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		}
		if (tick_at && nfds) {
			double left = tick_at - now_s();
			int ms = left > 0 ? (int)(left * 1000) + 1 : 0;

			if (timeout_ms < 0 || ms < timeout_ms)
				timeout_ms = ms;
		}
		if (!nfds) {
			if ((!deadline && !tick_at) || wait_exit(c, deadline, kill_at, &tick_at))
				return;
		} else if (poll(fds, (nfds_t)nfds, timeout_ms) < 0 && errno != EINTR) {
			return;
		}
		for (i = 0; i < nfds; i++) {
			int *fd = fds[i].fd == c->out_fd ? &c->out_fd : &c->err_fd;

			if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    read_ready(c, fd, fd == &c->out_fd ? 1 : 2) < 0)
				break;
		}
		if (tick_at && now_s() >= tick_at) {
			c->on_tick(c->on_output_data);
			tick_at = now_s() + c->tick_s;
		}
		if (deadline && now_s() >= deadline && !kill_at) {
			c->timed_out = 1;
			kill(-c->pid, SIGTERM);
			kill_at = now_s() + 2.0;
		} else if (kill_at && now_s() >= kill_at) {
			kill(-c->pid, SIGKILL);
			kill_at = now_s() + 3600;
		}
	}
}

int child_finish(struct child *c, struct buf *err)
{
	int r;

	pump(c);
	close_streams(c);
	if (!c->pid)
		return 0;
	r = reap(c, 1);
	if (r < 0) {
		buf_addf(err, "cannot wait for '%s': %s", c->argv[0], strerror(errno));
		return -1;
	}
	return 0;
}

int child_run(struct child *c, struct buf *err)
{
	if (child_start(c, err) < 0)
		return c->not_found ? 0 : -1;
	return child_finish(c, err);
}

void child_kill(struct child *c)
{
	if (c->pid <= 0)
		return;
	if (!reap(c, 0)) {
		kill(c->own_group || c->timeout_s > 0 ? -c->pid : c->pid, SIGKILL);
		reap(c, 1);
	}
}

void child_release(struct child *c)
{
	close_streams(c);
	buf_release(&c->out);
	buf_release(&c->err);
	free_strv(c->argv_owned);
	free_strv(c->env_owned);
	c->argv_owned = c->env_owned = NULL;
}
