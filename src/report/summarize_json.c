/*
 * The autotune model to JSON (see summarize_json.h and docs/json.md),
 * written through the streaming writer (json/jsonw.h): one function per
 * object of the schema, each writing its keys in the documented order.
 * The jansson forms parse that same text, so there is one schema here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "parse/autotune_launch.h"
#include "parse/tconfig.h"
#include "report/summarize_json.h"
#include "util/mem.h"
#include "banned.h"

static void real_key(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	jsonw_real(w, v);	/* NAN and INFINITY become null */
}

/* -1 is the model's "unknown". */
static void long_key(struct jsonw *w, const char *key, long v)
{
	jsonw_key(w, key);
	if (v < 0)
		jsonw_null(w);
	else
		jsonw_int(w, v);
}

static void str_key(struct jsonw *w, const char *key, const char *v)
{
	jsonw_key(w, key);
	jsonw_str_or_null(w, v);
}

static void src_key(struct jsonw *w, const struct autotune_set *s,
		    const char *key, struct at_src src)
{
	jsonw_key(w, key);
	if (src.fmt == AT_FMT_NONE || src.file >= s->ninputs) {
		jsonw_null(w);
		return;
	}
	jsonw_object(w);
	str_key(w, "file", s->inputs[src.file].path);
	jsonw_key(w, "line");
	if (src.line)
		jsonw_int(w, (long long)src.line);
	else
		jsonw_null(w);
	str_key(w, "format", at_format_name(src.fmt));
	jsonw_end(w);
}

void at_value_write(struct jsonw *w, const char *text)
{
	size_t n = strlen(text);
	long l;
	double d;

	if (span_long(text, n, &l) == 0)
		jsonw_int(w, l);
	else if (!strcmp(text, "True") || !strcmp(text, "False"))
		jsonw_bool(w, text[0] == 'T');
	else if (!strcmp(text, "None"))
		jsonw_null(w);
	else if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
		jsonw_strn(w, text + 1, n - 2);
	else if (span_double(text, n, &d) == 0 && !isnan(d) && !isinf(d))
		jsonw_real(w, d);
	else
		jsonw_str(w, text);
}

static void config_write(struct jsonw *w, const struct autotune_set *s,
			 const struct at_config *c)
{
	size_t i;

	jsonw_object(w);
	str_key(w, "label", c->label);
	str_key(w, "text", c->text);
	jsonw_key(w, "kwargs");
	jsonw_object(w);
	for (i = 0; i < c->nkw; i++) {
		jsonw_key(w, c->kw[i].name);
		at_value_write(w, c->kw[i].value);
	}
	jsonw_end(w);
	long_key(w, "num_warps", c->num_warps);
	long_key(w, "num_stages", c->num_stages);
	long_key(w, "num_ctas", c->num_ctas);
	long_key(w, "maxnreg", c->maxnreg);
	real_key(w, "time_ms", c->time_ms);
	jsonw_key(w, "failed");
	jsonw_bool(w, isinf(c->time_ms));
	str_key(w, "error", c->error);
	real_key(w, "pct_of_best", c->pct_of_best);
	long_key(w, "n_regs", c->n_regs);
	long_key(w, "n_spills", c->n_spills);
	long_key(w, "shared_bytes", c->shared_bytes);
	str_key(w, "cache_hash", c->cache_hash);
	src_key(w, s, "from", c->src);
	jsonw_end(w);
}

static void configs_write(struct jsonw *w, const struct autotune_set *s,
			  const char *key, const struct at_config *c, size_t n)
{
	size_t i;

	jsonw_key(w, key);
	jsonw_array(w);
	for (i = 0; i < n; i++)
		config_write(w, s, &c[i]);
	jsonw_end(w);
}

static void tuning_write(struct jsonw *w, const struct autotune_set *s,
			 const struct at_tuning *t)
{
	jsonw_object(w);
	str_key(w, "method", at_method_name(t->method));
	jsonw_key(w, "complete");
	jsonw_bool(w, t->complete);
	str_key(w, "key", t->key);
	long_key(w, "num_choices", t->num_choices);
	real_key(w, "elapsed_ms", t->elapsed_ms);
	real_key(w, "precompile_ms", t->precompile_ms);
	real_key(w, "speedup", t->speedup);
	long_key(w, "best_index", t->best);
	configs_write(w, s, "configs", t->configs, t->nr);
	str_key(w, "saved_to", t->saved_to);
	str_key(w, "cache_file", t->cache_file);
	jsonw_key(w, "from");
	jsonw_object(w);
	src_key(w, s, "tuning", t->src);
	src_key(w, s, "best", t->best_src);
	src_key(w, s, "elapsed_ms", t->elapsed_src);
	src_key(w, s, "twin", t->twin_src);
	jsonw_end(w);
	jsonw_end(w);
}

