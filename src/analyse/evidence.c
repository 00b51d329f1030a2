/*
 * Copying the joined evidence into each kernel of the model (inputs.h):
 * summarize's configs and choice, meta's signature, hints, tl.* counts,
 * ATen ops and FX nodes, the user's source lines from the FX graphs, and
 * the captured launch (capture.json). The measured side (replay, tune,
 * max-autotune times) is in measured.c, the ISA in isa_view.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/evidence.h"
#include "parse/autotune_launch.h"
#include "parse/kernel_uses.h"
#include "model/capture.h"
#include "model/traffic.h"
#include "json/jsonw.h"
#include "rundir/layout.h"
#include "target/target.h"
#include "util/file.h"
#include "json/jsonio.h"
#include "util/mem.h"
#include "banned.h"

char *ev_config_text(const struct at_config *c)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < c->nkw; i++)
		buf_addf(&b, "%s%s=%s", b.len ? " " : "", c->kw[i].name, c->kw[i].value);
	if (c->num_warps >= 0)
		buf_addf(&b, "%snum_warps=%ld", b.len ? " " : "", c->num_warps);
	if (c->num_stages >= 0)
		buf_addf(&b, "%snum_stages=%ld", b.len ? " " : "", c->num_stages);
	if (!b.len && c->label)
		buf_adds(&b, c->label);
	return buf_detach(&b, NULL);
}

struct an_config *ev_add_config(struct an_kernel *k, const struct at_config *c,
				enum at_method method, int chosen)
{
	char *text = ev_config_text(c);
	struct an_config *ac;
	size_t i;

	for (i = 0; i < k->nconfigs; i++) {
		ac = &k->configs[i];
		if (!strcmp(ac->text, text) && ac->method == method) {
			ac->chosen |= chosen;
			free(text);
			return ac;
		}
	}
	k->configs = rf_grow(k->configs, k->nconfigs, sizeof(*k->configs));
	ac = &k->configs[k->nconfigs++];
	rf_init(&an_config_desc, ac);
	ac->text = text;
	ac->label = c->label ? xstrdup(c->label) : NULL;
	ac->method = method;
	ac->time_ms = isfinite(c->time_ms) ? c->time_ms : NAN;
	ac->failed = isinf(c->time_ms) || c->error;
	ac->chosen = chosen;
	ac->n_regs = c->n_regs;
	ac->n_spills = c->n_spills;
	ac->shared_bytes = c->shared_bytes;
	return ac;
}

static void from_autotune(struct an_kernel *k, const struct at_kernel *ak)
{
	enum at_method method;
	const struct at_config *best = at_kernel_best(ak, &method);
	size_t i, j;

	k->autotune_id = at_kernel_id(ak);
	k->kind = kind_from_name(ak->kind);
	k->graph = ak->compile_id ? xstrdup(ak->compile_id) : NULL;
	k->source_hash = ak->source_hash ? xstrdup(ak->source_hash) : NULL;
	k->kernel_dir = ak->kernel_dir ? xstrdup(ak->kernel_dir) : NULL;
	k->configs_timed = (long)at_kernel_timed(ak);
	k->signatures = ak->launch_signatures;
	for (i = 0; i < ak->ntunings; i++) {
		const struct at_tuning *t = ak->tunings[i];

		for (j = 0; j < t->nr; j++)
			ev_add_config(k, &t->configs[j], t->method,
				      &t->configs[j] == best);
	}
	for (i = 0; !ak->ntunings && i < ak->ndeclared; i++)
		ev_add_config(k, &ak->declared[i], AT_DECLARED, &ak->declared[i] == best);
	if (best) {
		k->best = ev_config_text(best);
		k->chosen_by = method;
	}
}

static const char *hint_names[] = { "tt.divisibility", "tt.pointer_range", "tt.equal_to_1" };

static void arg_from_meta(struct an_arg *a, const struct meta_arg *m)
{
	struct buf h = BUF_INIT;
	size_t i;

	a->name = xstrdup(m->name);
	a->type = m->type ? xstrdup(m->type) : NULL;
	a->pointer = m->pointer == 1;
	for (i = 0; i < m->nhints; i++)
		buf_addf(&h, "%s%s=%lld", h.len ? " " : "", m->hints[i].name, m->hints[i].value);
	a->hints = h.len ? buf_detach(&h, NULL) : NULL;
	buf_release(&h);
}

static void hints_from_meta(struct an_kernel *k, const struct meta_kernel *mk)
{
	size_t i;

	k->hints_known = mk->hints_known;
	k->pointer_args = 0;
	k->args = xcalloc(rf_capacity(mk->nargs) + 1, sizeof(*k->args));
	for (i = 0; i < mk->nargs; i++) {
		const struct meta_arg *m = &mk->args[i];
		struct an_arg *a = &k->args[k->nargs++];

		memset(a, 0, sizeof(*a));
		a->storage_offset = -1;
		arg_from_meta(a, m);
		if (m->pointer != 1)
			continue;
		k->pointer_args++;
		if (!mk->hints_known)
			continue;
		if (!meta_arg_hint(m, hint_names[0]))
			an_add_str(&k->no_divisibility, &k->nno_divisibility, m->name);
		if (!meta_arg_hint(m, hint_names[1]))
			an_add_str(&k->no_pointer_range, &k->nno_pointer_range, m->name);
	}
}

struct use_count {
	const char *op;		/* tl.* name, or a prefix ending in '_' */
	size_t off;		/* the counter in struct an_kernel */
};

