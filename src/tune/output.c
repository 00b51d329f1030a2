/*
 * A sweep's entry of the tune document (see output.h).
 *
 * GB/s is the bytes the launch reads and writes (model/traffic.h, the
 * figure tko run and the report print; Inductor's kernel_num_gb only for a
 * kernel file without a capture) over the time; a rate over 105% of the
 * copy rate gets its cause (rate_doubt) instead of a fraction.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/errsig.h"
#include "tune/output.h"
#include "tune/winner.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static const struct tune_result *result(const struct tune_sweep *s, size_t i)
{
	return i < s->res.nr ? &s->res.r[i] : NULL;
}

/* The base variant's time in ms, or -1 when it has none. */
static double tune_output_base_ms(const struct tune_sweep *s)
{
	const struct tune_result *b = s->plan.base >= 0 ? result(s, (size_t)s->plan.base) : NULL;

	return b && tune_result_usable(b) ? b->time_ms : -1;
}

/* The GB/s of a time in ms: the bytes the launch moves (model/traffic.h), or Inductor's. */
static double tune_output_gbps(const struct tune_sweep *s, double ms)
{
	return traffic_gbps(s->traffic.note ? s->traffic.bytes : s->num_gb * 1e9, ms);
}

/* Why a rate g is no fact (a new string), or NULL; Inductor's bytes (no capture) are an estimate. */
static char *tune_output_doubt(const struct tune_sweep *s, double g)
{
	struct traffic inductor = { s->num_gb * 1e9, 0, 0, 0, 0, 0, 1, NULL };

	return traffic_rate_doubt(s->traffic.note ? &s->traffic : &inductor, g, s->peak_gbps);
}

/* A figure of the model: NAN (JSON null) when negative or not finite, as "unknown". */
static double num(double v)
{
	return v >= 0 && isfinite(v) ? v : NAN;
}

static char *dup_or_null(const char *v)
{
	return v ? xstrdup(v) : NULL;
}

/* The base's ISA summary, when both it and r were scanned. */
static const struct tune_isa *base_isa(const struct tune_sweep *s, const struct tune_result *r)
{
	const struct tune_result *b = s->plan.base >= 0 ? result(s, (size_t)s->plan.base) : NULL;

	return b && b != r && b->isa && r->isa ? b->isa : NULL;
}

/* The ISA cell of r: the base's summary, else what changed from it ("same"). */
static void tune_output_isa_cell(const struct tune_sweep *s, const struct tune_result *r,
				 struct buf *out)
{
	const struct tune_isa *b = base_isa(s, r);

	if (!r->isa)
		return;
	if (!b) {
		tune_isa_text(r->isa, out);
		return;
	}
	if (!tune_isa_delta(b, r->isa, out, NULL))
		buf_adds(out, "same");
}

static void isa_fill(const struct tune_sweep *s, const struct tune_result *r,
		     struct tune_doc_variant *d)
{
	const struct tune_isa *b = base_isa(s, r);
	struct buf text = BUF_INIT;
	json_t *delta = NULL;

	if (b)
		tune_isa_delta(b, r->isa, &text, &delta);
	d->isa = r->isa ? tune_isa_json(r->isa) : NULL;
	d->isa_delta = delta;
	buf_reset(&text);
	tune_output_isa_cell(s, r, &text);
	d->isa_text = r->isa ? xstrdup(text.buf) : NULL;
	buf_release(&text);
}

static void variant_fill(const struct tune_sweep *s, const struct tune_variant *v,
			 const struct tune_result *r, struct tune_doc_variant *d)
{
	const struct errsig *sig = r->error ? errsig_find(r->error, r->traceback) : NULL;
	double b = tune_output_base_ms(s), g = tune_result_usable(r) ? tune_output_gbps(s, r->time_ms) : -1;
	char *why = tune_output_doubt(s, g);

	d->id = xstrfmt("v%03zu", v->index);
	d->label = xstrdup(v->label);
	d->origin = xstrdup(tune_origin_name(v->origin));
	tune_src_fill(v->src, &d->source_variants, &d->nsource_variants);
	d->config = tune_config_to_json(&s->plan.space, &v->cfg);
	tune_env_fill(v->src, &d->env, &d->nenv);
	d->status = (int)r->status;
	d->error = dup_or_null(r->error);
	d->error_signature = sig ? xstrdup(sig->id) : NULL;
	d->error_explained = sig ? xstrdup(sig->why) : NULL;
	d->time_ms = num(r->time_ms);
	d->inductor_ms = num(v->inductor_ms);
	d->speedup = num(b > 0 && tune_result_usable(r) ? b / r->time_ms : -1);
	d->gbps = num(g);
	d->peak_fraction = num(!why && s->peak_gbps > 0 && g > 0 ? g / s->peak_gbps : -1);
	d->rate_doubt = why;
	d->compile_ms = num(r->compile_ms);
	d->shared_bytes = r->shared_bytes >= 0 ? r->shared_bytes : -1;
	d->source = dup_or_null(r->source);
	d->files = r->files ? json_incref(r->files) : json_object();
	d->checks = r->checks ? json_incref(r->checks) : json_array();
	d->traceback = dup_or_null(r->traceback);
	d->n_regs = r->n_regs >= 0 ? r->n_regs : -1;
	d->n_spills = r->n_spills >= 0 ? r->n_spills : -1;
	d->fingerprint = dup_or_null(r->fingerprint);
	d->same_as = dup_or_null(r->same_as);
	isa_fill(s, r, d);
}

