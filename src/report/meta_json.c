/*
 * The `tko meta` JSON document (docs/json.md, "tko meta") built from a
 * struct meta_set: normalised fields first (args, hints, device, Inductor
 * metadata, tl.* uses), then the raw triton_meta / inductor_meta trees so
 * nothing the source said is lost.
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "parse/meta.h"
#include "parse/pylit_json.h"
#include "parse/tl_uses.h"
#include "report/meta_json.h"
#include "banned.h"

#define META_SCHEMA_VERSION 1

/* inductor_meta keys copied into "inductor" (null when absent). */
static const char *const inductor_keys[] = {
	"kernel_name", "grid_type", "mutated_arg_names", "kernel_num_gb",
	"kernel_flop", "num_load", "num_store", "num_reduction",
	"atomic_add_found", "no_x_dim", "optimize_mem", "autotune_hints",
	"tiling_scores", "origins", "config_args", "backend_hash", NULL,
};

/* Heuristic decorator keywords copied into "inductor" (null when absent). */
static const struct {
	const char *key;
	int enum_name;	/* a name such as ReductionHint.INNER, written as a plain string */
} decorator_keys[] = {
	{ "size_hints", 0 }, { "reduction_hint", 1 }, { "tile_hint", 1 },
	{ "num_warps", 0 }, { "num_stages", 0 }, { "min_elem_per_thread", 0 },
	{ "configs", 0 },
};

/* Hints whose absence on a pointer is reported. */
static const char *const pointer_hints[] = {
	"tt.divisibility", "tt.pointer_range", NULL,
};

/* JSON of a value (pylit_json.h's tagged form), null when absent. */
static json_t *value(const struct pylit *v)
{
	return v ? pylit_to_json(v) : json_null();
}

