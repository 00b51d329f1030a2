/*
 * The Python literal reader (see pylit.h): a recursive-descent parser over
 * a (pointer, length) span that builds a struct pylit tree.
 *
 * Errors are written to the parser's own message buffer and copied to the
 * caller's `err` only when the whole parse fails, because lenient mode
 * retries a failed value as raw text (PYLIT_EXPR) and the first failure is
 * then no error at all.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/pylex.h"
#include "parse/pylit.h"
#include "parse/pylit_scalar.h"
#include "util/mem.h"
#include "banned.h"

/* Where a value sits, which decides what may follow it. */
enum ctx {
	CTX_TOP,	/* the value being parsed */
	CTX_ITEM,	/* list, tuple, set element or call argument */
	CTX_KEY,	/* dict key, or the first element of a brace */
};

static int parse_value(struct pylit_parser *p, enum ctx ctx, struct pylit **out);

void pylit_free(struct pylit *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		pylit_free(v->items[i]);
		if (v->keys)
			pylit_free(v->keys[i]);
		if (v->kw)
			free(v->kw[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->kw);
	free(v->s);
	free(v);
}

/* Python keywords that begin expressions which are never literals. */
static const char *const expr_keywords[] = {
	"lambda", "not", "await", "yield", "if", "else", "for", "in", "is",
	"and", "or", NULL,
};

static int is_expr_keyword(const char *s, size_t len)
{
	const char *const *k;

	for (k = expr_keywords; *k; k++)
		if (strlen(*k) == len && !memcmp(*k, s, len))
			return 1;
	return 0;
}

/* An identifier, or a dotted name, starting at p->pos. */
static size_t dotted_name_end(struct pylit_parser *p)
{
	size_t q = pylex_ident_end(p->s, p->n, p->pos);

	while (q + 1 < p->n && p->s[q] == '.' &&
	       pylex_ident_start((unsigned char)p->s[q + 1]))
		q = pylex_ident_end(p->s, p->n, q + 1);
	return q;
}

static void add_item(struct pylit *v, size_t *alloc, struct pylit *key,
		     char *kw, struct pylit *item)
{
	size_t old = *alloc;

	ALLOC_GROW(v->items, v->n + 1, *alloc);
	if (*alloc != old) {
		if (v->keys)
			v->keys = xrealloc(v->keys, *alloc * sizeof(*v->keys));
		if (v->kw)
			v->kw = xrealloc(v->kw, *alloc * sizeof(*v->kw));
	}
	/* Earlier slots of a lazily made array are NULL: calloc. */
	if (key && !v->keys)
		v->keys = xcalloc(*alloc, sizeof(*v->keys));
	if (kw && !v->kw)
		v->kw = xcalloc(*alloc, sizeof(*v->kw));
	if (v->keys)
		v->keys[v->n] = key;
	if (v->kw)
		v->kw[v->n] = kw;
	v->items[v->n++] = item;
}

/* The keyword of a call argument at p->pos ("name=" but not "name=="), or NULL. */
static char *keyword_at(struct pylit_parser *p)
{
	size_t q, e;

	if (!pylex_ident_start((unsigned char)p->s[p->pos]))
		return NULL;
	e = pylex_ident_end(p->s, p->n, p->pos);
	for (q = e; q < p->n && (p->s[q] == ' ' || p->s[q] == '\t'); q++)
		;
	if (q >= p->n || p->s[q] != '=' || (q + 1 < p->n && p->s[q + 1] == '='))
		return NULL;
	{
		char *kw = xstrndup(p->s + p->pos, e - p->pos);

		p->pos = q + 1;
		return kw;
	}
}

static int expect_sep(struct pylit_parser *p, int close, const char *what)
{
	char tmp[16];

	pylit_skip_space(p);
	if (pylit_peek(p) == ',') {
		p->pos++;
		return 0;
	}
	if (pylit_peek(p) == close)
		return 0;
	if (p->pos >= p->n)
		return -1;	/* the caller reports the unclosed bracket */
	return pylit_fail(p, p->pos, "expected ',' or '%c' after %s, found %s",
		    close, what, pylit_what_at(p, p->pos, tmp));
}

/* The input ended inside the bracket at `open`; as Python, name the innermost one. */
static int unclosed(struct pylit_parser *p, size_t open)
{
	if (p->eof_reported)
		return -1;
	p->eof_reported = 1;
	return pylit_fail(p, open, "'%c' is never closed", p->s[open]);
}

/* Arguments of a call whose '(' is at p->pos. */
static int parse_call_args(struct pylit_parser *p, struct pylit *call)
{
	size_t open = p->pos, alloc = 0;

	p->pos++;
	for (;;) {
		struct pylit *arg;
		char *kw;

		pylit_skip_space(p);
		if (p->pos >= p->n)
			return unclosed(p, open);
		if (pylit_peek(p) == ')')
			break;
		kw = keyword_at(p);
		if (parse_value(p, CTX_ITEM, &arg) < 0) {
			free(kw);
			return p->pos >= p->n ? unclosed(p, open) : -1;
		}
		add_item(call, &alloc, NULL, kw, arg);
		if (expect_sep(p, ')', "a call argument") < 0)
			return p->pos >= p->n ? unclosed(p, open) : -1;
	}
	p->pos++;
	return 0;
}

static int parse_name(struct pylit_parser *p, struct pylit **out)
{
	static const struct { const char *word; enum pylit_kind kind; int value; } consts[] = {
		{ "True", PYLIT_BOOL, 1 }, { "False", PYLIT_BOOL, 0 },
		{ "None", PYLIT_NONE, 0 },
	};
	size_t start = p->pos, end = dotted_name_end(p), len = end - start, i;
	struct pylit *v;

	if (is_expr_keyword(p->s + start, len))
		return pylit_fail(p, start, "'%.*s' does not start a literal", (int)len, p->s + start);
	for (i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
		if (strlen(consts[i].word) == len && !memcmp(consts[i].word, p->s + start, len)) {
			p->pos = end;
			*out = pylit_node_new(consts[i].kind, start);
			(*out)->i = consts[i].value;
			return 0;
		}
	p->pos = end;
	pylit_skip_space(p);
	if (pylit_peek(p) != '(') {
		p->pos = end;
		v = pylit_node_new(PYLIT_NAME, start);
		v->s = xstrndup(p->s + start, len);
		v->slen = len;
		*out = v;
		return 0;
	}
	v = pylit_node_new(PYLIT_CALL, start);
	v->s = xstrndup(p->s + start, len);
	v->slen = len;
	if (parse_call_args(p, v) < 0) {
		pylit_free(v);
		return -1;
	}
	if (len == 3 && !memcmp(v->s, "set", 3) && !v->n) {
		v->kind = PYLIT_SET;	/* set() is how Python spells the empty set */
		free(v->s);
		v->s = NULL;
		v->slen = 0;
	}
	*out = v;
	return 0;
}

/* Elements of a list, tuple or set up to `close`; the first already in v. */
static int parse_items(struct pylit_parser *p, struct pylit *v, size_t *alloc,
		       size_t open, int close)
{
	const char *what = close == ']' ? "a list item" : close == ')' ?
			   "a tuple item" : "a set item";

	for (;;) {
		struct pylit *item;

		if (expect_sep(p, close, what) < 0)
			return p->pos >= p->n ? unclosed(p, open) : -1;
		pylit_skip_space(p);
		if (p->pos >= p->n)
			return unclosed(p, open);
		if (pylit_peek(p) == close) {
			p->pos++;
			return 0;
		}
		if (parse_value(p, CTX_ITEM, &item) < 0)
			return p->pos >= p->n ? unclosed(p, open) : -1;
		add_item(v, alloc, NULL, NULL, item);
	}
}

/*
 * Opens the bracket at p->pos: an empty pair gives an empty node of `kind`
 * in *out (returns 1); otherwise the first element is read into *first
 * (returns 0). -1 on error.
 */
static int open_bracket(struct pylit_parser *p, int close, enum pylit_kind kind,
			enum ctx ctx, struct pylit **first, struct pylit **out)
{
	size_t open = p->pos;

	p->pos++;
	pylit_skip_space(p);
	if (pylit_peek(p) == close) {
		p->pos++;
		*out = pylit_node_new(kind, open);
		return 1;
	}
	if (p->pos >= p->n || parse_value(p, ctx, first) < 0)
		return p->pos >= p->n ? unclosed(p, open) : -1;
	return 0;
}

/* A list, tuple or set whose first element is read: the rest up to `close`. */
static int finish_items(struct pylit_parser *p, enum pylit_kind kind, size_t open,
			int close, struct pylit *first, struct pylit **out)
{
	struct pylit *v = pylit_node_new(kind, open);
	size_t alloc = 0;

	add_item(v, &alloc, NULL, NULL, first);
	if (parse_items(p, v, &alloc, open, close) < 0) {
		pylit_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_list(struct pylit_parser *p, struct pylit **out)
{
	size_t open = p->pos;
	struct pylit *first;
	int r = open_bracket(p, ']', PYLIT_LIST, CTX_ITEM, &first, out);

	if (r)
		return r < 0 ? -1 : 0;
	return finish_items(p, PYLIT_LIST, open, ']', first, out);
}

/* "(" value ")" is the value; "()" and "(v," start tuples. */
static int parse_paren(struct pylit_parser *p, struct pylit **out)
{
	size_t open = p->pos;
	struct pylit *first;
	int r = open_bracket(p, ')', PYLIT_TUPLE, CTX_ITEM, &first, out);

	if (r)
		return r < 0 ? -1 : 0;
	pylit_skip_space(p);
	if (pylit_peek(p) == ')') {
		p->pos++;
		first->off = open;
		*out = first;
		return 0;
	}
	return finish_items(p, PYLIT_TUPLE, open, ')', first, out);
}

/* The rest of a dict whose first key is already parsed. */
static int parse_dict_rest(struct pylit_parser *p, struct pylit *v, size_t *alloc,
			   size_t open, struct pylit *key)
{
	char tmp[16];

	for (;;) {
		struct pylit *val;

		pylit_skip_space(p);
		if (pylit_peek(p) != ':') {
			pylit_free(key);
			if (p->pos >= p->n)
				return unclosed(p, open);
			return pylit_fail(p, p->pos, "expected ':' after a dict key, found %s",
				    pylit_what_at(p, p->pos, tmp));
		}
		p->pos++;
		if (parse_value(p, CTX_ITEM, &val) < 0) {
			pylit_free(key);
			return p->pos >= p->n ? unclosed(p, open) : -1;
		}
		add_item(v, alloc, key, NULL, val);
		if (expect_sep(p, '}', "a dict value") < 0)
			return p->pos >= p->n ? unclosed(p, open) : -1;
		pylit_skip_space(p);
		if (p->pos >= p->n)
			return unclosed(p, open);
		if (pylit_peek(p) == '}') {
			p->pos++;
			return 0;
		}
		if (parse_value(p, CTX_KEY, &key) < 0)
			return p->pos >= p->n ? unclosed(p, open) : -1;
	}
}

static int parse_brace(struct pylit_parser *p, struct pylit **out)
{
	size_t open = p->pos, alloc = 0;
	struct pylit *v, *first;
	int r = open_bracket(p, '}', PYLIT_DICT, CTX_KEY, &first, out);

	if (r)
		return r < 0 ? -1 : 0;
	pylit_skip_space(p);
	if (pylit_peek(p) != ':')
		return finish_items(p, PYLIT_SET, open, '}', first, out);
	v = pylit_node_new(PYLIT_DICT, open);
	if (parse_dict_rest(p, v, &alloc, open, first) < 0) {
		pylit_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A literal at p->pos, without the lenient fallback. */
static int parse_literal(struct pylit_parser *p, struct pylit **out)
{
	struct pylex_str st;
	char tmp[16];
	size_t start = p->pos;
	int c = pylit_peek(p), neg = 0;

	if (c == '-' || c == '+') {
		neg = c == '-';
		p->pos++;
		pylit_skip_space(p);
		c = pylit_peek(p);
		if (!is_digit(c) && !(c == '.' && p->pos + 1 < p->n && is_digit(p->s[p->pos + 1])))
			return pylit_fail(p, start, "a sign must be followed by a number");
		return pylit_parse_number(p, start, neg, out);
	}
	if (is_digit(c) || (c == '.' && p->pos + 1 < p->n && is_digit(p->s[p->pos + 1])))
		return pylit_parse_number(p, start, 0, out);
	if (c >= 0 && pylex_string_at(p->s, p->n, p->pos, &st))
		return pylit_parse_string(p, out);
	if (c == '[')
		return parse_list(p, out);
	if (c == '(')
		return parse_paren(p, out);
	if (c == '{')
		return parse_brace(p, out);
	if (c >= 0 && pylex_ident_start((unsigned char)c))
		return parse_name(p, out);
	if (c < 0)
		return pylit_fail(p, start, "expected a value, found end of input");
	return pylit_fail(p, start, "expected a value, found %s", pylit_what_at(p, start, tmp));
}

/* Closing bracket for an opening one. */
static char closer_of(char c)
{
	return c == '(' ? ')' : c == '[' ? ']' : '}';
}

/*
 * Lenient mode: the expression at `start` as raw text, up to a ',' or an
 * unmatched closer at depth 0 (or ':' for a key). A lambda's own ':' and
 * parameter commas do not end it.
 */
static int raw_expr(struct pylit_parser *p, size_t start, enum ctx ctx, struct pylit **out)
{
	char stack[PYLIT_MAX_DEPTH];
	size_t opened[PYLIT_MAX_DEPTH], q = start, end;
	int depth = 0, lambdas = 0;
	struct pylex_str st;

	while (q < p->n) {
		char c = p->s[q];

		if (pylex_string_at(p->s, p->n, q, &st)) {
			if (pylex_string_close(p->s, p->n, &st) < 0)
				return pylit_fail(p, q, "unterminated string");
			q = st.end;
			continue;
		}
		if (pylex_ident_start((unsigned char)c)) {
			size_t e = pylex_ident_end(p->s, p->n, q);

			if (!depth && e - q == 6 && !memcmp(p->s + q, "lambda", 6))
				lambdas++;
			q = e;
			continue;
		}
		if (c == '#') {
			while (q < p->n && p->s[q] != '\n')
				q++;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (depth == PYLIT_MAX_DEPTH)
				return pylit_fail(p, q, "nesting deeper than %d", PYLIT_MAX_DEPTH);
			opened[depth] = q;
			stack[depth++] = closer_of(c);
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth)
				break;
			if (stack[depth - 1] != c)
				return pylit_fail(p, q, "'%c' does not match '%c'", c, p->s[opened[depth - 1]]);
			depth--;
		} else if (!depth && c == ':' && lambdas) {
			lambdas--;
		} else if (!depth && (c == ',' && !lambdas)) {
			break;
		} else if (!depth && c == ':' && ctx == CTX_KEY) {
			break;
		}
		q++;
	}
	if (depth)
		return pylit_fail(p, opened[depth - 1], "'%c' is never closed", p->s[opened[depth - 1]]);
	end = q;
	while (end > start && strchr(" \t\r\n\f\\", p->s[end - 1]))
		end--;
	if (end == start)
		return pylit_fail(p, start, "expected a value");
	*out = pylit_node_new(PYLIT_EXPR, start);
	(*out)->s = xstrndup(p->s + start, end - start);
	(*out)->slen = end - start;
	(*out)->end = end;
	p->pos = q;
	return 0;
}

/* Drops the slack ALLOC_GROW left in a finished container: trees are kept for a whole RUN. */
static void trim(struct pylit *v)
{
	if (!v->n || !v->items)
		return;
	v->items = xrealloc(v->items, v->n * sizeof(*v->items));
	if (v->keys)
		v->keys = xrealloc(v->keys, v->n * sizeof(*v->keys));
	if (v->kw)
		v->kw = xrealloc(v->kw, v->n * sizeof(*v->kw));
}

/* Can this byte follow a complete value in a container or argument list? */
static int is_follower(int c, enum ctx ctx)
{
	if (c < 0 || c == ',' || c == ')' || c == ']' || c == '}')
		return 1;
	return c == ':' && ctx == CTX_KEY;
}

static int parse_value(struct pylit_parser *p, enum ctx ctx, struct pylit **out)
{
	size_t start, after;
	int ret;

	pylit_skip_space(p);
	start = p->pos;
	if (++p->depth > PYLIT_MAX_DEPTH) {
		p->depth--;
		return pylit_fail(p, start, "nesting deeper than %d", PYLIT_MAX_DEPTH);
	}
	ret = parse_literal(p, out);
	p->depth--;
	if (!(p->flags & PYLIT_LENIENT))
		goto done;
	if (!ret) {
		after = p->pos;
		pylit_skip_space(p);
		if (is_follower(pylit_peek(p), ctx)) {
			p->pos = after;
			goto done;
		}
		pylit_free(*out);
	}
	p->pos = start;
	ret = raw_expr(p, start, ctx, out);
	if (!ret)
		return 0;
	*out = NULL;
	return -1;
done:
	if (!ret) {
		(*out)->end = p->pos;
		trim(*out);
	} else {
		*out = NULL;
	}
	return ret;
}

int pylit_parse(const char *s, size_t n, size_t *pos, unsigned flags,
		struct pylit **out, struct buf *err)
{
	struct pylit_parser p = { s, n, *pos, flags, 0, BUF_INIT, 0, BUF_INIT };
	int ret = parse_value(&p, CTX_TOP, out);

	if (ret < 0)
		buf_add(err, p.msg.buf, p.msg.len);
	else
		*pos = p.pos;
	buf_release(&p.msg);
	buf_release(&p.scratch);
	return ret;
}

int pylit_parse_all(const char *s, size_t n, unsigned flags,
		    struct pylit **out, struct buf *err)
{
	struct pylit_parser p = { s, n, 0, flags, 0, BUF_INIT, 0, BUF_INIT };
	char tmp[16];
	int ret = parse_value(&p, CTX_TOP, out);

	if (!ret) {
		pylit_skip_space(&p);
		if (p.pos < n) {
			ret = pylit_fail(&p, p.pos, "unexpected %s after the value",
				   pylit_what_at(&p, p.pos, tmp));
			pylit_free(*out);
			*out = NULL;
		}
	}
	if (ret < 0)
		buf_add(err, p.msg.buf, p.msg.len);
	buf_release(&p.msg);
	buf_release(&p.scratch);
	return ret;
}

const char *pylit_kind_name(enum pylit_kind kind)
{
	static const char *const names[] = {
		[PYLIT_NONE] = "None", [PYLIT_BOOL] = "bool", [PYLIT_INT] = "int",
		[PYLIT_FLOAT] = "float", [PYLIT_STR] = "str", [PYLIT_BYTES] = "bytes",
		[PYLIT_LIST] = "list", [PYLIT_TUPLE] = "tuple", [PYLIT_SET] = "set",
		[PYLIT_DICT] = "dict", [PYLIT_CALL] = "call", [PYLIT_NAME] = "name",
		[PYLIT_EXPR] = "expression",
	};

	return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

const struct pylit *pylit_get(const struct pylit *v, const char *key)
{
	size_t i, len = strlen(key);

	if (!v || v->kind != PYLIT_DICT)
		return NULL;
	for (i = 0; i < v->n; i++) {
		const struct pylit *k = v->keys[i];

		if (k->kind == PYLIT_STR && k->slen == len && !memcmp(k->s, key, len))
			return v->items[i];
	}
	return NULL;
}

const struct pylit *pylit_kwarg(const struct pylit *v, const char *name)
{
	size_t i;

	if (!v || v->kind != PYLIT_CALL || !v->kw)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (v->kw[i] && !strcmp(v->kw[i], name))
			return v->items[i];
	return NULL;
}

const struct pylit *pylit_arg(const struct pylit *v, size_t i)
{
	size_t k, seen = 0;

	if (!v || v->kind != PYLIT_CALL)
		return NULL;
	for (k = 0; k < v->n; k++)
		if (!v->kw || !v->kw[k]) {
			if (seen == i)
				return v->items[k];
			seen++;
		}
	return NULL;
}

const char *pylit_str(const struct pylit *v)
{
	return v && v->kind == PYLIT_STR ? v->s : NULL;
}

int pylit_int(const struct pylit *v, long long *out)
{
	if (!v || (v->kind != PYLIT_INT && v->kind != PYLIT_BOOL) || v->big)
		return -1;
	*out = v->i;
	return 0;
}

int pylit_number(const struct pylit *v, double *out)
{
	if (v && v->kind == PYLIT_FLOAT) {
		*out = v->f;
		return 0;
	}
	if (v && v->kind == PYLIT_INT && v->big) {
		*out = v->f;
		return 0;
	}
	if (v && (v->kind == PYLIT_INT || v->kind == PYLIT_BOOL)) {
		*out = (double)v->i;
		return 0;
	}
	return -1;
}

int pylit_is_name(const struct pylit *v, const char *name)
{
	return v && v->kind == PYLIT_NAME && !strcmp(v->s, name);
}

int pylit_truth(const struct pylit *v)
{
	if (!v)
		return -1;
	if (v->kind == PYLIT_NONE)
		return 0;
	if (v->kind == PYLIT_BOOL || v->kind == PYLIT_INT)
		return v->big || v->i != 0;
	return -1;
}
