/*
 * The plan from a RUN's tune results (plan.h).
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/lookup.h"
#include "apply/plan.h"
#include "apply/tmplkey.h"
#include "json/jsonio.h"
#include "json/jsonw.h"
#include "model/capture.h"
#include "model/tune.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/walk.h"
#include "banned.h"

static struct apply_item *add_item(struct apply_plan *p)
{
	struct apply_item *it;

	if (p->nr == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 16;
		p->v = xrealloc(p->v, p->alloc * sizeof(*p->v));
	}
	it = &p->v[p->nr++];
	memset(it, 0, sizeof(*it));
	it->speedup = it->time_ms = -1;
	return it;
}

/*
 * Did tune's confirmation refuse the winner? "confirmed" is tune's answer
 * (docs/json.md): a refused source patch whose config-only variant won in
 * its place leaves confirmation.accepted false but the winner confirmed.
 * Results written before "confirmed" existed only have "accepted" (the
 * model's confirmed is then unknown).
 */
static int refused(struct apply_item *it, const struct tune_doc_winner *w)
{
	const struct tune_doc_confirm *c = w->has_confirmation ? &w->confirmation : NULL;

	if (w->confirmed != RF_TRI_UNKNOWN ? w->confirmed : !c || c->accepted != 0)
		return 0;
	it->skip = "not_confirmed";
	if (c && c->reason)
		it->skip_detail = xstrdup(c->reason);
	else if (!c)
		it->skip_detail = xstrdup("no confirmation ran (tune's budget)");
	return 1;
}

static double known_or(double v)
{
	return isnan(v) ? -1 : v;
}

/* The confirmation's warm interval, when it is of variant `id` (the final winner). */
static void warm_of(struct apply_item *it, const struct tune_doc_winner *w, const char *id)
{
	const struct tune_doc_warm *h = &w->confirmation.warm;
	double lo, hi;

	it->warm = it->warm_lo = it->warm_hi = NAN;
	it->warm_rounds = 0;
	if (!w->has_confirmation || !w->confirmation.has_warm || !h->variant || !id ||
	    strcmp(h->variant, id) || !(h->ratio > 0))
		return;
	tune_doc_ci(h->ci95, &lo, &hi);
	if (!(lo > 0) || !(hi >= lo))
		return;
	it->warm = h->ratio;
	it->warm_lo = lo;
	it->warm_hi = hi;
	it->warm_rounds = h->rounds;
}

/* The plan entry's "predicted": tune's figure, and the warm one where there is one. */
static void predicted_of(const struct apply_item *it, struct apply_predicted *pr)
{
	pr->speedup = it->speedup;
	pr->time_ms = it->time_ms;
	if (apply_item_has_warm(it)) {
		pr->warm_speedup = it->warm;
		pr->warm_ci95 = json_pack("[f, f]", it->warm_lo, it->warm_hi);
	}
}

/*
 * The variant tune confirmed faster than the base without source variants
 * beside a source-variant winner (winner.config_only), or NULL.
 */
static const struct tune_doc_variant *config_only_of(const struct tune_doc_kernel *k)
{
	const struct tune_doc_winner_config_only *o = &k->winner.config_only;
	const struct tune_doc_variant *v;

	if (!k->winner.has_config_only || !o->confirmed || !o->id)
		return NULL;
	v = tune_doc_variant(k, o->id);
	return v && json_is_object(v->config) && !v->nsource_variants ? v : NULL;
}

/* Why a source-variant winner's config-only variant is not planned in its place, or NULL. */
static char *no_fallback(const struct tune_doc_winner *w)
{
	const struct tune_doc_winner_config_only *o = &w->config_only;
	char fig[32] = "";

	if (!w->has_config_only || !o->id)
		return NULL;
	if (!isnan(o->speedup))
		snprintf(fig, sizeof(fig), " (%.3fx)", o->speedup);
	return xstrfmt("its config-only variant %s%s is not confirmed faster than the base", o->id,
		       fig);
}

/* The item's figures are the config-only variant's: its confirmation over the base. */
static void fall_back(struct apply_item *it, const struct tune_doc_winner *w,
		      const struct tune_doc_variant *v)
{
	it->speedup = known_or(w->config_only.speedup);
	it->time_ms = known_or(v->time_ms);
	warm_of(it, w, v->id);
}

