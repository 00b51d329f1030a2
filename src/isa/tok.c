/* Tokenizing helpers for the ISA scanners (see tok.h). */
#include "isa/tok.h"
#include "util/buf.h"
#include "util/lines.h"
#include "banned.h"

int tok_uint(const char **pp, const char *e, unsigned long long *v)
{
	const char *p = *pp;
	unsigned long long x = 0;
	int digits = 0;

	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		for (p += 2; p < e; p++, digits++) {
			char c = *p;
			unsigned d;

			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				break;
			x = x * 16 + d;
		}
	} else {
		for (; p < e && *p >= '0' && *p <= '9'; p++, digits++)
			x = x * 10 + (unsigned)(*p - '0');
	}
	if (!digits)
		return -1;
	*v = x;
	*pp = p;
	return 0;
}

int tok_int(const char **pp, const char *e, long long *v)
{
	const char *p = *pp;
	unsigned long long u;
	int neg = 0;

	if (p < e && *p == '-') {
		neg = 1;
		p++;
	}
	if (tok_uint(&p, e, &u) < 0 || u > (unsigned long long)1 << 62)
		return -1;
	*v = neg ? -(long long)u : (long long)u;
	*pp = p;
	return 0;
}

int tok_quoted(const char **pp, const char *e, const char **s, size_t *n)
{
	const char *p = tok_skip_ws(*pp, e), *q;

	if (p >= e || *p != '"')
		return -1;
	q = memchr(p + 1, '"', (size_t)(e - p - 1));
	if (!q)
		return -1;
	*s = p + 1;
	*n = (size_t)(q - p - 1);
	*pp = q + 1;
	return 0;
}

static int is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',';
}

int tok_has_word(const char *p, const char *e, const char *word)
{
	size_t k = strlen(word);
	int prefix = k && word[k - 1] == ':';

	while (p < e) {
		const char *hit = span_find(p, (size_t)(e - p), word);
		const char *end;

		if (!hit)
			return 0;
		end = hit + k;
		if ((hit == p || is_sep(hit[-1])) &&
		    (prefix || end == e || is_sep(*end)))
			return 1;
		p = hit + 1;
	}
	return 0;
}

const char *tok_comment_start(const char *p, const char *e)
{
	for (; p < e; p++) {
		if (*p == ';')
			return p;
		if (*p == '/' && p + 1 < e && p[1] == '/')
			return p;
	}
	return e;
}

void tok_strip_block_comments(const char *p, const char *e, int *in_block,
			      struct buf *out)
{
	buf_reset(out);
	while (p < e) {
		if (*in_block) {
			const char *end = span_find(p, (size_t)(e - p), "*/");

			if (!end)
				return;
			*in_block = 0;
			buf_addch(out, ' ');
			p = end + 2;
			continue;
		}
		if (*p == ';' || (*p == '/' && p + 1 < e && p[1] == '/'))
			return;
		if (*p == '/' && p + 1 < e && p[1] == '*') {
			*in_block = 1;
			p += 2;
			continue;
		}
		buf_addch(out, *p++);
	}
}
