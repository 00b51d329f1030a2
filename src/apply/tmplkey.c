/* A template winner's lookup table entry from capture's recorded keys (tmplkey.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/lookup.h"
#include "apply/tmplkey.h"
#include "model/capture_events.h"
#include "parse/pylit_json.h"
#include "parse/triton_meta.h"
#include "tune/kernel.h"
#include "tune/rewrite.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

int tmplkey_torch_lacks_table(const char *v)
{
	int major, minor;

	if (!v || sscanf(v, "%d.%d", &major, &minor) != 2)
		return 0;
	return major < 2 || (major == 2 && minor < 10);
}

static int has_string(const json_t *list, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return 1;
	return 0;
}

/* A session_start: its torch, and did its process hook the template choices? */
static void on_start(struct tmplkey_events *ev, const char *torch, const json_t *hooks)
{
	if (torch && !ev->torch)
		ev->torch = xstrdup(torch);
	if (!hooks)
		return;
	if (has_string(hooks, TMPLKEY_HOOK))
		ev->hooked = 1;
	else if (ev->hooked < 0)
		ev->hooked = 0;
}

static void on_line(const struct capture_line *l, void *data)
{
	struct tmplkey_events *ev = data;
	const struct capture_event *e = l->ev;
	struct tmplkey_event *t;

	if (l->status == 1 && e->kind == CAPTURE_EV_SESSION_START)
		on_start(ev, e->torch, e->hooks);
	if (l->status != 1 || e->kind != CAPTURE_EV_TEMPLATE_LOOKUP || !e->op || !e->key ||
	    !e->template_ids || !e->layouts)
		return;
	if (ev->nr == ev->alloc) {
		ev->alloc = ev->alloc ? 2 * ev->alloc : 8;
		ev->v = xrealloc(ev->v, ev->alloc * sizeof(*ev->v));
	}
	t = &ev->v[ev->nr++];
	t->op = xstrdup(e->op);
	t->key = xstrdup(e->key);
	t->template_ids = json_incref(e->template_ids);
	t->layouts = json_incref(e->layouts);
}

int tmplkey_load(struct tmplkey_events *ev, const char *path, struct buf *err)
{
	ev->loaded = 1;
	if (!is_file(path))
		return 0;
	return capture_events_each_file(path, on_line, ev, err);
}

void tmplkey_release(struct tmplkey_events *ev)
{
	size_t i;

	for (i = 0; i < ev->nr; i++) {
		free(ev->v[i].op);
		free(ev->v[i].key);
		json_decref(ev->v[i].template_ids);
		json_decref(ev->v[i].layouts);
	}
	free(ev->v);
	free(ev->torch);
	memset(ev, 0, sizeof(*ev));
	ev->hooked = -1;
}

/* What the kernel says of its inputs. */
struct kfacts {
	long m, n, k, am, ak, bk, bn;
	const char *a_dtype, *b_dtype;	/* torch's names */
	const char *template_id;
};

/* Triton's signature types of the templates' inputs, by torch's dtype names. */
static const char *torch_dtype(const char *sig)
{
	static const char *const map[][2] = {
		{ "*fp16", "torch.float16" }, { "*bf16", "torch.bfloat16" },
		{ "*fp32", "torch.float32" }, { "*fp64", "torch.float64" },
		{ "*fp8e4nv", "torch.float8_e4m3fn" }, { "*fp8e5", "torch.float8_e5m2" },
		{ "*fp8e4b8", "torch.float8_e4m3fnuz" }, { "*fp8e5b16", "torch.float8_e5m2fnuz" },
		{ "*i8", "torch.int8" }, { "*u8", "torch.uint8" },
	};
	size_t i;

	for (i = 0; sig && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(sig, map[i][0]))
			return map[i][1];
	return NULL;
}

/*
 * The integer of the body line `    NAME = 123`, tune's reader of a
 * template's dims (rewrite_find_int) over the whole function `src`; -1
 * when there is none (a symbol: dynamic).
 */
static long body_int(const char *src, size_t len, const char *name)
{
	struct tune_kernel whole;	/* no def lines: the range is all of src */
	long v;
	int found;

	tune_kernel_init(&whole);
	found = rewrite_find_int(src, len, &whole, name, &v) == 0;
	tune_kernel_release(&whole);
	return found ? v : -1;
}

static int read_body(struct kfacts *f, const char *src, size_t len)
{
	static const char *const names[] = { "M", "N", "K", "stride_am", "stride_ak",
					      "stride_bk", "stride_bn" };
	long *slot[] = { &f->m, &f->n, &f->k, &f->am, &f->ak, &f->bk, &f->bn };
	size_t i;

	for (i = 0; i < sizeof(slot) / sizeof(slot[0]); i++)
		if ((*slot[i] = body_int(src, len, names[i])) < 0)
			return -1;
	/* a TMA template loads through descriptors: its strides are not these */
	if (span_find(src, len, "tensor_descriptor"))
		return -1;
	f->template_id = span_find(src, len, "stride_aq") ? "triton::bmm" : "triton::mm";
	return 0;
}

