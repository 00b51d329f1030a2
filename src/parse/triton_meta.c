/*
 * The analysis of Triton kernels in one Python module (see triton_meta.h):
 * pysrc finds the defs and decorators, pylit reads the decorators'
 * arguments, model/names.h says which kind each decorator gives, and the
 * tables below what each other decorator and hint means.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/names.h"
#include "parse/pylex.h"
#include "parse/pysrc.h"
#include "parse/tl_uses.h"
#include "parse/triton_meta.h"
#include "target/target.h"
#include "util/mem.h"
#include "banned.h"

/* Decorators that make a function a Triton kernel. */
static const char *const jit_names[] = { "triton.jit", "jit", "triton.runtime.jit", NULL };
static const char *const autotune_names[] = { "triton.autotune", "autotune", NULL };
static const char *const heuristics_names[] = { "triton.heuristics", "heuristics", NULL };

/*
 * Hints in the older triton_meta['configs'] forms: AttrsDescriptor(...) /
 * instance_descriptor(...) keywords (Triton <= 3.1) and the
 * AttrsDescriptor.from_dict({'arg_properties': {...}}) keys (Triton 3.2).
 */
static const struct {
	const char *key;	/* the keyword or arg_properties key */
	const char *hint;	/* the hint it means */
	long long value;	/* with this value */
} old_hints[] = {
	{ "divisible_by_16", "tt.divisibility", 16 },
	{ "divisible_by_8", "tt.divisibility", 8 },
	{ "equal_to_1", "tt.equal_to_1", 1 },
	{ "tt.divisibility", "tt.divisibility", 16 },
	{ "tt.equal_to", "tt.equal_to_1", 1 },
	{ "tt.pointer_range", "tt.pointer_range", 32 },
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* The dotted name a decorator statement starts with (after '@'). */
static char *decorator_name(const char *s, const struct pysrc_stmt *st, size_t *after_at)
{
	size_t q = pysrc_skip_blanks(s, st->off + 1, st->end), e = q;

	*after_at = q;
	while (e < st->end && (pylex_ident_char((unsigned char)s[e]) || s[e] == '.'))
		e++;
	return xstrndup(s + q, e - q);
}

static int is_kernel(const struct pysrc *src, const struct pysrc_func *f)
{
	size_t i, at;
	int yes = 0;

	for (i = f->stmt - f->ndecorators; i < f->stmt && !yes; i++) {
		char *name = decorator_name(src->s, &src->stmts[i], &at);

		yes = in_list(jit_names, name);
		free(name);
	}
	return yes;
}

static void classify(struct meta_kernel *k, const struct meta_decorator *d)
{
	/* decorator -> kind: model/names.h; an Inductor heuristic carries triton_meta */
	enum kernel_kind kind = kind_from_decorator(d->name);
	int inductor = !!(kind_flags(kind) & KIND_INDUCTOR);

	if (kind != KIND_NONE && (!strcmp(k->kind, kind_names[KIND_JIT]) || inductor))
		k->kind = kind_names[kind];
	if (inductor && d->expr->kind == PYLIT_CALL) {
		k->heuristic = d->expr;
		k->triton_meta = pylit_kwarg(d->expr, "triton_meta");
		k->inductor_meta = pylit_kwarg(d->expr, "inductor_meta");
	} else if (in_list(autotune_names, d->name)) {
		k->autotune = d->expr;
	} else if (in_list(heuristics_names, d->name)) {
		k->heuristics = d->expr;
	} else if (in_list(jit_names, d->name)) {
		k->jit = d->expr;
	}
}

static int read_decorators(struct meta_kernel *k, const struct pysrc *src,
			   const struct pysrc_func *f, size_t line_base, struct buf *err)
{
	size_t i, first = f->stmt - f->ndecorators;

	k->decorators = xcalloc(f->ndecorators ? f->ndecorators : 1, sizeof(*k->decorators));
	for (i = first; i < f->stmt; i++) {
		const struct pysrc_stmt *st = &src->stmts[i];
		struct meta_decorator *d = &k->decorators[k->ndecorators];
		size_t pos;

		d->name = decorator_name(src->s, st, &pos);
		d->line = st->line + line_base;
		k->ndecorators++;
		if (pylit_parse(src->s, st->end, &pos, PYLIT_LENIENT, &d->expr, err) < 0)
			return -1;
		classify(k, d);
	}
	return 0;
}

static char *span_dup(const char *s, size_t off, size_t len)
{
	return len ? xstrndup(s + off, len) : NULL;
}

static void read_params(struct meta_kernel *k, const struct pysrc *src,
			const struct pysrc_func *f, const struct tl_aliases *al)
{
	size_t i;

	k->args = xcalloc(f->nparams ? f->nparams : 1, sizeof(*k->args));
	for (i = 0; i < f->nparams; i++) {
		const struct pysrc_param *p = &f->params[i];
		struct meta_arg *a = &k->args[k->nargs++];

		a->name = xstrndup(src->s + p->name_off, p->name_len);
		a->annotation = span_dup(src->s, p->ann_off, p->ann_len);
		a->default_text = span_dup(src->s, p->def_off, p->def_len);
		a->is_constexpr = p->ann_len && tl_is_constexpr(al, src->s + p->ann_off, p->ann_len);
		a->pointer = -1;
	}
}

struct meta_arg *meta_kernel_arg(const struct meta_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nargs; i++)
		if (!strcmp(k->args[i].name, name))
			return &k->args[i];
	return NULL;
}

