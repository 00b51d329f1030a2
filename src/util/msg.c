/* Error, warning and progress messages on stderr (see msg.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/msg.h"
#include "util/textout.h"
#include "banned.h"

struct msg_settings msg_settings = { "tko", 0, 0, 0 };
static int progress_open;

void msg_setup(const char *command)
{
	const char *env = getenv("TKO_PROGRESS");

	msg_settings.command = command;
	if (env)
		msg_settings.progress = !strcmp(env, "1");
	else
		msg_settings.progress = isatty(2);
}

const char *msg_command(void)
{
	return msg_settings.command;
}

/*
 * One line: what it says comes from files and tools (names, paths, their
 * messages), so control characters and newlines in it are escaped
 * (util/textout.h) and the line stays one line.
 */
static void vline(const char *step, const char *kind, const char *fmt, va_list ap)
{
	struct buf raw = BUF_INIT, line = BUF_INIT;

	msg_progress_done();
	if (!strcmp(step, "tko"))
		buf_adds(&line, "tko: ");
	else
		buf_addf(&line, "tko %s: ", step);
	if (kind)
		buf_adds(&line, kind);
	buf_vaddf(&raw, fmt, ap);
	text_escape(&line, raw.buf, raw.len, 0);
	buf_addch(&line, '\n');
	fwrite(line.buf, 1, line.len, stderr);
	buf_release(&raw);
	buf_release(&line);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(msg_settings.command, NULL, fmt, ap);
	va_end(ap);
}

void msg_error_as(const char *step, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(step, NULL, fmt, ap);
	va_end(ap);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(msg_settings.command, "warning: ", fmt, ap);
	va_end(ap);
}

void msg_warn_as(const char *step, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(step, "warning: ", fmt, ap);
	va_end(ap);
}

void msg_note(const char *fmt, ...)
{
	va_list ap;

	if (msg_settings.quiet)
		return;
	va_start(ap, fmt);
	vline(msg_settings.command, "note: ", fmt, ap);
	va_end(ap);
}

void msg_note_as(const char *step, const char *fmt, ...)
{
	va_list ap;

	if (msg_settings.quiet)
		return;
	va_start(ap, fmt);
	vline(step, "note: ", fmt, ap);
	va_end(ap);
}

void msg_detail(const char *fmt, ...)
{
	struct buf raw = BUF_INIT, line = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&raw, fmt, ap);
	va_end(ap);
	text_escape(&line, raw.buf, raw.len, 0);
	buf_addch(&line, '\n');
	fwrite(line.buf, 1, line.len, stderr);
	buf_release(&raw);
	buf_release(&line);
}

void msg_list_item(struct msg_list *l, const char *fmt, ...)
{
	struct buf raw = BUF_INIT;
	int shown = !l->max || l->n < l->max;
	va_list ap;

	l->n++;
	if (!shown)
		return;
	va_start(ap, fmt);
	buf_vaddf(&raw, fmt, ap);
	va_end(ap);
	msg_detail("%s%s", l->indent, raw.buf);
	buf_release(&raw);
}

void msg_list_end(const struct msg_list *l)
{
	if (l->max && l->n > l->max)
		msg_detail("%s... and %zu more", l->indent, l->n - l->max);
}

static void vprogress(const char *step, const char *fmt, va_list ap)
{
	int tty = isatty(2);
	struct buf raw = BUF_INIT, line = BUF_INIT;

	if (msg_settings.quiet || !msg_settings.progress)
		return;
	fputs(tty ? "\r\033[K" : "", stderr);
	fprintf(stderr, "tko %s: ", step);
	buf_vaddf(&raw, fmt, ap);
	text_escape(&line, raw.buf, raw.len, 0);
	fwrite(line.buf, 1, line.len, stderr);
	buf_release(&raw);
	buf_release(&line);
	if (tty) {
		progress_open = 1;
	} else {
		fputc('\n', stderr);
	}
	fflush(stderr);
}

void msg_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprogress(msg_settings.command, fmt, ap);
	va_end(ap);
}

void msg_progress_as(const char *step, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprogress(step, fmt, ap);
	va_end(ap);
}

void msg_progress_clear(void)
{
	if (progress_open) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_open = 0;
	}
}

const char *msg_eta(double elapsed, double done, double total, char *buf, size_t n)
{
	double left;

	if (!n)
		return "";
	buf[0] = '\0';
	if (done <= 0 || total <= done || elapsed <= 0)
		return buf;
	left = elapsed / done * (total - done);
	if (left < 90)
		snprintf(buf, n, ", about %.0f s left", left);
	else
		snprintf(buf, n, ", about %.0f min left", left / 60);
	return buf;
}

void msg_progress_done(void)
{
	if (progress_open) {
		fputc('\n', stderr);
		progress_open = 0;
	}
}
