/* Stopping children and removing temporary files on a signal (cleanup.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/mem.h"
#include "banned.h"

struct cl_path {
	char *path;	/* owned */
	int dir;	/* a folder, removed with its contents */
};

struct cl_child {
	pid_t pid;
	int group;	/* it leads its own process group */
};

static struct cl_path *paths;
static size_t npaths, apaths;
static struct cl_child *kids;
static size_t nkids, akids;
static pid_t owner;	/* the tko process; a forked child before exec is not it */
static volatile sig_atomic_t holding;	/* cleanup_hold_signals() is on */
static volatile sig_atomic_t held;	/* the signal held, or 0 */
static volatile sig_atomic_t late;	/* two seconds have passed since it came */

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

static void block(sigset_t *old)
{
	sigset_t s;
	size_t i;

	sigemptyset(&s);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&s, caught[i]);
	sigaddset(&s, SIGALRM);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void cleanup_add_path(const char *path, int is_dir)
{
	char *copy = xstrdup(path);
	sigset_t old;

	block(&old);
	ALLOC_GROW(paths, npaths + 1, apaths);
	paths[npaths].path = copy;
	paths[npaths].dir = is_dir;
	npaths++;
	unblock(&old);
}

int cleanup_mkstemp(char *template)
{
	sigset_t old;
	int fd;

	block(&old);
	fd = mkstemp(template);
	if (fd >= 0)
		cleanup_add_path(template, 0);
	unblock(&old);
	return fd;
}

char *cleanup_mkdtemp(char *template)
{
	sigset_t old;
	char *dir;

	block(&old);
	dir = mkdtemp(template);
	if (dir)
		cleanup_add_path(dir, 1);
	unblock(&old);
	return dir;
}

void cleanup_drop_path(const char *path)
{
	char *gone = NULL;
	sigset_t old;
	size_t i;

	block(&old);
	for (i = npaths; i-- > 0;)
		if (!strcmp(paths[i].path, path)) {
			gone = paths[i].path;
			paths[i] = paths[--npaths];
			break;
		}
	unblock(&old);
	free(gone);
}

pid_t cleanup_fork(int own_group)
{
	sigset_t old;
	pid_t pid;

	block(&old);
	ALLOC_GROW(kids, nkids + 1, akids);
	pid = fork();
	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		unblock(&old);
		return 0;
	}
	if (pid > 0) {
		if (own_group)
			setpgid(pid, pid);
		kids[nkids].pid = pid;
		kids[nkids].group = own_group;
		nkids++;
	}
	unblock(&old);
	return pid;
}

void cleanup_drop_child(pid_t pid)
{
	sigset_t old;
	size_t i;

	block(&old);
	for (i = nkids; i-- > 0;)
		if (kids[i].pid == pid) {
			kids[i] = kids[--nkids];
			break;
		}
	unblock(&old);
}

static void signal_kids(int sig)
{
	size_t i;

	for (i = 0; i < nkids; i++)
		kill(kids[i].group ? -kids[i].pid : kids[i].pid, sig);
}

/* 1 while a child (or, for a group leader, anything in its group) is alive. */
static int kids_alive(void)
{
	int alive = 0;
	size_t i;

	for (i = 0; i < nkids; i++) {
		pid_t r = waitpid(kids[i].pid, NULL, WNOHANG);
		int gone = r == kids[i].pid || (r < 0 && errno == ECHILD);

		if (!gone || (kids[i].group && kill(-kids[i].pid, 0) == 0))
			alive = 1;
	}
	return alive;
}

/* SIGTERM, up to two seconds to go, then SIGKILL. */
static void stop_kids(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i;

	if (!nkids)
		return;
	signal_kids(SIGTERM);
	for (i = 0; i < 200 && kids_alive(); i++)
		nanosleep(&tick, NULL);
	if (kids_alive()) {
		signal_kids(SIGKILL);
		for (i = 0; i < 100 && kids_alive(); i++)
			nanosleep(&tick, NULL);
	}
}

struct dirent64_raw {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * Removes `name` under dirfd and, when it is a folder, what it holds
 * (16 levels at most), with calls a signal handler may make: readdir()
 * may allocate, getdents64 does not.
 */
static void remove_at(int dirfd, const char *name, int depth)
{
	char block_[4096] __attribute__((aligned(8)));
	int fd, pass, removed;

	if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	/* Entries removed while reading may hide others: read again until none go. */
	for (pass = 0, removed = 1; removed && pass < 8 && depth < 16; pass++) {
		long n;

		removed = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, block_, sizeof(block_))) > 0) {
			long off = 0;

			while (off < n) {
				struct dirent64_raw *d = (struct dirent64_raw *)(void *)(block_ + off);

				off += d->reclen;
				if (!strcmp(d->name, ".") || !strcmp(d->name, ".."))
					continue;
				remove_at(fd, d->name, depth + 1);
				removed = 1;
			}
		}
	}
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void remove_paths(void)
{
	size_t i;

	for (i = 0; i < npaths; i++) {
		if (paths[i].dir)
			remove_at(AT_FDCWD, paths[i].path, 0);
		else
			unlink(paths[i].path);
	}
}

void cleanup_run(void)
{
	sigset_t old;
	size_t i;

	block(&old);
	stop_kids();
	remove_paths();
	for (i = 0; i < npaths; i++)
		free(paths[i].path);
	npaths = nkids = 0;
	unblock(&old);
}

/* The children a held signal asked to stop are still there two seconds later. */
static void on_alarm(int sig)
{
	(void)sig;
	if (getpid() == owner && held) {
		signal_kids(SIGKILL);
		late = 1;
	}
}

/*
 * While holding: the first signal is held; another within its two seconds
 * is the same stop from a second sender (timeout(1) signals its whole
 * process group, and a script's own trap then signals tko again), so it
 * is passed over; one after them ends tko at once.
 */
static void on_signal(int sig)
{
	if (getpid() == owner && holding && !held) {
		held = sig;
		signal_kids(SIGTERM);
		alarm(2);
		return;
	}
	if (getpid() == owner && holding && !late)
		return;
	if (getpid() == owner) {
		stop_kids();
		remove_paths();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void cleanup_hold_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	holding = 1;
}

const char *cleanup_signal_name(int sig)
{
	static char other[32];

	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	}
	snprintf(other, sizeof(other), "signal %d", sig);
	return other;
}

int cleanup_held_signal(void)
{
	return held;
}

void cleanup_release_signals(void)
{
	int sig = held;

	holding = 0;
	alarm(0);
	if (!sig)
		return;
	fflush(NULL);	/* what the command printed, before the signal ends it */
	cleanup_run();
	signal(sig, SIG_DFL);
	raise(sig);
}

void cleanup_install(void)
{
	struct sigaction sa, was;
	size_t i;

	owner = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;	/* a held signal returns to the interrupted call */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (i = 0; i < NCAUGHT; i++) {
		sigaction(caught[i], NULL, &was);
		if (was.sa_handler == SIG_IGN && (caught[i] == SIGINT || caught[i] == SIGQUIT))
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}