long long meta_arg_hint(const struct meta_arg *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nhints; i++)
		if (!strcmp(a->hints[i].name, name))
			return a->hints[i].value;
	return 0;
}

/* The argument a signature, constants or hint key names: a string, or an index. */
static struct meta_arg *arg_for_key(struct meta_kernel *k, const struct pylit *key, int add)
{
	struct meta_arg *a;
	long long idx;

	if (key->kind == PYLIT_STR) {
		a = meta_kernel_arg(k, key->s);
		if (a || !add)
			return a;
		/* A signature entry the def does not list; keep it rather than lose it. */
		k->args = xrealloc(k->args, (k->nargs + 1) * sizeof(*k->args));
		a = &k->args[k->nargs++];
		memset(a, 0, sizeof(*a));
		a->name = xstrdup(key->s);
		a->pointer = -1;
		return a;
	}
	if (key->kind == PYLIT_TUPLE && key->n == 1)
		key = key->items[0];
	if (pylit_int(key, &idx) < 0 || idx < 0 || (size_t)idx >= k->nargs)
		return NULL;
	return &k->args[idx];
}

static void apply_signature(struct meta_kernel *k)
{
	const struct pylit *sig = pylit_get(k->triton_meta, "signature");
	size_t i;

	if (!sig || sig->kind != PYLIT_DICT)
		return;
	k->signature_source = "triton_meta";
	for (i = 0; i < sig->n; i++) {
		struct meta_arg *a = arg_for_key(k, sig->keys[i], 1);
		const char *type = pylit_str(sig->items[i]);

		if (!a || !type)
			continue;
		free(a->type);
		a->type = xstrdup(type);
		if (!strcmp(type, "constexpr"))
			a->is_constexpr = 1;
	}
}

static void apply_constants(struct meta_kernel *k)
{
	const struct pylit *c = pylit_get(k->triton_meta, "constants");
	size_t i;

	if (!c || c->kind != PYLIT_DICT)
		return;
	for (i = 0; i < c->n; i++) {
		struct meta_arg *a = arg_for_key(k, c->keys[i], 0);

		if (a) {
			a->constant = c->items[i];
			a->is_constexpr = 1;
		}
	}
}

/*
 * Adds a hint; a repeated one keeps the larger value, since the older
 * descriptors list an argument under both divisible_by_16 and _by_8.
 */
static void add_hint(struct meta_arg *a, const char *name, long long value)
{
	size_t i;

	for (i = 0; i < a->nhints; i++)
		if (!strcmp(a->hints[i].name, name)) {
			if (value > a->hints[i].value)
				a->hints[i].value = value;
			return;
		}
	a->hints = xrealloc(a->hints, (a->nhints + 1) * sizeof(*a->hints));
	a->hints[a->nhints].name = xstrdup(name);
	a->hints[a->nhints++].value = value;
}