/*
 * One of the autotuner's other candidates, as tune timed it: tune plans
 * them with origin "inductor", or, where another phase had planned the same
 * config first, keeps that origin and records the autotuner's time
 * (inductor_ms) on it (tune/plan.c, plan_starts).
 */
static int is_other_candidate(const struct tune_doc_variant *v, const struct tune_doc_variant *base)
{
	if (v == base)
		return 0;
	return (v->origin && !strcmp(v->origin, "inductor")) || v->inductor_ms > 0;
}

/*
 * Inductor times several configs of most pointwise kernels the first time
 * each runs and keeps the fastest of its own short benchmark (as
 * @triton.autotune does), so two fresh compiles of one model may launch
 * different configs: on the H200 one kernel of `model` ran 16% slower in
 * the step under one such choice than under another (docs/PERFORMANCE.md,
 * 2026-12-05, third session). Where tune timed the autotuner's other
 * candidates and kept the base, the plan pins one of them: the fastest
 * other candidate where tune's sweep timed it faster than the base by more
 * than the sweep's margin (TUNE_SWEEP_MARGIN, what a sweep winner must
 * beat), else the base; that variant, or NULL. Not the base alone: the
 * confirmation kept the base for want of proof over its own candidate, not
 * on evidence against Inductor's other ones; on the H100 (2026-12-05) a
 * base pin ran 0.661x of Inductor's pick of a candidate the sweep had
 * timed 1.248x faster. Not the fastest alone: one timing each cannot tell
 * 1% apart, and on the H100 (2026-12-05, sixth session) the own model's
 * candidate the sweep timed 1.0126x faster than the base ran 0.854x of
 * the base (Inductor's pick in every default run) inside the step.
 */
static const struct tune_doc_variant *pin_of(const struct tune_doc_kernel *k)
{
	const struct tune_doc_variant *base = tune_doc_base(k), *best = NULL;
	size_t i;
	int others = 0;

	if (!base || !json_is_object(base->config) || base->nsource_variants)
		return NULL;
	for (i = 0; i < k->nvariants; i++) {
		const struct tune_doc_variant *v = &k->variants[i];

		if (!is_other_candidate(v, base))
			continue;
		others = 1;
		if (v->status == TUNE_ST_OK && v->time_ms > 0 && json_is_object(v->config) &&
		    !v->nsource_variants && (!best || v->time_ms < best->time_ms))
			best = v;
	}
	if (!others)
		return NULL;
	if (best && base->time_ms > 0 && best->time_ms < base->time_ms * (1 - TUNE_SWEEP_MARGIN))
		return best;
	return base;
}

/* planned_variant's case of a base that won: its pin, or NULL with it->skip set. */
static const struct tune_doc_variant *base_won(struct apply_item *it,
					       const struct tune_doc_kernel *k, unsigned flags,
					       const char **fallback)
{
	const struct tune_doc_variant *v;

	if (!(flags & APPLY_PLAN_NO_PIN) && (v = pin_of(k))) {
		*fallback = v == tune_doc_base(k) ? APPLY_FALLBACK_PINNED_BASE :
						    APPLY_FALLBACK_PINNED_CANDIDATE;
		it->time_ms = known_or(v->time_ms);
		return v;
	}
	it->skip = "default_is_best";
	return NULL;
}

/*
 * The variant to plan for kernel k and what it is in place of tune's winner
 * (*fallback: "config_only", "pinned_base", "pinned_candidate", or NULL for
 * the winner itself), with the Inductor settings it needs; NULL with
 * it->skip set when none is.
 */
static const struct tune_doc_variant *planned_variant(struct apply_item *it,
						      const struct tune_doc_kernel *k,
						      unsigned flags, const char **fallback,
						      const json_t **settings)
{
	const struct tune_doc_winner *w = &k->winner;
	const struct tune_doc_variant *v;

	*fallback = NULL;
	*settings = w->inductor_settings;
	if (w->is_base) {
		*settings = NULL;
		return base_won(it, k, flags, fallback);
	}
	if (refused(it, w))
		return NULL;
	v = tune_doc_variant(k, w->id);
	if (!v || !json_is_object(v->config)) {
		it->skip = "no_winner_config";
		return NULL;
	}
	if (v->nsource_variants && !(flags & APPLY_PLAN_SOURCE_VARIANTS)) {
		if (!(v = config_only_of(k))) {
			it->skip = "source_variant";
			it->skip_detail = no_fallback(w);
			return NULL;
		}
		fall_back(it, w, v);
		*settings = w->config_only.inductor_settings;
		*fallback = APPLY_FALLBACK_CONFIG_ONLY;
	}
	return v;
}

