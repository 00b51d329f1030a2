/*
 * A sweep's JSON, table and winner files (see output.h).
 *
 * GB/s is the bytes the launch reads and writes (model/traffic.h, the
 * figure tko run and the report print; Inductor's kernel_num_gb only for a
 * kernel file without a capture) over the time; a rate over 105% of the
 * copy rate gets its cause (rate_doubt) instead of a fraction.
 */
#include <stdlib.h>
#include <string.h>

#include "tune/errsig.h"
#include "tune/output.h"
#include "tune/winner.h"
#include "util/file.h"
#include "util/jcheck.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

static const struct tune_result *result(const struct tune_sweep *s, size_t i)
{
	return i < s->res.nr ? &s->res.r[i] : NULL;
}

double tune_output_base_ms(const struct tune_sweep *s)
{
	const struct tune_result *b = s->plan.base >= 0 ? result(s, (size_t)s->plan.base) : NULL;

	return b && tune_result_usable(b) ? b->time_ms : -1;
}

double tune_output_gbps(const struct tune_sweep *s, double ms)
{
	return traffic_gbps(s->traffic.note ? s->traffic.bytes : s->num_gb * 1e9, ms);
}

/* Inductor's bytes (no capture) are an estimate. */
char *tune_output_doubt(const struct tune_sweep *s, double g)
{
	struct traffic inductor = { s->num_gb * 1e9, 0, 0, 0, 0, 0, 1, NULL };

	return traffic_rate_doubt(s->traffic.note ? &s->traffic : &inductor, g, s->peak_gbps);
}

static void set_num(json_t *j, const char *key, double v)
{
	json_set_new(j, key, v >= 0 ? json_real(v) : NULL);
}

static json_t *str_or_null(const char *v)
{
	return v ? json_string(v) : json_null();
}

