/*
 * Building a struct tune_kernel from the worker's describe reply (see
 * kernel.h). The reply is the decorator's arguments turned into JSON by
 * the worker: tuple keys of triton_meta's configs become "0", "1", sets
 * become lists, DeviceProperties(...) becomes {"__call__": ...}.
 */
#include <stdlib.h>
#include <string.h>

#include "tune/kernel.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

static const struct {
	const char *decorator;	/* triton_heuristics.<name> */
	enum tune_kind kind;
} kinds[] = {
	{ "pointwise", TUNE_KIND_POINTWISE },
	{ "reduction", TUNE_KIND_REDUCTION },
	{ "cooperative_reduction", TUNE_KIND_REDUCTION },
	{ "persistent_reduction", TUNE_KIND_PERSISTENT },
	{ "template", TUNE_KIND_TEMPLATE },
	{ "user_autotune", TUNE_KIND_USER },
	{ "autotune", TUNE_KIND_USER },
	{ "foreach", TUNE_KIND_FOREACH },
	{ "split_scan", TUNE_KIND_SPLIT_SCAN },
	{ "fixed_config", TUNE_KIND_FIXED },
};

static const char *const kind_names[] = {
	"pointwise", "reduction", "persistent_reduction", "template", "user", "foreach",
	"split_scan", "fixed_config", "other",
};

static const struct {
	const char *block;	/* the constexpr argument */
	const char *hint;	/* its size_hints key */
} dims[TUNE_NDIMS] = {
	{ "XBLOCK", "x" }, { "YBLOCK", "y" }, { "ZBLOCK", "z" },
	{ "R0_BLOCK", "r0_" }, { "R1_BLOCK", "r1_" },
};

const char *tune_kind_name(enum tune_kind kind)
{
	return kind_names[kind];
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

static enum tune_kind kind_of(const char *heuristic)
{
	size_t i;

	if (!heuristic)
		return TUNE_KIND_USER;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].decorator, heuristic))
			return kinds[i].kind;
	return TUNE_KIND_OTHER;
}

/* One attrs list, [["tt.divisibility", 16], ...], onto an argument. */
static void apply_attrs(struct tune_arg *a, const json_t *list)
{
	size_t i;
	json_t *pair;

	json_array_foreach(list, i, pair) {
		const char *what = json_string_value(json_array_get(pair, 0));
		json_int_t v = json_integer_value(json_array_get(pair, 1));

		if (!what)
			continue;
		if (!strcmp(what, "tt.divisibility"))
			a->divisibility = (int)v;
		else if (!strcmp(what, "tt.pointer_range"))
			a->pointer_range = (int)v;
	}
}

/* triton_meta "configs": [{"0": [[...]], ...}], keys are argument indices. */
static int read_attrs(struct tune_kernel *k, const json_t *configs, struct buf *err)
{
	const json_t *first = json_array_get(configs, 0);
	const char *key;
	json_t *list;

	json_object_foreach((json_t *)first, key, list) {
		long idx;
		char *end;

		idx = strtol(key, &end, 10);
		if (*end || idx < 0 || (size_t)idx >= k->nargs) {
			buf_addf(err, "triton_meta configs of '%s' name argument '%s', "
				 "which it does not have", k->name, key);
			return -1;
		}
		apply_attrs(&k->args[idx], list);
	}
	return 0;
}

static void read_size_hints(struct tune_kernel *k, const json_t *hints)
{
	int d;

	for (d = 0; d < TUNE_NDIMS; d++)
		k->size_hint[d] = (long)json_integer_value(json_object_get(hints, dims[d].hint));
}

