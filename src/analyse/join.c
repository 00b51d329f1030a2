/*
 * Which kernels the model ran, and what each one is joined from
 * (inputs.h, model/analysis.h "Which kernels are here").
 *
 * Keys. Inductor names repeat (every max-autotune choice is `triton_mm`,
 * every fusion benchmark `triton_`, two graphs may both have
 * `triton_poi_fused_add_0`), so a kernel is keyed by its module: the
 * basename of its kernel file in the Inductor cache (Inductor's kernel
 * hash), which the wrapper's "# kernel path:" comment, summarize's
 * source file, the capture's source_file and the Triton cache's line
 * tables all name. A hand-written kernel is keyed by its capture
 * directory (name + source hash).
 *
 * Order of the joins: wrapper launch sites first (they are what the
 * model runs, with launches per graph call); then captured hand-written
 * kernels; then, only in a RUN with no wrapper module at all, every other
 * kernel the logs name. What is left of summarize's kernels is a
 * candidate of autotuning.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/inputs.h"
#include "json/reflect.h"
#include "model/names.h"
#include "parse/wrapper_calls.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

struct join {
	struct an_inputs *in;
	struct an_run *out;
	struct strmap by_key;	/* module key -> 1 + index into out->kernels */
	size_t wrappers;	/* wrapper modules read */
};

static char *at_module_key(const struct at_kernel *k)
{
	const char *p = k->source_local ? k->source_local : k->source_file;

	if (!p || strlen(p) < 4 || strcmp(p + strlen(p) - 3, ".py"))
		return NULL;
	if (k->kernel_dir && !strcmp(path_base(p), rd_kparts[RD_K_KERNEL_PY]))
		return NULL;
	return rd_module_key(p);
}

static void index_autotune(struct an_inputs *in)
{
	size_t i;

	for (i = 0; i < in->at.nr; i++) {
		const struct at_kernel *k = in->at.kernels[i];
		char *key = at_module_key(k);
		void **slot;

		if (key) {
			slot = strmap_put_ptr(&in->at_by_module, key, strlen(key));
			if (!*slot)
				*slot = (void *)k;
		}
		if (k->kernel_dir) {
			const char *b = path_base(k->kernel_dir);

			slot = strmap_put_ptr(&in->at_by_dir, b, strlen(b));
			if (!*slot)
				*slot = (void *)k;
		}
		free(key);
	}
}

/* The only kernel of that name in summarize's set, or NULL. */
static const struct at_kernel *at_unique(const struct an_inputs *in, const char *name)
{
	const struct at_kernel *k = at_kernel_latest(&in->at, name, strlen(name));

	return k && at_kernel_instances(k) == 1 ? k : NULL;
}

static void mark_used(struct an_inputs *in, const struct at_kernel *k)
{
	char *id;
	int added;

	if (!k)
		return;
	id = at_kernel_id(k);
	strmap_put(&in->used_at, id, strlen(id), &added);
	free(id);
}

static int is_used(const struct an_inputs *in, const struct at_kernel *k)
{
	char *id = at_kernel_id(k);
	size_t v;
	int used = strmap_get(&in->used_at, id, strlen(id), &v);

	free(id);
	return used;
}

/* The meta kernel named `name` read from `file`, or NULL. */
static const struct meta_kernel *meta_in_file(const struct an_inputs *in, const char *name,
					      const char *file)
{
	const struct meta_kernel *found[64];
	size_t n = meta_find(&in->meta, name, found, 64), i;

	for (i = 0; i < n && i < 64; i++)
		if (file && !strcmp(found[i]->file, file))
			return found[i];
	return NULL;
}

static struct an_kernel *add_kernel(struct join *j, const char *key, const char *name,
				    struct join_ref **ref)
{
	struct an_kernel *k = an_run_add_kernel(j->out);
	void **slot = strmap_put_ptr(&j->by_key, key, strlen(key));

	*slot = (void *)(j->out->nkernels);
	j->in->refs = rf_grow(j->in->refs, j->in->nrefs, sizeof(*j->in->refs));
	*ref = &j->in->refs[j->in->nrefs++];
	memset(*ref, 0, sizeof(**ref));
	k->name = xstrdup(name);
	k->module_key = xstrdup(key);
	return k;
}

static struct an_libcall *libcall_for(struct join *j, const char *op, const char *wrapper)
{
	struct an_run *out = j->out;
	const struct fx_graph *g = fx_graphs_find(&j->in->fx, wrapper);
	char *rel = inputs_relative(j->in, wrapper);
	struct an_libcall *c;
	size_t i;

