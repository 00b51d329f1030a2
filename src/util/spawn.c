/* Child processes from argv arrays, with capture and time limits (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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

static int env_deleted(const struct child *c, const char *entry)
{
	const char *const *d;

	for (d = c->env_del; d && *d; d++) {
		size_t n = strlen(*d);
		if (!strncmp(entry, *d, n) && entry[n] == '=')
			return 1;
	}
	for (d = c->env_add; d && *d; d++) {
		const char *eq = strchr(*d, '=');
		size_t n = eq ? (size_t)(eq - *d) : strlen(*d);
		if (!strncmp(entry, *d, n) && entry[n] == '=')
			return 1;
	}
	return 0;
}

/* The child's environment: ours, minus env_del and replaced names, plus env_add. */
static char **child_env(const struct child *c)
{
	size_t n = 0, i = 0;
	char **e, **env;
	const char *const *a;

	for (e = environ; *e; e++)
		n++;
	for (a = c->env_add; a && *a; a++)
		n++;
	env = xcalloc(n + 1, sizeof(*env));
	for (e = environ; *e; e++)
		if (!env_deleted(c, *e))
			env[i++] = *e;
	for (a = c->env_add; a && *a; a++)
		env[i++] = (char *)*a;
	env[i] = NULL;
	return env;
}

static void exec_child(struct child *c, int out[2], int errp[2], int status_pipe)
{
	char **env = child_env(c);

	if (c->null_in) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	if (c->capture_out) {
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
	}
	if (c->capture_err) {
		dup2(errp[1], 2);
		close(errp[0]);
		close(errp[1]);
	}
	if (c->dir && chdir(c->dir) < 0) {
		int e = errno;
		if (write(status_pipe, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	environ = env;
	execvp(c->argv[0], (char *const *)c->argv);
	{
		int e = errno;
		if (write(status_pipe, &e, sizeof(e)) < 0)
			_exit(127);
	}
	_exit(127);
}

/*
 * Keeps a chunk the child wrote; 0, or -1 when the stream went past its
 * cap (the child is then stopped: its output is of no use cut short, and
 * a tool that prints forever would otherwise fill the memory).
 */
static int keep(struct child *c, pid_t pid, int stream, const char *p, size_t n)
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
		kill(c->timeout_s > 0 ? -pid : pid, SIGKILL);
		return -1;
	}
	buf_add(b, p, n);
	return 0;
}

/* Reads the capture pipes until both close or the deadline passes. */
static void pump(struct child *c, pid_t pid, int outfd, int errfd)
{
	double deadline = c->timeout_s > 0 ? now_s() + c->timeout_s : 0;
	double kill_at = 0, tick_at = c->on_tick && c->tick_s > 0 ? now_s() + c->tick_s : 0;
	struct pollfd fds[2];

	for (;;) {
		int nfds = 0, timeout_ms = -1, i;

		if (outfd >= 0)
			fds[nfds++] = (struct pollfd){ outfd, POLLIN, 0 };
		if (errfd >= 0)
			fds[nfds++] = (struct pollfd){ errfd, POLLIN, 0 };
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
			if (!deadline && !tick_at)
				return;
			/* Nothing to read: wait for exit, but keep the deadline and the ticks. */
			for (;;) {
				int st;
				if (waitpid(pid, &st, WNOHANG) != 0) {
					c->exit_status = WIFEXITED(st) ? WEXITSTATUS(st)
						: 128 + WTERMSIG(st);
					c->exit_status |= 0x10000; /* reaped */
					return;
				}
				if (deadline && now_s() >= (kill_at ? kill_at : deadline))
					break;
				if (tick_at && now_s() >= tick_at) {
					c->on_tick(c->on_output_data);
					tick_at = now_s() + c->tick_s;
				}
				usleep(10000);
			}
		} else if (poll(fds, (nfds_t)nfds, timeout_ms) < 0 && errno != EINTR) {
			return;
		}
		for (i = 0; i < nfds; i++) {
			char tmp[65536];
			ssize_t n;
			int fd = fds[i].fd;

			if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fd, tmp, sizeof(tmp));
			if (n > 0 && keep(c, pid, fd == outfd ? 1 : 2, tmp, (size_t)n) < 0) {
				/* Past the cap: stop reading, so a grandchild cannot keep us here. */
				if (outfd >= 0)
					close(outfd);
				if (errfd >= 0)
					close(errfd);
				outfd = errfd = -1;
				break;
			} else if (n > 0) {
				continue;
			} else if (n == 0 || errno != EINTR) {
				close(fd);
				if (fd == outfd)
					outfd = -1;
				else
					errfd = -1;
			}
		}
		if (tick_at && now_s() >= tick_at) {
			c->on_tick(c->on_output_data);
			tick_at = now_s() + c->tick_s;
		}
		if (deadline && now_s() >= deadline && !kill_at) {
			c->timed_out = 1;
			kill(-pid, SIGTERM);
			kill_at = now_s() + 2.0;
		} else if (kill_at && now_s() >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = now_s() + 3600;
		}
	}
}

int child_run(struct child *c, struct buf *err)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, status[2];
	pid_t pid;
	int st, e = 0;
	ssize_t n;

	c->exit_status = 0;
	c->timed_out = c->not_found = c->overflowed = 0;
	if ((c->capture_out && pipe(out) < 0) ||
	    (c->capture_err && pipe(errp) < 0) ||
	    pipe2(status, O_CLOEXEC) < 0) {
		buf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = cleanup_fork(c->timeout_s > 0);
	if (pid < 0) {
		buf_addf(err, "cannot start '%s': %s", c->argv[0], strerror(errno));
		return -1;
	}
	if (pid == 0)
		exec_child(c, out, errp, status[1]);
	close(status[1]);
	if (c->capture_out)
		close(out[1]);
	if (c->capture_err)
		close(errp[1]);
	n = read(status[0], &e, sizeof(e));
	close(status[0]);
	if (n == (ssize_t)sizeof(e)) {
		c->not_found = 1;
		c->exit_status = 127;
		waitpid(pid, &st, 0);
		cleanup_drop_child(pid);
		if (c->capture_out)
			close(out[0]);
		if (c->capture_err)
			close(errp[0]);
		buf_addf(err, "cannot run '%s': %s", c->argv[0], strerror(e));
		return 0;
	}
	pump(c, pid, c->capture_out ? out[0] : -1, c->capture_err ? errp[0] : -1);
	if (c->exit_status & 0x10000) {
		c->exit_status &= 0xffff;
		cleanup_drop_child(pid);
		return 0;
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			buf_addf(err, "cannot wait for '%s': %s", c->argv[0],
				 strerror(errno));
			cleanup_drop_child(pid);
			return -1;
		}
	}
	cleanup_drop_child(pid);
	c->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

void child_release(struct child *c)
{
	buf_release(&c->out);
	buf_release(&c->err);
}