void apply_item_from_doc(struct apply_item *it, const struct tune_doc_kernel *k, unsigned flags)
{
	const struct tune_doc_winner *w = &k->winner;
	const struct tune_doc_variant *v;
	const json_t *settings;
	const char *fallback;

	it->warm = it->warm_lo = it->warm_hi = NAN;
	it->warm_rounds = 0;
	/* an object winner without an id is still a winner (then without a config) */
	if (!k->has_winner) {
		it->skip = "no_winner";
		return;
	}
	it->speedup = known_or(w->speedup);
	it->time_ms = known_or(w->time_ms);
	warm_of(it, w, w->id);
	if (!(v = planned_variant(it, k, flags, &fallback, &settings)))
		return;
	it->entry = apply_plan_kernel_new();
	it->entry->kernel = it->kernel ? xstrdup(it->kernel) : NULL;
	it->entry->config = json_incref(v->config);
	if (settings && json_object_size(settings))
		it->entry->inductor_settings = json_incref((json_t *)settings);
	predicted_of(it, &it->entry->predicted);
	it->entry->fallback = fallback ? xstrdup(fallback) : NULL;
}

void apply_item_from_tune(struct apply_item *it, const json_t *tk, unsigned flags)
{
	struct tune_doc_kernel k;
	struct buf err = BUF_INIT;

	rf_init(&tune_doc_kernel_desc, &k);
	if (rf_read(&tune_doc_kernel_desc, &k, tk, "tune.json", &err) == 0) {
		apply_item_from_doc(it, &k, flags);
	} else {
		it->skip = "unreadable";
		it->skip_detail = buf_detach(&err, NULL);
	}
	rf_release(&tune_doc_kernel_desc, &k);
	buf_release(&err);
}

static int span_has_template(const char *text, size_t len)
{
	return span_find(text, len, "@triton_heuristics.template(") != NULL;
}

/* The Inductor kernel's identity: its lookup key, from the module it was captured in. */
static void inductor_identity(struct apply_item *it, const char *text, size_t len)
{
	struct buf src = BUF_INIT, hints = BUF_INIT;
	char key[65];

	if (lookup_function_source(text, len, it->kernel, &src) < 0) {
		it->skip = "kernel_not_in_module";
		goto done;
	}
	lookup_size_hints(text, len, &hints);
	lookup_hash(hints.buf, src.buf, src.len, key);
	it->entry->lookup_hash = xstrdup(key);
	it->entry->size_hints = xstrdup(hints.buf);
	it->entry->fused = strstr(src.buf, "_fused_") != NULL;
	if (!strncmp(it->kernel, "triton_tem", 10) || span_has_template(text, len)) {
		/* the template lookup key needs the inputs' layouts: the hook carries it */
		apply_plan_kernel_set_launcher(it->entry, "template");
		it->entry->mechanisms = rf_grow(NULL, 0, sizeof(char *));
		it->entry->mechanisms[it->entry->nmechanisms++] = xstrdup("hook");
	}
done:
	buf_release(&src);
	buf_release(&hints);
}

/*
 * Launcher and identity from the kernel folder's capture.json and kernel.py;
 * an Inductor kernel's kernel.py is left in `text` for the template's key.
 */
static void identify(struct apply_plan *p, struct apply_item *it, const char *kdir,
		     struct buf *text)
{
	char *cap_path = rd_kernel_path(kdir, RD_K_CAPTURE_JSON);
	char *py_path = rd_kernel_path(kdir, RD_K_KERNEL_PY);
	struct buf err = BUF_INIT;
	struct capture_doc cap;
	const char *kind;
	int have;