/* Triton >= 3.3: {(0,): [['tt.divisibility', 16]], ...}. */
static void hints_from_dict(struct meta_kernel *k, const struct pylit *cfg)
{
	size_t i, j;

	for (i = 0; i < cfg->n; i++) {
		struct meta_arg *a = arg_for_key(k, cfg->keys[i], 0);
		const struct pylit *list = cfg->items[i];

		if (!a || (list->kind != PYLIT_LIST && list->kind != PYLIT_TUPLE))
			continue;
		for (j = 0; j < list->n; j++) {
			const struct pylit *pair = list->items[j];
			long long v;

			if ((pair->kind == PYLIT_LIST || pair->kind == PYLIT_TUPLE) && pair->n == 2 &&
			    pylit_str(pair->items[0]) && !pylit_int(pair->items[1], &v))
				add_hint(a, pair->items[0]->s, v);
		}
	}
}

/* Indices listed under one old-style key: `divisible_by_16=(0, 1)`. */
static void hints_from_indices(struct meta_kernel *k, const char *key, const struct pylit *idx)
{
	size_t i, j;

	if (!idx || (idx->kind != PYLIT_TUPLE && idx->kind != PYLIT_LIST &&
		     idx->kind != PYLIT_SET))
		return;
	for (i = 0; i < sizeof(old_hints) / sizeof(old_hints[0]); i++) {
		if (strcmp(old_hints[i].key, key))
			continue;
		for (j = 0; j < idx->n; j++) {
			struct meta_arg *a = arg_for_key(k, idx->items[j], 0);

			if (a)
				add_hint(a, old_hints[i].hint, old_hints[i].value);
		}
	}
}

/* AttrsDescriptor(divisible_by_16=...) or AttrsDescriptor.from_dict({...}). */
static void hints_from_call(struct meta_kernel *k, const struct pylit *call)
{
	const struct pylit *props = pylit_get(pylit_arg(call, 0), "arg_properties");
	size_t i;

	for (i = 0; i < call->n; i++)
		if (call->kw && call->kw[i])
			hints_from_indices(k, call->kw[i], call->items[i]);
	for (i = 0; props && props->kind == PYLIT_DICT && i < props->n; i++)
		if (pylit_str(props->keys[i]))
			hints_from_indices(k, props->keys[i]->s, props->items[i]);
}

static void apply_hints(struct meta_kernel *k)
{
	const struct pylit *cfgs = pylit_get(k->triton_meta, "configs"), *cfg;

	if (!cfgs || (cfgs->kind != PYLIT_LIST && cfgs->kind != PYLIT_TUPLE))
		return;
	k->hints_known = 1;
	if (!cfgs->n)
		return;
	cfg = cfgs->items[0];
	if (cfg->kind == PYLIT_DICT)
		hints_from_dict(k, cfg);
	else if (cfg->kind == PYLIT_CALL)
		hints_from_call(k, cfg);
}

static long long int_or(const struct pylit *v, long long fallback)
{
	long long i;

	return pylit_int(v, &i) ? fallback : i;
}

/* "gfx942:sramecc+:xnack-" -> "gfx942"; 90 -> "sm_90". */
static char *arch_of(const struct pylit *cc)
{
	struct buf b = BUF_INIT;
	long long v;

	if (pylit_str(cc))
		return target_norm_dup(cc->s, strlen(cc->s));
	if (pylit_int(cc, &v))
		return NULL;
	target_cuda_arch(v, &b);
	return buf_detach(&b, NULL);
}

static void read_device(struct meta_kernel *k)
{
	const struct pylit *dev = pylit_get(k->triton_meta, "device");
	struct meta_device *d = &k->device;

	d->warp_size = d->multi_processor_count = -1;
	if (dev && dev->kind == PYLIT_CALL) {
		d->props = dev;
		d->backend = pylit_str(pylit_kwarg(dev, "type"));
		d->arch = arch_of(pylit_kwarg(dev, "cc"));
		d->warp_size = int_or(pylit_kwarg(dev, "warp_size"), -1);
		d->multi_processor_count = int_or(pylit_kwarg(dev, "multi_processor_count"), -1);
	}
	if (!d->backend)
		d->backend = pylit_str(pylit_get(k->triton_meta, "device_type"));
}

