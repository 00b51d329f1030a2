/*
 * Address patterns of a kernel's loads and stores (tl_addr.h): one pass
 * over the body's statements, keeping per assigned name whether it is an
 * index, a loaded value, built with // or %, or a constant zero, and
 * reading the pointer operand of each tl.load / tl.store against that.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/pylex.h"
#include "parse/pysrc.h"
#include "parse/tl_addr.h"
#include "parse/tl_uses.h"
#include "util/mem.h"
#include "banned.h"

enum {
	F_INDEX = 1,		/* built from tl.arange */
	F_LOADED = 2,		/* a loaded value, or computed from one */
	F_DIVMOD = 4,		/* built with // or % */
	F_ZERO = 8,		/* a constant zero */
};

#define MAX_TOKS 256	/* an address longer than this is read up to here */
#define SYMBOLIC (-2)	/* a stride that is a name, not a number */

struct var {
	const char *name;	/* in the source (borrowed) */
	size_t len;
	unsigned flags;
};

struct scan {
	const char *s;			/* the module text */
	const struct tl_aliases *a;
	const char *const *params;	/* the kernel's parameters */
	size_t nparams;
	struct var *v;			/* assigned names, latest last */
	size_t nv, alloc;
	struct tl_addr *out;
	size_t line_base;
};

enum tok_kind { T_END, T_NAME, T_NUM, T_OP };

struct tok {
	enum tok_kind kind;
	size_t off, len;
};

/* 1 when s[0..n) is <alias>.<member>, or starts so when `prefix`. */
static int member_of(const struct tl_aliases *a, const char *s, size_t n,
		     const char *member, int prefix)
{
	size_t i, m = strlen(member);

	for (i = 0; i < a->n; i++) {
		size_t al = a->len[i];

		if (n < al + 1 + m || memcmp(s, a->v[i], al) || s[al] != '.' ||
		    memcmp(s + al + 1, member, m))
			continue;
		if (prefix || n == al + 1 + m)
			return 1;
	}
	return 0;
}

static unsigned var_flags(const struct scan *sc, const char *name, size_t len)
{
	size_t i;

	for (i = sc->nv; i-- > 0;)
		if (sc->v[i].len == len && !memcmp(sc->v[i].name, name, len))
			return sc->v[i].flags;
	return 0;
}

static int is_param(const struct scan *sc, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sc->nparams; i++)
		if (strlen(sc->params[i]) == len && !memcmp(sc->params[i], name, len))
			return 1;
	return 0;
}

/* The next token of s[*pos..end): a (dotted) name, a number or one operator character. */
static struct tok next_tok(const char *s, size_t *pos, size_t end)
{
	struct tok t = { T_END, 0, 0 };
	size_t p = *pos;

