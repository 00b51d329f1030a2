/* Streaming JSON: value extents and an in-place cursor (jscan.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile/jscan.h"
#include "util/mem.h"
#include "banned.h"

static int scalar_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' ||
	       c == '.' || (c >= 'A' && c <= 'Z');
}

static int start_value(struct jscan *s, unsigned char c)
{
	s->started = 1;
	if (c == '{' || c == '[')
		s->depth = 1;
	else if (c == '"')
		s->in_str = 1;
	else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n')
		s->scalar = 1;
	else
		return -1;
	return 0;
}

static int scan_scalar(struct jscan *s, const char *p, size_t len, int at_eof)
{
	size_t i = s->off;

	while (i < len && scalar_byte((unsigned char)p[i]))
		i++;
	s->off = i;
	if (i < len || at_eof)
		return i ? 1 : -1;
	return 0;
}

/* Past the string's closing quote, or len when it is not in p[i..len). */
static size_t string_end(struct jscan *s, const char *p, size_t i, size_t len)
{
	while (i < len) {
		const char *q = p + i, *e = p + len;

		if (s->esc) {
			s->esc = 0;
			i++;
			continue;
		}
		while (q < e && *q != '"' && *q != '\\')
			q++;
		i = (size_t)(q - p);
		if (i >= len)
			break;
		if (*q == '\\') {
			s->esc = 1;
			i++;
			continue;
		}
		s->in_str = 0;
		return i + 1;
	}
	return len;
}

int jscan_extent(struct jscan *s, const char *p, size_t len, int at_eof)
{
	size_t i = s->off;

	if (!s->started) {
		if (!len)
			return at_eof ? -1 : 0;
		if (start_value(s, (unsigned char)p[0]) < 0)
			return -1;
		i = s->scalar ? 0 : 1;
	}
	if (s->scalar) {
		s->off = i;
		return scan_scalar(s, p, len, at_eof);
	}
	while (i < len) {
		if (s->in_str) {
			i = string_end(s, p, i, len);
			if (!s->in_str && !s->depth) {
				s->off = i;
				return 1;
			}
			continue;
		}
		switch (p[i++]) {
		case '"':
			s->in_str = 1;
			break;
		case '{':
		case '[':
			s->depth++;
			break;
		case '}':
		case ']':
			if (--s->depth == 0) {
				s->off = i;
				return 1;
			}
			break;
		default:
			break;
		}
	}
	s->off = i;
	return at_eof ? -1 : 0;
}

