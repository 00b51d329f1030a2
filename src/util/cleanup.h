/*
 * What tko undoes when a signal stops it (the pattern of git's tempfile.c
 * and sigchain.c): on SIGINT, SIGTERM or SIGHUP the children it started
 * are stopped (their process group when they have one of their own:
 * SIGTERM, then SIGKILL when they are still there after two seconds), its
 * temporary files and folders are removed, and tko dies of the same
 * signal, so its parent sees it killed by SIGINT (a shell's 130) or
 * SIGTERM (143). A SIGINT or SIGQUIT that was ignored when tko started (a
 * background job of a script) stays ignored.
 *
 * Whatever registers a path or a child drops it again when it is done:
 *
 *	fd = mkstemp(tmp); cleanup_add_path(tmp, 0);
 *	... rename(tmp, path); cleanup_drop_path(tmp);
 *
 * Registration blocks the signals for the moment it changes the lists, so
 * the handler always sees whole entries. The handler uses only
 * async-signal-safe calls (kill, waitpid, nanosleep, unlink, rmdir, and
 * getdents64 through syscall for a folder's contents).
 */
#ifndef TKO_UTIL_CLEANUP_H
#define TKO_UTIL_CLEANUP_H

#include <sys/types.h>

/* Installs the handlers; called once, from main(). */
void cleanup_install(void);

/* A temporary file (is_dir 0) or folder (1, removed with what it holds). */
void cleanup_add_path(const char *path, int is_dir);
void cleanup_drop_path(const char *path);

/*
 * mkstemp() and mkdtemp() with the result registered before a signal can
 * be handled (between the two, a signal would leave it behind).
 */
int cleanup_mkstemp(char *template);
char *cleanup_mkdtemp(char *template);

/*
 * fork(), with the child registered before any signal can be handled:
 * own_group puts the child in a process group of its own (setpgid on both
 * sides, as a shell does). Returns what fork() returns. The caller drops
 * the child once it has reaped it.
 */
pid_t cleanup_fork(int own_group);
void cleanup_drop_child(pid_t pid);

/*
 * For a command whose finished work is worth writing down when a signal
 * stops it (tko apply's A/B: the rounds already run). While held, the
 * first SIGINT, SIGTERM, SIGHUP or SIGQUIT stops the registered children
 * (SIGTERM, SIGKILL two seconds later) and is kept instead of ending tko;
 * the command sees it in cleanup_held_signal() (0: none), starts nothing
 * more, writes what it has, and calls cleanup_release_signals(), which
 * then does what the handler would have done and dies of that signal.
 * Another signal within two seconds of the first is passed over (a
 * wrapper's stop often arrives twice: timeout(1) signals its process
 * group, then the script's trap signals tko); one after that ends tko at
 * once, as without holding.
 */
void cleanup_hold_signals(void);
int cleanup_held_signal(void);
void cleanup_release_signals(void);
/* "SIGTERM" for the signals caught here, else "signal N" (a static buffer). */
const char *cleanup_signal_name(int sig);

/*
 * Stops the registered children and removes the registered paths now,
 * as the handler would (for tests, and for a command that gives up).
 */
void cleanup_run(void);

#endif