static void finish_pointers(struct meta_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		struct meta_arg *a = &k->args[i];

		if (a->type)
			a->pointer = a->type[0] == '*';
		else if (a->is_constexpr)
			a->pointer = 0;
		else if (a->loads || a->stores || a->atomics)
			a->pointer = 1;
	}
}

static void read_addr(struct meta_kernel *k, const struct pysrc *src,
		      const struct pysrc_func *f, const struct tl_aliases *al, size_t line_base)
{
	const char **params = xcalloc(k->nargs + 1, sizeof(*params));
	size_t i;

	for (i = 0; i < k->nargs; i++)
		params[i] = k->args[i].name;
	tl_addr_scan(&k->addr, src, f, al, params, k->nargs, line_base);
	free(params);
}

static struct meta_kernel *analyse(const struct pysrc *src, const struct pysrc_func *f,
				   const struct tl_aliases *al, const char *path,
				   size_t line_base, struct buf *err)
{
	struct meta_kernel *k = xcalloc(1, sizeof(*k));

	k->name = xstrndup(src->s + f->name_off, f->name_len);
	k->file = xstrdup(path);
	k->line = f->line + line_base;
	k->end_line = (f->body_stmts_end > f->stmt ? src->stmts[f->body_stmts_end - 1].end_line
		       : f->line) + line_base;
	k->kind = kind_names[KIND_JIT];
	k->signature_source = "def";
	read_params(k, src, f, al);
	k->nparams = k->nargs;
	if (read_decorators(k, src, f, line_base, err) < 0) {
		meta_kernel_free(k);
		return NULL;
	}
	apply_signature(k);
	apply_constants(k);
	apply_hints(k);
	read_device(k);
	tl_uses_scan(k, src, f, al, line_base);
	read_addr(k, src, f, al, line_base);
	finish_pointers(k);
	return k;
}

int triton_meta_scan_src(struct meta_kernel_list *out, const char *path,
			 const struct pysrc *src, size_t line_base, struct buf *err)
{
	struct tl_aliases al;
	size_t i;
	int found = 0;

	tl_aliases_find(&al, src);
	for (i = 0; i < src->nfuncs; i++) {
		struct meta_kernel *k;

		if (!is_kernel(src, &src->funcs[i]))
			continue;
		k = analyse(src, &src->funcs[i], &al, path, line_base, err);
		if (!k) {
			found = -1;
			break;
		}
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr++] = k;
		found++;
	}
	tl_aliases_release(&al);
	return found;
}

int triton_meta_scan(struct meta_kernel_list *out, const char *path,
		     const char *s, size_t n, size_t line_base, struct buf *err)
{
	struct pysrc src = PYSRC_INIT;
	int found = -1;

	if (pysrc_scan(&src, s, n, err) == 0)
		found = triton_meta_scan_src(out, path, &src, line_base, err);
	pysrc_release(&src);
	return found;
}

static void free_use(struct meta_use *u)
{
	size_t i;

	for (i = 0; i < u->nargs; i++) {
		free(u->kw[i]);
		free(u->text[i]);
	}
	free(u->kw);
	free(u->text);
	free(u->base);
	free(u->mask);
}

static void free_arg(struct meta_arg *a)
{
	size_t i;

	for (i = 0; i < a->nhints; i++)
		free(a->hints[i].name);
	free(a->hints);
	free(a->name);
	free(a->type);
	free(a->annotation);
	free(a->default_text);
}

void meta_kernel_free(struct meta_kernel *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->ndecorators; i++) {
		free(k->decorators[i].name);
		pylit_free(k->decorators[i].expr);
	}
	for (i = 0; i < k->nargs; i++)
		free_arg(&k->args[i]);
	for (i = 0; i < k->nbody_constexprs; i++) {
		free(k->body_constexprs[i].name);
		pylit_free(k->body_constexprs[i].value);
	}
	for (i = 0; i < k->nuses; i++)
		free_use(&k->uses[i]);
	free(k->decorators);
	free(k->args);
	free(k->body_constexprs);
	free(k->uses);
	free(k->device.arch);
	free(k->name);
	free(k->file);
	json_decref(k->aten);
	tl_addr_release(&k->addr);
	free(k);
}

void meta_kernel_list_release(struct meta_kernel_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		meta_kernel_free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