static void read_inductor_meta(struct tune_kernel *k, const json_t *im)
{
	const char *grid = json_str(im, "grid_type");
	json_t *mut = json_object_get(im, "mutated_arg_names");

	if (grid)
		k->grid_type = xstrdup(grid);
	if (json_is_array(mut)) {
		json_decref(k->mutated);
		k->mutated = json_deep_copy(mut);
	}
	if (json_is_number(json_object_get(im, "kernel_num_gb")))
		k->num_gb = json_number_value(json_object_get(im, "kernel_num_gb"));
	if (json_is_object(im))
		k->assert_indexing = !json_is_false(json_object_get(im, "assert_indirect_indexing"));
}

static int read_decorator(struct tune_kernel *k, const json_t *dec, struct buf *err)
{
	const json_t *tm = json_object_get(dec, "triton_meta");
	const json_t *sig = json_object_get(tm, "signature");
	const json_t *consts = json_object_get(tm, "constants");
	const json_t *fusion = json_object_get(tm, "enable_fp_fusion");
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		const char *t = json_str(sig, k->args[i].name);

		if (t && !k->args[i].type)
			k->args[i].type = xstrdup(t);
	}
	if (json_is_object(consts)) {
		json_decref(k->constants);
		k->constants = json_deep_copy(consts);
	}
	if (json_is_boolean(fusion))
		k->fp_fusion = json_is_true(fusion);
	k->launch_pdl = json_is_true(json_object_get(tm, "launch_pdl"));
	k->disable_ftz = json_is_true(json_object_get(tm, "disable_ftz"));
	read_size_hints(k, json_object_get(dec, "size_hints"));
	read_inductor_meta(k, json_object_get(dec, "inductor_meta"));
	k->num_warps = (int)json_int(dec, "num_warps", 0);
	k->num_stages = (int)json_int(dec, "num_stages", 0);
	return read_attrs(k, json_object_get(tm, "configs"), err);
}

int tune_kernel_from_describe(const json_t *d, const char *source,
			      struct tune_kernel *k, struct buf *err)
{
	const char *name = json_str(d, "name");
	const json_t *dec = json_object_get(d, "decorator");
	json_t *p, *bc = json_object_get(d, "body_constexprs");
	size_t i;

	if (!name) {
		buf_addf(err, "describe reply for '%s' has a kernel without a name", source);
		return -1;
	}
	k->name = xstrdup(name);
	k->source = xstrdup(source);
	k->kind = kind_of(json_str(d, "heuristic"));
	k->heuristic = json_str(d, "heuristic") ? xstrdup(json_str(d, "heuristic")) : NULL;
	k->def_line = (long)json_int(d, "def_line", 0);
	k->end_line = (long)json_int(d, "end_line", 0);
	json_array_foreach(json_object_get(d, "params"), i, p) {
		const char *ann = json_str(p, "annotation");

		add_arg(k, json_str(p, "name") ? json_str(p, "name") : "?",
			ann && strstr(ann, "constexpr") ? "constexpr" : NULL);
	}
	if (json_is_object(bc)) {
		json_decref(k->body_consts);
		k->body_consts = json_deep_copy(bc);
		k->even_k = json_is_true(json_object_get(bc, "EVEN_K"));
	}
	if (json_is_object(dec))
		return read_decorator(k, dec, err);
	return 0;
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
static void capture_arg(struct tune_kernel *k, struct tune_arg *a, const json_t *c)
{
	const char *kind = json_str(c, "kind");
	const json_t *v = json_object_get(c, "value");

	if (kind && !strcmp(kind, "tensor") && triton_dtype(json_str(c, "dtype"))) {
		long long off = json_int(c, "storage_offset", 0) * json_int(c, "element_size", 1);

		free(a->type);
		a->type = xstrfmt("*%s", triton_dtype(json_str(c, "dtype")));
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

void tune_kernel_from_capture(struct tune_kernel *k, const json_t *args)
{
	const json_t *c;
	size_t i;

	json_array_foreach(args, i, c) {
		const char *name = json_str(c, "name");
		size_t j;

		for (j = 0; name && j < k->nargs; j++)
			if (!strcmp(k->args[j].name, name))
				capture_arg(k, &k->args[j], c);
	}
}