	capture_init(&cap);
	have = capture_load(&cap, cap_path, &err) == 0;
	kind = have ? cap.kind : NULL;
	if (!kind) {
		it->skip = "no_capture";
	} else if (!strcmp(kind, "user_autotune")) {
		apply_plan_kernel_set_launcher(it->entry, "triton");
		it->entry->source_hash = cap.source_hash ? xstrdup(cap.source_hash) : NULL;
	} else if (strcmp(kind, "inductor")) {
		it->skip = "not_autotuned";	/* a plain @triton.jit: its config is in the code */
	} else if (file_read(py_path, 0, text, &err) < 0) {
		it->skip = "no_kernel_module";
	} else {
		inductor_identity(it, text->buf, text->len);
	}
	if (have && !p->versions.known && cap.have_versions) {
		p->versions.known = 1;
		p->versions.torch = cap.versions.torch ? xstrdup(cap.versions.torch) : NULL;
		p->versions.triton = cap.versions.triton ? xstrdup(cap.versions.triton) : NULL;
	}
	capture_release(&cap);
	buf_release(&err);
	free(cap_path);
	free(py_path);
}

/* A body parameter's value as JSON writes it; "?" when the config lacks it. */
static void add_value(struct buf *out, const json_t *v)
{
	char *text = v ? jsonw_compact_string(v) : NULL;

	buf_adds(out, text ? text : "?");
	free(text);
}

/* "BLOCK_M 128->256, BLOCK_K 32->64": where the winner's body differs from the base's. */
static void body_changes(const json_t *was, const json_t *body, struct buf *out)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)body, key, v) {
		const json_t *b = json_object_get(was, key);

		if (b && json_equal(b, v))
			continue;
		buf_addf(out, "%s%s ", out->len ? ", " : "", key);
		add_value(out, b);
		buf_adds(out, "->");
		add_value(out, v);
	}
	json_object_foreach((json_t *)was, key, v)
		if (!json_object_get(body, key)) {
			buf_addf(out, "%s%s ", out->len ? ", " : "", key);
			add_value(out, v);
			buf_adds(out, "->?");
		}
}

/*
 * Why no table entry, into d: the captured torch has no template lookup
 * table (before 2.10: torch 2.9 is the DCU stack's), the capture predates
 * tko's hook for its keys, or no single recorded key fits this kernel.
 */
static void no_key_reason(const struct tmplkey_events *ev, struct buf *d)
{
	if (ev->hooked != 1 && tmplkey_torch_lacks_table(ev->torch))
		buf_addf(d, "torch %s, which ran the capture, has no such table (2.10 on)", ev->torch);
	else if (ev->hooked == 0)
		buf_adds(d, "the capture did not record its keys (a tko capture older than its "
			 TMPLKEY_HOOK " hook: capture again)");
	else
		buf_adds(d, "the capture recorded no single key for this template's op");
}

/* The skip's detail: what changed, why tko cannot set it, and the winner to set by hand. */
static char *body_detail(const struct buf *changed, const json_t *cfg,
			 const struct tmplkey_events *ev)
{
	struct buf d = BUF_INIT;
	const char *key;
	json_t *v;

	buf_addf(&d, "template parameters %s: the hook sets a template's num_warps and num_stages "
		 "only; these need Inductor's template lookup table (config.lookup_table), and ",
		 changed->buf);
	no_key_reason(ev, &d);
	buf_adds(&d, "; set them by hand:");
	json_object_foreach(json_object_get(cfg, "body"), key, v) {
		buf_addf(&d, " %s=", key);
		add_value(&d, v);
	}
	buf_adds(&d, " num_warps=");
	add_value(&d, json_object_get(cfg, "num_warps"));
	buf_adds(&d, " num_stages=");
	add_value(&d, json_object_get(cfg, "num_stages"));
	buf_adds(&d, " (docs/apply.md, \"Template winners\")");
	return buf_detach(&d, NULL);
}

/*
 * The template lookup table entry of the winner whose kernel.py is `py`,
 * from the RUN's recorded keys (apply/tmplkey.h); NULL when none is known.
 * A problem reading the events is no key: the winner stays cannot_carry.
 */
static json_t *template_entry(struct apply_plan *p, const struct apply_item *it,
			      const struct buf *py)
{
	struct buf err = BUF_INIT;
	json_t *t = NULL;

	if (!p->tmplkeys.loaded && p->events)
		tmplkey_load(&p->tmplkeys, p->events, &err);
	if (p->tmplkeys.nr && py->len)
		t = tmplkey_template(&p->tmplkeys, py->buf, py->len, it->kernel, it->entry->config);
	buf_release(&err);
	return t;
}

