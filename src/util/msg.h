/*
 * Messages to the user: errors, warnings and progress, all on stderr.
 *
 * Errors read "tko CMD: <what failed>: <why>" on one line (lower case, no
 * final full stop), as git's messages do. Progress lines are shown only
 * when stderr is a terminal or TKO_PROGRESS=1, and never with --quiet, so
 * logs and tests stay clean.
 *
 * The process-wide settings live in one struct (sqlite's fuzzcheck.c keeps
 * its globals in `g` the same way): the dispatcher fills it before a
 * command runs.
 */
#ifndef TKO_MSG_H
#define TKO_MSG_H

#include <stddef.h>

struct msg_settings {
	const char *command;	/* the running command's name ("isa") */
	int quiet;		/* no progress or notes */
	int progress;		/* progress lines enabled (tty or TKO_PROGRESS) */
	int verbose;		/* -v: show what would be left in logs (tko capture) */
};

extern struct msg_settings msg_settings;

/* Called once by the dispatcher. */
void msg_setup(const char *command);
const char *msg_command(void);

void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An informative line ("note: ..."), suppressed by --quiet. */
void msg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The same under a library step's own name ("tko capture: ..."), whichever
 * command called the library: `tko investigate` runs the capture and the
 * replay, and their lines read as they do when those commands run alone.
 */
void msg_error_as(const char *step, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void msg_warn_as(const char *step, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void msg_note_as(const char *step, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void msg_progress_as(const char *step, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A line under an error on stderr, as it is (no "tko cmd:" prefix) but
 * with control characters escaped: the candidates of an ambiguous --kernel.
 */
void msg_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A list under an error (the candidates of a --kernel miss): one
 * msg_detail line per item, after `indent`. Past `max` items (0: no limit)
 * the rest are only counted, and msg_list_end adds "... and N more".
 *
 *	struct msg_list l = MSG_LIST_INIT(20);
 *	for (...)
 *		msg_list_item(&l, "%s  %s:%zu", k->name, k->file, k->line);
 *	msg_list_end(&l);
 */
struct msg_list {
	size_t max;		/* items shown, at most; 0: all */
	size_t n;		/* items given so far, shown or not */
	const char *indent;	/* before each line */
};
#define MSG_LIST_INIT(max) { (max), 0, "  " }

void msg_list_item(struct msg_list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "<indent>... and N more" when items were left out; nothing otherwise. */
void msg_list_end(const struct msg_list *l);
/* A transient progress line; the next one overwrites it on a terminal. */
void msg_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends a run of progress lines. */
void msg_progress_done(void);
/*
 * Erases an open progress line on a terminal (no newline), so that other
 * output can be written where it stood; the next msg_progress redraws it.
 */
void msg_progress_clear(void);
/*
 * ", about 40 s left" for `done` of `total` steps in `elapsed` seconds (the
 * mean so far times the steps left), or "" before the first step is done.
 */
const char *msg_eta(double elapsed, double done, double total, char *buf, size_t n);

#endif