static const struct use_count use_counts[] = {
	{ "tl.load", offsetof(struct an_kernel, src_loads) },
	{ "tl.store", offsetof(struct an_kernel, src_stores) },
	{ "tl.atomic_", offsetof(struct an_kernel, src_atomics) },
	{ "tl.assume", offsetof(struct an_kernel, src_assume) },
	{ "tl.multiple_of", offsetof(struct an_kernel, src_multiple_of) },
	{ "tl.max_contiguous", offsetof(struct an_kernel, src_max_contiguous) },
	{ "tl.dot", offsetof(struct an_kernel, src_dot) },
};

static void uses_from_meta(struct an_kernel *k, const struct meta_kernel *mk)
{
	size_t i, j, nuc = sizeof(use_counts) / sizeof(use_counts[0]);

	for (j = 0; j < nuc; j++)
		*(long *)(void *)((char *)k + use_counts[j].off) = 0;
	for (i = 0; i < mk->nuses; i++) {
		for (j = 0; j < nuc; j++) {
			const char *op = use_counts[j].op;
			size_t n = strlen(op);
			int prefix = op[n - 1] == '_';

			if (prefix ? !strncmp(mk->uses[i].op, op, n) : !strcmp(mk->uses[i].op, op))
				(*(long *)(void *)((char *)k + use_counts[j].off))++;
		}
	}
}

static void strings_from(char ***v, size_t *nr, const json_t *arr)
{
	const json_t *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (json_is_string(e))
			an_add_str(v, nr, json_string_value(e));
}

static long line_or_unknown(size_t line)
{
	return line ? (long)line : -1;
}

static void addr_from_meta(struct an_addr *a, const struct tl_addr *t, const struct join_ref *ref)
{
	if (!t->read)
		return;
	a->loads = t->loads;
	a->stores = t->stores;
	a->divmod = t->divmod;
	a->divmod_line = line_or_unknown(t->divmod_line);
	a->gathers = t->gathers;
	a->gather_elems = t->gather_elems;
	a->gather_line = line_or_unknown(t->gather_line);
	a->scatters = t->scatters;
	a->scatter_line = line_or_unknown(t->scatter_line);
	a->strided = t->strided;
	a->strided_line = line_or_unknown(t->strided_line);
	a->strided_stride = t->strided ? t->strided_stride : -1;
	a->zero_stores = t->zero_stores;
	a->zero_param = t->zero_param ? xstrdup(t->zero_param) : NULL;
	a->zero_consumer = ref->zero_consumer ? xstrdup(ref->zero_consumer) : NULL;
}