/* Inductor's template lookup table first, the hook (num_warps/num_stages) where it is not. */
static void set_template_lookup(struct apply_plan_kernel *e, json_t *t)
{
	static const char *const order[] = { "template_lookup", "hook" };
	size_t i;

	for (i = 0; i < e->nmechanisms; i++)
		free(e->mechanisms[i]);
	e->nmechanisms = 0;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		e->mechanisms = rf_grow(e->mechanisms, e->nmechanisms, sizeof(char *));
		e->mechanisms[e->nmechanisms++] = xstrdup(order[i]);
	}
	e->template = t;
}

/*
 * A template's BLOCK_M/N/K are constexpr lines of its body (tune's config
 * "body"), which Inductor sets only from its template lookup table; the
 * hook, through lookup_autotune_config, sets num_warps and num_stages
 * alone. A winner whose body differs from the base's is planned for the
 * table when capture recorded the key of its op (template_entry), and is
 * otherwise not planned (cannot_carry); one with the base's body is
 * planned without it, since the hook refuses any body
 * (apply_plan._refusal: cannot_carry:body).
 */
static void template_body(struct apply_plan *p, struct apply_item *it,
			  const struct tune_doc_kernel *k, const struct buf *py)
{
	const struct tune_doc_variant *base = tune_doc_base(k);
	const json_t *body = json_object_get(it->entry->config, "body");
	struct buf changed = BUF_INIT;
	json_t *cfg, *t;

	if (!body)
		return;
	body_changes(base ? json_object_get(base->config, "body") : NULL, body, &changed);
	if (changed.len && (t = template_entry(p, it, py))) {
		set_template_lookup(it->entry, t);
	} else if (changed.len) {
		it->skip = "cannot_carry";
		it->skip_detail = body_detail(&changed, it->entry->config, &p->tmplkeys);
	} else {
		/* a copy: the tune document's variant keeps its config whole */
		cfg = json_copy(it->entry->config);
		json_object_del(cfg, "body");
		json_decref(it->entry->config);
		it->entry->config = cfg;
	}
	buf_release(&changed);
}

static int is_template(const struct apply_plan_kernel *e)
{
	const char *launcher = apply_plan_kernel_launcher(e);

	return launcher && !strcmp(launcher, "template");
}

/* Merges a winner's settings into the plan's; -1 + err on a conflict. */
static int merge_settings(struct apply_plan *p, const struct apply_item *it, struct buf *err)
{
	const json_t *set = it->entry->inductor_settings, *v, *have;
	const char *key;

	json_object_foreach((json_t *)set, key, v) {
		have = json_object_get(p->settings, key);
		if (have && !json_equal(have, v)) {
			buf_addf(err, "'%s': the winner of %s needs Inductor's %s set otherwise than "
				 "another winner does (one value for the whole process)",
				 it->tune_path, it->kernel, key);
			return -1;
		}
		json_object_set(p->settings, key, (json_t *)v);
	}
	return 0;
}

/* The plan's item of kernel entry k of the tune document at `path`. */
static int add_kernel(struct apply_plan *p, const char *kdir, const char *path,
		      const struct tune_doc_kernel *k, const char *id, struct buf *err)
{
	struct apply_item *it = add_item(p);
	struct buf py = BUF_INIT;

	it->id = xstrdup(id);
	it->kernel = xstrdup(k->kernel);
	it->tune_path = xstrdup(path);
	apply_item_from_doc(it, k, p->flags);
	if (it->skip)
		return 0;
	it->entry->id = xstrdup(it->id);
	/* apply_item_from_doc planned it: the winner's variant is there */
	if (!it->entry->fallback && tune_doc_variant(k, k->winner.id)->nsource_variants) {
		char *dir = xstrndup(path, (size_t)(path_base(path) - path));
		char *src = xstrfmt("%swinner/kernel.py", dir);

		it->entry->source.path = src;
		free(dir);
	}
	identify(p, it, kdir, &py);
	if (!it->skip && is_template(it->entry))
		template_body(p, it, k, &py);
	buf_release(&py);
	if (it->skip) {
		apply_plan_kernel_free(it->entry);
		it->entry = NULL;
	} else if (merge_settings(p, it, err) < 0) {
		return -1;
	}
	return 0;
}