	while (p < end && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\\'))
		p++;
	if (p >= end) {
		*pos = p;
		return t;
	}
	t.off = p;
	if (s[p] == '\'' || s[p] == '"') {
		char q = s[p++];

		while (p < end && s[p] != q)
			p += s[p] == '\\' ? 2 : 1;
		p = p < end ? p + 1 : end;
		t.kind = T_OP;
	} else if (pylex_ident_start((unsigned char)s[p])) {
		p = pylex_ident_end(s, end, p);
		while (p + 1 < end && s[p] == '.' && pylex_ident_start((unsigned char)s[p + 1]))
			p = pylex_ident_end(s, end, p + 1);
		t.kind = T_NAME;
	} else if ((s[p] >= '0' && s[p] <= '9') || (s[p] == '.' && p + 1 < end &&
		   s[p + 1] >= '0' && s[p + 1] <= '9')) {
		while (p < end && (pylex_ident_char((unsigned char)s[p]) || s[p] == '.'))
			p++;
		t.kind = T_NUM;
	} else {
		p += (s[p] == '/' && p + 1 < end && s[p + 1] == '/') ? 2 : 1;
		t.kind = T_OP;
	}
	t.len = p - t.off;
	*pos = p;
	return t;
}

static size_t tokenize(const char *s, size_t off, size_t end, struct tok *t, size_t max)
{
	size_t n = 0;

	while (n < max && (t[n] = next_tok(s, &off, end)).kind != T_END)
		n++;
	return n;
}

static int tok_is(const char *s, const struct tok *t, const char *text)
{
	return t->len == strlen(text) && !memcmp(s + t->off, text, t->len);
}

/* A literal zero: "0", "0.0", "-0.0", "0.". */
static int zero_literal(const char *s, size_t n)
{
	size_t i = n && s[0] == '-' ? 1 : 0;
	int zeros = 0;

	for (; i < n; i++) {
		if (s[i] == '0')
			zeros++;
		else if (s[i] != '.')
			return 0;
	}
	return zeros > 0;
}

/* The stride of the name at t[i] in a sum: the number it is multiplied by, 1 when none. */
static long stride_of(const char *s, const struct tok *t, size_t n, size_t i)
{
	const struct tok *other = NULL;

	if (i >= 2 && tok_is(s, &t[i - 1], "*"))
		other = &t[i - 2];
	else if (i + 2 < n && tok_is(s, &t[i + 1], "*"))
		other = &t[i + 2];
	if (!other)
		return 1;
	return other->kind == T_NUM ? strtol(s + other->off, NULL, 10) : SYMBOLIC;
}

/* What an expression is built from (the flags of its names, arange, // and %). */
static unsigned expr_flags(const struct scan *sc, size_t off, size_t end)
{
	struct tok t[MAX_TOKS];
	size_t n = tokenize(sc->s, off, end, t, MAX_TOKS), i;
	unsigned f = 0;

	for (i = 0; i < n; i++) {
		const char *w = sc->s + t[i].off;

		if (t[i].kind == T_OP && (tok_is(sc->s, &t[i], "//") || tok_is(sc->s, &t[i], "%")))
			f |= F_DIVMOD;
		if (t[i].kind != T_NAME)
			continue;
		if (member_of(sc->a, w, t[i].len, "load", 0))
			return F_LOADED;
		if (member_of(sc->a, w, t[i].len, "arange", 0))
			f |= F_INDEX;
		else if (!memchr(w, '.', t[i].len))
			f |= var_flags(sc, w, t[i].len) & ~F_ZERO;
	}
	return f;
}

/* Whether `tl.full(shape, 0, ...)`, `tl.zeros(...)` or a literal 0 is all of s[off..end). */
static int zero_expr(const struct scan *sc, size_t off, size_t end)
{
	struct tok t[MAX_TOKS];
	size_t n = tokenize(sc->s, off, end, t, MAX_TOKS), i, depth = 0, commas = 0;

	if (n == 1)
		return t[0].kind == T_NUM && zero_literal(sc->s + t[0].off, t[0].len);
	if (n < 2 || t[0].kind != T_NAME || !tok_is(sc->s, &t[1], "("))
		return 0;
	if (member_of(sc->a, sc->s + t[0].off, t[0].len, "zeros", 0))
		return 1;
	if (!member_of(sc->a, sc->s + t[0].off, t[0].len, "full", 0))
		return 0;
	/* the value is the call's second argument: after the first top-level comma */
	for (i = 2; i < n; i++) {
		if (tok_is(sc->s, &t[i], "(") || tok_is(sc->s, &t[i], "["))
			depth++;
		else if (tok_is(sc->s, &t[i], ")") || tok_is(sc->s, &t[i], "]"))
			depth--;
		else if (!depth && tok_is(sc->s, &t[i], ","))
			commas++;
		else if (!depth && commas == 1)
			return (t[i].kind == T_NUM && zero_literal(sc->s + t[i].off, t[i].len)) ||
			       (tok_is(sc->s, &t[i], "-") && i + 1 < n && t[i + 1].kind == T_NUM &&
				zero_literal(sc->s + t[i + 1].off, t[i + 1].len));
	}
	return 0;
}

/* What one pointer operand s[off..end) is. */
struct addr {
	int divmod, indirect, contiguous, indexed;
	long min_stride;	/* the smallest stride other than 1 seen, SYMBOLIC, or 0: none */
};

static struct addr read_addr(const struct scan *sc, size_t off, size_t end)
{
	struct tok t[MAX_TOKS];
	size_t n = tokenize(sc->s, off, end, t, MAX_TOKS), i;
	struct addr a = { 0, 0, 0, 0, 0 };

