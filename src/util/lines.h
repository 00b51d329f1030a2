/*
 * Iterating over the lines of a (pointer, length) span without relying on
 * a NUL terminator: the one line reader every tko parser shares.
 *
 *	struct lines it = LINES_INIT(data, len);
 *	const char *s;
 *	size_t n;
 *	while (lines_next(&it, &s, &n))
 *		... s[0..n) is line number it.lineno, without '\n' or '\r\n'
 */
#ifndef TKO_LINES_H
#define TKO_LINES_H

#include <stddef.h>
#include <string.h>

struct lines {
	const char *p;		/* next unread byte */
	const char *end;	/* one past the last byte */
	size_t lineno;		/* 1-based number of the line last returned */
	int last_unterminated;	/* the last line returned had no '\n' */
};
#define LINES_INIT(data, len) { (data), (data) + (len), 0, 0 }

static inline int lines_next(struct lines *it, const char **line, size_t *len)
{
	const char *nl;
	size_t n;

	if (it->p >= it->end)
		return 0;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	n = nl ? (size_t)(nl - it->p) : (size_t)(it->end - it->p);
	*line = it->p;
	it->last_unterminated = !nl;
	it->p = nl ? nl + 1 : it->end;
	if (n && (*line)[n - 1] == '\r')
		n--;
	*len = n;
	it->lineno++;
	return 1;
}

/* Span helpers used by the parsers. */
static inline int span_starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

const char *span_find(const char *s, size_t n, const char *needle);
/* Trims spaces and tabs from both ends, in place on the (s, n) pair. */
void span_trim(const char **s, size_t *n);

#endif
