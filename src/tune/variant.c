/*
 * Running one variant of a sweep (see sweep.h): its source edits, its
 * files under OUT/variants/NNN/, its request, the worker's reply, and the
 * scan of the ISA it compiled to.
 *
 * Compiling is most of a variant's cost and needs no GPU, so when the
 * worker has compile processes to spare (its hello says "jobs" > 1) the
 * variants queued in the plan are prepared ahead and sent in one
 * "precompile" request: the worker compiles them in parallel while the
 * GPU times the earlier ones, and the bench request of each then finds
 * its binary in Triton's cache.
 *
 * A bench request carries the ISA fingerprints of the variants timed so
 * far ("known"): a variant that compiles to the same ISA as one of them
 * (line information aside: a source variant that changed nothing) is not
 * timed again and comes back "duplicate".
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/request.h"
#include "tune/rewrite.h"
#include "tune/sweep.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* Variants sent ahead in one precompile request, at most. */
#define AHEAD_MAX 24

int tune_sweep_edits(const struct tune_sweep *s, const struct tune_variant *v,
		     struct rewrite *r, struct buf *why)
{
	const struct tune_space *sp = &s->plan.space;
	size_t i;

	if ((v->src & TUNE_SRC_HINTS) && !rewrite_hints(s->text.buf, s->text.len, &s->k, r)) {
		buf_adds(why, "no program-id offset or 1-D index to hint");
		return -1;
	}
	if ((v->src & TUNE_SRC_ASSUME) && !rewrite_assume(s->text.buf, s->text.len, &s->k, r)) {
		buf_adds(why, "no offset or size argument to assume non-negative");
		return -1;
	}
	if ((v->src & TUNE_SRC_TWO_PASS) && !rewrite_two_pass(s->text.buf, s->text.len, &s->k, r)) {
		buf_adds(why, "no online softmax to make two passes");
		return -1;
	}
	if (v->src & TUNE_SRC_PTR32)
		rewrite_pointer_range(s->text.buf, s->text.len, &s->k, r);
	for (i = 0; i < sp->n; i++)
		if (sp->p[i].at == TUNE_AT_BODY)
			rewrite_body_const(s->text.buf, s->text.len, &s->k, sp->p[i].name,
					   v->cfg.v[i], r);
	return 0;
}

static int variant_source(const struct tune_sweep *s, const struct tune_variant *v,
			  struct buf *out, struct buf *why)
{
	struct rewrite r = REWRITE_INIT;
	int ret = tune_sweep_edits(s, v, &r, why);

	if (!ret)
		rewrite_apply(s->text.buf, s->text.len, &r, out);
	rewrite_release(&r);
	return ret;
}

int tune_sweep_env_index(unsigned src)
{
	if (src & TUNE_SRC_BUF_ON)
		return TUNE_ENV_BUF_ON;
	if (src & TUNE_SRC_BUF_OFF)
		return TUNE_ENV_BUF_OFF;
	return TUNE_ENV_INHERIT;
}

const char *const *tune_sweep_env(unsigned src)
{
	return tune_pool_env(tune_sweep_env_index(src));
}

static struct tune_prep *prep_at(struct tune_sweep *s, size_t i)
{
	if (i >= s->prep_alloc) {
		size_t old = s->prep_alloc;

		s->prep_alloc = i + 16;
		s->prep = xrealloc(s->prep, s->prep_alloc * sizeof(*s->prep));
		memset(s->prep + old, 0, (s->prep_alloc - old) * sizeof(*s->prep));
	}
	return &s->prep[i];
}

void tune_variant_release(struct tune_sweep *s)
{
	size_t i;

	for (i = 0; i < s->prep_alloc; i++)
		json_decref(s->prep[i].req);
	free(s->prep);
	s->prep = NULL;
	s->prep_alloc = 0;
	strlist_release(&s->known_order);
	strmap_release(&s->known);
}

/* Writes v's source and request.json; 0, or -1 with r failed (skipped, error). */
static int prepare(struct tune_sweep *s, const struct tune_variant *v, struct tune_result *r)
{
	struct buf text = BUF_INIT, why = BUF_INIT, err = BUF_INIT;
	char *dir = xstrfmt("%s/variants/%03zu", s->out_dir, v->index);
	char *path = path_join(dir, "kernel.py"), *rpath = path_join(dir, "request.json");
	struct tune_prep *p = prep_at(s, v->index);
	int ret = -1;

	if (variant_source(s, v, &text, &why) < 0) {
		tune_result_fail(r, TUNE_ST_SKIPPED, why.buf);
	} else if (tune_refuse_link(dir, &err) < 0 || mkdir_p(dir, &err) < 0 ||
		   write_file_atomic(path, text.buf, text.len, &err) < 0) {
		tune_result_fail(r, TUNE_ST_ERROR, err.buf);
	} else {
		free(r->source);
		r->source = xstrdup(path);
		p->req = tune_request_new(s, v, path, dir);
		p->env = tune_sweep_env_index(v->src);
		if (json_write_path(p->req, rpath, &err) < 0)
			tune_result_fail(r, TUNE_ST_ERROR, err.buf);
		else
			ret = 0;
	}
	if (ret < 0) {
		json_decref(p->req);
		p->req = NULL;
	}
	buf_release(&text);
	buf_release(&why);
	buf_release(&err);
	free(dir);
	free(path);
	free(rpath);
	return ret;
}