/* An enum-like name (ReductionHint.INNER) as a plain string; other values as value(). */
static json_t *plain(const struct pylit *v)
{
	if (v && v->kind == PYLIT_NAME)
		return json_string(v->s);
	return value(v);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *arg_json(const struct meta_arg *a, size_t index)
{
	json_t *o = json_object(), *hints = json_object();
	size_t i;

	json_object_set_new(o, "index", json_integer((json_int_t)index));
	json_object_set_new(o, "name", json_string(a->name));
	json_object_set_new(o, "type", str_or_null(a->type));
	json_object_set_new(o, "annotation", str_or_null(a->annotation));
	json_object_set_new(o, "default", str_or_null(a->default_text));
	json_object_set_new(o, "pointer", tri(a->pointer));
	json_object_set_new(o, "constexpr", json_boolean(a->is_constexpr));
	json_object_set_new(o, "constant", a->constant ? value(a->constant) : json_null());
	for (i = 0; i < a->nhints; i++)
		json_object_set_new(hints, a->hints[i].name, json_integer(a->hints[i].value));
	json_object_set_new(o, "hints", hints);
	json_object_set_new(o, "loads", json_integer(a->loads));
	json_object_set_new(o, "stores", json_integer(a->stores));
	json_object_set_new(o, "atomics", json_integer(a->atomics));
	return o;
}

static void add_args(json_t *o, const struct meta_kernel *k)
{
	json_t *args = json_array(), *ptrs = json_array(), *cx = json_array();
	json_t *without = k->hints_known ? json_object() : json_null();
	const char *const *h;
	size_t i;

	for (i = 0; i < k->nargs; i++) {
		const struct meta_arg *a = &k->args[i];

		json_array_append_new(args, arg_json(a, i));
		if (a->pointer == 1)
			json_array_append_new(ptrs, json_string(a->name));
		if (a->is_constexpr)
			json_array_append_new(cx, json_string(a->name));
	}
	for (h = pointer_hints; k->hints_known && *h; h++) {
		json_t *list = json_array();

		for (i = 0; i < k->nargs; i++)
			if (k->args[i].pointer == 1 && !meta_arg_hint(&k->args[i], *h))
				json_array_append_new(list, json_string(k->args[i].name));
		json_object_set_new(without, *h, list);
	}
	json_object_set_new(o, "args", args);
	json_object_set_new(o, "pointer_args", ptrs);
	json_object_set_new(o, "constexpr_args", cx);
	json_object_set_new(o, "hints_known", json_boolean(k->hints_known));
	json_object_set_new(o, "pointers_without", without);
}

static json_t *body_constexprs_json(const struct meta_kernel *k)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < k->nbody_constexprs; i++) {
		const struct meta_body_constexpr *c = &k->body_constexprs[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(c->name));
		json_object_set_new(o, "value", value(c->value));
		json_object_set_new(o, "line", json_integer((json_int_t)c->line));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *device_json(const struct meta_kernel *k)
{
	const struct meta_device *d = &k->device;
	json_t *o, *props;
	size_t i;

	if (!d->props && !d->backend)
		return json_null();
	o = json_object();
	props = json_object();
	json_object_set_new(o, "backend", str_or_null(d->backend));
	json_object_set_new(o, "arch", str_or_null(d->arch));
	json_object_set_new(o, "warp_size", d->warp_size < 0 ? json_null() : json_integer(d->warp_size));
	json_object_set_new(o, "multi_processor_count", d->multi_processor_count < 0 ?
			    json_null() : json_integer(d->multi_processor_count));
	for (i = 0; d->props && i < d->props->n; i++)
		if (d->props->kw && d->props->kw[i])
			json_object_set_new(props, d->props->kw[i], value(d->props->items[i]));
	json_object_set_new(o, "properties", props);
	return o;
}

static json_t *inductor_json(const struct meta_kernel *k)
{
	const char *const *key;
	json_t *o;
	size_t i;

	if (!k->heuristic)
		return json_null();
	o = json_object();
	for (key = inductor_keys; *key; key++)
		json_object_set_new(o, *key, value(pylit_get(k->inductor_meta, *key)));
	for (i = 0; i < sizeof(decorator_keys) / sizeof(decorator_keys[0]); i++) {
		const struct pylit *v = pylit_kwarg(k->heuristic, decorator_keys[i].key);

		json_object_set_new(o, decorator_keys[i].key,
				    decorator_keys[i].enum_name ? plain(v) : value(v));
	}
	return o;
}

/* triton.Config's parameters in order, for positional arguments. */
static const char *const config_params[] = {
	"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook", NULL,
};

/* triton.Config({...}, num_warps=4, ...) -> {"kwargs": {...}, "num_warps": 4, ...} */
static json_t *config_json(const struct pylit *c)
{
	json_t *o;
	size_t i, pos = 0;

	if (c->kind != PYLIT_CALL)
		return value(c);
	o = json_object();
	for (i = 0; i < c->n; i++) {
		const char *name = c->kw && c->kw[i] ? c->kw[i] : NULL;

		if (!name && config_params[pos])
			name = config_params[pos++];
		if (name)
			json_object_set_new(o, name, value(c->items[i]));
	}
	if (!json_object_get(o, "kwargs"))
		json_object_set_new(o, "kwargs", json_null());
	return o;
}

/* @triton.autotune(configs=[...], key=[...], ...): keywords, or the first two positionals. */
static json_t *autotune_json(const struct pylit *at)
{
	const struct pylit *cfgs, *key;
	json_t *o, *list, *other;
	size_t i;

	if (!at || at->kind != PYLIT_CALL)
		return json_null();
	other = json_object();
	cfgs = pylit_kwarg(at, "configs") ? pylit_kwarg(at, "configs") : pylit_arg(at, 0);
	key = pylit_kwarg(at, "key") ? pylit_kwarg(at, "key") : pylit_arg(at, 1);
	o = json_object();
	if (cfgs && (cfgs->kind == PYLIT_LIST || cfgs->kind == PYLIT_TUPLE)) {
		list = json_array();
		for (i = 0; i < cfgs->n; i++)
			json_array_append_new(list, config_json(cfgs->items[i]));
		json_object_set_new(o, "configs", list);
		json_object_set_new(o, "configs_expr", json_null());
	} else {
		struct buf text = BUF_INIT;

		if (cfgs)
			pylit_repr(&text, cfgs);
		json_object_set_new(o, "configs", json_null());
		json_object_set_new(o, "configs_expr", cfgs ? json_string(text.buf) : json_null());
		buf_release(&text);
	}
	json_object_set_new(o, "key", value(key));
	for (i = 0; i < at->n; i++)
		if (at->kw && at->kw[i] && strcmp(at->kw[i], "configs") && strcmp(at->kw[i], "key"))
			json_object_set_new(other, at->kw[i], value(at->items[i]));
	json_object_set_new(o, "other", other);
	return o;
}

/* @triton.heuristics({'EVEN_N': lambda args: ...}) -> [{"name", "expr"}]. */
static json_t *heuristics_json(const struct pylit *h)
{
	const struct pylit *vals;
	json_t *a;
	size_t i;

	if (!h || h->kind != PYLIT_CALL)
		return json_null();
	vals = pylit_kwarg(h, "values") ? pylit_kwarg(h, "values") : pylit_arg(h, 0);
	a = json_array();
	for (i = 0; vals && vals->kind == PYLIT_DICT && i < vals->n; i++) {
		json_t *o = json_object();
		struct buf text = BUF_INIT;

		pylit_repr(&text, vals->items[i]);
		json_object_set_new(o, "name", value(vals->keys[i]));
		json_object_set_new(o, "expr", json_string(text.buf));
		json_array_append_new(a, o);
		buf_release(&text);
	}
	return a;
}

static json_t *jit_options(const struct pylit *jit)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; jit && jit->kind == PYLIT_CALL && i < jit->n; i++)
		if (jit->kw && jit->kw[i])
			json_object_set_new(o, jit->kw[i], value(jit->items[i]));
	return o;
}

