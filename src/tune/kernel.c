/*
 * Building a struct tune_kernel from what parse/triton_meta.c read of the
 * kernel's source (see kernel.h): its def, its decorators' literals and
 * the constexprs of its body. Kinds are model/names.h's rows.
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/names.h"
#include "parse/pylit_json.h"
#include "tune/kernel.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

static const struct {
	const char *block;	/* the constexpr argument */
	const char *hint;	/* its size_hints key */
} dims[TUNE_NDIMS] = {
	{ "XBLOCK", "x" }, { "YBLOCK", "y" }, { "ZBLOCK", "z" },
	{ "R0_BLOCK", "r0_" }, { "R1_BLOCK", "r1_" },
};

const char *tune_kind_name(enum tune_kind kind)
{
	return kind_tune_class_names[kind];
}

const char *tune_dim_block(enum tune_dim d)
{
	return dims[d].block;
}

const char *tune_dim_hint(enum tune_dim d)
{
	return dims[d].hint;
}

void tune_kernel_init(struct tune_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->constants = json_object();
	k->body_consts = json_object();
	k->mutated = json_array();
	k->num_gb = -1;
	k->fp_fusion = -1;
	k->assert_indexing = -1;
}

void tune_kernel_release(struct tune_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		free(k->args[i].name);
		free(k->args[i].type);
	}
	free(k->args);
	free(k->name);
	free(k->source);
	free(k->grid_type);
	free(k->heuristic);
	json_decref(k->constants);
	json_decref(k->body_consts);
	json_decref(k->mutated);
	memset(k, 0, sizeof(*k));
}

const struct tune_arg *tune_kernel_arg(const struct tune_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nargs; i++)
		if (!strcmp(k->args[i].name, name))
			return &k->args[i];
	return NULL;
}

int tune_arg_is_ptr(const struct tune_arg *a)
{
	return a->type && a->type[0] == '*';
}

static void add_arg(struct tune_kernel *k, const char *name, const char *type)
{
	struct tune_arg *a;

	ALLOC_GROW(k->args, k->nargs + 1, k->alloc);
	a = &k->args[k->nargs++];
	memset(a, 0, sizeof(*a));
	a->name = xstrdup(name);
	a->type = type ? xstrdup(type) : NULL;
}

static const char *last_part(const char *dotted)
{
	const char *dot = strrchr(dotted, '.');

	return dot ? dot + 1 : dotted;
}

/*
 * The decorator whose arguments describe the kernel: the last one called
 * with arguments that is not @triton.jit (Inductor's heuristic, or a
 * hand-written kernel's @triton.autotune), or NULL.
 */
static const struct meta_decorator *heuristic_of(const struct meta_kernel *mk)
{
	const struct meta_decorator *found = NULL;
	size_t i;

	for (i = 0; i < mk->ndecorators; i++) {
		const struct meta_decorator *d = &mk->decorators[i];

		if (d->expr && d->expr->kind == PYLIT_CALL && strcmp(last_part(d->name), "jit"))
			found = d;
	}
	return found;
}

/* The kind from model/names.h's decorator rows: none is the user's, one tko does not know "other". */
static enum tune_kind kind_of(const struct meta_decorator *d)
{
	enum kernel_kind kind;

	if (!d)
		return TUNE_KIND_USER;
	kind = kind_from_decorator(d->name);
	return kind == KIND_NONE ? TUNE_KIND_OTHER : (enum tune_kind)kind_info[kind].tune_class;
}

static long int_of(const struct pylit *v, long fallback)
{
	long long n;

	return v && v->kind == PYLIT_INT && !pylit_int(v, &n) ? (long)n : fallback;
}

/* A bool literal: 1 or 0; -1 for anything else. */
static int bool_of(const struct pylit *v)
{
	return v && v->kind == PYLIT_BOOL ? (int)v->i : -1;
}

static void read_size_hints(struct tune_kernel *k, const struct pylit *hints)
{
	int d;

	for (d = 0; d < TUNE_NDIMS; d++)
		k->size_hint[d] = int_of(pylit_get(hints, dims[d].hint), 0);
}

