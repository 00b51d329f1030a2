/*
 * Inductor's lookup key of a kernel (lookup.h). Each step mirrors the
 * Python it reproduces: linecache's universal newlines, inspect's end of
 * an indented block, textwrap.dedent emptying whitespace-only lines, and
 * the regex that cuts the function's name.
 */
#include <ctype.h>
#include <string.h>

#include "apply/lookup.h"
#include "util/sha256.h"
#include "banned.h"

/* Python's str.isspace() for ASCII text. */
static int py_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
	       c == 0x1c || c == 0x1d || c == 0x1e || c == 0x1f;
}

/* The module's text with universal newlines and a final newline (linecache). */
static void universal_lines(const char *p, size_t len, struct buf *out)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] == '\r') {
			buf_addch(out, '\n');
			if (i + 1 < len && p[i + 1] == '\n')
				i++;
		} else {
			buf_addch(out, p[i]);
		}
	}
	if (out->len && out->buf[out->len - 1] != '\n')
		buf_addch(out, '\n');
}

struct line {
	const char *p;
	size_t n;		/* with its newline */
};

static size_t next_line(const char *text, size_t len, size_t at, struct line *l)
{
	const char *nl = memchr(text + at, '\n', len - at);
	size_t end = nl ? (size_t)(nl - text) + 1 : len;

	l->p = text + at;
	l->n = end - at;
	return end;
}

/* lookup.py _bracket_depth: brackets opened minus closed before any '#'. */
static long bracket_depth(const struct line *l)
{
	long d = 0;
	size_t i;

	for (i = 0; i < l->n && l->p[i] != '#'; i++) {
		if (strchr("([{", l->p[i]) && l->p[i])
			d++;
		else if (strchr(")]}", l->p[i]) && l->p[i])
			d--;
	}
	return d;
}

/* Leading whitespace of a line; *blank set when nothing else is on it. */
static size_t indent_of(const struct line *l, int *blank)
{
	size_t i = 0;

	while (i < l->n && py_space((unsigned char)l->p[i]))
		i++;
	*blank = i == l->n;
	return i;
}

/* re.match(r"def\s+NAME\s*\(", line) */
static int is_def(const struct line *l, const char *name)
{
	size_t i = 3, nl = strlen(name);

	if (l->n < 4 || memcmp(l->p, "def", 3) || !py_space((unsigned char)l->p[3]))
		return 0;
	while (i < l->n && py_space((unsigned char)l->p[i]))
		i++;
	if (l->n - i < nl || memcmp(l->p + i, name, nl))
		return 0;
	i += nl;
	while (i < l->n && py_space((unsigned char)l->p[i]))
		i++;
	return i < l->n && l->p[i] == '(';
}

/* Where the function's block ends: lookup.py function_source's loop. */
static size_t block_end(const char *t, size_t len, size_t after_def, long depth)
{
	size_t at = after_def, end = after_def, body_col = 0;
	int have_body = 0;
	struct line l;

	while (at < len) {
		size_t next = next_line(t, len, at, &l), col;
		int blank;

		col = indent_of(&l, &blank);
		if (depth > 0) {
			depth += bracket_depth(&l);
			end = next;
		} else if (!blank) {
			int comment = l.p[col] == '#';

			if (col == 0)
				break;
			if (!(comment && (!have_body || col < body_col))) {
				if (!have_body && !comment) {
					have_body = 1;
					body_col = col;
				}
				end = next;
			}
		}
		at = next;
	}
	return end;
}

/* textwrap.dedent with a first line at column 0: whitespace-only lines emptied. */
static void add_dedented(struct buf *out, const char *p, size_t n)
{
	size_t at = 0;
	struct line l;

	while (at < n) {
		size_t next = next_line(p, n, at, &l), i = 0;

		while (i < l.n && (l.p[i] == ' ' || l.p[i] == '\t'))
			i++;
		if (i && (i == l.n || l.p[i] == '\n'))
			buf_add(out, l.p + i, l.n - i);
		else
			buf_add(out, l.p, l.n);
		at = next;
	}
}

int lookup_function_source(const char *text, size_t len, const char *name, struct buf *out)
{
	struct buf t = BUF_INIT;
	size_t at = 0, end;
	struct line l;
	int found = 0;

	universal_lines(text, len, &t);
	while (at < t.len && !found) {
		size_t next = next_line(t.buf, t.len, at, &l);

		if (is_def(&l, name))
			found = 1;
		else
			at = next;
	}
	if (found) {
		next_line(t.buf, t.len, at, &l);
		end = block_end(t.buf, t.len, at + l.n, bracket_depth(&l));
		add_dedented(out, t.buf + at, end - at);
	}
	buf_release(&t);
	return found ? 0 : -1;
}

void lookup_size_hints(const char *text, size_t len, struct buf *out)
{
	static const char key[] = "size_hints={";
	const char *p = text, *end = text + len;

	for (; (size_t)(end - p) >= sizeof(key) - 1; p++) {
		const char *q;

		if (memcmp(p, key, sizeof(key) - 1))
			continue;
		/* (\{.*?\}): '.' stops at a newline, so the '}' is on the same line */
		for (q = p + sizeof(key) - 1; q < end && *q != '\n' && *q != '}'; q++)
			;
		if (q < end && *q == '}') {
			buf_add(out, p + sizeof(key) - 2, (size_t)(q - p) - (sizeof(key) - 2) + 1);
			return;
		}
	}
	buf_adds(out, "None");
}

void lookup_hash(const char *size_hints, const char *src, size_t n, char key[65])
{
	struct sha256 h;
	size_t a = 0, b = n, i;

	while (a < b && py_space((unsigned char)src[a]))
		a++;
	while (b > a && py_space((unsigned char)src[b - 1]))
		b--;
	sha256_init(&h);
	sha256_update(&h, size_hints, strlen(size_hints));
	/* re.sub(r"^def [^(]+\(", "(", ..., count=1) */
	if (b - a > 4 && !memcmp(src + a, "def ", 4)) {
		for (i = a + 4; i < b && src[i] != '('; i++)
			;
		if (i < b && i > a + 4)
			a = i;
	}
	sha256_update(&h, src + a, b - a);
	sha256_hex(&h, key);
}

int lookup_hash_of_module(const char *text, size_t len, const char *name, char key[65])
{
	struct buf src = BUF_INIT, hints = BUF_INIT;
	int ret = lookup_function_source(text, len, name, &src);

	if (ret == 0) {
		lookup_size_hints(text, len, &hints);
		lookup_hash(hints.buf, src.buf, src.len, key);
	}
	buf_release(&src);
	buf_release(&hints);
	return ret;
}