static json_t *int_or_null(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* The base's ISA summary, when both it and r were scanned. */
static const struct tune_isa *base_isa(const struct tune_sweep *s, const struct tune_result *r)
{
	const struct tune_result *b = s->plan.base >= 0 ? result(s, (size_t)s->plan.base) : NULL;

	return b && b != r && b->isa && r->isa ? b->isa : NULL;
}

void tune_output_isa_cell(const struct tune_sweep *s, const struct tune_result *r, struct buf *out)
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

static void isa_json(const struct tune_sweep *s, const struct tune_result *r, json_t *j)
{
	const struct tune_isa *b = base_isa(s, r);
	struct buf text = BUF_INIT;
	json_t *delta = NULL;

	if (b)
		tune_isa_delta(b, r->isa, &text, &delta);
	json_set_new(j, "isa", r->isa ? tune_isa_json(r->isa) : json_null());
	json_set_new(j, "isa_delta", delta ? delta : json_null());
	buf_reset(&text);
	tune_output_isa_cell(s, r, &text);
	json_set_new(j, "isa_text", r->isa ? json_string(text.buf) : json_null());
	buf_release(&text);
}

static json_t *variant_json(const struct tune_sweep *s, const struct tune_variant *v,
			    const struct tune_result *r)
{
	json_t *j = json_object();
	const struct tune_errsig *sig;
	double b = tune_output_base_ms(s), g;
	char id[24], *why;

	snprintf(id, sizeof(id), "v%03zu", v->index);
	json_set_str(j, "id", id);
	json_set_str(j, "label", v->label);
	json_set_str(j, "origin", tune_origin_name(v->origin));
	json_set_new(j, "source_variants", tune_src_json(v->src));
	json_set_new(j, "config", tune_config_to_json(&s->plan.space, &v->cfg));
	json_set_new(j, "env", tune_env_json(v->src));
	json_set_str(j, "status", tune_status_name(r->status));
	json_set_new(j, "error", r->error ? json_string(r->error) : NULL);
	sig = r->error ? tune_errsig_find(r->error, r->traceback) : NULL;
	json_set_new(j, "error_signature", sig ? json_string(sig->id) : NULL);
	json_set_new(j, "error_explained", sig ? json_string(sig->why) : NULL);
	set_num(j, "time_ms", r->time_ms);
	set_num(j, "inductor_ms", v->inductor_ms);
	set_num(j, "speedup", b > 0 && tune_result_usable(r) ? b / r->time_ms : -1);
	g = tune_result_usable(r) ? tune_output_gbps(s, r->time_ms) : -1;
	why = tune_output_doubt(s, g);
	set_num(j, "gbps", g);
	set_num(j, "peak_fraction", !why && s->peak_gbps > 0 && g > 0 ? g / s->peak_gbps : -1);
	json_set_new(j, "rate_doubt", why ? json_string(why) : json_null());
	free(why);
	set_num(j, "compile_ms", r->compile_ms);
	json_set_new(j, "shared_bytes", r->shared_bytes >= 0 ? json_integer(r->shared_bytes) : NULL);
	json_set_new(j, "source", r->source ? json_string(r->source) : NULL);
	json_set_new(j, "files", r->files ? json_incref(r->files) : json_object());
	json_set_new(j, "checks", r->checks ? json_incref(r->checks) : json_array());
	json_set_new(j, "traceback", str_or_null(r->traceback));
	json_set_new(j, "n_regs", int_or_null(r->n_regs));
	json_set_new(j, "n_spills", int_or_null(r->n_spills));
	json_set_new(j, "fingerprint", str_or_null(r->fingerprint));
	json_set_new(j, "same_as", str_or_null(r->same_as));
	isa_json(s, r, j);
	return j;
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

static json_t *winner_json(const struct tune_sweep *s)
{
	const struct tune_variant *v;
	double sweep, confirmed;
	json_t *j;
	char id[24];

	if (s->winner < 0)
		return NULL;
	v = &s->plan.v[s->winner];
	snprintf(id, sizeof(id), "v%03ld", s->winner);
	j = json_pack("{s:s, s:s}", "id", id, "label", v->label);
	set_num(j, "time_ms", s->res.r[s->winner].time_ms);
	sweep = tune_output_base_ms(s) > 0 ? tune_output_base_ms(s) / s->res.r[s->winner].time_ms : -1;
	confirmed = tune_confirm_speedup(s);
	/* the figure tko stands by: the confirmed one when there was a confirmation */
	set_num(j, "speedup", confirmed >= 0 ? confirmed : sweep);
	set_num(j, "sweep_speedup", sweep);
	tune_winner_confirmed(s, j);
	json_set_bool(j, "is_base", s->winner == s->plan.base);
	json_set_new(j, "inductor_settings", tune_winner_settings(s));
	json_set_new(j, "confirmation", tune_confirm_json(s));
	return j;
}

#define OPT(key, type) { key, type, JC_NULL, NULL }
static const struct jc_field winner_fields[] = {
	OPT("label", JC_STR),
	OPT("time_ms", JC_TIME),
	OPT("speedup", JC_RATE),
	OPT("sweep_speedup", JC_RATE),
	OPT("inductor_settings", JC_OBJ),
	OPT("confirmation", JC_OBJ),
	{ NULL, 0, 0, NULL },
};

static const struct jc_field variant_fields[] = {
	OPT("status", JC_STR),
	OPT("time_ms", JC_TIME),
	OPT("speedup", JC_RATE),
	{ NULL, 0, 0, NULL },
};

static const struct jc_field kernel_fields[] = {
	OPT("kernel", JC_STR),
	OPT("source", JC_STR),
	OPT("target", JC_STR),
	{ "winner", JC_OBJ, JC_NULL, winner_fields },
	{ "variants", JC_LIST, JC_NULL, variant_fields },
	{ NULL, 0, 0, NULL },
};

static const struct jc_field doc_fields[] = {
	OPT("mode", JC_STR),
	{ "kernels", JC_LIST, JC_NEED, kernel_fields },
	{ NULL, 0, 0, NULL },
};
#undef OPT

int tune_doc_check(const json_t *doc, const char *file, struct buf *err)
{
	return jc_check(doc, doc_fields, file, err);
}

json_t *tune_output_json(const struct tune_sweep *s)
{
	json_t *j = json_object(), *vars = json_array();
	size_t i;

	json_set_str(j, "kernel", s->k.name);
	json_set_str(j, "source", s->source);
	json_set_str(j, "kind", tune_kind_name(s->k.kind));
	json_set_str(j, "target", s->arch->name);
	json_set_str(j, "out_dir", s->out_dir);
	json_set_str(j, "base_from", s->base_note);
	json_set_new(j, "space", space_json(&s->plan.space));
	json_set_str(j, "plan", s->refused ? "refused" : "search");
	json_set_new(j, "plan_note", str_or_null(s->refused ? s->refused : s->plan_note));
	json_set_new(j, "stopped", s->plan.stop_reason ? json_string(s->plan.stop_reason) : NULL);
	set_num(j, "wall_s", s->wall_s);
	set_num(j, "num_gb", s->num_gb);
	json_set_new(j, "bytes_estimate", json_boolean(!s->traffic.note || s->traffic.estimate));
	json_set_new(j, "bytes_note", json_string(s->traffic.note ? s->traffic.note :
						  "Inductor's kernel_num_gb: no capture to count"));
	set_num(j, "peak_gbps", s->peak_gbps > 0 ? s->peak_gbps : -1);
	json_set_new(j, "device", s->pool && s->pool->device ? json_deep_copy(s->pool->device)
		     : json_null());
	json_set_new(j, "grid_note", str_or_null(s->grid_note));
	for (i = 0; i < s->plan.nr; i++)
		if (s->plan.v[i].done)
			json_array_append_new(vars, variant_json(s, &s->plan.v[i], result(s, i)));
	json_set_new(j, "variants", vars);
	json_set_new(j, "winner", winner_json(s));
	return j;
}