static void read_inductor_meta(struct tune_kernel *k, const struct pylit *im)
{
	const char *grid = pylit_str(pylit_get(im, "grid_type"));
	const struct pylit *mut = pylit_get(im, "mutated_arg_names");
	const struct pylit *gb = pylit_get(im, "kernel_num_gb");
	double v;

	if (grid)
		k->grid_type = xstrdup(grid);
	if (mut && (mut->kind == PYLIT_LIST || mut->kind == PYLIT_TUPLE)) {
		json_decref(k->mutated);
		k->mutated = pylit_to_json(mut);
	}
	if (gb && gb->kind != PYLIT_BOOL && !pylit_number(gb, &v))
		k->num_gb = v;
	if (im && im->kind == PYLIT_DICT)
		k->assert_indexing = bool_of(pylit_get(im, "assert_indirect_indexing")) != 0;
}

/* The arguments of the heuristic decorator: triton_meta, size_hints, inductor_meta. */
static void read_decorator(struct tune_kernel *k, const struct pylit *dec)
{
	const struct pylit *tm = pylit_kwarg(dec, "triton_meta");
	const struct pylit *consts = pylit_get(tm, "constants");

	if (consts && consts->kind == PYLIT_DICT) {
		json_decref(k->constants);
		k->constants = pylit_to_json(consts);
	}
	k->fp_fusion = bool_of(pylit_get(tm, "enable_fp_fusion"));
	k->launch_pdl = bool_of(pylit_get(tm, "launch_pdl")) == 1;
	k->disable_ftz = bool_of(pylit_get(tm, "disable_ftz")) == 1;
	read_size_hints(k, pylit_kwarg(dec, "size_hints"));
	read_inductor_meta(k, pylit_kwarg(dec, "inductor_meta"));
	k->num_warps = (int)int_of(pylit_kwarg(dec, "num_warps"), 0);
	k->num_stages = (int)int_of(pylit_kwarg(dec, "num_stages"), 0);
}

/* A body constexpr's value: a literal as itself, a name or expression as its text. */
static json_t *body_value(const struct pylit *v)
{
	if (!v)
		return json_null();
	if (v->kind == PYLIT_EXPR || v->kind == PYLIT_NAME)
		return json_string(v->s);
	return pylit_to_json(v);
}

static void read_body_constexprs(struct tune_kernel *k, const struct meta_kernel *mk)
{
	size_t i;

	for (i = 0; i < mk->nbody_constexprs; i++)
		json_object_set_new(k->body_consts, mk->body_constexprs[i].name,
				    body_value(mk->body_constexprs[i].value));
	k->even_k = json_is_true(json_object_get(k->body_consts, "EVEN_K"));
}

void tune_kernel_from_meta(const struct meta_kernel *mk, const char *source,
			   struct tune_kernel *k)
{
	const struct meta_decorator *dec = heuristic_of(mk);
	/* this decorator's, even for a heuristic model/names.h does not know */
	const struct pylit *sig = dec ? pylit_get(pylit_kwarg(dec->expr, "triton_meta"),
						  "signature") : NULL;
	size_t i;

	k->name = xstrdup(mk->name);
	k->source = xstrdup(source);
	k->kind = kind_of(dec);
	k->heuristic = dec ? xstrdup(last_part(dec->name)) : NULL;
	k->def_line = (long)(mk->ndecorators ? mk->decorators[0].line : mk->line);
	k->end_line = (long)mk->end_line;
	for (i = 0; i < mk->nparams; i++) {
		const struct meta_arg *ma = &mk->args[i];
		struct tune_arg *a;

		add_arg(k, ma->name, ma->annotation && strstr(ma->annotation, "constexpr")
			? "constexpr" : pylit_str(pylit_get(sig, ma->name)));
		a = &k->args[k->nargs - 1];
		a->divisibility = (int)meta_arg_hint(ma, "tt.divisibility");
		a->pointer_range = (int)meta_arg_hint(ma, "tt.pointer_range");
	}
	read_body_constexprs(k, mk);
	if (dec)
		read_decorator(k, dec->expr);
}