static void from_meta(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref)
{
	const struct meta_kernel *mk = ref->mk;
	const json_t *aten = mk && mk->aten ? mk->aten : ref->block ? ref->block->aten : NULL;
	double gb;

	if (aten) {
		strings_from(&k->aten, &k->naten, json_object_get(aten, "original_aten"));
		strings_from(&k->nodes, &k->nnodes, json_object_get(aten, "aten_nodes"));
	}
	if (!mk)
		return;
	k->module = inputs_relative(in, mk->file);
	if (k->kind == KIND_NONE)
		k->kind = kind_from_name(mk->kind);
	if (mk->device.arch)
		k->arch = target_norm_dup(mk->device.arch, strlen(mk->device.arch));
	hints_from_meta(k, mk);
	uses_from_meta(k, mk);
	addr_from_meta(&k->addr, &mk->addr, ref);
	if (pylit_number(pylit_get(mk->inductor_meta, "kernel_num_gb"), &gb) == 0)
		k->inductor_bytes = gb * 1e9;
}

static void add_origin(struct an_kernel *k, const struct fx_origin *o)
{
	struct an_origin *ao;
	size_t i;

	for (i = 0; i < k->norigins; i++)
		if (k->origins[i].line == o->line && !strcmp(k->origins[i].file, o->file))
			return;
	k->origins = rf_grow(k->origins, k->norigins, sizeof(*k->origins));
	ao = &k->origins[k->norigins++];
	ao->file = xstrdup(o->file);
	ao->line = o->line;
	ao->function = o->function ? xstrdup(o->function) : NULL;
	ao->code = o->code ? xstrdup(o->code) : NULL;
}

static void from_fx(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref)
{
	const struct fx_graph *g = ref->wrapper ? fx_graphs_find(&in->fx, ref->wrapper) : NULL;
	size_t i;

	if (!g)
		return;
	if (!k->graph && g->compile_id)
		k->graph = xstrdup(g->compile_id);
	for (i = 0; i < k->nnodes; i++) {
		const struct fx_origin *o = fx_graph_origin(g, k->nodes[i]);

		if (o)
			add_origin(k, o);
	}
}

static struct an_arg *arg_named(struct an_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nargs; i++)
		if (!strcmp(k->args[i].name, name))
			return &k->args[i];
	k->args = rf_grow(k->args, k->nargs, sizeof(*k->args));
	memset(&k->args[k->nargs], 0, sizeof(*k->args));
	k->args[k->nargs].name = xstrdup(name);
	k->args[k->nargs].storage_offset = -1;
	return &k->args[k->nargs++];
}

static char *compact(const json_t *v)
{
	return jsonw_compact_string(v);
}

static void arg_from_capture(struct an_kernel *k, const struct capture_arg *a)
{
	struct an_arg *arg;

	if (!a->name || !a->kind)
		return;
	arg = arg_named(k, a->name);
	if (capture_arg_is_tensor(a)) {
		free(arg->dtype);
		free(arg->shape);
		free(arg->stride);
		arg->dtype = a->dtype ? xstrdup(a->dtype) : NULL;
		arg->shape = compact(a->shape);
		arg->stride = compact(a->stride);
		arg->storage_offset = a->storage_offset == RF_I64_NONE ? -1 : (long)a->storage_offset;
		arg->pointer = 1;
	} else if (!strcmp(a->kind, "scalar")) {
		free(arg->value);
		arg->value = compact(a->value);
	}
}

/* The capture's chosen config's Triton cache entry, for the ISA match. */
static char *capture_cache_hash(const struct capture_doc *cap)
{
	const struct capture_config *best = capture_best(cap);

	return best && best->cache_hash ? xstrdup(best->cache_hash) : NULL;
}

/* The bytes the launch moves, as tko run counts them (model/traffic.h). */
static void from_traffic(struct an_kernel *k, const struct capture_doc *cap,
			 const char *capture_path)
{
	char *py = rd_kernel_beside(capture_path, RD_K_KERNEL_PY);
	struct traffic t;

	if (traffic_of_capture(&t, cap, py, kernel_uses_read) == 0) {
		k->traffic_bytes = t.bytes;
		k->traffic_gathered = t.gathered;
		k->bytes_estimate = t.estimate;
		free(k->bytes_note);
		k->bytes_note = xstrdup(t.note);
	}
	traffic_release(&t);
	free(py);
}

