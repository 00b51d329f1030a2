/* Escaping control characters in text outputs (textout.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/textout.h"
#include "banned.h"

static int is_ctl(unsigned char c, int keep_nl)
{
	return (c < 0x20 && c != '\t' && !(keep_nl && c == '\n')) || c == 0x7f;
}

/* U+0080..U+009F is 0xc2 followed by 0x80..0x9f in UTF-8. */
static int is_c1(const unsigned char *p, size_t left)
{
	return left >= 2 && p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

int text_needs_escape(const char *s, size_t n, int keep_nl)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++)
		if (is_ctl(p[i], keep_nl) || is_c1(p + i, n - i))
			return 1;
	return 0;
}

void text_escape(struct buf *out, const char *s, size_t n, int keep_nl)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (is_ctl(p[i], keep_nl)) {
			buf_add(out, s + start, i - start);
			buf_addf(out, "\\x%02x", p[i]);
			start = i + 1;
		} else if (is_c1(p + i, n - i)) {
			buf_add(out, s + start, i - start);
			buf_addf(out, "\\u%04x", p[i + 1]);
			start = ++i + 1;
		}
	}
	buf_add(out, s + start, n - start);
}

struct tout {
	int fd;
	int held_c2;	/* the last chunk ended in 0xc2: it may open a C1 control */
	struct buf esc;	/* scratch for escaped text */
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t tout_write(void *cookie, const char *p, size_t n)
{
	struct tout *t = cookie;
	size_t body = n;
	int hold;

	if (!n)
		return 0;
	hold = (unsigned char)p[n - 1] == 0xc2;
	body -= (size_t)hold;
	buf_reset(&t->esc);
	if (t->held_c2)
		buf_addch(&t->esc, 0xc2);
	buf_add(&t->esc, p, body);
	if (text_needs_escape(t->esc.buf, t->esc.len, 1)) {
		struct buf plain = t->esc;

		t->esc = (struct buf)BUF_INIT;
		text_escape(&t->esc, plain.buf, plain.len, 1);
		buf_release(&plain);
	}
	t->held_c2 = hold;
	if (write_all(t->fd, t->esc.buf, t->esc.len) < 0)
		return 0;	/* fopencookie: 0 is an error, errno says which */
	return (ssize_t)n;
}

static int tout_close(void *cookie)
{
	struct tout *t = cookie;
	int failed = t->held_c2 && write_all(t->fd, "\xc2", 1) < 0;

	if (close(t->fd) < 0)
		failed = 1;
	buf_release(&t->esc);
	free(t);
	return failed ? EOF : 0;
}

FILE *text_fdopen(int fd)
{
	cookie_io_functions_t io = { NULL, tout_write, NULL, tout_close };
	struct tout *t = xcalloc(1, sizeof(*t));
	FILE *fp;

	t->fd = fd;
	t->esc = (struct buf)BUF_INIT;
	fp = fopencookie(t, "w", io);
	if (!fp) {
		free(t);
		return NULL;
	}
	setvbuf(fp, NULL, isatty(fd) ? _IOLBF : _IOFBF, 1 << 16);
	return fp;
}