/* The variants the plan has queued from `from` on, prepared and sent to compile. */
static void precompile_ahead(struct tune_sweep *s, size_t from)
{
	json_t *batch[TUNE_NENV] = { NULL, NULL, NULL };
	size_t i, end = s->plan.nr, sent = 0;
	int e;

	if (s->jobs <= 1)
		return;
	if (s->plan.opts.max_variants && end > s->plan.opts.max_variants)
		end = s->plan.opts.max_variants;
	for (i = from; i < end && sent < AHEAD_MAX; i++) {
		struct tune_prep *p = prep_at(s, i);
		struct tune_result *r = tune_results_at(&s->res, i);

		if (p->sent || (!p->req && r->status != TUNE_ST_PENDING))
			continue;
		if (!p->req && prepare(s, &s->plan.v[i], r) < 0)
			continue;
		if (!batch[p->env])
			batch[p->env] = json_array();
		json_array_append(batch[p->env], p->req);
		p->sent = 1;
		sent++;
	}
	for (e = 0; e < TUNE_NENV; e++) {
		json_t *req, *rep = NULL;
		struct buf err = BUF_INIT;

		if (!batch[e])
			continue;
		req = json_pack("{s:s, s:s, s:o}", "op", "precompile", "id", "precompile",
				"requests", batch[e]);
		/* a refusal only means the bench requests compile for themselves */
		tune_pool_call(s->pool, e, req, TUNE_SETUP_TIMEOUT_S, &rep, &err);
		json_decref(req);
		json_decref(rep);
		buf_release(&err);
	}
}

/* The request's "known": each fingerprint met, in order, with its first variant's id. */
static json_t *known_json(const struct tune_sweep *s)
{
	json_t *j = json_object();
	size_t i;

	for (i = 0; i < s->known_order.nr; i++) {
		const char *fp = s->known_order.v[i];
		size_t v = 0;
		char id[24];

		strmap_get(&s->known, fp, strlen(fp), &v);
		snprintf(id, sizeof(id), "v%03zu", v);
		json_object_set_new(j, fp, json_string(id));
	}
	return j;
}

static void call_worker(struct tune_sweep *s, struct tune_prep *p, struct tune_result *r)
{
	struct buf err = BUF_INIT;
	json_t *rep = NULL;
	int ret;

	if (!s->o->compile_only)
		json_object_set_new(p->req, "known", known_json(s));
	ret = tune_pool_call(s->pool, p->env, p->req, s->o->timeout_s, &rep, &err);
	if (ret == PY_WORKER_TIMEOUT) {
		char *msg = xstrfmt("ran past the %.0f s limit", s->o->timeout_s);

		tune_result_fail(r, TUNE_ST_TIMEOUT, msg);
		free(msg);
	} else if (ret < 0) {
		tune_result_fail(r, TUNE_ST_ERROR, err.buf);
	} else {
		tune_result_from_reply(r, rep);
	}
	json_decref(rep);
	buf_release(&err);
}

/* The ISA summary of what the variant compiled to. */
static void scan_isa(const struct tune_sweep *s, struct tune_result *r)
{
	const char *path = json_str(r->files, "amdgcn");
	struct buf err = BUF_INIT;

	if (!path)
		path = json_str(r->files, "ptx");
	if (!path)
		return;
	r->isa = xmalloc(sizeof(*r->isa));
	tune_isa_init(r->isa);
	if (tune_isa_scan(path, s->k.name, r->isa, &err) < 0) {
		free(r->isa);
		r->isa = NULL;
	} else {
		tune_isa_add_driver(r->isa, r->n_regs, r->n_spills);
	}
	buf_release(&err);
}

/* Remembers which variant first had an ISA; a later one with it is the "same as". */
static void note_fingerprint(struct tune_sweep *s, const struct tune_variant *v,
			     struct tune_result *r)
{
	size_t first, n;
	int added;

	if (!r->fingerprint)
		return;
	n = strlen(r->fingerprint);
	if (strmap_get(&s->known, r->fingerprint, n, &first)) {
		if (!r->same_as && s->o->compile_only)
			r->same_as = xstrfmt("v%03zu", first);
		return;
	}
	if (r->status == TUNE_ST_OK || r->status == TUNE_ST_WRONG ||
	    r->status == TUNE_ST_COMPILED) {
		*strmap_put(&s->known, r->fingerprint, n, &added) = v->index;
		strlist_push(&s->known_order, strmap_key(&s->known, r->fingerprint, n));
	}
}

void tune_variant_run(struct tune_sweep *s, struct tune_variant *v)
{
	struct tune_prep *p;
	struct tune_result *r;

	/* before r is taken: preparing ahead grows the results */
	precompile_ahead(s, v->index);
	r = tune_results_at(&s->res, v->index);
	p = prep_at(s, v->index);
	if (!p->req && r->status == TUNE_ST_PENDING)
		prepare(s, v, r);
	if (!p->req)
		return;
	call_worker(s, p, r);
	scan_isa(s, r);
	note_fingerprint(s, v, r);
	json_decref(p->req);
	p->req = NULL;
}