static json_t *use_json(const struct meta_use *u)
{
	json_t *o = json_object(), *args = json_array(), *kwargs = json_object();
	size_t i;

	json_object_set_new(o, "op", json_string(u->op));
	json_object_set_new(o, "line", json_integer((json_int_t)u->line));
	json_object_set_new(o, "base", str_or_null(u->base));
	json_object_set_new(o, "mask", str_or_null(u->mask));
	for (i = 0; i < u->nargs; i++) {
		if (u->kw[i])
			json_object_set_new(kwargs, u->kw[i], json_string(u->text[i]));
		else
			json_array_append_new(args, json_string(u->text[i]));
	}
	json_object_set_new(o, "args", args);
	json_object_set_new(o, "kwargs", kwargs);
	return o;
}

static int is_memory_op(const char *op)
{
	return !strcmp(op, "tl.load") || !strcmp(op, "tl.store") || !strncmp(op, "tl.atomic_", 10);
}

static void add_uses(json_t *o, const struct meta_kernel *k)
{
	json_t *uses = json_array(), *counts = json_object(), *mem = json_object();
	const char *const *name;
	size_t i, total = 0, masked = 0;

	for (name = tl_op_names; *name; name++)
		json_object_set_new(counts, *name, json_integer(0));
	for (i = 0; i < k->nuses; i++) {
		const struct meta_use *u = &k->uses[i];
		json_t *c = json_object_get(counts, u->op);

		json_array_append_new(uses, use_json(u));
		json_integer_set(c, json_integer_value(c) + 1);
		if (is_memory_op(u->op)) {
			total++;
			masked += u->mask != NULL;
		}
	}
	json_object_set_new(mem, "total", json_integer((json_int_t)total));
	json_object_set_new(mem, "masked", json_integer((json_int_t)masked));
	json_object_set_new(o, "uses", uses);
	json_object_set_new(o, "counts", counts);
	json_object_set_new(o, "memory_ops", mem);
}

static json_t *decorators_json(const struct meta_kernel *k)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < k->ndecorators; i++) {
		json_t *d = json_object();

		json_object_set_new(d, "name", json_string(k->decorators[i].name));
		json_object_set_new(d, "line", json_integer((json_int_t)k->decorators[i].line));
		json_array_append_new(a, d);
	}
	return a;
}