static void ws(struct jcur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

enum jtype jc_peek(struct jcur *c)
{
	ws(c);
	if (c->p >= c->end)
		return JT_ERROR;
	switch (*c->p) {
	case '{': return JT_OBJECT;
	case '[': return JT_ARRAY;
	case '"': return JT_STRING;
	case 't': return JT_TRUE;
	case 'f': return JT_FALSE;
	case 'n': return JT_NULL;
	default:
		return (*c->p == '-' || (*c->p >= '0' && *c->p <= '9')) ? JT_NUMBER : JT_ERROR;
	}
}

int jc_skip(struct jcur *c)
{
	struct jscan s = JSCAN_INIT;

	ws(c);
	if (jscan_extent(&s, c->p, (size_t)(c->end - c->p), 1) != 1)
		return -1;
	c->p += s.off;
	return 0;
}

static int expect(struct jcur *c, char ch)
{
	ws(c);
	if (c->p >= c->end || *c->p != ch)
		return -1;
	c->p++;
	return 0;
}

int jc_object(struct jcur *c)
{
	return expect(c, '{');
}

int jc_array(struct jcur *c)
{
	return expect(c, '[');
}

/* Past a separating comma, or on the closing bracket (1), or malformed (-1). */
static int next_member(struct jcur *c, char close)
{
	ws(c);
	if (c->p >= c->end)
		return -1;
	if (*c->p == close) {
		c->p++;
		return 0;
	}
	if (*c->p == ',') {
		c->p++;
		ws(c);
	}
	return c->p < c->end ? 1 : -1;
}

int jc_key(struct jcur *c, const char **k, size_t *n)
{
	int esc, r = next_member(c, '}');

	if (r <= 0)
		return r;
	if (jc_string(c, k, n, &esc) < 0 || expect(c, ':') < 0)
		return -1;
	ws(c);
	return 1;
}

int jc_item(struct jcur *c)
{
	return next_member(c, ']');
}

int jc_string(struct jcur *c, const char **s, size_t *n, int *escaped)
{
	const char *q;

	*escaped = 0;
	if (expect(c, '"') < 0)
		return -1;
	for (q = c->p; q < c->end; q++) {
		if (*q == '"')
			break;
		if ((unsigned char)*q < 0x20)
			return -1;
		if (*q == '\\') {
			*escaped = 1;
			if (++q >= c->end)
				return -1;
		}
	}
	if (q >= c->end)
		return -1;
	*s = c->p;
	*n = (size_t)(q - c->p);
	c->p = q + 1;
	return 0;
}

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * strtod on a NUL-terminated copy: the slow, exact path. Numbers in a
 * trace are short, but JSON sets no limit on their digits.
 */
static int number_slow(const char *s, size_t n, double *v)
{
	char tmp[64];
	char *copy = n < sizeof(tmp) ? tmp : xmalloc(n + 1), *end;
	int ret;

	memcpy(copy, s, n);
	copy[n] = '\0';
	*v = strtod(copy, &end);
	ret = end == copy + n ? 0 : -1;
	if (copy != tmp)
		free(copy);
	return ret;
}

/* Parses p[0..) as a JSON number; returns its length, or 0 when it is not one. */
static size_t parse_number(const char *p, const char *end, double *v)
{
	const char *q = p;
	uint64_t mant = 0;
	int digits = 0, frac = 0, neg = 0, slow = 0;

	if (q < end && *q == '-') {
		neg = 1;
		q++;
	}
	if (q >= end || *q < '0' || *q > '9')
		return 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++, digits++)
		mant = mant * 10 + (uint64_t)(*q - '0');
	if (q < end && *q == '.') {
		if (++q >= end || *q < '0' || *q > '9')
			return 0;
		for (; q < end && *q >= '0' && *q <= '9'; q++, digits++, frac++)
			mant = mant * 10 + (uint64_t)(*q - '0');
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		slow = 1;
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (q >= end || *q < '0' || *q > '9')
			return 0;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	/* exact when the digits fit a double's mantissa and the scale is a power of ten it holds */
	if (slow || digits > 19 || mant >= (UINT64_C(1) << 53) || frac > 22) {
		if (number_slow(p, (size_t)(q - p), v) < 0)
			return 0;
		return (size_t)(q - p);
	}
	*v = (double)mant / pow10_exact[frac];
	if (neg)
		*v = -*v;
	return (size_t)(q - p);
}

int jc_number(struct jcur *c, double *v)
{
	size_t n;

	ws(c);
	n = parse_number(c->p, c->end, v);
	if (!n)
		return -1;
	c->p += n;
	return 0;
}

int jc_number_or_string(struct jcur *c, double *v)
{
	const char *s;
	size_t n;
	int esc;

	if (jc_peek(c) != JT_STRING)
		return jc_number(c, v);
	if (jc_string(c, &s, &n, &esc) < 0 || esc || !n)
		return -1;
	return parse_number(s, s + n, v) == n ? 0 : -1;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char ch = s[i];

		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			v |= (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			v |= (unsigned)(ch - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct buf *out, unsigned cp)
{
	if (cp < 0x80) {
		buf_addch(out, (int)cp);
	} else if (cp < 0x800) {
		buf_addch(out, (int)(0xc0 | (cp >> 6)));
		buf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		buf_addch(out, (int)(0xe0 | (cp >> 12)));
		buf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else {
		buf_addch(out, (int)(0xf0 | (cp >> 18)));
		buf_addch(out, (int)(0x80 | ((cp >> 12) & 0x3f)));
		buf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addch(out, (int)(0x80 | (cp & 0x3f)));
	}
}

/* A \u escape at s (after the "\u"), with a following low surrogate; returns bytes used. */
static size_t unicode_escape(const char *s, size_t n, struct buf *out)
{
	unsigned cp, lo;

	if (n < 4 || hex4(s, &cp) < 0)
		return 0;
	if (cp >= 0xd800 && cp < 0xdc00 && n >= 10 && s[4] == '\\' && s[5] == 'u' &&
	    hex4(s + 6, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
		add_utf8(out, 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00));
		return 10;
	}
	add_utf8(out, cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp);
	return 4;
}

int json_unescape(const char *s, size_t n, struct buf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	size_t i = 0;

	while (i < n) {
		const char *bs = memchr(s + i, '\\', n - i), *k;
		size_t used;

		if (!bs) {
			buf_add(out, s + i, n - i);
			break;
		}
		buf_add(out, s + i, (size_t)(bs - (s + i)));
		i = (size_t)(bs - s) + 1;
		if (i >= n)
			return -1;
		if (s[i] == 'u') {
			used = unicode_escape(s + i + 1, n - i - 1, out);
			if (!used)
				return -1;
			i += 1 + used;
			continue;
		}
		k = memchr(from, s[i], sizeof(from) - 1);
		if (!k)
			return -1;
		buf_addch(out, to[k - from]);
		i++;
	}
	return 0;
}
