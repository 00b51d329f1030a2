/*
 * The scalar half of the Python literal reader: strings (quotes, prefixes,
 * escapes, implicit concatenation) and numbers (ints of any base, floats,
 * big ints), plus the error and whitespace helpers both halves use. See
 * pylit.h for the rules and pylit_scalar.h for the internal interface.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/pylex.h"
#include "parse/pylit_scalar.h"
#include "util/mem.h"
#include "banned.h"

int pylit_fail(struct pylit_parser *p, size_t off, const char *fmt, ...)
{
	size_t line, col;
	va_list ap;

	pylex_where(p->s, off < p->n ? off : p->n, &line, &col);
	buf_reset(&p->msg);
	buf_addf(&p->msg, "line %zu column %zu: ", line, col);
	va_start(ap, fmt);
	buf_vaddf(&p->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* Names the byte at `off` for messages: "end of input", "'x'" or "byte 0x.." */
const char *pylit_what_at(struct pylit_parser *p, size_t off, char tmp[16])
{
	unsigned char c;

	if (off >= p->n)
		return "end of input";
	c = (unsigned char)p->s[off];
	if (c == '\n')
		return "end of line";
	if (c < 0x20 || c >= 0x7f)
		snprintf(tmp, 16, "byte 0x%02x", c);
	else
		snprintf(tmp, 16, "'%c'", c);
	return tmp;
}

struct pylit *pylit_node_new(enum pylit_kind kind, size_t off)
{
	struct pylit *v = xcalloc(1, sizeof(*v));

	v->kind = kind;
	v->off = off;
	return v;
}

/* Spaces, line breaks, backslash continuations and comments. */
void pylit_skip_space(struct pylit_parser *p)
{
	while (p->pos < p->n) {
		char c = p->s[p->pos];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			p->pos++;
		} else if (c == '\\' && p->pos + 1 < p->n &&
			   (p->s[p->pos + 1] == '\n' || p->s[p->pos + 1] == '\r')) {
			p->pos += 2;
		} else if (c == '#') {
			while (p->pos < p->n && p->s[p->pos] != '\n')
				p->pos++;
		} else {
			break;
		}
	}
}

int pylit_peek(struct pylit_parser *p)
{
	return p->pos < p->n ? (unsigned char)p->s[p->pos] : -1;
}

