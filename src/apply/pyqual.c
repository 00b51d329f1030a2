/*
 * The function around a source line (pyqual.h).
 */
#include <ctype.h>
#include <string.h>

#include "apply/pyqual.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

#define PYQ_DEPTH 32

struct scope {
	long indent;
	int is_def;
	char name[128];
};

struct scan {
	struct scope s[PYQ_DEPTH];
	int n;
	int brackets;		/* open ( [ { carried to the next line */
	char quote;		/* the quote char of an open triple-quoted string, or 0 */
};

/* Brackets and triple quotes of one line, so that the next line knows it continues. */
static void carry(struct scan *sc, const char *p, const char *end)
{
	while (p < end) {
		if (sc->quote) {
			if (end - p >= 3 && p[0] == sc->quote && p[1] == sc->quote && p[2] == sc->quote) {
				sc->quote = 0;
				p += 3;
			} else {
				p += 1 + (*p == '\\' && p + 1 < end);
			}
		} else if (*p == '#') {
			return;
		} else if ((*p == '"' || *p == '\'') && end - p >= 3 && p[1] == *p && p[2] == *p) {
			sc->quote = *p;
			p += 3;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < end && *p != q)
				p += 1 + (*p == '\\' && p + 1 < end);
			p++;
		} else {
			sc->brackets += (*p == '(' || *p == '[' || *p == '{') - (*p == ')' || *p == ']' || *p == '}');
			p++;
		}
	}
	if (sc->brackets < 0)
		sc->brackets = 0;
}

/* A "def NAME" / "async def NAME" / "class NAME" line opens a scope. */
static void open_scope(struct scan *sc, long indent, const char *p, const char *end)
{
	int is_def = 1;
	size_t n = 0;

	if (end - p > 6 && !memcmp(p, "async ", 6))
		p += 6;
	if (end - p > 4 && !memcmp(p, "def ", 4))
		p += 4;
	else if (end - p > 6 && !memcmp(p, "class ", 6))
		p += 6, is_def = 0;
	else
		return;
	while (p < end && *p == ' ')
		p++;
	if (sc->n == PYQ_DEPTH)
		return;
	while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_') && n < sizeof(sc->s[0].name) - 1)
		n++;
	sc->s[sc->n].indent = indent;
	sc->s[sc->n].is_def = is_def;
	memcpy(sc->s[sc->n].name, p, n);
	sc->s[sc->n].name[n] = '\0';
	sc->n++;
}

static void logical_line(struct scan *sc, const char *p, const char *end)
{
	long indent = 0;

	for (; p < end && (*p == ' ' || *p == '\t'); p++)
		indent = *p == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
	if (p == end || *p == '#' || *p == '\r')
		return;
	while (sc->n && sc->s[sc->n - 1].indent >= indent)
		sc->n--;
	open_scope(sc, indent, p, end);
}

static char *qualname(const struct scan *sc, const char *function)
{
	struct buf b = BUF_INIT;
	int i;

	if (!sc->n || !sc->s[sc->n - 1].is_def || strcmp(sc->s[sc->n - 1].name, function))
		return NULL;
	for (i = 0; i < sc->n; i++) {
		if (sc->s[i].is_def && i < sc->n - 1)
			break;	/* nested in a function: no attribute path */
		buf_addf(&b, "%s%s", i ? "." : "", sc->s[i].name);
	}
	if (i < sc->n) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

char *py_qualname_at(const char *text, size_t len, long line, const char *function)
{
	struct scan sc = { .n = 0 };
	const char *p = text, *end = text + len;
	long n;

	if (!function || line < 1)
		return NULL;
	for (n = 1; n <= line && p < end; n++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		if (!sc.quote && !sc.brackets)
			logical_line(&sc, p, eol);
		carry(&sc, p, eol);
		p = eol + (eol < end);
	}
	return n > line ? qualname(&sc, function) : NULL;
}

const char *py_script_in(const char *const *cmd)
{
	size_t n;

	for (; cmd && *cmd; cmd++) {
		n = strlen(*cmd);
		if (n > 3 && !strcmp(*cmd + n - 3, ".py"))
			return *cmd;
	}
	return NULL;
}

char *py_module_of(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t n, i;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || strcmp(dot, ".py"))
		return NULL;
	n = (size_t)(dot - base);
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)base[i]) || base[i] == '_') || (i == 0 && isdigit((unsigned char)base[i])))
			return NULL;
	return n ? xstrndup(base, n) : NULL;
}
