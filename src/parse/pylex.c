/* String literal boundaries and positions in Python source (see pylex.h). */
#include <string.h>

#include "parse/pylex.h"
#include "banned.h"

#define S (PYLEX_IDENT_START | PYLEX_IDENT_CHAR)
#define D PYLEX_IDENT_CHAR
#define ROW16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x

const unsigned char pylex_class[256] = {
	ROW16(0), ROW16(0),					/* controls */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,		/* space to '/' */
	D, D, D, D, D, D, D, D, D, D, 0, 0, 0, 0, 0, 0,		/* digits to '?' */
	0, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,		/* '@', A-O */
	S, S, S, S, S, S, S, S, S, S, S, 0, 0, 0, 0, S,		/* P-Z, '_' */
	0, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,		/* '`', a-o */
	S, S, S, S, S, S, S, S, S, S, S, 0, 0, 0, 0, 0,		/* p-z */
	ROW16(S), ROW16(S), ROW16(S), ROW16(S),			/* UTF-8 bytes */
	ROW16(S), ROW16(S), ROW16(S), ROW16(S),
};

#undef S
#undef D
#undef ROW16

size_t pylex_ident_end(const char *s, size_t n, size_t pos)
{
	while (pos < n && pylex_ident_char((unsigned char)s[pos]))
		pos++;
	return pos;
}

/* Applies one prefix letter; 0 when it is not one or repeats a kind. */
static int prefix_letter(struct pylex_str *st, char c, int *uni)
{
	switch (c | 0x20) {
	case 'r':
		if (st->raw)
			return 0;
		st->raw = 1;
		return 1;
	case 'b':
		if (st->bytes || st->fmt)
			return 0;
		st->bytes = 1;
		return 1;
	case 'f':
		if (st->bytes || st->fmt)
			return 0;
		st->fmt = 1;
		return 1;
	case 'u':
		if (*uni)
			return 0;
		*uni = 1;
		return 1;
	}
	return 0;
}

int pylex_string_at(const char *s, size_t n, size_t pos, struct pylex_str *st)
{
	size_t q = pos;
	int uni = 0;

	memset(st, 0, sizeof(*st));
	st->start = pos;
	while (q < n && q - pos < 3 && s[q] != '\'' && s[q] != '"') {
		if (!prefix_letter(st, s[q], &uni))
			return 0;
		q++;
	}
	if (q >= n || (s[q] != '\'' && s[q] != '"'))
		return 0;
	/* "u" combines with nothing (Python rejects ur'' and ub''). */
	if (uni && q - pos > 1)
		return 0;
	st->quote = s[q];
	st->triple = q + 2 < n && s[q + 1] == st->quote && s[q + 2] == st->quote;
	st->body = q + (st->triple ? 3 : 1);
	return 1;
}

int pylex_string_close(const char *s, size_t n, struct pylex_str *st)
{
	size_t p = st->body;

	st->newlines = 0;
	while (p < n) {
		char c = s[p];

		if (c == '\\') {
			/* An escaped character never closes the literal, raw or not. */
			if (p + 1 < n && s[p + 1] == '\n')
				st->newlines++;
			p += 2;
			continue;
		}
		if (c == '\n') {
			if (!st->triple)
				break;
			st->newlines++;
		} else if (c == st->quote) {
			if (!st->triple) {
				st->body_end = p;
				st->end = p + 1;
				return 0;
			}
			if (p + 2 < n && s[p + 1] == c && s[p + 2] == c) {
				st->body_end = p;
				st->end = p + 3;
				return 0;
			}
		}
		p++;
	}
	st->body_end = st->end = p < n ? p : n;
	return -1;
}

size_t pylex_count_lines(const char *s, size_t from, size_t to)
{
	const char *p = s + from, *end = s + to;
	size_t k = 0;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		k++;
		p++;
	}
	return k;
}

void pylex_where(const char *s, size_t off, size_t *line, size_t *col)
{
	size_t l = 1, last = 0, i;

	for (i = 0; i < off; i++)
		if (s[i] == '\n') {
			l++;
			last = i + 1;
		}
	*line = l;
	*col = off - last + 1;
}