static int add_doc(struct apply_plan *p, const char *kdir, const char *path,
		   const struct tune_doc *doc, struct buf *err)
{
	const char *base = path_base(kdir);
	size_t i;
	int ret = 0;

	for (i = 0; i < doc->nkernels && ret == 0; i++) {
		const struct tune_doc_kernel *k = &doc->kernels[i];
		char *id = doc->nkernels > 1 ? xstrfmt("%s.%zu", base, i) : xstrdup(base);

		if (!k->kernel) {	/* tune_doc_check lets a null name through */
			buf_addf(err, "%s: kernels[%zu] has no kernel name", path, i);
			ret = -1;
		} else {
			ret = add_kernel(p, kdir, path, k, id, err);
		}
		free(id);
	}
	return ret;
}

/*
 * `tko tune KERNEL_DIR` writes KERNEL_DIR/tune/tune.json (src/tune/sweep.c,
 * out_dir); rundir/layout.h names KERNEL_DIR/tune/<target>/tune.json: both
 * are read, the first for the target its kernels name.
 */
static char *flat_doc(const char *kdir)
{
	char *tdir = rd_kernel_path(kdir, RD_K_TUNE_DIR), *p = path_join(tdir, RD_TUNE_DOC);

	free(tdir);
	return p;
}

/* The target of KERNEL_DIR/tune/tune.json, NULL when there is none; -1 + err when unreadable. */
static int flat_target(const char *kdir, char **target, struct buf *err)
{
	char *path = flat_doc(kdir);
	struct tune_doc doc;
	int ret = 0;

	*target = NULL;
	rf_init(&tune_doc_desc, &doc);
	if (is_file(path)) {
		if (tune_doc_load(path, &doc, err) < 0)
			ret = -1;
		else if (doc.nkernels && doc.kernels[0].target)
			*target = xstrdup(doc.kernels[0].target);
	}
	rf_release(&tune_doc_desc, &doc);
	free(path);
	return ret;
}

/* The targets a kernel folder was tuned for, appended to `out` (owned strings). */
static int targets_of(const char *kdir, struct strlist *out, struct buf *err)
{
	char *tdir = rd_kernel_path(kdir, RD_K_TUNE_DIR), *flat;
	DIR *d = opendir(tdir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *doc;

		if (e->d_name[0] == '.')
			continue;
		doc = rd_kernel_tune_doc(kdir, e->d_name);
		if (is_file(doc))
			strlist_push(out, xstrdup(e->d_name));
		free(doc);
	}
	if (d)
		closedir(d);
	free(tdir);
	if (flat_target(kdir, &flat, err) < 0)
		return -1;
	if (flat)
		strlist_push(out, flat);
	return 0;
}

/* The one target of the RUN's tune results, or -1 + err. */
static int pick_target(struct apply_plan *p, const struct strlist *kdirs, const char *run,
		       struct buf *err)
{
	struct strlist all = STRLIST_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < kdirs->nr && ret == 0; i++)
		ret = targets_of(kdirs->v[i], &all, err);
	strlist_sort(&all);
	if (ret < 0) {
		;
	} else if (!all.nr) {
		buf_addf(err, "'%s' holds no tune results (capture/kernels/*/tune/tune.json): "
			 "run tko tune on its kernels first", run);
		ret = -1;
	} else if (strcmp(all.v[0], all.v[all.nr - 1])) {
		buf_addf(err, "'%s' was tuned for %s and %s: choose one with --target", run,
			 all.v[0], all.v[all.nr - 1]);
		ret = -1;
	} else {
		p->target = xstrdup(all.v[0]);
	}
	for (i = 0; i < all.nr; i++)
		free((char *)all.v[i]);
	strlist_release(&all);
	return ret;
}

/* The tune document of `kdir` for the plan's target in *path (NULL: none). 0, or -1 + err. */
static int doc_for(const struct apply_plan *p, const char *kdir, char **path, struct buf *err)
{
	char *flat = NULL;

	*path = rd_kernel_tune_doc(kdir, p->target);
	if (is_file(*path))
		return 0;
	free(*path);
	*path = NULL;
	if (flat_target(kdir, &flat, err) < 0)
		return -1;
	if (flat && !strcmp(flat, p->target))
		*path = flat_doc(kdir);
	free(flat);
	return 0;
}

