/* The autotune model to JSON (see autotune_json.h and docs/json.md). */
#include <math.h>
#include <string.h>

#include "parse/autotune_json.h"
#include "parse/tconfig.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

static json_t *num_or_null(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *int_or_null(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *src_json(const struct autotune_set *s, struct at_src src)
{
	json_t *o;

	if (src.fmt == AT_FMT_NONE || src.file >= s->ninputs)
		return json_null();
	o = json_object();
	json_set_str(o, "file", s->inputs[src.file].path);
	json_set_new(o, "line", src.line ? json_integer((json_int_t)src.line) : json_null());
	json_set_str(o, "format", at_format_name(src.fmt));
	return o;
}

json_t *at_value_to_json(const char *text)
{
	size_t n = strlen(text);
	long l;
	double d;

	if (span_long(text, n, &l) == 0)
		return json_integer(l);
	if (!strcmp(text, "True") || !strcmp(text, "False"))
		return json_boolean(text[0] == 'T');
	if (!strcmp(text, "None"))
		return json_null();
	if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
		return json_stringn(text + 1, n - 2);
	if (span_double(text, n, &d) == 0 && !isnan(d) && !isinf(d))
		return json_real(d);
	return json_string(text);
}

static json_t *config_json(const struct autotune_set *s, const struct at_config *c)
{
	json_t *o = json_object(), *kw = json_object();
	size_t i;

	for (i = 0; i < c->nkw; i++)
		json_set_new(kw, c->kw[i].name, at_value_to_json(c->kw[i].value));
	json_set_new(o, "label", str_or_null(c->label));
	json_set_new(o, "text", str_or_null(c->text));
	json_set_new(o, "kwargs", kw);
	json_set_new(o, "num_warps", int_or_null(c->num_warps));
	json_set_new(o, "num_stages", int_or_null(c->num_stages));
	json_set_new(o, "num_ctas", int_or_null(c->num_ctas));
	json_set_new(o, "maxnreg", int_or_null(c->maxnreg));
	json_set_new(o, "time_ms", num_or_null(c->time_ms));
	json_set_bool(o, "failed", isinf(c->time_ms));
	json_set_new(o, "error", str_or_null(c->error));
	json_set_new(o, "pct_of_best", num_or_null(c->pct_of_best));
	json_set_new(o, "n_regs", int_or_null(c->n_regs));
	json_set_new(o, "n_spills", int_or_null(c->n_spills));
	json_set_new(o, "shared_bytes", int_or_null(c->shared_bytes));
	json_set_new(o, "cache_hash", str_or_null(c->cache_hash));
	json_set_new(o, "from", src_json(s, c->src));
	return o;
}

static json_t *configs_json(const struct autotune_set *s,
			    const struct at_config *c, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, config_json(s, &c[i]));
	return a;
}

static json_t *tuning_json(const struct autotune_set *s, const struct at_tuning *t)
{
	json_t *o = json_object(), *from = json_object();

	json_set_str(o, "method", at_method_name(t->method));
	json_set_bool(o, "complete", t->complete);
	json_set_new(o, "key", str_or_null(t->key));
	json_set_new(o, "num_choices", int_or_null(t->num_choices));
	json_set_new(o, "elapsed_ms", num_or_null(t->elapsed_ms));
	json_set_new(o, "precompile_ms", num_or_null(t->precompile_ms));
	json_set_new(o, "speedup", num_or_null(t->speedup));
	json_set_new(o, "best_index", int_or_null(t->best));
	json_set_new(o, "configs", configs_json(s, t->configs, t->nr));
	json_set_new(o, "saved_to", str_or_null(t->saved_to));
	json_set_new(o, "cache_file", str_or_null(t->cache_file));
	json_set_new(from, "tuning", src_json(s, t->src));
	json_set_new(from, "best", src_json(s, t->best_src));
	json_set_new(from, "elapsed_ms", src_json(s, t->elapsed_src));
	json_set_new(o, "from", from);
	return o;
}

static json_t *notes_json(const struct autotune_set *s, const struct at_note *n,
			  size_t nr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < nr; i++) {
		json_t *o = json_object();

		json_set_str(o, "text", n[i].text);
		json_set_new(o, "from", src_json(s, n[i].src));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *kernel_from(const struct autotune_set *s, const struct at_kernel *k,
			   const struct at_config *best)
{
	json_t *from = json_object();

	json_set_new(from, "name", src_json(s, k->name_src));
	json_set_new(from, "kind", src_json(s, k->kind_src));
	json_set_new(from, "source_file", src_json(s, k->source_src));
	json_set_new(from, "num_configs", src_json(s, k->num_configs_src));
	json_set_new(from, "launches", src_json(s, k->launches_src));
	json_set_new(from, "best", best ? src_json(s, best->src) : json_null());
	return from;
}

json_t *at_kernel_to_json(const struct autotune_set *s, const struct at_kernel *k)
{
	json_t *o = json_object(), *tunings = json_array();
	enum at_method how = AT_BENCHMARK;
	const struct at_config *best = at_kernel_best(k, &how);
	char *id = at_kernel_id(k);
	size_t i;

	json_set_str(o, "id", id);
	free(id);
	json_set_str(o, "name", k->name);
	json_set_int(o, "instance", k->instance);
	json_set_new(o, "kind", str_or_null(k->kind));
	json_set_new(o, "compile_id", str_or_null(k->compile_id));
	json_set_new(o, "source_file", str_or_null(k->source_file));
	json_set_new(o, "source_local", str_or_null(k->source_local));
	json_set_new(o, "source_hash", str_or_null(k->source_hash));
	json_set_new(o, "kernel_dir", str_or_null(k->kernel_dir));
	json_set_new(o, "num_configs", int_or_null(k->num_configs));
	json_set_new(o, "declared", configs_json(s, k->declared, k->ndeclared));
	for (i = 0; i < k->ntunings; i++)
		json_array_append_new(tunings, tuning_json(s, k->tunings[i]));
	json_set_new(o, "tunings", tunings);
	json_set_new(o, "configs_timed", json_integer((json_int_t)at_kernel_timed(k)));
	json_set_new(o, "best", best ? config_json(s, best) : json_null());
	json_set_new(o, "chosen_by", best ? json_string(at_method_name(how)) : json_null());
	json_set_new(o, "launches", int_or_null(k->launches));
	json_set_new(o, "launch_signatures", int_or_null(k->launch_signatures));
	json_set_new(o, "errors", notes_json(s, k->errors, k->nerrors));
	json_set_new(o, "from", kernel_from(s, k, best));
	return o;
}

static json_t *input_json(const struct at_input *in)
{
	json_t *o = json_object(), *formats = json_array(), *bad = json_array();
	size_t i, keep = sizeof(in->bad_lines) / sizeof(in->bad_lines[0]);

	for (i = 1; i < AT_FMT_COUNT; i++)
		if (in->formats & (1u << i))
			json_array_append_new(formats, json_string(at_format_name((enum at_format)i)));
	for (i = 0; i < in->malformed && i < keep; i++)
		json_array_append_new(bad, json_integer((json_int_t)in->bad_lines[i]));
	json_set_str(o, "path", in->path);
	json_set_new(o, "format", in->format ? json_string(at_format_name(in->format))
					      : json_null());
	json_set_new(o, "formats", formats);
	json_set_int(o, "bytes", (long long)in->bytes);
	json_set_int(o, "lines", (long long)in->lines);
	json_set_int(o, "used", (long long)in->used);
	json_set_int(o, "ignored", (long long)in->ignored);
	json_set_int(o, "malformed", (long long)in->malformed);
	json_set_new(o, "malformed_lines", bad);
	json_set_bool(o, "truncated", in->truncated);
	json_set_int(o, "unknown_events", (long long)in->unknown_events);
	json_set_int(o, "unknown_fields", (long long)in->unknown_fields);
	json_set_new(o, "note", str_or_null(in->note));
	return o;
}

static json_t *device_json(const struct autotune_set *s)
{
	const struct at_device *d = &s->device;
	json_t *o;

	if (d->src.fmt == AT_FMT_NONE)
		return json_null();
	o = json_object();
	json_set_new(o, "name", str_or_null(d->name));
	json_set_new(o, "backend", str_or_null(d->backend));
	json_set_new(o, "arch", str_or_null(d->arch));
	json_set_new(o, "warp_size", int_or_null(d->warp_size));
	json_set_new(o, "multiprocessor_count", int_or_null(d->multiprocessors));
	json_set_new(o, "torch", str_or_null(d->torch));
	json_set_new(o, "triton", str_or_null(d->triton));
	json_set_new(o, "from", src_json(s, d->src));
	return o;
}

static json_t *totals_json(const struct autotune_set *s)
{
	json_t *o = json_object();
	size_t i, tunings = 0, timed = 0, malformed = 0, ignored = 0, used = 0;

	for (i = 0; i < s->nr; i++) {
		tunings += s->kernels[i]->ntunings;
		timed += at_kernel_timed(s->kernels[i]);
	}
	for (i = 0; i < s->ninputs; i++) {
		malformed += s->inputs[i].malformed;
		ignored += s->inputs[i].ignored;
		used += s->inputs[i].used;
	}
	json_set_int(o, "kernels", (long long)s->nr);
	json_set_int(o, "tunings", (long long)tunings);
	json_set_int(o, "configs_timed", (long long)timed);
	json_set_int(o, "lines_used", (long long)used);
	json_set_int(o, "lines_ignored", (long long)ignored);
	json_set_int(o, "lines_malformed", (long long)malformed);
	return o;
}

json_t *autotune_set_to_json(const struct autotune_set *s,
			     const struct at_kernel *only)
{
	json_t *o = json_object(), *inputs = json_array(), *kernels = json_array();
	size_t i;

	json_set_int(o, "schema_version", AUTOTUNE_JSON_SCHEMA);
	json_set_str(o, "tool", "tko summarize");
	for (i = 0; i < s->ninputs; i++)
		json_array_append_new(inputs, input_json(&s->inputs[i]));
	for (i = 0; i < s->nr; i++)
		if (!only || s->kernels[i] == only)
			json_array_append_new(kernels, at_kernel_to_json(s, s->kernels[i]));
	json_set_new(o, "device", device_json(s));
	json_set_new(o, "inputs", inputs);
	json_set_new(o, "totals", totals_json(s));
	json_set_new(o, "kernels", kernels);
	json_set_new(o, "errors", notes_json(s, s->errors, s->nerrors));
	return o;
}
