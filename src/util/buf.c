/* Growable byte strings (see buf.h for the invariants). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

char buf_empty[1];

void buf_init(struct buf *b)
{
	b->buf = buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void buf_release(struct buf *b)
{
	if (b->alloc)
		free(b->buf);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	buf_setlen(b, 0);
}

void buf_grow(struct buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;

	if (want <= b->alloc)
		return;
	if (want < b->alloc * 2)
		want = b->alloc * 2;
	if (want < 64)
		want = 64;
	if (b->alloc) {
		b->buf = xrealloc(b->buf, want);
	} else {
		b->buf = xmalloc(want);
		b->buf[0] = '\0';
	}
	b->alloc = want;
}

void buf_setlen(struct buf *b, size_t len)
{
	if (!b->alloc) {
		if (len)
			buf_grow(b, len);
		else
			return;
	}
	b->len = len;
	b->buf[len] = '\0';
}

void buf_add(struct buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	buf_setlen(b, b->len + len);
}

void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_addch(struct buf *b, int c)
{
	buf_grow(b, 1);
	b->buf[b->len] = (char)c;
	buf_setlen(b, b->len + 1);
}

void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	buf_grow(b, (size_t)n);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	buf_setlen(b, b->len + (size_t)n);
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *s;

	if (!b->alloc)
		buf_grow(b, 0);
	s = b->buf;
	if (len)
		*len = b->len;
	buf_init(b);
	return s;
}

void buf_rtrim(struct buf *b)
{
	size_t n = b->len;

	while (n && isspace((unsigned char)b->buf[n - 1]))
		n--;
	buf_setlen(b, n);
}

void buf_add_shell_word(struct buf *b, const char *s)
{
	static const char plain[] = "%+,-./:=@_";
	const char *p;

	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr(plain, *p)))
			break;
	if (*s && !*p) {
		buf_adds(b, s);
		return;
	}
	buf_addch(b, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addch(b, *p);
	}
	buf_addch(b, '\'');
}