/* Appends code point `cp` to b as UTF-8. */
static void add_utf8(struct buf *b, unsigned long cp)
{
	if (cp < 0x80) {
		buf_addch(b, (int)cp);
	} else if (cp < 0x800) {
		buf_addch(b, (int)(0xc0 | (cp >> 6)));
		buf_addch(b, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		buf_addch(b, (int)(0xe0 | (cp >> 12)));
		buf_addch(b, (int)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addch(b, (int)(0x80 | (cp & 0x3f)));
	} else {
		buf_addch(b, (int)(0xf0 | (cp >> 18)));
		buf_addch(b, (int)(0x80 | ((cp >> 12) & 0x3f)));
		buf_addch(b, (int)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addch(b, (int)(0x80 | (cp & 0x3f)));
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

/* Reads exactly `digits` hex digits at s[q]; -1 when there are fewer. */
static long read_hex(const char *s, size_t end, size_t q, int digits)
{
	long v = 0;
	int i;

	for (i = 0; i < digits; i++) {
		int h = q + (size_t)i < end ? hexval(s[q + i]) : -1;

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* Simple one-letter escapes, as Python defines them. */
static const struct { char c, value; } simple_escapes[] = {
	{ '\\', '\\' }, { '\'', '\'' }, { '"', '"' }, { 'a', '\a' },
	{ 'b', '\b' }, { 'f', '\f' }, { 'n', '\n' }, { 'r', '\r' },
	{ 't', '\t' }, { 'v', '\v' },
};

/* Escape errors: decode_escape returns 0 after one. */
#define ESCAPE_FAIL(...) do { pylit_fail(__VA_ARGS__); return 0; } while (0)

/* Adds code point (str) or byte (bytes) `cp`. */
static void add_unit(struct buf *out, const struct pylex_str *st, long cp)
{
	if (st->bytes)
		buf_addch(out, (int)cp);
	else
		add_utf8(out, (unsigned long)cp);
}

/*
 * Decodes the escape at s[q] (just after the backslash) into out; returns
 * the offset after it, or 0 after pylit_fail().
 */
static size_t decode_escape(struct pylit_parser *p, const struct pylex_str *st,
			    size_t q, struct buf *out)
{
	const char *s = p->s;
	size_t i, end = st->body_end;
	char c = s[q];
	long cp;

	for (i = 0; i < sizeof(simple_escapes) / sizeof(simple_escapes[0]); i++)
		if (simple_escapes[i].c == c) {
			buf_addch(out, simple_escapes[i].value);
			return q + 1;
		}
	if (c == '\n')
		return q + 1;
	if (c == '\r')
		return q + 1 + (q + 1 < end && s[q + 1] == '\n');
	if (c >= '0' && c <= '7') {
		cp = 0;
		for (i = 0; i < 3 && q < end && s[q] >= '0' && s[q] <= '7'; i++)
			cp = cp * 8 + (s[q++] - '0');
		if (st->bytes && cp > 0xff)
			ESCAPE_FAIL(p, q, "octal escape above \\377 in a bytes literal");
		add_unit(out, st, cp);
		return q;
	}
	if (c == 'x') {
		cp = read_hex(s, end, q + 1, 2);
		if (cp < 0)
			ESCAPE_FAIL(p, q - 1, "truncated \\xXX escape");
		add_unit(out, st, cp);
		return q + 3;
	}
	if (!st->bytes && (c == 'u' || c == 'U')) {
		int ndig = c == 'u' ? 4 : 8;

		cp = read_hex(s, end, q + 1, ndig);
		if (cp < 0)
			ESCAPE_FAIL(p, q - 1, "truncated \\%c escape", c);
		if (cp > 0x10ffff)
			ESCAPE_FAIL(p, q - 1, "escape \\%c beyond U+10FFFF", c);
		if (cp >= 0xd800 && cp <= 0xdfff)
			ESCAPE_FAIL(p, q - 1, "surrogate code point U+%04lX is not supported", cp);
		add_utf8(out, (unsigned long)cp);
		return q + 1 + (size_t)ndig;
	}
	if (!st->bytes && c == 'N')
		ESCAPE_FAIL(p, q - 1, "\\N{...} escapes are not supported");
	/* Python keeps an unknown escape as it is, backslash included. */
	buf_addch(out, '\\');
	buf_addch(out, c);
	return q + 1;
}

/* Decodes the body of one string literal into out. */
static int decode_string(struct pylit_parser *p, const struct pylex_str *st,
			 struct buf *out)
{
	const char *s = p->s;
	size_t q = st->body;

	buf_grow(out, st->body_end - st->body);
	while (q < st->body_end) {
		size_t run = q;
		char c;

		/* Copy plain runs whole: wrapper modules hold kernel sources of many KB. */
		while (run < st->body_end && s[run] != '\\' && s[run] != '\r' &&
		       (unsigned char)s[run] < 0x80)
			run++;
		buf_add(out, s + q, run - q);
		q = run;
		if (q >= st->body_end)
			break;
		c = s[q];
		if (st->bytes && (unsigned char)c >= 0x80)
			return pylit_fail(p, q, "bytes can only contain ASCII literal characters");
		if (c == '\r' && q + 1 < st->body_end && s[q + 1] == '\n') {
			q++;	/* source line ends read as "\n", as Python does */
		} else if (c == '\\' && !st->raw) {
			q = decode_escape(p, st, q + 1, out);
			if (!q)
				return -1;
		} else {
			buf_addch(out, c);
			q++;
		}
	}
	return 0;
}

/* One literal piece at p->pos; *st says what it was. */
static int string_piece(struct pylit_parser *p, struct pylex_str *st, struct buf *out)
{
	if (pylex_string_close(p->s, p->n, st) < 0)
		return pylit_fail(p, st->start, "unterminated string");
	if (st->fmt) {
		p->pos = st->end;
		return pylit_fail(p, st->start, "f-strings are not literals");
	}
	if (decode_string(p, st, out) < 0)
		return -1;
	p->pos = st->end;
	return 0;
}

int pylit_parse_string(struct pylit_parser *p, struct pylit **out)
{
	struct buf *b = &p->scratch;
	struct pylex_str st;
	size_t start = p->pos, after;
	int bytes;

	buf_reset(b);
	pylex_string_at(p->s, p->n, p->pos, &st);
	bytes = st.bytes;
	for (;;) {
		if (string_piece(p, &st, b) < 0)
			return -1;
		after = p->pos;
		pylit_skip_space(p);
		if (!pylex_string_at(p->s, p->n, p->pos, &st)) {
			p->pos = after;
			break;
		}
		if (st.bytes != bytes)
			return pylit_fail(p, p->pos, "cannot mix bytes and str literals");
	}
	*out = pylit_node_new(bytes ? PYLIT_BYTES : PYLIT_STR, start);
	/* An exact copy: the scratch buffer's slack would stay with every string. */
	(*out)->slen = b->len;
	(*out)->s = xmalloc(b->len + 1);
	memcpy((*out)->s, b->buf, b->len + 1);
	return 0;
}

/* Digits of `base` with single '_' between them, from p->pos; the count read. */
static size_t digits(struct pylit_parser *p, int base, struct buf *out)
{
	size_t count = 0;

	while (p->pos < p->n) {
		char c = p->s[p->pos];
		int d = hexval(c);

		if (c == '_' && p->pos + 1 < p->n && hexval(p->s[p->pos + 1]) >= 0 &&
		    hexval(p->s[p->pos + 1]) < base && (count || base != 10)) {
			p->pos++;
			continue;
		}
		if (d < 0 || d >= base)
			break;
		buf_addch(out, c);
		p->pos++;
		count++;
	}
	return count;
}

/* The integer in `text` (digits of `base`), or big with an approximation. */
static void int_value(struct pylit *v, const char *text, int base, int neg)
{
	unsigned long long mag = 0, limit = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	double approx = 0;
	const char *c;
	int over = 0;

	for (c = text; *c; c++) {
		unsigned d = (unsigned)hexval(*c);

		approx = approx * base + d;
		if (mag > (limit - d) / (unsigned)base)
			over = 1;
		else
			mag = mag * (unsigned)base + d;
	}
	if (over) {
		v->big = 1;
		v->f = neg ? -approx : approx;
		v->s = xstrfmt("%s%s%s", neg ? "-" : "",
			       base == 16 ? "0x" : base == 8 ? "0o" : base == 2 ? "0b" : "", text);
		v->slen = strlen(v->s);
	} else {
		v->i = neg ? (long long)(0 - mag) : (long long)mag;
	}
}

static int number_end(struct pylit_parser *p, size_t start)
{
	char tmp[16];

	if (p->pos < p->n && (p->s[p->pos] == 'j' || p->s[p->pos] == 'J'))
		return pylit_fail(p, start, "complex numbers are not supported");
	if (p->pos < p->n && (pylex_ident_char((unsigned char)p->s[p->pos]) ||
			      p->s[p->pos] == '.'))
		return pylit_fail(p, p->pos, "invalid number literal: unexpected %s",
			    pylit_what_at(p, p->pos, tmp));
	return 0;
}

static int parse_radix(struct pylit_parser *p, size_t start, int neg, struct pylit **out)
{
	static const struct { char letter; int base; } radix[] = {
		{ 'x', 16 }, { 'o', 8 }, { 'b', 2 },
	};
	struct buf text = BUF_INIT;
	int base = 0;
	size_t i;

	for (i = 0; i < sizeof(radix) / sizeof(radix[0]); i++)
		if ((p->s[p->pos + 1] | 0x20) == radix[i].letter)
			base = radix[i].base;
	p->pos += 2;
	if (!digits(p, base, &text) || number_end(p, start) < 0) {
		buf_release(&text);
		return p->msg.len ? -1 : pylit_fail(p, start, "invalid base-%d literal", base);
	}
	*out = pylit_node_new(PYLIT_INT, start);
	int_value(*out, text.buf, base, neg);
	buf_release(&text);
	return 0;
}

int pylit_parse_number(struct pylit_parser *p, size_t start, int neg, struct pylit **out)
{
	struct buf text = BUF_INIT;
	size_t intdigits;
	int is_float = 0;

	if (p->s[p->pos] == '0' && p->pos + 1 < p->n &&
	    p->s[p->pos + 1] && strchr("xXoObB", p->s[p->pos + 1]))
		return parse_radix(p, start, neg, out);
	if (neg)
		buf_addch(&text, '-');
	intdigits = digits(p, 10, &text);
	if (pylit_peek(p) == '.') {
		is_float = 1;
		buf_addch(&text, '.');
		p->pos++;
		if (!digits(p, 10, &text) && !intdigits) {
			buf_release(&text);
			return pylit_fail(p, start, "invalid number literal");
		}
	}
	if (pylit_peek(p) == 'e' || pylit_peek(p) == 'E') {
		is_float = 1;
		buf_addch(&text, 'e');
		p->pos++;
		if (pylit_peek(p) == '+' || pylit_peek(p) == '-')
			buf_addch(&text, p->s[p->pos++]);
		if (!digits(p, 10, &text)) {
			buf_release(&text);
			return pylit_fail(p, start, "invalid exponent in number literal");
		}
	}
	if (number_end(p, start) < 0) {
		buf_release(&text);
		return -1;
	}
	if (!is_float) {
		const char *d = text.buf + neg;

		if (d[0] == '0' && strspn(d, "0") != strlen(d)) {
			buf_release(&text);
			return pylit_fail(p, start, "leading zeros in a decimal integer are not allowed");
		}
		*out = pylit_node_new(PYLIT_INT, start);
		int_value(*out, d, 10, neg);
	} else {
		*out = pylit_node_new(PYLIT_FLOAT, start);
		(*out)->f = strtod(text.buf, NULL);
	}
	buf_release(&text);
	return 0;
}

