/*
 * capture/events.jsonl into the autotune model (see capture_events.h).
 * One table lists the event types: the fields each may carry (so unknown
 * ones are counted) and the function that takes its facts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/jsonio.h"
#include "model/names.h"
#include "parse/capture_events.h"
#include "parse/config_json.h"
#include "target/target.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

struct ev_ctx {
	struct autotune_set *set;
	struct at_src src;	/* the line being read */
};

typedef void (*ev_fn)(struct ev_ctx *c, json_t *ev);

/* The kernel an event is about: the instance with its source_hash, if any. */
static struct at_kernel *ev_kernel(struct ev_ctx *c, json_t *ev)
{
	const char *name = json_str(ev, "kernel");
	const char *hash = json_str(ev, "source_hash");
	struct at_kernel *k;

	if (!name || !*name)
		return NULL;
	if (hash && (k = at_kernel_by_hash(c->set, name, hash)))
		return k;
	k = at_kernel_current(c->set, name, strlen(name), c->src);
	if (hash && k->source_hash)
		k = at_kernel_next(c->set, name, strlen(name), c->src);
	if (hash)
		at_hash_set(c->set, k, hash, c->src);
	return k;
}

static void set_json_str(char **field, struct at_src *src, json_t *ev,
			 const char *key, struct at_src from)
{
	const char *v = json_str(ev, key);

	if (v)
		at_set_str(field, src, v, strlen(v), from);
}