	for (i = 0; i < n; i++) {
		const char *w = sc->s + t[i].off;
		unsigned f;
		long st;

		if (t[i].kind == T_OP && (tok_is(sc->s, &t[i], "//") || tok_is(sc->s, &t[i], "%")))
			a.divmod = 1;
		if (t[i].kind != T_NAME || memchr(w, '.', t[i].len) ||
		    (i + 1 < n && tok_is(sc->s, &t[i + 1], "(")) || is_param(sc, w, t[i].len))
			continue;
		f = var_flags(sc, w, t[i].len);
		a.divmod |= !!(f & F_DIVMOD);
		if (f & F_LOADED) {
			a.indirect = 1;
			continue;
		}
		if (!(f & F_INDEX))
			continue;
		a.indexed = 1;
		st = stride_of(sc->s, t, n, i);
		if (st == 1)
			a.contiguous = 1;
		else if (!a.min_stride || (st != SYMBOLIC && (a.min_stride == SYMBOLIC || st < a.min_stride)))
			a.min_stride = st;
	}
	return a;
}

static void first_line(size_t *at, size_t line)
{
	if (!*at)
		*at = line;
}

/* The pointer operand's first name when it is a kernel parameter (new string), else NULL. */
static char *ptr_param(const struct scan *sc, const struct pysrc_arg *ptr)
{
	struct tok t = { T_END, 0, 0 };
	size_t p = ptr->off;

	while ((t = next_tok(sc->s, &p, ptr->off + ptr->len)).kind == T_OP && tok_is(sc->s, &t, "("))
		;
	if (t.kind == T_NAME && is_param(sc, sc->s + t.off, t.len))
		return xstrndup(sc->s + t.off, t.len);
	return NULL;
}

static void note_zero(struct scan *sc, const struct pysrc_arg *ptr)
{
	if (!sc->out->zero_param)
		sc->out->zero_param = ptr_param(sc, ptr);
}

enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC };

/* Counts a gather, scatter or atomic scatter through the parameter ptr starts from. */
static void note_indirect(struct scan *sc, const struct pysrc_arg *ptr, int kind)
{
	struct tl_addr *o = sc->out;
	char *name = ptr_param(sc, ptr);
	struct tl_addr_indirect *e = NULL;
	size_t i;

	if (!name)
		return;
	for (i = 0; i < o->nindirect && !e; i++)
		if (!strcmp(o->indirect[i].param, name))
			e = &o->indirect[i];
	if (!e) {
		ALLOC_GROW(o->indirect, o->nindirect + 1, o->indirect_alloc);
		e = &o->indirect[o->nindirect++];
		e->param = name;
		e->gathers = e->scatters = e->atomics = 0;
		name = NULL;
	}
	free(name);
	if (kind == ACC_ATOMIC)
		e->atomics++;
	else if (kind == ACC_STORE)
		e->scatters++;
	else
		e->gathers++;
}

const struct tl_addr_indirect *tl_addr_indirect_of(const struct tl_addr *a, const char *param)
{
	size_t i;

	for (i = 0; i < a->nindirect; i++)
		if (!strcmp(a->indirect[i].param, param))
			return &a->indirect[i];
	return NULL;
}

static const struct pysrc_arg *arg_at(const char *s, const struct pysrc_args *args,
				      const char *kw, size_t pos)
{
	size_t i, seen = 0;

	for (i = 0; i < args->nr; i++) {
		const struct pysrc_arg *x = &args->v[i];

		if (x->kw_len ? (x->kw_len == strlen(kw) && !memcmp(s + x->kw_off, kw, x->kw_len))
			      : seen++ == pos)
			return x;
	}
	return NULL;
}

/*
 * A tl.atomic_*( whose '(' is at s[open]: only its pointer matters here,
 * for the per-parameter count (the rules count atomics from tl_uses).
 */
static void atomic_access(struct scan *sc, size_t open, size_t end)
{
	struct pysrc_args args = PYSRC_ARGS_INIT;
	const struct pysrc_arg *ptr;
	size_t close;

	if (pysrc_split_args(sc->s, end, open, &args, &close) == 0 &&
	    (ptr = arg_at(sc->s, &args, "pointer", 0)) &&
	    read_addr(sc, ptr->off, ptr->off + ptr->len).indirect)
		note_indirect(sc, ptr, ACC_ATOMIC);
	pysrc_args_release(&args);
}

/* A tl.load (store = 0) or tl.store (store = 1) whose '(' is at s[open]. */
static void access(struct scan *sc, size_t open, size_t end, int store, size_t line)
{
	struct pysrc_args args = PYSRC_ARGS_INIT;
	const struct pysrc_arg *ptr, *val;
	struct tl_addr *o = sc->out;
	struct addr a;
	size_t close;

	if (pysrc_split_args(sc->s, end, open, &args, &close) < 0 ||
	    !(ptr = arg_at(sc->s, &args, "pointer", 0))) {
		pysrc_args_release(&args);
		return;
	}
	a = read_addr(sc, ptr->off, ptr->off + ptr->len);
	if (store)
		o->stores++;
	else
		o->loads++;
	if (a.divmod && !o->divmod++)
		o->divmod_line = line;
	if (a.indirect)
		note_indirect(sc, ptr, store ? ACC_STORE : ACC_LOAD);
	if (a.indirect && !store) {
		o->gathers++;
		if (!a.contiguous && !o->gather_elems++)
			o->gather_line = line;
		first_line(&o->gather_line, line);
	} else if (a.indirect) {
		if (!o->scatters++)
			o->scatter_line = line;
	} else if (a.indexed && !a.contiguous && !o->strided++) {
		o->strided_line = line;
		o->strided_stride = a.min_stride;
	}
	val = store ? arg_at(sc->s, &args, "value", 1) : NULL;
	if (val && ((var_flags(sc, sc->s + val->off, val->len) & F_ZERO) ||
		    zero_expr(sc, val->off, val->off + val->len))) {
		o->zero_stores++;
		note_zero(sc, ptr);
	}
	pysrc_args_release(&args);
}