static int read_target(struct apply_plan *p, const struct strlist *kdirs, struct buf *err)
{
	size_t i;

	for (i = 0; i < kdirs->nr; i++) {
		char *path = NULL;
		struct tune_doc doc;
		int bad = doc_for(p, kdirs->v[i], &path, err) < 0;

		rf_init(&tune_doc_desc, &doc);
		if (!bad && path)
			bad = tune_doc_load(path, &doc, err) < 0 ||
			      add_doc(p, kdirs->v[i], path, &doc, err) < 0;
		rf_release(&tune_doc_desc, &doc);
		free(path);
		if (bad)
			return -1;
	}
	return 0;
}

int apply_plan_build(struct apply_plan *p, const char *run, const char *target,
		     unsigned flags, struct buf *err)
{
	struct strlist kdirs = STRLIST_INIT;
	int ret;

	p->flags = flags;
	p->settings = json_object();
	p->events = rd_path_in(run, RD_EVENTS);
	rd_kernel_dirs(run, &kdirs);
	if (target)
		p->target = xstrdup(target);
	ret = target ? 0 : pick_target(p, &kdirs, run, err);
	if (ret == 0)
		ret = read_target(p, &kdirs, err);
	if (ret == 0 && !p->nr) {
		buf_addf(err, "'%s' holds no tune results for %s", run, p->target);
		ret = -1;
	}
	if (ret == 0)
		p->backend = !strncmp(p->target, "gfx", 3) ? "hip" : "cuda";
	walk_release(&kdirs);
	return ret;
}

/*
 * The document is a view of the plan: its strings, configs and entries
 * are the plan's, borrowed for the write, so only the view's own arrays
 * are freed after it.
 */
int apply_plan_write(const struct apply_plan *p, const char *path, struct buf *err)
{
	struct apply_plan_doc d = { .backend = (char *)p->backend, .target = p->target,
				    .versions = p->versions, .inductor_settings = p->settings,
				    .source_variants = !!(p->flags & APPLY_PLAN_SOURCE_VARIANTS),
				    .proof = { .launches_per_kernel = 3, .max_kernels = 1000 } };
	size_t i;
	int ret;

	d.kernels = xcalloc(p->nr + 1, sizeof(*d.kernels));
	d.skipped = xcalloc(p->nr + 1, sizeof(*d.skipped));
	for (i = 0; i < p->nr; i++) {
		const struct apply_item *it = &p->v[i];

		if (it->entry)
			d.kernels[d.nkernels++] = *it->entry;
		else
			d.skipped[d.nskipped++] = (struct apply_plan_skip){ it->id, it->kernel,
									     (char *)it->skip,
									     it->skip_detail };
	}
	ret = apply_plan_doc_save(path, &d, err);
	free(d.kernels);
	free(d.skipped);
	return ret;
}

int apply_item_has_warm(const struct apply_item *it)
{
	return it->warm > 0 && it->warm_lo > 0 && it->warm_hi >= it->warm_lo;
}

double apply_item_predicted(const struct apply_item *it)
{
	return apply_item_has_warm(it) ? it->warm : it->speedup;
}

size_t apply_plan_planned(const struct apply_plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr; i++)
		n += p->v[i].entry != NULL;
	return n;
}

size_t apply_plan_pinned(const struct apply_plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr; i++) {
		const struct apply_plan_kernel *e = p->v[i].entry;

		n += e && e->fallback && (!strcmp(e->fallback, APPLY_FALLBACK_PINNED_BASE) ||
					  !strcmp(e->fallback, APPLY_FALLBACK_PINNED_CANDIDATE));
	}
	return n;
}

const struct apply_item *apply_plan_find(const struct apply_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->v[i].id, id))
			return &p->v[i];
	return NULL;
}

void apply_plan_release(struct apply_plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->v[i].id);
		free(p->v[i].kernel);
		free(p->v[i].tune_path);
		free(p->v[i].skip_detail);
		apply_plan_kernel_free(p->v[i].entry);
	}
	free(p->v);
	free(p->target);
	json_decref(p->settings);
	free(p->versions.torch);
	free(p->versions.triton);
	free(p->events);
	tmplkey_release(&p->tmplkeys);
	memset(p, 0, sizeof(*p));
}