	for (i = 0; i < out->nlibcalls; i++)
		if (!strcmp(out->libcalls[i].op, op) && !strcmp(out->libcalls[i].wrapper, rel)) {
			free(rel);
			return &out->libcalls[i];
		}
	out->libcalls = rf_grow(out->libcalls, out->nlibcalls, sizeof(*out->libcalls));
	c = &out->libcalls[out->nlibcalls++];
	memset(c, 0, sizeof(*c));
	c->op = xstrdup(op);
	c->wrapper = rel;
	c->graph = g && g->compile_id ? xstrdup(g->compile_id) : NULL;
	c->calls = 0;
	c->line = -1;
	return c;
}

static const struct wrapped_kernel *block_named(const struct an_inputs *in, const char *wrapper,
						const char *name)
{
	size_t i;

	for (i = 0; i < in->meta.wrapped.nr; i++) {
		const struct wrapped_kernel *w = &in->meta.wrapped.v[i];

		if (!strcmp(w->wrapper, wrapper) && !strcmp(w->name, name))
			return w;
	}
	return NULL;
}

/*
 * For a kernel that only stores zeros (tl_addr.h): the buffer the wrapper
 * passes at that pointer's position, and the next call that takes it.
 */
static void find_zero_consumer(struct join_ref *ref, const struct wcall_list *calls, size_t i)
{
	const struct meta_kernel *mk = ref->mk;
	const struct wcall *next;
	size_t p;

	if (ref->zero_consumer || !mk || !mk->addr.zero_param || mk->addr.zero_stores != mk->addr.stores)
		return;
	for (p = 0; p < mk->nargs && strcmp(mk->args[p].name, mk->addr.zero_param); p++)
		;
	if (p >= calls->v[i].npos)
		return;
	next = wcall_next_use(calls, i, calls->v[i].args[p]);
	if (next)
		ref->zero_consumer = xstrfmt("%s (wrapper line %zu, argument %s)", next->name,
					     next->line, calls->v[i].args[p]);
}

/* Joins one call site; returns its kernel's ref, or NULL when the block is unknown. */
static struct join_ref *join_site(struct join *j, const char *wrapper, const struct wcall *c)
{
	const struct wrapped_kernel *w = block_named(j->in, wrapper, c->name);
	struct join_ref *ref;
	struct an_kernel *k;
	char *key;
	size_t idx;

	if (!w)
		return NULL;
	key = w->resolved ? rd_module_key(w->resolved) : xstrfmt("%s@%s", c->name, path_base(wrapper));
	idx = (size_t)strmap_get_ptr(&j->by_key, key, strlen(key));
	if (idx) {
		j->in->refs[idx - 1].sites++;
		free(key);
		return &j->in->refs[idx - 1];
	}
	k = add_kernel(j, key, c->name, &ref);
	ref->block = w;
	ref->wrapper = w->wrapper;
	ref->sites = 1;
	ref->mk = meta_in_file(j->in, c->name, w->resolved ? w->resolved : w->wrapper);
	ref->ak = strmap_get_ptr(&j->in->at_by_module, key, strlen(key));
	if (!ref->ak)
		ref->ak = at_unique(j->in, c->name);
	mark_used(j->in, ref->ak);
	(void)k;
	free(key);
	return ref;
}

static void join_wrapper(struct join *j, const struct meta_file *f)
{
	struct strmap names = STRMAP_INIT;
	struct wcall_list calls = WCALL_LIST_INIT;
	struct mapped_file m = MAPPED_FILE_INIT;
	struct buf err = BUF_INIT;
	size_t i;
	int added;

	for (i = 0; i < j->in->meta.wrapped.nr; i++) {
		const struct wrapped_kernel *w = &j->in->meta.wrapped.v[i];

		if (!strcmp(w->wrapper, f->path))
			strmap_put(&names, w->name, strlen(w->name), &added);
	}
	if (file_map(f->path, META_MAX_FILE, &m, &err) == 0) {
		wrapper_calls_scan(&calls, m.data, m.len, &names);
		file_unmap(&m);
	}
	for (i = 0; i < calls.nr; i++) {
		if (calls.v[i].library) {
			struct an_libcall *lc = libcall_for(j, calls.v[i].name, f->path);

			if (lc->line < 0)
				lc->line = (long)calls.v[i].line;
			lc->calls++;
		} else {
			struct join_ref *ref = join_site(j, f->path, &calls.v[i]);

			if (ref)
				find_zero_consumer(ref, &calls, i);
		}
	}
	j->wrappers++;
	wcall_list_release(&calls);
	strmap_release(&names);
	buf_release(&err);
}