static json_t *space_json(const struct tune_space *sp)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < sp->n; i++)
		json_array_append_new(list, json_pack("{s:s, s:i, s:i, s:b}", "name",
						      sp->p[i].name, "min", sp->p[i].min, "max",
						      sp->p[i].max, "tuned", sp->p[i].tuned));
	return list;
}

/*
 * confirm.c writes the confirmation; the model reads it as any reader of
 * tune.json does, keeping what it does not name as it is (RF_OPEN).
 */
static int confirmation_fill(const struct tune_sweep *s, struct tune_doc_winner *w,
			     struct buf *err)
{
	json_t *c = tune_confirm_json(s);
	int ret = 0;

	if (c) {
		ret = rf_read(&tune_doc_confirm_desc, &w->confirmation, c, "confirmation", err);
		w->has_confirmation = ret == 0;
	}
	json_decref(c);
	return ret;
}

/* winner.config_only of a source-variant candidate (model/tune.h). */
static void config_only_fill(const struct tune_sweep *s, struct tune_doc_winner *w)
{
	struct tune_doc_winner_config_only *o = &w->config_only;
	const struct tune_ci *ci;
	long i = tune_confirm_config_only(s, &ci);
	double base = tune_output_base_ms(s);

	if (i < 0)
		return;
	w->has_config_only = 1;
	o->id = xstrfmt("v%03ld", i);
	o->label = xstrdup(s->plan.v[i].label);
	o->speedup = num(ci ? ci->ratio : base > 0 ? base / s->res.r[i].time_ms : -1);
	o->ci95 = ci ? json_pack("[f, f]", ci->lo, ci->hi) : NULL;
	o->confirmed = ci && ci->lo > 1.0;
	o->inductor_settings = tune_winner_settings(s, i);
}

static int winner_fill(const struct tune_sweep *s, struct tune_doc_kernel *d, struct buf *err)
{
	struct tune_doc_winner *w = &d->winner;
	const struct tune_ci *ci = tune_confirm_winner_ci(s);
	double base = tune_output_base_ms(s), sweep, confirmed;

	if (s->winner < 0)
		return 0;
	d->has_winner = 1;
	w->id = xstrfmt("v%03ld", s->winner);
	w->label = xstrdup(s->plan.v[s->winner].label);
	w->time_ms = num(s->res.r[s->winner].time_ms);
	sweep = base > 0 ? base / s->res.r[s->winner].time_ms : -1;
	confirmed = tune_confirm_speedup(s);
	/* the figure tko stands by: the confirmed one when there was a confirmation */
	w->speedup = num(confirmed >= 0 ? confirmed : sweep);
	w->sweep_speedup = num(sweep);
	w->confirmed = ci != NULL;
	w->ci95 = ci ? json_pack("[f, f]", ci->lo, ci->hi) : NULL;
	w->is_base = s->winner == s->plan.base;
	w->inductor_settings = tune_winner_settings(s, s->winner);
	config_only_fill(s, w);
	return confirmation_fill(s, w, err);
}

int tune_output_fill(const struct tune_sweep *s, struct tune_doc_kernel *d, struct buf *err)
{
	size_t i;

	d->kernel = xstrdup(s->k.name);
	d->source = xstrdup(s->source);
	d->kind = xstrdup(tune_kind_name(s->k.kind));
	d->target = xstrdup(s->arch->name);
	d->out_dir = xstrdup(s->out_dir);
	d->base_from = dup_or_null(s->base_note);
	d->space = space_json(&s->plan.space);
	d->plan = xstrdup(s->refused ? "refused" : "search");
	d->plan_note = dup_or_null(s->refused ? s->refused : s->plan_note);
	d->stopped = dup_or_null(s->plan.stop_reason);
	d->wall_s = num(s->wall_s);
	d->num_gb = num(s->num_gb);
	d->bytes_estimate = !s->traffic.note || s->traffic.estimate;
	d->bytes_note = xstrdup(s->traffic.note ? s->traffic.note :
				"Inductor's kernel_num_gb: no capture to count");
	d->peak_gbps = num(s->peak_gbps > 0 ? s->peak_gbps : -1);
	d->device = s->pool && s->pool->device ? json_deep_copy(s->pool->device) : NULL;
	d->grid_note = dup_or_null(s->grid_note);
	for (i = 0; i < s->plan.nr; i++) {
		if (!s->plan.v[i].done)
			continue;
		d->variants = rf_grow(d->variants, d->nvariants, sizeof(*d->variants));
		rf_init(&tune_doc_variant_desc, &d->variants[d->nvariants]);
		variant_fill(s, &s->plan.v[i], result(s, i), &d->variants[d->nvariants++]);
	}
	return winner_fill(s, d, err);
}