static void from_capture(struct an_inputs *in, struct an_kernel *k, struct ev_kernel *ek)
{
	char *rel, *path;
	struct buf err = BUF_INIT;
	struct capture_doc cap;
	long long fp;
	size_t i;

	if (!k->kernel_dir)
		return;
	rel = rd_kernel_path(k->kernel_dir, RD_K_CAPTURE_JSON);
	path = inputs_part(in, rel);
	capture_init(&cap);
	if (path && is_file(path) && capture_load(&cap, path, &err) == 0) {
		for (i = 0; i < cap.nargs; i++)
			arg_from_capture(k, &cap.args[i]);
		fp = traffic_footprint(&cap);
		if (fp >= 0)
			k->footprint_bytes = (double)fp;
		from_traffic(k, &cap, path);
		if (isnan(k->inductor_bytes))
			k->inductor_bytes = cap.inductor_num_bytes;
		ek->cache_hash = capture_cache_hash(&cap);
		ek->captured = 1;
	} else if (err.len) {
		an_add_gap(&k->gaps, &k->ngaps, err.buf, NULL);
	}
	capture_release(&cap);
	free(rel);
	free(path);
	buf_release(&err);
}

/* "[4096, 8192]" as capture.json's compact form "[4096,8192]". */
static char *compact_dims(const char *printed)
{
	struct buf b = BUF_INIT;

	for (; *printed; printed++)
		if (*printed != ' ')
			buf_addch(&b, *printed);
	return buf_detach(&b, NULL);
}

/*
 * The arguments the seed skill's autotune.log printed: shapes, dtypes and
 * strides where no capture.json says them (from_capture runs after and
 * replaces them), and its byte count.
 */
static void from_launch(struct an_kernel *k, const struct join_ref *ref)
{
	const struct at_launch *l = ref->ak ? ref->ak->launch : NULL;
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nargs; i++) {
		const struct at_arg *la = &l->args[i];
		struct an_arg *a = arg_named(k, la->name);

		if (la->shape && !a->shape) {
			const char *dt = la->dtype;

			if (dt && !strncmp(dt, "torch.", 6))
				dt += 6;
			a->shape = compact_dims(la->shape);
			a->stride = la->stride ? compact_dims(la->stride) : NULL;
			a->dtype = dt ? xstrdup(dt) : NULL;
			a->pointer = 1;
		} else if (la->value && !a->value) {
			a->value = xstrdup(la->value);
		}
	}
	k->seed_bytes = l->total_bytes;
}

static void launches_from(struct an_kernel *k, const struct join_ref *ref)
{
	const struct at_kernel *ak = ref->ak;

	if (ak && ak->launches > 0 && at_kernel_instances(ak) == 1) {
		k->launches = ak->launches;
		k->launch_basis = LAUNCH_CAPTURE;
	} else if (ref->sites > 0) {
		k->launches = ref->sites;
		k->launch_basis = LAUNCH_WRAPPER;
	} else {
		k->launches = 1;
		k->launch_basis = LAUNCH_ASSUMED;
	}
}

void inputs_evidence(struct an_inputs *in, struct an_run *out)
{
	size_t i;

	for (i = 0; i < out->nkernels; i++) {
		struct an_kernel *k = &out->kernels[i];
		const struct join_ref *ref = &in->refs[i];
		struct ev_kernel ek = { NULL, 0 };

		if (ref->ak)
			from_autotune(k, ref->ak);
		from_meta(in, k, ref);
		if (!k->arch && out->arch)
			k->arch = target_norm_dup(out->arch, strlen(out->arch));
		if (ref->wrapper)
			k->wrapper = inputs_relative(in, ref->wrapper);
		from_fx(in, k, ref);
		from_launch(k, ref);
		from_capture(in, k, &ek);
		launches_from(k, ref);
		measured_fill(in, k, ref, out);
		isa_view_fill(in, k, ref, ek.cache_hash);
		free(ek.cache_hash);
	}
}
