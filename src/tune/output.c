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
#include "tune/rewrite.h"
#include "util/file.h"
#include "util/jcheck.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

static const struct tune_result *result(const struct tune_sweep *s, size_t i)
{
	return i < s->res.nr ? &s->res.r[i] : NULL;
}

static double base_ms(const struct tune_sweep *s)
{
	const struct tune_result *b = s->plan.base >= 0 ? result(s, (size_t)s->plan.base) : NULL;

	return b && tune_result_usable(b) ? b->time_ms : -1;
}

static double gbps(const struct tune_sweep *s, double ms)
{
	return traffic_gbps(s->traffic.note ? s->traffic.bytes : s->num_gb * 1e9, ms);
}

/* Why g is no fact (a new string), or NULL; Inductor's bytes (no capture) are an estimate. */
static char *doubt(const struct tune_sweep *s, double g)
{
	struct traffic inductor = { s->num_gb * 1e9, 0, 0, 0, 0, 0, 1, NULL };

	return traffic_rate_doubt(s->traffic.note ? &s->traffic : &inductor, g, s->peak_gbps);
}

static void set_num(json_t *j, const char *key, double v)
{
	json_set_new(j, key, v >= 0 ? json_real(v) : NULL);
}

static json_t *src_list(unsigned src)
{
	struct buf b = BUF_INIT;
	json_t *list = json_array();
	const char *p;

	tune_src_names(src, &b);
	for (p = b.buf; *p;) {
		size_t n = strcspn(p, "+");

		json_array_append_new(list, json_stringn(p, n));
		p += n + (p[n] == '+');
	}
	buf_release(&b);
	return list;
}

static json_t *env_json(unsigned src)
{
	const char *const *e = tune_sweep_env(src);
	json_t *j = json_object();

	for (; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char *name = xstrndup(*e, (size_t)(eq - *e));

		json_set_str(j, name, eq + 1);
		free(name);
	}
	return j;
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

/* The ISA cell: the base's summary, else what changed from it. */
static void isa_cell(const struct tune_sweep *s, const struct tune_result *r, struct buf *out)
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
	isa_cell(s, r, &text);
	json_set_new(j, "isa_text", r->isa ? json_string(text.buf) : json_null());
	buf_release(&text);
}

static const char *correct_text(const struct tune_result *r, int compile_only)
{
	if (compile_only || r->status == TUNE_ST_COMPILED)
		return "n/a";
	if (r->status == TUNE_ST_OK)
		return "yes";
	if (r->status == TUNE_ST_WRONG)
		return "no";
	return "-";
}