static void notes_write(struct jsonw *w, const struct autotune_set *s,
			const struct at_note *n, size_t nr)
{
	size_t i;

	jsonw_key(w, "errors");
	jsonw_array(w);
	for (i = 0; i < nr; i++) {
		jsonw_object(w);
		str_key(w, "text", n[i].text);
		src_key(w, s, "from", n[i].src);
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* A printed list of integers as a JSON array (the reader checked it is one). */
static void dims_key(struct jsonw *w, const char *key, const char *text)
{
	long d[64];
	int n = text ? at_dims_parse(text, strlen(text), d, 64) : -1, i;

	jsonw_key(w, key);
	if (n < 0) {
		jsonw_null(w);
		return;
	}
	jsonw_array(w);
	for (i = 0; i < n; i++)
		jsonw_int(w, d[i]);
	jsonw_end(w);
}

static void launch_write(struct jsonw *w, const struct autotune_set *s,
			 const struct at_launch *l)
{
	size_t i;

	jsonw_key(w, "launch");
	if (!l) {
		jsonw_null(w);
		return;
	}
	jsonw_object(w);
	jsonw_key(w, "args");
	jsonw_array(w);
	for (i = 0; i < l->nargs; i++) {
		jsonw_object(w);
		str_key(w, "name", l->args[i].name);
		dims_key(w, "shape", l->args[i].shape);
		str_key(w, "dtype", l->args[i].dtype);
		dims_key(w, "stride", l->args[i].stride);
		str_key(w, "value", l->args[i].value);
		jsonw_end(w);
	}
	jsonw_end(w);
	real_key(w, "total_bytes", l->total_bytes);
	real_key(w, "best_ms", l->best_ms);
	real_key(w, "footprint_gbps", l->rate_gbps);
	real_key(w, "peak_gbps", l->peak_gbps);
	real_key(w, "peak_percent", l->peak_pct);
	str_key(w, "inputs_saved", l->inputs_saved);
	str_key(w, "run_standalone", l->run_standalone);
	jsonw_key(w, "from");
	jsonw_object(w);
	src_key(w, s, "args", l->src);
	src_key(w, s, "estimates", l->metrics_src);
	jsonw_end(w);
	jsonw_end(w);
}

static void kernel_from(struct jsonw *w, const struct autotune_set *s,
			const struct at_kernel *k, const struct at_config *best)
{
	struct at_src none = { 0, 0, AT_FMT_NONE };

	jsonw_key(w, "from");
	jsonw_object(w);
	src_key(w, s, "name", k->name_src);
	src_key(w, s, "kind", k->kind_src);
	src_key(w, s, "source_file", k->source_src);
	src_key(w, s, "num_configs", k->num_configs_src);
	src_key(w, s, "launches", k->launches_src);
	src_key(w, s, "best", best ? best->src : none);
	jsonw_end(w);
}

void at_kernel_write_json(struct jsonw *w, const struct autotune_set *s,
			  const struct at_kernel *k)
{
	enum at_method how = AT_BENCHMARK;
	const struct at_config *best = at_kernel_best(k, &how);
	char *id = at_kernel_id(k);
	size_t i;

	jsonw_object(w);
	str_key(w, "id", id);
	free(id);
	str_key(w, "name", k->name);
	jsonw_key(w, "instance");
	jsonw_int(w, k->instance);
	str_key(w, "kind", k->kind);
	str_key(w, "compile_id", k->compile_id);
	str_key(w, "source_file", k->source_file);
	str_key(w, "source_local", k->source_local);
	str_key(w, "source_hash", k->source_hash);
	str_key(w, "kernel_dir", k->kernel_dir);
	long_key(w, "num_configs", k->num_configs);
	configs_write(w, s, "declared", k->declared, k->ndeclared);
	jsonw_key(w, "tunings");
	jsonw_array(w);
	for (i = 0; i < k->ntunings; i++)
		tuning_write(w, s, k->tunings[i]);
	jsonw_end(w);
	jsonw_key(w, "configs_timed");
	jsonw_int(w, (long long)at_kernel_timed(k));
	jsonw_key(w, "best");
	if (best)
		config_write(w, s, best);
	else
		jsonw_null(w);
	str_key(w, "chosen_by", best ? at_method_name(how) : NULL);
	long_key(w, "launches", k->launches);
	long_key(w, "launch_signatures", k->launch_signatures);
	launch_write(w, s, k->launch);
	notes_write(w, s, k->errors, k->nerrors);
	kernel_from(w, s, k, best);
	jsonw_end(w);
}

static void input_write(struct jsonw *w, const struct at_input *in)
{
	size_t i, keep = sizeof(in->bad_lines) / sizeof(in->bad_lines[0]);

	jsonw_object(w);
	str_key(w, "path", in->path);
	str_key(w, "format", in->format ? at_format_name(in->format) : NULL);
	jsonw_key(w, "formats");
	jsonw_array(w);
	for (i = 1; i < AT_FMT_COUNT; i++)
		if (in->formats & (1u << i))
			jsonw_str(w, at_format_name((enum at_format)i));
	jsonw_end(w);
	long_key(w, "bytes", (long)in->bytes);
	long_key(w, "lines", (long)in->lines);
	long_key(w, "used", (long)in->used);
	long_key(w, "ignored", (long)in->ignored);
	long_key(w, "malformed", (long)in->malformed);
	jsonw_key(w, "malformed_lines");
	jsonw_array(w);
	for (i = 0; i < in->malformed && i < keep; i++)
		jsonw_int(w, (long long)in->bad_lines[i]);
	jsonw_end(w);
	jsonw_key(w, "truncated");
	jsonw_bool(w, in->truncated);
	long_key(w, "unknown_events", (long)in->unknown_events);
	long_key(w, "unknown_fields", (long)in->unknown_fields);
	str_key(w, "note", in->note);
	jsonw_end(w);
}

static void device_write(struct jsonw *w, const struct autotune_set *s)
{
	const struct at_device *d = &s->device;

	jsonw_key(w, "device");
	if (d->src.fmt == AT_FMT_NONE) {
		jsonw_null(w);
		return;
	}
	jsonw_object(w);
	str_key(w, "name", d->name);
	str_key(w, "backend", d->backend);
	str_key(w, "arch", d->arch);
	long_key(w, "warp_size", d->warp_size);
	long_key(w, "multiprocessor_count", d->multiprocessors);
	str_key(w, "torch", d->torch);
	str_key(w, "triton", d->triton);
	src_key(w, s, "from", d->src);
	jsonw_end(w);
}

static void totals_write(struct jsonw *w, const struct autotune_set *s)
{
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
	jsonw_key(w, "totals");
	jsonw_object(w);
	long_key(w, "kernels", (long)s->nr);
	long_key(w, "tunings", (long)tunings);
	long_key(w, "configs_timed", (long)timed);
	long_key(w, "lines_used", (long)used);
	long_key(w, "lines_ignored", (long)ignored);
	long_key(w, "lines_malformed", (long)malformed);
	jsonw_end(w);
}

int autotune_set_write_json(FILE *fp, const struct autotune_set *s,
			    const struct at_kernel *only)
{
	struct jsonw w;
	size_t i;

	jsonw_init_prec(&w, fp, 10);
	jsonw_object(&w);
	jsonw_key(&w, "schema_version");
	jsonw_int(&w, AUTOTUNE_JSON_SCHEMA);
	str_key(&w, "tool", "tko summarize");
	device_write(&w, s);
	jsonw_key(&w, "inputs");
	jsonw_array(&w);
	for (i = 0; i < s->ninputs; i++)
		input_write(&w, &s->inputs[i]);
	jsonw_end(&w);
	totals_write(&w, s);
	jsonw_key(&w, "kernels");
	jsonw_array(&w);
	for (i = 0; i < s->nr; i++)
		if (!only || s->kernels[i] == only)
			at_kernel_write_json(&w, s, s->kernels[i]);
	jsonw_end(&w);
	notes_write(&w, s, s->errors, s->nerrors);
	jsonw_end(&w);
	return jsonw_finish(&w);
}

/* Parses what `write` printed into a jansson value. */
static json_t *reparse(const struct autotune_set *s, const void *arg,
		       void (*write)(struct jsonw *, const struct autotune_set *,
				     const void *))
{
	char *text = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&text, &n);
	struct jsonw w;
	json_t *j;

	if (!fp)
		return NULL;
	jsonw_init_prec(&w, fp, 10);
	write(&w, s, arg);
	fclose(fp);
	j = json_loadb(text, n, 0, NULL);
	free(text);
	return j;
}

static void write_set(struct jsonw *w, const struct autotune_set *s,
		      const void *only)
{
	autotune_set_write_json(w->fp, s, only);
}

static void write_kernel(struct jsonw *w, const struct autotune_set *s,
			 const void *k)
{
	at_kernel_write_json(w, s, k);
}

json_t *autotune_set_to_json(const struct autotune_set *s,
			     const struct at_kernel *only)
{
	return reparse(s, only, write_set);
}

json_t *at_kernel_to_json(const struct autotune_set *s,
			  const struct at_kernel *k)
{
	return reparse(s, k, write_kernel);
}