/* The tl.load / tl.store calls of one statement. */
static void accesses(struct scan *sc, const struct pysrc_stmt *st)
{
	struct pysrc_cursor c = { sc->s, st->off, st->end, st->line };
	struct pysrc_tok t;

	while (pysrc_next_name(&c, &t)) {
		const char *w = sc->s + t.off;
		int load = member_of(sc->a, w, t.len, "load", 0);
		int atomic = !load && member_of(sc->a, w, t.len, "atomic_", 1);
		size_t open;

		if (t.after_dot || (!load && !atomic && !member_of(sc->a, w, t.len, "store", 0)))
			continue;
		open = pysrc_skip_blanks(sc->s, t.off + t.len, st->end);
		if (open >= st->end || sc->s[open] != '(')
			continue;
		if (atomic)
			atomic_access(sc, open, st->end);
		else
			access(sc, open, st->end, !load, t.line + sc->line_base);
	}
}

/* An augmented assignment's operator ("+=", "//=", ">>="): the offset of its '=', or -1. */
static long augmented(const char *s, size_t q, size_t end)
{
	size_t i = q;

	while (i < end && i < q + 3 && strchr("+-*/%&|^<>@", s[i]))
		i++;
	return i > q && i < end && s[i] == '=' ? (long)i : -1;
}

/*
 * The flags `name = expr` (or `name: T = expr`) gives the name; for
 * `name += expr`, expr's flags added to the name's, and no longer a
 * constant zero (a template's `acc = tl.zeros(...)` then `acc += tl.dot(...)`).
 * 0 when the statement assigns no single name.
 */
static int assigned(const struct scan *sc, const struct pysrc_stmt *st, size_t len, unsigned *f)
{
	const char *s = sc->s;
	size_t q = pysrc_skip_blanks(s, st->off + len, st->end);
	long eq, aug;

	if (q < st->end && (aug = augmented(s, q, st->end)) >= 0) {
		*f = (var_flags(sc, s + st->off, len) & ~F_ZERO) |
		     expr_flags(sc, (size_t)aug + 1, st->end);
		return 1;
	}
	if (q >= st->end || (s[q] != '=' && s[q] != ':'))
		return 0;
	eq = pysrc_find_top(s, q, st->end, '=');
	if (eq < 0 || (s[q] == '=' && (size_t)eq != q))
		return 0;
	*f = expr_flags(sc, (size_t)eq + 1, st->end);
	if (zero_expr(sc, (size_t)eq + 1, st->end))
		*f |= F_ZERO;
	return 1;
}

/* Records what the name a statement assigns now holds. */
static void assignment(struct scan *sc, const struct pysrc_stmt *st)
{
	size_t len;
	unsigned f;

	if (!pylex_ident_start((unsigned char)sc->s[st->off]))
		return;
	len = pylex_ident_end(sc->s, st->end, st->off) - st->off;
	if (!assigned(sc, st, len, &f))
		return;
	ALLOC_GROW(sc->v, sc->nv + 1, sc->alloc);
	sc->v[sc->nv].name = sc->s + st->off;
	sc->v[sc->nv].len = len;
	sc->v[sc->nv++].flags = f;
}

void tl_addr_scan(struct tl_addr *out, const struct pysrc *src, const struct pysrc_func *f,
		  const struct tl_aliases *a, const char *const *params, size_t nparams,
		  size_t line_base)
{
	struct scan sc = { src->s, a, params, nparams, NULL, 0, 0, out, line_base };
	size_t i;

	tl_addr_release(out);
	out->read = 1;
	for (i = f->stmt + 1; i < f->body_stmts_end; i++) {
		accesses(&sc, &src->stmts[i]);
		assignment(&sc, &src->stmts[i]);
	}
	free(sc.v);
}

void tl_addr_release(struct tl_addr *a)
{
	size_t i;

	for (i = 0; i < a->nindirect; i++)
		free(a->indirect[i].param);
	free(a->indirect);
	free(a->zero_param);
	memset(a, 0, sizeof(*a));
}
