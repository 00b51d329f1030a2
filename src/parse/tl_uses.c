/*
 * The triton.language calls of a kernel body, with lines, masks and pointer
 * bases (see tl_uses.h). Input: the pysrc statements of one def; output:
 * struct meta_use entries on the struct meta_kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/pylex.h"
#include "parse/tl_uses.h"
#include "util/mem.h"
#include "banned.h"

/* What a tracked op is, for counting per argument. */
enum op_class {
	OP_LOAD,	/* reads memory through its pointer operand */
	OP_STORE,	/* writes it */
	OP_ATOMIC,	/* read-modify-write */
	OP_OTHER,	/* no memory access of its own */
};

static const struct tl_op {
	const char *name;	/* after the module prefix */
	enum op_class cls;
	int mask_pos;		/* positional index of the mask argument, -1 when it has none */
} ops[] = {
	{ "load", OP_LOAD, 1 },
	{ "store", OP_STORE, 2 },
	{ "atomic_add", OP_ATOMIC, 2 },
	{ "atomic_and", OP_ATOMIC, 2 },
	{ "atomic_cas", OP_ATOMIC, -1 },
	{ "atomic_max", OP_ATOMIC, 2 },
	{ "atomic_min", OP_ATOMIC, 2 },
	{ "atomic_or", OP_ATOMIC, 2 },
	{ "atomic_xchg", OP_ATOMIC, 2 },
	{ "atomic_xor", OP_ATOMIC, 2 },
	{ "assume", OP_OTHER, -1 },
	{ "multiple_of", OP_OTHER, -1 },
	{ "max_contiguous", OP_OTHER, -1 },
	{ "max_constancy", OP_OTHER, -1 },
	{ "where", OP_OTHER, -1 },
	{ "dot", OP_OTHER, -1 },
	{ "dot_scaled", OP_OTHER, -1 },
	{ "make_block_ptr", OP_OTHER, -1 },
	{ "make_tensor_descriptor", OP_OTHER, -1 },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

const char *const tl_op_names[NOPS + 1] = {
	"tl.load", "tl.store", "tl.atomic_add", "tl.atomic_and", "tl.atomic_cas",
	"tl.atomic_max", "tl.atomic_min", "tl.atomic_or", "tl.atomic_xchg",
	"tl.atomic_xor", "tl.assume", "tl.multiple_of", "tl.max_contiguous",
	"tl.max_constancy", "tl.where", "tl.dot", "tl.dot_scaled",
	"tl.make_block_ptr", "tl.make_tensor_descriptor", NULL,
};

static void add_alias(struct tl_aliases *a, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->len[i] == n && !memcmp(a->v[i], s, n))
			return;
	if (a->n < sizeof(a->v) / sizeof(a->v[0])) {
		a->len[a->n] = n;
		a->v[a->n++] = xstrndup(s, n);
	}
}

/* The next word (a dotted name or ',') of s[*q..end), or 0 at the end. */
static size_t next_word(const char *s, size_t *q, size_t end, size_t *off)
{
	size_t e;

	while (*q < end && (s[*q] == ' ' || s[*q] == '\t' || s[*q] == '(' || s[*q] == ')'))
		(*q)++;
	if (*q >= end)
		return 0;
	*off = *q;
	if (s[*q] == ',') {
		(*q)++;
		return 1;
	}
	for (e = *q; e < end && (pylex_ident_char((unsigned char)s[e]) || s[e] == '.'); e++)
		;
	if (e == *q)
		e++;
	*q = e;
	return e - *off;
}

static int word_is(const char *s, size_t off, size_t len, const char *w)
{
	return len == strlen(w) && !memcmp(s + off, w, len);
}

/* "import triton.language as X" and "from triton import language as X". */
static void read_import(struct tl_aliases *a, const char *s, const struct pysrc_stmt *st)
{
	size_t q = st->off, off = 0, len, prev_off = 0, prev_len = 0;
	int from_triton = 0, as = 0;

	len = next_word(s, &q, st->end, &off);
	if (word_is(s, off, len, "from")) {
		len = next_word(s, &q, st->end, &off);
		from_triton = word_is(s, off, len, "triton");
		if (!from_triton || !word_is(s, off, next_word(s, &q, st->end, &off), "import"))
			return;
	}
	while ((len = next_word(s, &q, st->end, &off))) {
		if (word_is(s, off, len, "as")) {
			as = 1;
		} else if (word_is(s, off, len, ",")) {
			prev_len = 0;
		} else if (as) {
			if (prev_len && (from_triton ? word_is(s, prev_off, prev_len, "language")
					 : word_is(s, prev_off, prev_len, "triton.language")))
				add_alias(a, s + off, len);
			as = 0;
			prev_len = 0;
		} else {
			prev_off = off;
			prev_len = len;
		}
	}
}