/* One "name=type[:divisibility]" entry onto its argument. */
static int set_one(struct tune_kernel *k, const char *item, struct buf *err)
{
	const char *eq = strchr(item, '='), *colon;
	long div = 0;
	size_t i;

	for (i = 0; eq && i < k->nargs; i++)
		if (!strncmp(k->args[i].name, item, (size_t)(eq - item)) &&
		    !k->args[i].name[eq - item])
			break;
	colon = eq ? strchr(eq, ':') : NULL;
	if (colon && (parse_long(colon + 1, &div) < 0 || div < 1 || div > 1024))
		eq = NULL;
	if (!eq || eq[1] == '\0' || eq + 1 == colon || i == k->nargs) {
		buf_addf(err, "bad --signature entry '%s' for '%s' (want NAME=TYPE or "
			 "NAME=TYPE:DIVISIBILITY with NAME a parameter)", item, k->name);
		return -1;
	}
	free(k->args[i].type);
	k->args[i].type = colon ? xstrndup(eq + 1, (size_t)(colon - eq - 1)) : xstrdup(eq + 1);
	k->args[i].divisibility = (int)div;
	if (tune_arg_is_ptr(&k->args[i]) && !div)
		k->args[i].divisibility = 16;
	return 0;
}

int tune_each_item(const char *list, int (*fn)(void *ctx, const char *item, struct buf *err),
		   void *ctx, struct buf *err)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		char *item = xstrndup(p, n);
		int ret = fn(ctx, item, err);

		free(item);
		if (ret < 0)
			return -1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int set_item(void *k, const char *item, struct buf *err)
{
	return set_one(k, item, err);
}

int tune_kernel_set_signature(struct tune_kernel *k, const char *spec,
			      struct buf *err)
{
	return tune_each_item(spec, set_item, k, err);
}

static const struct {
	const char *torch;	/* capture.json dtype */
	const char *triton;	/* Triton signature element type */
} dtypes[] = {
	{ "float32", "fp32" }, { "float16", "fp16" }, { "bfloat16", "bf16" },
	{ "float64", "fp64" }, { "int64", "i64" }, { "int32", "i32" }, { "int16", "i16" },
	{ "int8", "i8" }, { "uint8", "u8" }, { "bool", "i1" },
	{ "float8_e4m3fn", "fp8e4nv" }, { "float8_e5m2", "fp8e5" },
};

static const char *triton_dtype(const char *torch)
{
	size_t i;

	for (i = 0; torch && i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (!strcmp(dtypes[i].torch, torch))
			return dtypes[i].triton;
	return NULL;
}

/* What Triton's JIT specialises on: a 16-byte aligned start, a multiple of 16. */
static void capture_arg(struct tune_kernel *k, struct tune_arg *a, const struct capture_arg *c)
{
	const char *kind = c->kind;
	const json_t *v = c->value;

	if (kind && !strcmp(kind, "tensor") && triton_dtype(c->dtype)) {
		long long off = (c->storage_offset == RF_I64_NONE ? 0 : c->storage_offset) *
				(c->element_size == RF_I64_NONE ? 1 : c->element_size);

		free(a->type);
		a->type = xstrfmt("*%s", triton_dtype(c->dtype));
		a->divisibility = off % 16 == 0 ? 16 : 0;
	} else if (kind && !strcmp(kind, "scalar") && !strcmp(a->type ? a->type : "", "constexpr")) {
		json_object_set(k->constants, a->name, (json_t *)v);
	} else if (kind && !strcmp(kind, "scalar") && json_is_integer(v)) {
		json_int_t n = json_integer_value(v);

		free(a->type);
		a->type = xstrdup(n > 2147483647LL || n < -2147483648LL ? "i64" : "i32");
		a->divisibility = n % 16 == 0 ? 16 : 0;
	} else if (kind && !strcmp(kind, "scalar") && json_is_real(v)) {
		free(a->type);
		a->type = xstrdup("fp32");
	} else if (kind && !strcmp(kind, "scalar") && json_is_boolean(v)) {
		free(a->type);
		a->type = xstrdup("i1");
	}
}

void tune_kernel_from_capture(struct tune_kernel *k, const struct capture_doc *cap)
{
	size_t i;

	for (i = 0; i < cap->nargs; i++) {
		const char *name = cap->args[i].name;
		size_t j;

		for (j = 0; name && j < k->nargs; j++)
			if (!strcmp(k->args[j].name, name))
				capture_arg(k, &k->args[j], &cap->args[i]);
	}
}