json_t *meta_kernel_to_json(const struct meta_kernel *k)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(k->name));
	json_object_set_new(o, "kernel_name", value(pylit_get(k->inductor_meta, "kernel_name")));
	json_object_set_new(o, "kind", json_string(k->kind));
	json_object_set_new(o, "file", json_string(k->file));
	json_object_set_new(o, "line", json_integer((json_int_t)k->line));
	json_object_set_new(o, "embedded_at", k->embed_line ?
			    json_integer((json_int_t)k->embed_line) : json_null());
	json_object_set_new(o, "decorators", decorators_json(k));
	json_object_set_new(o, "signature_source", json_string(k->signature_source));
	add_args(o, k);
	json_object_set_new(o, "body_constexprs", body_constexprs_json(k));
	json_object_set_new(o, "device", device_json(k));
	json_object_set_new(o, "inductor", inductor_json(k));
	json_object_set_new(o, "autotune", autotune_json(k->autotune));
	json_object_set_new(o, "heuristics", heuristics_json(k->heuristics));
	json_object_set_new(o, "jit_options", jit_options(k->jit));
	json_object_set_new(o, "aten", k->aten ? json_incref(k->aten) : json_null());
	add_uses(o, k);
	json_object_set_new(o, "triton_meta", k->triton_meta ? pylit_to_json(k->triton_meta) : json_null());
	json_object_set_new(o, "inductor_meta", k->inductor_meta ?
			    pylit_to_json(k->inductor_meta) : json_null());
	return o;
}

static json_t *files_json(const struct meta_set *set)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < set->nfiles; i++) {
		const struct meta_file *f = &set->files[i];
		json_t *o = json_object();

		json_object_set_new(o, "path", json_string(f->path));
		json_object_set_new(o, "role", json_string(f->role));
		json_object_set_new(o, "kernels", json_integer((json_int_t)f->nkernels));
		json_object_set_new(o, "wrapped", json_integer((json_int_t)f->nwrapped));
		json_object_set_new(o, "error", str_or_null(f->error));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *wrapped_json(const struct meta_set *set)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < set->wrapped.nr; i++) {
		const struct wrapped_kernel *w = &set->wrapped.v[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(w->name));
		json_object_set_new(o, "wrapper", json_string(w->wrapper));
		json_object_set_new(o, "line", json_integer((json_int_t)w->line));
		json_object_set_new(o, "kernel_path", str_or_null(w->kernel_path));
		json_object_set_new(o, "resolved", str_or_null(w->resolved));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *meta_to_json(const struct meta_set *set, const struct meta_kernel *const *sel,
		     size_t nsel)
{
	json_t *doc = json_object(), *kernels = json_array();
	size_t i, n = sel ? nsel : set->kernels.nr;

	json_object_set_new(doc, "schema_version", json_integer(META_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", json_string("tko meta"));
	for (i = 0; i < n; i++)
		json_array_append_new(kernels, meta_kernel_to_json(sel ? sel[i] : set->kernels.v[i]));
	json_object_set_new(doc, "kernels", kernels);
	json_object_set_new(doc, "files", files_json(set));
	json_object_set_new(doc, "wrapped", wrapped_json(set));
	json_object_set_new(doc, "errors", json_integer((json_int_t)set->nerrors));
	return doc;
}

/* A member of the top-level object, written and released. */
static void write_member(struct jsonw *w, const char *key, json_t *v)
{
	jsonw_key(w, key);
	jsonw_value(w, v);
	json_decref(v);
}

int meta_write_json(FILE *fp, const struct meta_set *set,
		    const struct meta_kernel *const *sel, size_t nsel)
{
	size_t i, n = sel ? nsel : set->kernels.nr;
	struct jsonw w;

	jsonw_init_prec(&w, fp, 10);
	jsonw_object(&w);
	jsonw_key(&w, "schema_version");
	jsonw_int(&w, META_SCHEMA_VERSION);
	jsonw_key(&w, "tool");
	jsonw_str(&w, "tko meta");
	jsonw_key(&w, "kernels");
	jsonw_array(&w);
	for (i = 0; i < n; i++) {
		json_t *k = meta_kernel_to_json(sel ? sel[i] : set->kernels.v[i]);

		jsonw_value(&w, k);
		json_decref(k);
	}
	jsonw_end(&w);
	write_member(&w, "files", files_json(set));
	write_member(&w, "wrapped", wrapped_json(set));
	write_member(&w, "errors", json_integer((json_int_t)set->nerrors));
	jsonw_end(&w);
	return jsonw_finish(&w);
}