void tl_aliases_find(struct tl_aliases *a, const struct pysrc *src)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	add_alias(a, "tl", 2);
	add_alias(a, "triton.language", 15);
	for (i = 0; i < src->nstmts; i++) {
		const struct pysrc_stmt *st = &src->stmts[i];

		if (pysrc_starts_word(src->s, st->off, st->end, "import") ||
		    pysrc_starts_word(src->s, st->off, st->end, "from"))
			read_import(a, src->s, st);
	}
}

void tl_aliases_release(struct tl_aliases *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

/* The op named by s[0..n) ("tl.load"), or -1. */
static int find_op(const struct tl_aliases *a, const char *s, size_t n)
{
	size_t i, k;

	for (i = 0; i < a->n; i++) {
		size_t al = a->len[i];

		if (n <= al + 1 || s[al] != '.' || memcmp(s, a->v[i], al))
			continue;
		for (k = 0; k < NOPS; k++)
			if (ops[k].name[0] == s[al + 1] && !strncmp(s + al + 1, ops[k].name, n - al - 1) &&
			    ops[k].name[n - al - 1] == '\0')
				return (int)k;
	}
	return -1;
}

int tl_is_constexpr(const struct tl_aliases *a, const char *s, size_t n)
{
	size_t i;

	if (n == 9 && !memcmp(s, "constexpr", 9))
		return 1;
	for (i = 0; i < a->n; i++) {
		size_t al = a->len[i];

		if (n == al + 10 && !memcmp(s, a->v[i], al) && !memcmp(s + al, ".constexpr", 10))
			return 1;
	}
	return 0;
}

/* A copy of s[off..off+len) with each line break and the blanks around it folded to one space. */
static char *fold_text(const char *s, size_t off, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i = off, end = off + len;

	while (i < end) {
		int brk = s[i] == '\n' || (s[i] == '\\' && i + 1 < end && s[i + 1] == '\n');

		if (!brk) {
			buf_addch(&b, s[i++]);
			continue;
		}
		buf_rtrim(&b);
		i += s[i] == '\\' ? 2 : 1;
		while (i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
			i++;
		buf_addch(&b, ' ');
	}
	return b.alloc ? buf_detach(&b, NULL) : xstrdup("");
}

/* Assignments `name = <first name> ...` in the body, for following pointers. */
struct derived {
	char *name;	/* the assigned name */
	char *root;	/* the kernel argument its value starts from */
};

struct derived_map {
	struct derived *v;
	size_t nr, alloc;
};

/* The first identifier of the expression s[off..end), past '(' and blanks. */
static size_t first_ident(const char *s, size_t off, size_t end, size_t *len)
{
	while (off < end && (s[off] == '(' || s[off] == ' ' || s[off] == '\t'))
		off++;
	*len = off < end && pylex_ident_start((unsigned char)s[off]) ?
	       pylex_ident_end(s, end, off) - off : 0;
	if (*len && off + *len < end && s[off + *len] == '.')
		*len = 0;	/* an attribute chain such as tl.load(...) is not a pointer */
	return off;
}

/* The kernel argument `name` resolves to, or NULL. */
static const char *resolve(const struct meta_kernel *k, const struct derived_map *d,
			   const char *s, size_t len)
{
	size_t i, j;

	for (j = d->nr; j-- > 0;)
		if (strlen(d->v[j].name) == len && !memcmp(d->v[j].name, s, len))
			return d->v[j].root;
	for (i = 0; i < k->nargs; i++)
		if (strlen(k->args[i].name) == len && !memcmp(k->args[i].name, s, len))
			return k->args[i].name;
	return NULL;
}

static void add_body_constexpr(struct meta_kernel *k, const char *s, size_t name_off,
			       size_t name_len, size_t val_off, size_t end, size_t line)
{
	struct meta_body_constexpr *c;
	struct buf err = BUF_INIT;
	struct pylit *v = NULL;
	size_t pos = val_off;

	if (pylit_parse(s, end, &pos, PYLIT_LENIENT, &v, &err) < 0)
		v = NULL;
	buf_release(&err);
	k->body_constexprs = xrealloc(k->body_constexprs,
				      (k->nbody_constexprs + 1) * sizeof(*k->body_constexprs));
	c = &k->body_constexprs[k->nbody_constexprs++];
	c->name = xstrndup(s + name_off, name_len);
	c->value = v;
	c->line = line;
}

/* Reads one body statement: a derived pointer name, or a constexpr declaration. */
static void read_assignment(struct meta_kernel *k, struct derived_map *d,
			    const struct tl_aliases *a, const char *s,
			    const struct pysrc_stmt *st, size_t line_base)
{
	size_t name_len, q, rhs_len, rhs;
	long eq, colon;
	const char *root;

	if (!pylex_ident_start((unsigned char)s[st->off]))
		return;
	name_len = pylex_ident_end(s, st->end, st->off) - st->off;
	q = pysrc_skip_blanks(s, st->off + name_len, st->end);
	if (q >= st->end || (s[q] != '=' && s[q] != ':'))
		return;
	eq = pysrc_find_top(s, q, st->end, '=');
	if (eq < 0)
		return;
	colon = s[q] == ':' ? (long)q : -1;
	if (colon >= 0) {
		size_t ann = pysrc_skip_blanks(s, (size_t)colon + 1, (size_t)eq), ann_end = (size_t)eq;

		while (ann_end > ann && (s[ann_end - 1] == ' ' || s[ann_end - 1] == '\t'))
			ann_end--;
		if (tl_is_constexpr(a, s + ann, ann_end - ann))
			add_body_constexpr(k, s, st->off, name_len, (size_t)eq + 1, st->end,
					   st->line + line_base);
	} else if ((size_t)eq != q) {
		return;
	}
	rhs = first_ident(s, (size_t)eq + 1, st->end, &rhs_len);
	root = rhs_len ? resolve(k, d, s + rhs, rhs_len) : NULL;
	if (root) {
		ALLOC_GROW(d->v, d->nr + 1, d->alloc);
		d->v[d->nr].name = xstrndup(s + st->off, name_len);
		d->v[d->nr].root = xstrdup(root);
		d->nr++;
	}
}

static void derived_release(struct derived_map *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		free(d->v[i].name);
		free(d->v[i].root);
	}
	free(d->v);
}

/* The argument at keyword `kw` or at position `pos`, or NULL. */
static const struct pysrc_arg *find_arg(const char *s, const struct pysrc_args *args,
					const char *kw, int pos)
{
	size_t i;
	int seen = 0;

	for (i = 0; i < args->nr; i++) {
		const struct pysrc_arg *x = &args->v[i];

		if (x->kw_len) {
			if (kw && x->kw_len == strlen(kw) && !memcmp(s + x->kw_off, kw, x->kw_len))
				return x;
		} else if (seen++ == pos) {
			return x;
		}
	}
	return NULL;
}

static void count_access(struct meta_kernel *k, const char *base, enum op_class cls)
{
	struct meta_arg *arg = meta_kernel_arg(k, base);

	if (!arg)
		return;
	if (cls == OP_LOAD)
		arg->loads++;
	else if (cls == OP_STORE)
		arg->stores++;
	else if (cls == OP_ATOMIC)
		arg->atomics++;
}

/* Records the use of ops[op] whose '(' is at s[open]. */
static void add_use(struct meta_kernel *k, const struct derived_map *d, const char *s,
		    size_t end, size_t open, int op, size_t line)
{
	struct pysrc_args args = PYSRC_ARGS_INIT;
	const struct pysrc_arg *ptr, *mask;
	struct meta_use *u;
	size_t close, i;

	if (pysrc_split_args(s, end, open, &args, &close) < 0)
		return;
	k->uses = xrealloc(k->uses, (k->nuses + 1) * sizeof(*k->uses));
	u = &k->uses[k->nuses++];
	memset(u, 0, sizeof(*u));
	u->op = tl_op_names[op];
	u->line = line;
	u->nargs = args.nr;
	u->kw = xcalloc(args.nr ? args.nr : 1, sizeof(*u->kw));
	u->text = xcalloc(args.nr ? args.nr : 1, sizeof(*u->text));
	for (i = 0; i < args.nr; i++) {
		if (args.v[i].kw_len)
			u->kw[i] = xstrndup(s + args.v[i].kw_off, args.v[i].kw_len);
		u->text[i] = fold_text(s, args.v[i].off, args.v[i].len);
	}
	if (ops[op].cls != OP_OTHER && (ptr = find_arg(s, &args, "pointer", 0))) {
		size_t len, off = first_ident(s, ptr->off, ptr->off + ptr->len, &len);
		const char *root = len ? resolve(k, d, s + off, len) : NULL;

		if (root) {
			u->base = xstrdup(root);
			count_access(k, root, ops[op].cls);
		}
	}
	mask = ops[op].mask_pos >= 0 ? find_arg(s, &args, "mask", ops[op].mask_pos) : NULL;
	if (mask && !(mask->len == 4 && !memcmp(s + mask->off, "None", 4)))
		u->mask = fold_text(s, mask->off, mask->len);
	pysrc_args_release(&args);
}

void tl_uses_scan(struct meta_kernel *k, const struct pysrc *src,
		  const struct pysrc_func *f, const struct tl_aliases *a,
		  size_t line_base)
{
	struct derived_map d = { NULL, 0, 0 };
	struct pysrc_cursor c = { src->s, f->body_off, f->body_end, f->body_line };
	struct pysrc_tok t;
	size_t i;

	for (i = f->stmt + 1; i < f->body_stmts_end; i++)
		read_assignment(k, &d, a, src->s, &src->stmts[i], line_base);
	while (pysrc_next_name(&c, &t)) {
		int op = t.after_dot ? -1 : find_op(a, src->s + t.off, t.len);
		size_t open;

		if (op < 0)
			continue;
		open = pysrc_skip_blanks(src->s, t.off + t.len, f->body_end);
		if (open < f->body_end && src->s[open] == '(')
			add_use(k, &d, src->s, f->body_end, open, op, t.line + line_base);
	}
	derived_release(&d);
}