/* Does layout [dtype, shape, stride] end in shape [r, c], strides [rs, cs]? */
static int layout_is(const json_t *l, const char *dtype, long r, long c, long rs, long cs)
{
	const json_t *sh = json_array_get(l, 1), *st = json_array_get(l, 2);
	const char *type = json_string_value(json_array_get(l, 0));
	size_t d = json_array_size(sh);

	if (!type || strcmp(type, dtype) || d < 2 || json_array_size(st) != d)
		return 0;
	return json_integer_value(json_array_get(sh, d - 2)) == r &&
	       json_integer_value(json_array_get(sh, d - 1)) == c &&
	       json_integer_value(json_array_get(st, d - 2)) == rs &&
	       json_integer_value(json_array_get(st, d - 1)) == cs;
}

/* Two different inputs of the event are the kernel's A [M, K] and B [K, N]. */
static int event_fits(const struct tmplkey_event *e, const struct kfacts *f)
{
	size_t i, j;

	if (!has_string(e->template_ids, f->template_id))
		return 0;
	for (i = 0; i < json_array_size(e->layouts); i++) {
		if (!layout_is(json_array_get(e->layouts, i), f->a_dtype, f->m, f->k, f->am, f->ak))
			continue;
		for (j = 0; j < json_array_size(e->layouts); j++)
			if (j != i && layout_is(json_array_get(e->layouts, j), f->b_dtype, f->k, f->n,
						f->bk, f->bn))
				return 1;
	}
	return 0;
}

/* Is op a word of the kernel's name ("mm" of triton_tem_fused_mm_relu_0)? */
static int op_in_name(const char *op, const char *name)
{
	size_t n = strlen(op);
	const char *p;

	for (p = name; (p = strstr(p, op)); p++)
		if ((p == name || p[-1] == '_') && (p[n] == '_' || !p[n]))
			return 1;
	return 0;
}

/*
 * The one key the fitting events have; NULL when none fits or two keys
 * do. Inductor names a template kernel after its op where it can
 * (descriptive names), so where both mm and addmm fit, those named win.
 */
static const struct tmplkey_event *one_event(const struct tmplkey_events *ev,
					     const struct kfacts *f, const char *name)
{
	const struct tmplkey_event *found = NULL;
	size_t i;
	int named, want_named = 0;

	for (i = 0; i < ev->nr; i++)
		if (event_fits(&ev->v[i], f) && op_in_name(ev->v[i].op, name))
			want_named = 1;
	for (i = 0; i < ev->nr; i++) {
		const struct tmplkey_event *e = &ev->v[i];

		named = op_in_name(e->op, name);
		if (!event_fits(e, f) || (want_named && !named))
			continue;
		if (found && strcmp(found->key, e->key))
			return NULL;
		found = e;
	}
	return found;
}

/* config_args without ALLOW_TF32, with the winner's parameters. */
static json_t *params_of(const json_t *args, const json_t *config, const struct kfacts *f)
{
	json_t *p = json_deep_copy(args), *v, *bk;
	const char *key;

	json_object_del(p, "ALLOW_TF32");
	json_object_update(p, json_object_get(config, "body"));
	json_object_set(p, "num_warps", json_object_get(config, "num_warps"));
	json_object_set(p, "num_stages", json_object_get(config, "num_stages"));
	json_object_foreach(json_object_get(config, "options"), key, v)
		if (!json_is_null(v))
			json_object_set(p, key, v);
	bk = json_object_get(p, "BLOCK_K");
	if (json_object_get(p, "EVEN_K") && json_is_integer(bk) && json_integer_value(bk) > 0)
		json_object_set_new(p, "EVEN_K", json_boolean(f->k % json_integer_value(bk) == 0));
	return p;
}

/* The kernel's facts and config_args from its module; -1 when they are not all there. */
static int read_kernel(const char *text, size_t len, const char *name, struct kfacts *f,
		       json_t **args)
{
	struct meta_kernel_list list = META_KERNEL_LIST_INIT;
	struct buf src = BUF_INIT, err = BUF_INIT;
	const struct meta_arg *a, *b;
	const struct pylit *ca;
	size_t i;
	int ret = -1;

	*args = NULL;
	if (lookup_function_source(text, len, name, &src) < 0 || read_body(f, src.buf, src.len) < 0 ||
	    triton_meta_scan(&list, "kernel.py", text, len, 0, &err) < 0)
		goto done;
	for (i = 0; i < list.nr && strcmp(list.v[i]->name, name); i++)
		;
	if (i == list.nr)
		goto done;
	a = meta_kernel_arg(list.v[i], "arg_A");
	b = meta_kernel_arg(list.v[i], "arg_B");
	ca = pylit_get(list.v[i]->inductor_meta, "config_args");
	f->a_dtype = a ? torch_dtype(a->type) : NULL;
	f->b_dtype = b ? torch_dtype(b->type) : NULL;
	if (f->a_dtype && f->b_dtype && ca && ca->kind == PYLIT_DICT) {
		*args = pylit_to_json(ca);
		ret = 0;
	}
done:
	meta_kernel_list_release(&list);
	buf_release(&src);
	buf_release(&err);
	return ret;
}

json_t *tmplkey_template(const struct tmplkey_events *ev, const char *text, size_t len,
			 const char *name, const json_t *config)
{
	const struct tmplkey_event *e;
	struct kfacts f;
	json_t *args, *out = NULL;

	memset(&f, 0, sizeof(f));
	if (!ev->nr || read_kernel(text, len, name, &f, &args) < 0)
		return NULL;
	e = one_event(ev, &f, name);
	if (e)
		out = json_pack("{s:s, s:s, s:o}", "lookup_key", e->key, "template_id",
				f.template_id, "params", params_of(args, config, &f));
	json_decref(args);
	return out;
}