/* Hand-written kernels are any kernel summarize did not get from Inductor. */
static int hand_written(const struct at_kernel *k)
{
	return k->kind && (kind_flags(kind_from_name(k->kind)) & KIND_HAND_WRITTEN);
}

/* A max-autotune log table of one op's choices, not a kernel. */
static int max_autotune_table(const struct at_kernel *k)
{
	return kind_from_name(k->kind) == KIND_MAX_AUTOTUNE;
}

/* Autotuning's own kernels: they are never launched by the model. */
static int candidate(const struct at_kernel *k)
{
	return !strcmp(k->name, "triton_mm") || !strcmp(k->name, "triton_") ||
	       max_autotune_table(k);
}

static void join_loose(struct join *j, const struct at_kernel *ak)
{
	struct join_ref *ref;
	char *key = at_module_key(ak);
	char *file;

	if (!key)
		key = ak->kernel_dir ? xstrdup(path_base(ak->kernel_dir)) : at_kernel_id(ak);
	if (strmap_get_ptr(&j->by_key, key, strlen(key))) {
		free(key);
		return;
	}
	add_kernel(j, key, ak->name, &ref);
	ref->ak = ak;
	if (ak->kernel_dir) {
		char *rel = rd_kernel_path(ak->kernel_dir, RD_K_KERNEL_PY);

		file = inputs_path(j->in, rel);
		free(rel);
		ref->mk = meta_in_file(j->in, ak->name, file);
		free(file);
	}
	if (!ref->mk && ak->source_local)
		ref->mk = meta_in_file(j->in, ak->name, ak->source_local);
	mark_used(j->in, ak);
	free(key);
}

static void add_candidate(struct an_run *out, const struct at_kernel *k)
{
	const struct at_config *best = at_kernel_best(k, NULL);
	struct an_candidate *c = NULL;
	size_t i;

	for (i = 0; i < out->ncandidates; i++)
		if (!strcmp(out->candidates[i].name, k->name))
			c = &out->candidates[i];
	if (!c) {
		out->candidates = rf_grow(out->candidates, out->ncandidates, sizeof(*out->candidates));
		c = &out->candidates[out->ncandidates++];
		memset(c, 0, sizeof(*c));
		c->name = xstrdup(k->name);
		c->best_ms = NAN;
		c->why = xstrdup(!strcmp(k->name, "triton_mm") ? "max-autotune template choices" :
				 !strcmp(k->name, "triton_") ? "kernels Inductor compiled to benchmark a fusion" :
				 max_autotune_table(k) ? "a max-autotune table" :
				 "kernels no wrapper module launches");
	}
	c->count++;
	c->timed += (long)at_kernel_timed(k);
	if (best && isfinite(best->time_ms) && (isnan(c->best_ms) || best->time_ms < c->best_ms))
		c->best_ms = best->time_ms;
}

/* Kernels used by more than one model kernel's name get "name@key8" ids. */
static void assign_ids(struct an_run *out)
{
	size_t i, j;

	for (i = 0; i < out->nkernels; i++) {
		struct an_kernel *k = &out->kernels[i];
		int shared = 0;

		for (j = 0; j < out->nkernels && !shared; j++)
			shared = j != i && !strcmp(out->kernels[j].name, k->name);
		k->id = shared ? xstrfmt("%s@%.8s", k->name, k->module_key) : xstrdup(k->name);
	}
}

void inputs_join(struct an_inputs *in, struct an_run *out)
{
	struct join j = { in, out, STRMAP_INIT, 0 };
	size_t i;

	index_autotune(in);
	for (i = 0; i < in->meta.nfiles; i++)
		if (!strcmp(in->meta.files[i].role, "wrapper"))
			join_wrapper(&j, &in->meta.files[i]);
	for (i = 0; i < in->at.nr; i++) {
		const struct at_kernel *k = in->at.kernels[i];

		if (!is_used(in, k) && !candidate(k) &&
		    (hand_written(k) || !j.wrappers))
			join_loose(&j, k);
	}
	for (i = 0; i < in->at.nr; i++)
		if (!is_used(in, in->at.kernels[i]))
			add_candidate(out, in->at.kernels[i]);
	out->wrappers = (long)j.wrappers;
	assign_ids(out);
	strmap_release(&j.by_key);
}
