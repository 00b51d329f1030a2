/*
 * The Python source scanner (see pysrc.h). One pass splits the span into
 * logical lines, tracking strings, comments, brackets and backslash
 * continuations; a second pass over those statements finds the `def`s,
 * their decorators, parameters and bodies.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/pylex.h"
#include "parse/pysrc.h"
#include "util/mem.h"
#include "banned.h"

/* Deeper bracket nesting than Python itself accepts (200). */
#define MAX_DEPTH 200

/* State of the statement splitter. */
struct splitter {
	const char *s;		/* the source */
	size_t n;		/* its length */
	size_t pos;		/* next byte */
	size_t line;		/* physical line of s[pos] */
	struct buf *err;	/* where errors go */
};

static int split_fail(struct splitter *sp, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int split_fail(struct splitter *sp, size_t off, const char *fmt, ...)
{
	size_t line, col;
	va_list ap;

	pylex_where(sp->s, off, &line, &col);
	buf_addf(sp->err, "line %zu column %zu: ", line, col);
	va_start(ap, fmt);
	buf_vaddf(sp->err, fmt, ap);
	va_end(ap);
	return -1;
}

static char closer_of(char c)
{
	return c == '(' ? ')' : c == '[' ? ']' : '}';
}

/* Skips a string literal at sp->pos; -1 when it never ends. */
static int skip_string(struct splitter *sp, struct pylex_str *st)
{
	if (pylex_string_close(sp->s, sp->n, st) < 0)
		return split_fail(sp, st->start, "unterminated string");
	sp->line += st->newlines;
	sp->pos = st->end;
	return 0;
}

/* A bracket closer at sp->pos checked against the open ones. */
static int close_bracket(struct splitter *sp, char *stack, size_t *opened, int *depth)
{
	char c = sp->s[sp->pos];

	if (!*depth)
		return split_fail(sp, sp->pos, "unmatched '%c'", c);
	if (stack[*depth - 1] != c)
		return split_fail(sp, sp->pos, "'%c' does not match '%c'", c,
				  sp->s[opened[*depth - 1]]);
	(*depth)--;
	return 0;
}

/* Reads one statement from sp->pos into *st; returns 0 or -1. */
static int scan_stmt(struct splitter *sp, struct pysrc_stmt *st)
{
	const char *s = sp->s;
	char stack[MAX_DEPTH];
	size_t opened[MAX_DEPTH];
	int depth = 0;
	struct pylex_str str;

	st->end = sp->pos;
	while (sp->pos < sp->n) {
		char c = s[sp->pos];

		if ((c == '\'' || c == '"' || pylex_ident_start((unsigned char)c)) &&
		    pylex_string_at(s, sp->n, sp->pos, &str)) {
			if (skip_string(sp, &str) < 0)
				return -1;
		} else if (pylex_ident_char((unsigned char)c)) {
			sp->pos = pylex_ident_end(s, sp->n, sp->pos);
		} else if (c == '#') {
			while (sp->pos < sp->n && s[sp->pos] != '\n')
				sp->pos++;
			continue;
		} else if (c == '\\' && sp->pos + 1 < sp->n &&
			   (s[sp->pos + 1] == '\n' || s[sp->pos + 1] == '\r')) {
			sp->pos += 2 + (s[sp->pos + 1] == '\r' && sp->pos + 2 < sp->n &&
					s[sp->pos + 2] == '\n');
			sp->line++;
			continue;
		} else if (c == '\n') {
			sp->pos++;
			if (!depth) {
				st->end_line = sp->line++;
				return 0;
			}
			sp->line++;
			continue;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			sp->pos++;
			continue;
		} else if (c == '(' || c == '[' || c == '{') {
			if (depth == MAX_DEPTH)
				return split_fail(sp, sp->pos, "brackets nested too deeply");
			opened[depth] = sp->pos;
			stack[depth++] = closer_of(c);
			sp->pos++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (close_bracket(sp, stack, opened, &depth) < 0)
				return -1;
			sp->pos++;
		} else {
			sp->pos++;
		}
		st->end = sp->pos;
	}
	if (depth)	/* as Python, name the innermost bracket left open */
		return split_fail(sp, opened[depth - 1], "'%c' is never closed",
				  s[opened[depth - 1]]);
	st->end_line = sp->line;
	return 0;
}

/* Indentation of the physical line at sp->pos, leaving pos after it. */
static unsigned read_indent(struct splitter *sp)
{
	unsigned indent = 0;

	while (sp->pos < sp->n) {
		char c = sp->s[sp->pos];

		if (c == ' ')
			indent++;
		else if (c == '\t')
			indent = (indent / 8 + 1) * 8;
		else if (c == '\f')
			indent = 0;
		else
			break;
		sp->pos++;
	}
	return indent;
}

/* Comment-only lines collect until a statement takes them or a blank line drops them. */
struct comment_block {
	size_t off, end, line;	/* the block, and its first line */
	int open;		/* lines are being collected */
};

static void next_line(struct splitter *sp)
{
	const char *nl = memchr(sp->s + sp->pos, '\n', sp->n - sp->pos);

	sp->pos = nl ? (size_t)(nl - sp->s) + 1 : sp->n;
	sp->line++;
}

static int split_stmts(struct pysrc *src, struct buf *err)
{
	struct splitter sp = { src->s, src->n, 0, 1, err };
	struct comment_block cb = { 0, 0, 0, 0 };

	while (sp.pos < sp.n) {
		struct pysrc_stmt st;
		unsigned indent = read_indent(&sp);
		char c = sp.pos < sp.n ? sp.s[sp.pos] : '\n';

		if (c == '\n' || c == '\r') {
			cb.open = 0;
			next_line(&sp);
			continue;
		}
		if (c == '#') {
			if (!cb.open) {
				cb.off = sp.pos;
				cb.line = sp.line;
				cb.open = 1;
			}
			next_line(&sp);
			cb.end = sp.pos;
			continue;
		}
		memset(&st, 0, sizeof(st));
		st.off = sp.pos;
		st.line = sp.line;
		st.indent = indent;
		if (cb.open) {
			st.comment_off = cb.off;
			st.comment_end = cb.end;
			st.comment_line = cb.line;
			cb.open = 0;
		}
		if (scan_stmt(&sp, &st) < 0)
			return -1;
		ALLOC_GROW(src->stmts, src->nstmts + 1, src->stmts_alloc);
		src->stmts[src->nstmts++] = st;
	}
	return 0;
}

int pysrc_starts_word(const char *s, size_t off, size_t end, const char *word)
{
	size_t k = strlen(word);

	return end - off >= k && !memcmp(s + off, word, k) &&
	       (off + k == end || !pylex_ident_char((unsigned char)s[off + k]));
}

size_t pysrc_skip_blanks(const char *s, size_t pos, size_t end)
{
	while (pos < end && (s[pos] == ' ' || s[pos] == '\t'))
		pos++;
	return pos;
}

/* What walk_top looks for. */
enum walk_goal {
	FIND_CHAR,	/* a given character at bracket depth 0 */
	FIND_CLOSER,	/* the closer of the bracket at `from` */
};

/* 1 when the '=' at s[q] is an assignment, not part of ==, <=, >=, != or :=. */
static int lone_equals(const char *s, size_t from, size_t end, size_t q)
{
	if (q + 1 < end && s[q + 1] == '=')
		return 0;
	return q == from || !memchr("=<>!:", s[q - 1], 5);
}

/* Scans s[from..end) for `goal`, skipping strings and comments; -1 when not found. */
static long walk_top(const char *s, size_t from, size_t end, char c, enum walk_goal goal)
{
	struct pylex_str st;
	size_t q = from;
	int depth = 0;

	while (q < end) {
		char ch = s[q];

		if ((ch == '\'' || ch == '"' || pylex_ident_start((unsigned char)ch)) &&
		    pylex_string_at(s, end, q, &st)) {
			if (pylex_string_close(s, end, &st) < 0)
				return -1;
			q = st.end;
			continue;
		}
		if (pylex_ident_char((unsigned char)ch)) {
			q = pylex_ident_end(s, end, q);
			continue;
		}
		if (ch == '#') {
			while (q < end && s[q] != '\n')
				q++;
			continue;
		}
		if (ch == '(' || ch == '[' || ch == '{') {
			depth++;
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (!depth)
				return -1;	/* the search left its bracket */
			if (--depth == 0 && goal == FIND_CLOSER)
				return (long)q;
		} else if (!depth && goal == FIND_CHAR && ch == c &&
			   (c != '=' || lone_equals(s, from, end, q))) {
			return (long)q;
		}
		q++;
	}
	return -1;
}

long pysrc_match(const char *s, size_t end, size_t open)
{
	return walk_top(s, open, end, 0, FIND_CLOSER);
}

long pysrc_find_top(const char *s, size_t from, size_t end, char c)
{
	return walk_top(s, from, end, c, FIND_CHAR);
}

static int is_trim(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\\';
}

static void trim(const char *s, size_t *off, size_t *len)
{
	while (*len && is_trim(s[*off])) {
		(*off)++;
		(*len)--;
	}
	while (*len && is_trim(s[*off + *len - 1]))
		(*len)--;
}

/* Fills one argument from s[off..end): an optional "kw=" then the value. */
static void set_arg(const char *s, size_t off, size_t end, struct pysrc_arg *a)
{
	size_t len = end - off, k;

	trim(s, &off, &len);
	memset(a, 0, sizeof(*a));
	if (len && pylex_ident_start((unsigned char)s[off])) {
		k = pylex_ident_end(s, off + len, off);
		k = pysrc_skip_blanks(s, k, off + len);
		if (k < off + len && s[k] == '=' && (k + 1 >= off + len || s[k + 1] != '=')) {
			a->kw_off = off;
			a->kw_len = pylex_ident_end(s, off + len, off) - off;
			len -= k + 1 - off;
			off = k + 1;
			trim(s, &off, &len);
		}
	}
	a->off = off;
	a->len = len;
}

int pysrc_split_args(const char *s, size_t end, size_t open,
		     struct pysrc_args *out, size_t *close)
{
	long m = pysrc_match(s, end, open);
	size_t start = open + 1;

	out->nr = 0;
	if (m < 0)
		return -1;
	*close = (size_t)m;
	while (start < *close) {
		long comma = pysrc_find_top(s, start, *close, ',');
		size_t stop = comma < 0 ? *close : (size_t)comma;
		struct pysrc_arg a;

		set_arg(s, start, stop, &a);
		if (a.len || a.kw_len) {
			ALLOC_GROW(out->v, out->nr + 1, out->alloc);
			out->v[out->nr++] = a;
		}
		start = stop + 1;
	}
	return 0;
}

void pysrc_args_release(struct pysrc_args *a)
{
	free(a->v);
	a->v = NULL;
	a->nr = a->alloc = 0;
}

/* Reads one parameter from its (already split) text. */
static int read_param(const char *s, const struct pysrc_arg *a, struct pysrc_param *p)
{
	size_t off = a->off, end = a->off + a->len;
	long eq, colon;

	memset(p, 0, sizeof(*p));
	if (a->kw_len) {
		/* "name=default": the splitter took the name for a keyword. */
		p->name_off = a->kw_off;
		p->name_len = a->kw_len;
		p->def_off = a->off;
		p->def_len = a->len;
		return 1;
	}
	while (off < end && s[off] == '*') {
		p->stars++;
		off++;
	}
	if (off >= end || !pylex_ident_start((unsigned char)s[off]))
		return 0;	/* a bare '*' or '/' */
	p->name_off = off;
	p->name_len = pylex_ident_end(s, end, off) - off;
	eq = pysrc_find_top(s, off, end, '=');
	colon = pysrc_find_top(s, off, eq < 0 ? end : (size_t)eq, ':');
	if (colon >= 0) {
		p->ann_off = (size_t)colon + 1;
		p->ann_len = (eq < 0 ? end : (size_t)eq) - p->ann_off;
		trim(s, &p->ann_off, &p->ann_len);
	}
	if (eq >= 0) {
		p->def_off = (size_t)eq + 1;
		p->def_len = end - p->def_off;
		trim(s, &p->def_off, &p->def_len);
	}
	return 1;
}

static void read_params(struct pysrc_func *f, const char *s, const struct pysrc_args *args)
{
	size_t i;

	f->params = xcalloc(args->nr ? args->nr : 1, sizeof(*f->params));
	for (i = 0; i < args->nr; i++)
		if (read_param(s, &args->v[i], &f->params[f->nparams]))
			f->nparams++;
}

/* The body of the def at stmts[i]: the rest of its line, or the deeper statements after it. */
static void find_body(struct pysrc *src, size_t i, size_t colon, struct pysrc_func *f)
{
	const struct pysrc_stmt *def = &src->stmts[i];
	size_t j = i + 1;

	f->body_off = colon + 1;
	f->body_line = def->line + pylex_count_lines(src->s, def->off, f->body_off);
	f->body_end = def->end;
	if (pysrc_skip_blanks(src->s, f->body_off, def->end) < def->end) {
		f->body_stmts_end = j;
		return;
	}
	while (j < src->nstmts && src->stmts[j].indent > def->indent)
		j++;
	if (j > i + 1)
		f->body_end = src->stmts[j - 1].end;
	f->body_stmts_end = j;
}

/* Reads the def statement stmts[i]; 0 when it is not a well-formed def. */
static int read_def(struct pysrc *src, size_t i, struct pysrc_func *f)
{
	const struct pysrc_stmt *st = &src->stmts[i];
	const char *s = src->s;
	struct pysrc_args args = PYSRC_ARGS_INIT;
	size_t q = st->off, close;
	long colon;

	if (pysrc_starts_word(s, q, st->end, "async"))
		q = pysrc_skip_blanks(s, q + 5, st->end);
	if (!pysrc_starts_word(s, q, st->end, "def"))
		return 0;
	q = pysrc_skip_blanks(s, q + 3, st->end);
	if (q >= st->end || !pylex_ident_start((unsigned char)s[q]))
		return 0;
	memset(f, 0, sizeof(*f));
	f->name_off = q;
	f->name_len = pylex_ident_end(s, st->end, q) - q;
	q = pysrc_skip_blanks(s, q + f->name_len, st->end);
	if (q >= st->end || s[q] != '(' || pysrc_split_args(s, st->end, q, &args, &close) < 0) {
		pysrc_args_release(&args);
		return 0;
	}
	colon = pysrc_find_top(s, close + 1, st->end, ':');
	if (colon < 0) {
		pysrc_args_release(&args);
		return 0;
	}
	read_params(f, s, &args);
	pysrc_args_release(&args);
	f->line = st->line;
	f->stmt = i;
	while (f->ndecorators < i && src->stmts[i - f->ndecorators - 1].indent == st->indent &&
	       s[src->stmts[i - f->ndecorators - 1].off] == '@')
		f->ndecorators++;
	find_body(src, i, (size_t)colon, f);
	return 1;
}

int pysrc_scan(struct pysrc *src, const char *s, size_t n, struct buf *err)
{
	size_t i;
	int ret;

	src->s = s;
	src->n = n;
	ret = split_stmts(src, err);
	for (i = 0; i < src->nstmts; i++) {
		struct pysrc_func f;

		if (read_def(src, i, &f)) {
			ALLOC_GROW(src->funcs, src->nfuncs + 1, src->funcs_alloc);
			src->funcs[src->nfuncs++] = f;
		}
	}
	return ret;
}

void pysrc_release(struct pysrc *src)
{
	size_t i;

	for (i = 0; i < src->nfuncs; i++)
		free(src->funcs[i].params);
	free(src->funcs);
	free(src->stmts);
	memset(src, 0, sizeof(*src));
}

int pysrc_next_name(struct pysrc_cursor *c, struct pysrc_tok *t)
{
	const char *s = c->s;
	struct pylex_str st;

	while (c->pos < c->end) {
		char ch = s[c->pos];

		if ((ch == '\'' || ch == '"' || pylex_ident_start((unsigned char)ch)) &&
		    pylex_string_at(s, c->end, c->pos, &st)) {
			if (pylex_string_close(s, c->end, &st) < 0)
				return 0;
			c->line += st.newlines;
			c->pos = st.end;
		} else if (pylex_ident_start((unsigned char)ch)) {
			size_t q = c->pos, back = c->pos;

			while (back > 0 && (s[back - 1] == ' ' || s[back - 1] == '\t'))
				back--;
			t->after_dot = back > 0 && s[back - 1] == '.';
			q = pylex_ident_end(s, c->end, q);
			while (q + 1 < c->end && s[q] == '.' && pylex_ident_start((unsigned char)s[q + 1]))
				q = pylex_ident_end(s, c->end, q + 1);
			t->off = c->pos;
			t->len = q - c->pos;
			t->line = c->line;
			c->pos = q;
			return 1;
		} else if (ch >= '0' && ch <= '9') {
			c->pos = pylex_ident_end(s, c->end, c->pos);
		} else if (ch == '#') {
			while (c->pos < c->end && s[c->pos] != '\n')
				c->pos++;
		} else {
			c->line += ch == '\n';
			c->pos++;
		}
	}
	return 0;
}