static json_t *variant_json(const struct tune_sweep *s, const struct tune_variant *v,
			    const struct tune_result *r)
{
	json_t *j = json_object();
	const struct tune_errsig *sig;
	double b = base_ms(s), g;
	char id[24], *why;

	snprintf(id, sizeof(id), "v%03zu", v->index);
	json_set_str(j, "id", id);
	json_set_str(j, "label", v->label);
	json_set_str(j, "origin", tune_origin_name(v->origin));
	json_set_new(j, "source_variants", src_list(v->src));
	json_set_new(j, "config", tune_config_to_json(&s->plan.space, &v->cfg));
	json_set_new(j, "env", env_json(v->src));
	json_set_str(j, "status", tune_status_name(r->status));
	json_set_new(j, "error", r->error ? json_string(r->error) : NULL);
	sig = r->error ? tune_errsig_find(r->error, r->traceback) : NULL;
	json_set_new(j, "error_signature", sig ? json_string(sig->id) : NULL);
	json_set_new(j, "error_explained", sig ? json_string(sig->why) : NULL);
	set_num(j, "time_ms", r->time_ms);
	set_num(j, "inductor_ms", v->inductor_ms);
	set_num(j, "speedup", b > 0 && tune_result_usable(r) ? b / r->time_ms : -1);
	g = tune_result_usable(r) ? gbps(s, r->time_ms) : -1;
	why = doubt(s, g);
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

int tune_output_split(const struct tune_sweep *s, long variant)
{
	int i = tune_space_find(&s->plan.space, "RSPLIT_SIZE");

	if (i < 0 || s->ws.arg < 0 || s->plan.base < 0 || variant < 0 ||
	    s->plan.v[variant].cfg.v[i] == s->plan.v[s->plan.base].cfg.v[i])
		return 0;
	return s->plan.v[variant].cfg.v[i];
}

int tune_output_two_pass(const struct tune_sweep *s, long variant)
{
	return variant >= 0 && (s->plan.v[variant].src & TUNE_SRC_TWO_PASS);
}

/* Inductor settings the winner needs beyond its triton.Config, or NULL. */
static json_t *inductor_settings(const struct tune_sweep *s)
{
	int split = tune_output_split(s, s->winner);
	json_t *j = json_object();

	if (split)
		json_set_new(j, "triton.mix_order_reduction_split_size", json_integer(split));
	if (tune_output_two_pass(s, s->winner))
		json_set_new(j, "online_softmax", json_false());
	if (!json_object_size(j)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* "confirmed" and its "ci95": what tko apply decides from. */
static void add_confirmed(const struct tune_sweep *s, json_t *j)
{
	const struct tune_ci *ci = tune_confirm_winner_ci(s);

	json_set_bool(j, "confirmed", ci != NULL);
	json_set_new(j, "ci95", ci ? json_pack("[f, f]", ci->lo, ci->hi) : NULL);
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
	sweep = base_ms(s) > 0 ? base_ms(s) / s->res.r[s->winner].time_ms : -1;
	confirmed = tune_confirm_speedup(s);
	/* the figure tko stands by: the confirmed one when there was a confirmation */
	set_num(j, "speedup", confirmed >= 0 ? confirmed : sweep);
	set_num(j, "sweep_speedup", sweep);
	add_confirmed(s, j);
	json_set_bool(j, "is_base", s->winner == s->plan.base);
	json_set_new(j, "inductor_settings", inductor_settings(s));
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

static void cell_ms(struct table *t, double v, const char *fmt)
{
	if (v >= 0)
		table_cell(t, fmt, v);
	else
		table_cell(t, "-");
}

void tune_output_table(const struct tune_sweep *s, struct table *t)
{
	struct buf cell = BUF_INIT;
	size_t i;
	double b = base_ms(s);

	table_columns(t, "id|variant|status|time ms|GB/s|peak|vs base|compile ms|shared B|correct|ISA vs base",
		      "lllrrrrrrll");
	for (i = 0; i < s->plan.nr; i++) {
		const struct tune_variant *v = &s->plan.v[i];
		const struct tune_result *r = result(s, i);
		int ok = r && tune_result_usable(r);
		double g = ok ? gbps(s, r->time_ms) : -1;
		char *why = doubt(s, g);

		if (!v->done || !r)
			continue;
		table_row(t);
		table_cell(t, "v%03zu%s", i, (long)i == s->winner ? "*" : "");
		table_cell(t, "%s", v->label);
		table_cell(t, "%s", tune_status_name(r->status));
		cell_ms(t, r->time_ms, "%.4f");
		cell_ms(t, g, why ? "(%.0f)" : s->traffic.note && !s->traffic.estimate ? "%.0f" : "%.0f est.");
		if (why)
			table_cell(t, "over copy");
		else
			cell_ms(t, g > 0 && s->peak_gbps > 0 ? 100 * g / s->peak_gbps : -1, "%.0f%%");
		free(why);
		cell_ms(t, ok && b > 0 ? b / r->time_ms : -1, "%.2fx");
		cell_ms(t, r->compile_ms, "%.0f");
		if (r->shared_bytes >= 0)
			table_cell(t, "%ld", r->shared_bytes);
		else
			table_cell(t, "-");
		table_cell(t, "%s", correct_text(r, s->o->compile_only));
		buf_reset(&cell);
		isa_cell(s, r, &cell);
		table_cell(t, "%s", cell.len ? cell.buf : "-");
	}
	buf_release(&cell);
}

void tune_output_notes(const struct tune_sweep *s, struct buf *out)
{
	size_t i;
	int doubted = 0;

	for (i = 0; i < s->plan.nr && i < s->res.nr; i++) {
		const struct tune_result *r = &s->res.r[i];

		if (!s->plan.v[i].done)
			continue;
		if (r->error) {
			const struct tune_errsig *sig = tune_errsig_find(r->error, r->traceback);

			buf_addf(out, "v%03zu %s: %s\n", i, tune_status_name(r->status), r->error);
			if (sig)
				buf_addf(out, "     known failure: %s\n", sig->why);
		}
		else if (r->same_as)
			buf_addf(out, "v%03zu compiled to the same ISA as %s (line info aside)%s\n",
				 i, r->same_as, r->status == TUNE_ST_DUPLICATE ? ": not timed" : "");
		if (!doubted && tune_result_usable(r)) {
			char *why = doubt(s, gbps(s, r->time_ms));

			if (why)
				buf_addf(out, "GB/s in brackets is over 105%% of the copy rate, not a fact: %s\n",
					 why);
			doubted = why != NULL;
			free(why);
		}
	}
}

/* triton.Config({'XBLOCK': 2048}, num_warps=8, num_stages=1) */
static char *triton_config(const json_t *cfg)
{
	struct buf b = BUF_INIT;
	const char *key;
	json_t *v;
	int first = 1;

	buf_adds(&b, "triton.Config({");
	json_object_foreach(json_object_get(cfg, "kwargs"), key, v) {
		buf_addf(&b, "%s'%s': %lld", first ? "" : ", ", key,
			 (long long)json_integer_value(v));
		first = 0;
	}
	buf_addf(&b, "}, num_warps=%lld, num_stages=%lld",
		 (long long)json_integer_value(json_object_get(cfg, "num_warps")),
		 (long long)json_integer_value(json_object_get(cfg, "num_stages")));
	json_object_foreach(json_object_get(cfg, "options"), key, v) {
		if (json_is_integer(v))
			buf_addf(&b, ", %s=%lld", key, (long long)json_integer_value(v));
		else if (json_is_string(v))
			buf_addf(&b, ", %s='%s'", key, json_string_value(v));
	}
	buf_addch(&b, ')');
	return buf_detach(&b, NULL);
}

static int write_json(const char *dir, const char *name, json_t *j, struct buf *err)
{
	char *path = path_join(dir, name);
	int ret = json_write_path(j, path, err);

	free(path);
	return ret;
}

static int write_patch(struct tune_sweep *s, const struct tune_variant *v, const char *dir,
		       struct buf *err)
{
	struct rewrite r = REWRITE_INIT;
	struct buf diff = BUF_INIT, why = BUF_INIT;
	char *path = path_join(dir, "source.patch");
	int ret = 0;

	if (tune_sweep_edits(s, v, &r, &why) == 0)
		rewrite_diff(s->text.buf, s->text.len, &r, path_base(s->source), &diff);
	if (diff.len)
		ret = write_file_atomic(path, diff.buf, diff.len, err);
	rewrite_release(&r);
	buf_release(&diff);
	buf_release(&why);
	free(path);
	return ret;
}

int tune_output_winner(struct tune_sweep *s, struct buf *err)
{
	const struct tune_variant *v;
	struct buf text = BUF_INIT;
	char *dir, *path, *tc;
	json_t *cfg, *j;
	int ret;

	if (s->winner < 0)
		return 0;
	v = &s->plan.v[s->winner];
	dir = path_join(s->out_dir, "winner");
	path = path_join(dir, "kernel.py");
	cfg = tune_config_to_json(&s->plan.space, &v->cfg);
	j = json_pack("{s:i, s:s, s:s, s:s, s:O}", "schema_version", 1, "tool", "tko tune",
		      "kernel", s->k.name, "label", v->label, "config", cfg);
	json_set_new(j, "env", env_json(v->src));
	tc = triton_config(cfg);
	json_set_str(j, "triton_config", tc);
	free(tc);
	json_set_new(j, "source_variants", src_list(v->src));
	json_set_new(j, "inductor_settings", inductor_settings(s));
	add_confirmed(s, j);
	json_set_new(j, "confirmation", tune_confirm_json(s));
	ret = mkdir_p(dir, err);
	if (!ret)
		ret = file_read(s->res.r[s->winner].source, 0, &text, err);
	if (!ret)
		ret = write_file_atomic(path, text.buf, text.len, err);
	if (!ret)
		ret = write_patch(s, v, dir, err);
	if (!ret)
		ret = write_json(dir, "config.json", j, err);
	json_decref(cfg);
	json_decref(j);
	buf_release(&text);
	free(dir);
	free(path);
	return ret;
}