/* "capture/kernels/<name>", name one plain component: the only form tko capture writes. */
static int kernel_dir_ok(const char *d)
{
	static const char prefix[] = "capture/kernels/";
	const char *name = d + sizeof(prefix) - 1;
	const unsigned char *p;

	if (strncmp(d, prefix, sizeof(prefix) - 1) || !*name || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return 0;
	for (p = (const unsigned char *)name; *p; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/*
 * The kernel's capture directory. A RUN's files name paths inside the
 * RUN; one that leads elsewhere ("../outside/kd", "/etc") is not followed
 * but noted on the kernel, so the report does not read another tree.
 */
static void set_kernel_dir(struct ev_ctx *c, struct at_kernel *k, json_t *ev)
{
	const char *d = json_str(ev, "kernel_dir");
	char *note;

	if (!d || k->kernel_dir)
		return;
	if (kernel_dir_ok(d)) {
		at_set_str(&k->kernel_dir, NULL, d, strlen(d), c->src);
		return;
	}
	note = xstrfmt("kernel_dir '%s' is not capture/kernels/<name> inside the RUN; not read", d);
	/* Each event repeats it: say it once (comparing with the last note keeps this O(1)). */
	if (!k->nerrors || strcmp(k->errors[k->nerrors - 1].text, note)) {
		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc, note, strlen(note), c->src);
		at_note_add(&c->set->refused, &c->set->nrefused, &c->set->refused_alloc, note,
			    strlen(note), c->src);
	}
	free(note);
}

/*
 * The device's arch, decided from its facts (python/tko/gpu.py) by
 * target/target.c; a capture from before the facts wrote "arch" itself.
 */
static void set_arch(struct at_device *d, json_t *dev, struct at_src from)
{
	struct target_gpu_facts f;
	struct buf arch = BUF_INIT;

	target_gpu_facts_read(dev, &f);
	if (!f.gcn_arch_name && f.cc_major < 0)
		set_json_str(&d->arch, NULL, dev, "arch", from);
	else if (!target_gpu_arch(&f, &arch))
		at_set_str(&d->arch, NULL, arch.buf, arch.len, from);
	buf_release(&arch);
}

static void on_session_start(struct ev_ctx *c, json_t *ev)
{
	struct at_device *d = &c->set->device;
	json_t *dev = json_object_get(ev, "device");

	d->src = c->src;
	set_json_str(&d->torch, NULL, ev, "torch", c->src);
	set_json_str(&d->triton, NULL, ev, "triton", c->src);
	if (!json_is_object(dev))
		return;
	set_json_str(&d->name, NULL, dev, "name", c->src);
	set_json_str(&d->backend, NULL, dev, "backend", c->src);
	set_arch(d, dev, c->src);
	d->warp_size = (long)json_int(dev, "warp_size", d->warp_size);
	d->multiprocessors = (long)json_int(dev, "multiprocessor_count",
					    d->multiprocessors);
}

static void on_kernel(struct ev_ctx *c, json_t *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);
	long n;

	if (!k)
		return;
	set_json_str(&k->kind, &k->kind_src, ev, "heuristic_type", c->src);
	set_json_str(&k->source_file, &k->source_src, ev, "source_file", c->src);
	set_kernel_dir(c, k, ev);
	n = (long)json_int(ev, "num_configs", -1);
	if (n >= 0 && k->num_configs < 0) {
		k->num_configs = n;
		k->num_configs_src = c->src;
	}
}

static void ev_config(struct at_config *cfg, json_t *j)
{
	at_config_from_json(cfg, json_object_get(j, "kwargs"), NULL, j);
	cfg->time_ms = json_num(j, "time_ms", NAN);
	cfg->n_regs = (long)json_int(j, "n_regs", -1);
	cfg->n_spills = (long)json_int(j, "n_spills", -1);
	cfg->shared_bytes = (long)json_int(j, "shared_bytes", -1);
	if (json_str(j, "cache_hash"))
		cfg->cache_hash = xstrdup(json_str(j, "cache_hash"));
}

/* The methods the capture reports (tko/autotuner_way.py), by their names in model/names.h. */
static enum at_method chosen_by(const char *s, int *known)
{
	static const enum at_method capture_methods[] = {
		AT_BENCHMARK, AT_SINGLE_CONFIG, AT_CACHE_HIT, AT_COORDESC, AT_USER_AUTOTUNE,
	};
	int m = name_index(at_method_names, s);
	size_t i;

	*known = 1;
	for (i = 0; i < sizeof(capture_methods) / sizeof(capture_methods[0]); i++)
		if (m == (int)capture_methods[i])
			return capture_methods[i];
	*known = 0;
	return AT_BENCHMARK;
}

static void on_autotune(struct ev_ctx *c, json_t *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);
	json_t *configs = json_object_get(ev, "configs"), *j;
	const char *by = json_str(ev, "chosen_by");
	struct at_tuning *t;
	long best = (long)json_int(ev, "best_index", -1);
	int known;
	size_t i;

	if (!k)
		return;
	t = at_tuning_add(k, chosen_by(by, &known), c->src);
	if (!known) {
		char *note = xstrfmt("unknown chosen_by '%s'", by ? by : "(none)");

		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc, note,
			    strlen(note), c->src);
		free(note);
	}
	json_array_foreach(configs, i, j)
		ev_config(at_config_push(&t->configs, &t->nr, &t->alloc, c->src), j);
	if (best >= 0 && (size_t)best < t->nr) {
		t->best = best;
		t->best_src = c->src;
	}
	t->elapsed_ms = json_num(ev, "elapsed_ms", NAN);
	if (!isnan(t->elapsed_ms))
		t->elapsed_src = c->src;
	t->complete = 1;
}

static void on_launch(struct ev_ctx *c, json_t *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);

	if (k)
		k->launch_signatures = k->launch_signatures < 0 ? 1 : k->launch_signatures + 1;
}

static void on_capture(struct ev_ctx *c, json_t *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);

	if (k)
		set_kernel_dir(c, k, ev);
}

static void on_error(struct ev_ctx *c, json_t *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);
	const char *stage = json_str(ev, "stage"), *type = json_str(ev, "error_type");
	const char *msg = json_str(ev, "message");
	char *text = xstrfmt("%s: %s: %s", stage ? stage : "capture",
			     type ? type : "error", msg ? msg : "");

	if (k)
		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc, text,
			    strlen(text), c->src);
	else
		at_note_add(&c->set->errors, &c->set->nerrors, &c->set->errors_alloc,
			    text, strlen(text), c->src);
	free(text);
}

static void on_session_end(struct ev_ctx *c, json_t *ev)
{
	json_t *counts = json_object_get(ev, "launch_counts"), *v;
	const char *name;

	json_object_foreach(counts, name, v) {
		struct at_kernel *k = at_kernel_latest(c->set, name, strlen(name));

		if (!json_is_integer(v))
			continue;
		if (!k)
			k = at_kernel_current(c->set, name, strlen(name), c->src);
		k->launches = (long)json_integer_value(v);
		k->launches_src = c->src;
	}
}

static const struct {
	const char *type;
	ev_fn fn;
	const char *fields;	/* the type's own fields, space-separated */
} types[] = {
	/* both lists of docs/capture-events.md: the types' fields, then those tko capture adds */
	{ "session_start", on_session_start, "argv python torch triton device hooks tko kernels_regex" },
	{ "kernel", on_kernel, "kernel source_hash kernel_dir heuristic_type source_file size_hints mutated_arg_names num_configs "
	  "kind source_kind heuristic reset_to_zero_arg_names restore_value inductor_kernel_name selected" },
	{ "autotune", on_autotune, "kernel source_hash kernel_dir chosen_by configs best_index elapsed_ms "
	  "autotune_time_ms autotune_cache_state optimize_mem" },
	{ "launch", on_launch, "kernel source_hash kernel_dir grid config_index config args" },
	{ "capture", on_capture, "kernel source_hash kernel_dir inputs_bytes" },
	{ "error", on_error, "kernel source_hash kernel_dir stage error_type message" },
	{ "session_end", on_session_end, "launch_counts exit_status" },
};

static int field_known(const char *fields, const char *key)
{
	static const char common[] = "schema_version event time pid";
	size_t k = strlen(key);
	const char *lists[2], *p;
	size_t i;

	if (!k)
		return 0;
	lists[0] = common;
	lists[1] = fields;
	for (i = 0; i < 2; i++)
		for (p = lists[i]; (p = strstr(p, key)); p += k)
			if ((p == lists[i] || p[-1] == ' ') && (p[k] == ' ' || !p[k]))
				return 1;
	return 0;
}

/* Takes one event's facts; 0 when its type (or version) is not known. */
static int one_event(struct autotune_set *set, struct at_input *in,
		     json_t *ev, struct at_src src)
{
	const char *type = json_str(ev, "event"), *key;
	struct ev_ctx c = { set, src };
	json_t *v;
	size_t i;

	if (json_int(ev, "schema_version", 1) != 1)
		type = NULL;
	for (i = 0; type && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i].type, type))
			break;
	if (!type || i == sizeof(types) / sizeof(types[0])) {
		in->unknown_events++;
		return 0;
	}
	json_object_foreach(ev, key, v)
		if (!field_known(types[i].fields, key))
			in->unknown_fields++;
	types[i].fn(&c, ev);
	return 1;
}

int capture_events_sniff(const char *data, size_t len)
{
	struct lines it = LINES_INIT(data, len);
	const char *s;
	size_t n;
	json_t *j;
	int yes;

	if (!lines_next(&it, &s, &n))
		return 0;
	span_trim(&s, &n);
	if (!n || s[0] != '{' || !span_find(s, n, "\"event\""))
		return 0;
	j = json_loadb(s, n, 0, NULL);
	yes = json_is_object(j) && json_is_string(json_object_get(j, "event"));
	json_decref(j);
	return yes;
}

void capture_events_read(struct autotune_set *set, unsigned file,
			 const char *data, size_t len)
{
	struct lines it = LINES_INIT(data, len);
	const char *s;
	size_t n;

	set->inputs[file].format = AT_FMT_EVENTS;
	set->inputs[file].formats |= 1u << AT_FMT_EVENTS;
	while (lines_next(&it, &s, &n)) {
		struct at_src src = { file, it.lineno, AT_FMT_EVENTS };
		struct at_input *in = &set->inputs[file];
		json_t *ev;

		span_trim(&s, &n);
		if (!n) {
			in->ignored++;
			continue;
		}
		ev = json_loadb(s, n, 0, NULL);
		if (json_is_object(ev) && json_is_string(json_object_get(ev, "event"))) {
			if (one_event(set, in, ev, src))
				in->used++;
			else
				in->ignored++;
		} else if (it.last_unterminated) {
			in->truncated = 1;
		} else {
			at_input_malformed(set, file, it.lineno);
		}
		json_decref(ev);
	}
	set->inputs[file].lines = it.lineno;
}
