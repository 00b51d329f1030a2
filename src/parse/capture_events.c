/*
 * capture/events.jsonl into the autotune model (see capture_events.h).
 * The lines are read by model/capture_events.h, which knows the keys; one
 * table here gives each event kind the function that takes its facts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/capture_events.h"
#include "model/names.h"
#include "parse/capture_events.h"
#include "parse/config_json.h"
#include "target/target.h"
#include "util/buf.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/plural.h"
#include "banned.h"

struct ev_ctx {
	struct autotune_set *set;
	struct at_src src;	/* the line being read */
};

typedef void (*ev_fn)(struct ev_ctx *c, const struct capture_event *ev);

/* The kernel an event is about: the instance with its source_hash, if any. */
static struct at_kernel *ev_kernel(struct ev_ctx *c, const struct capture_event *ev)
{
	const char *name = ev->kernel, *hash = ev->source_hash;
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

static void set_str(char **field, struct at_src *src, const char *v, struct at_src from)
{
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
static void set_kernel_dir(struct ev_ctx *c, struct at_kernel *k, const struct capture_event *ev)
{
	const char *d = ev->kernel_dir;
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
static void set_arch(struct at_device *d, const struct capture_ev_device *dev, struct at_src from)
{
	struct target_gpu_facts f;
	struct buf arch = BUF_INIT;

	target_gpu_facts_read(dev->facts, &f);
	if (!f.gcn_arch_name && f.cc_major < 0)
		set_str(&d->arch, NULL, dev->arch, from);
	else if (!target_gpu_arch(&f, &arch))
		at_set_str(&d->arch, NULL, arch.buf, arch.len, from);
	buf_release(&arch);
}

static void on_session_start(struct ev_ctx *c, const struct capture_event *ev)
{
	struct at_device *d = &c->set->device;
	const struct capture_ev_device *dev = &ev->device;

	d->src = c->src;
	set_str(&d->torch, NULL, ev->torch, c->src);
	set_str(&d->triton, NULL, ev->triton, c->src);
	if (!dev->facts)
		return;
	set_str(&d->name, NULL, dev->name, c->src);
	set_str(&d->backend, NULL, dev->backend, c->src);
	set_arch(d, dev, c->src);
	if (dev->warp_size != -1)
		d->warp_size = dev->warp_size;
	if (dev->multiprocessors != -1)
		d->multiprocessors = dev->multiprocessors;
}

/*
 * The kind of an Inductor kernel whose heuristic_type is a number: from
 * HeuristicType's name ("heuristic"), never the number. The members are
 * auto() values whose order changed between torch versions (torch 2.0:
 * POINTWISE 1, REDUCTION 2, PERSISTENT_REDUCTION 3, TEMPLATE 4; torch
 * 2.11's runtime/hints.py: PERSISTENT_REDUCTION 1, POINTWISE 2, REDUCTION
 * 3, SPLIT_SCAN 4, TEMPLATE 5, USER_AUTOTUNE 6, FIXED 7); the names did
 * not. The kernel's name comes first where it tells the kind
 * (at_kind_from_name): it is Inductor's category of the exact decorator
 * (codegen/triton.py define_kernel), while one member stands for two
 * decorators (runtime/triton_heuristics.py): TEMPLATE for template and
 * foreach (triton_for_, a prefix the name tells), REDUCTION for reduction
 * (triton_red_) and cooperative_reduction, which has no category and is
 * named triton_unk_. A name HeuristicType gained later is kept as read.
 */
static const char *heuristic_kind(const char *heuristic, const char *kernel)
{
	static const char unk[] = "triton_unk_";

	if (!heuristic || at_kind_from_name(kernel))
		return NULL;
	if (!strcmp(heuristic, "fixed"))
		return kind_names[KIND_FIXED_CONFIG];
	if (!strcmp(heuristic, "reduction") && !strncmp(kernel, unk, sizeof(unk) - 1))
		return kind_names[KIND_COOPERATIVE_REDUCTION];
	return heuristic;
}

static void on_kernel(struct ev_ctx *c, const struct capture_event *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);

	if (!k)
		return;
	/* a string is tko's own name for a hand-written kernel (triton_hooks.py) */
	set_str(&k->kind, &k->kind_src, ev->heuristic_type ? ev->heuristic_type :
		heuristic_kind(ev->heuristic, k->name), c->src);
	set_str(&k->source_file, &k->source_src, ev->source_file, c->src);
	set_kernel_dir(c, k, ev);
	if (ev->num_configs >= 0 && k->num_configs < 0) {
		k->num_configs = ev->num_configs;
		k->num_configs_src = c->src;
	}
}

static void ev_config(struct at_config *cfg, const struct capture_ev_config *j)
{
	at_config_from_json(cfg, j->kwargs, NULL, NULL);
	cfg->num_warps = j->num_warps;
	cfg->num_stages = j->num_stages;
	cfg->num_ctas = j->num_ctas;
	cfg->maxnreg = j->maxnreg;
	cfg->time_ms = j->time_ms;
	cfg->n_regs = j->n_regs;
	cfg->n_spills = j->n_spills;
	cfg->shared_bytes = j->shared_bytes;
	if (j->cache_hash)
		cfg->cache_hash = xstrdup(j->cache_hash);
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

static void on_autotune(struct ev_ctx *c, const struct capture_event *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);
	const char *by = ev->chosen_by;
	struct at_tuning *t;
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
	for (i = 0; i < ev->nconfigs; i++)
		ev_config(at_config_push(&t->configs, &t->nr, &t->alloc, c->src), &ev->configs[i]);
	if (ev->best_index >= 0 && (size_t)ev->best_index < t->nr) {
		t->best = ev->best_index;
		t->best_src = c->src;
	}
	t->elapsed_ms = ev->elapsed_ms;
	if (!isnan(t->elapsed_ms))
		t->elapsed_src = c->src;
	t->complete = 1;
}

static void on_launch(struct ev_ctx *c, const struct capture_event *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);

	if (k)
		k->launch_signatures = k->launch_signatures < 0 ? 1 : k->launch_signatures + 1;
}

static void on_capture(struct ev_ctx *c, const struct capture_event *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);

	if (k)
		set_kernel_dir(c, k, ev);
}

static void on_error(struct ev_ctx *c, const struct capture_event *ev)
{
	struct at_kernel *k = ev_kernel(c, ev);
	char *text = xstrfmt("%s: %s: %s", ev->stage ? ev->stage : "capture",
			     ev->error_type ? ev->error_type : "error",
			     ev->message ? ev->message : "");

	if (k)
		at_note_add(&k->errors, &k->nerrors, &k->errors_alloc, text,
			    strlen(text), c->src);
	else
		at_note_add(&c->set->errors, &c->set->nerrors, &c->set->errors_alloc,
			    text, strlen(text), c->src);
	free(text);
}

static void on_session_end(struct ev_ctx *c, const struct capture_event *ev)
{
	size_t i;

	for (i = 0; i < ev->nlaunch_counts; i++) {
		const char *name = ev->launch_counts[i].kernel;
		struct at_kernel *k = at_kernel_latest(c->set, name, strlen(name));

		if (!k)
			k = at_kernel_current(c->set, name, strlen(name), c->src);
		k->launches = (long)ev->launch_counts[i].launches;
		k->launches_src = c->src;
	}
}

static const ev_fn on[CAPTURE_EV_OTHER] = {
	[CAPTURE_EV_SESSION_START] = on_session_start,
	[CAPTURE_EV_KERNEL] = on_kernel,
	[CAPTURE_EV_AUTOTUNE] = on_autotune,
	[CAPTURE_EV_LAUNCH] = on_launch,
	[CAPTURE_EV_CAPTURE] = on_capture,
	[CAPTURE_EV_ERROR] = on_error,
	[CAPTURE_EV_SESSION_END] = on_session_end,
	/* none for template_lookup: the key is tko apply's (apply/tmplkey.h) */
};

int capture_events_sniff(const char *data, size_t len)
{
	struct lines it = LINES_INIT(data, len);
	struct capture_event ev;
	struct buf err = BUF_INIT;
	const char *s;
	size_t n;
	int yes;

	if (!lines_next(&it, &s, &n))
		return 0;
	span_trim(&s, &n);
	/* a log's first line is not parsed as JSON at all */
	if (!n || s[0] != '{' || !span_find(s, n, "\"event\""))
		return 0;
	capture_event_init(&ev);
	yes = capture_event_parse(&ev, s, n, "", 1, &err) > 0;
	capture_event_release(&ev);
	buf_release(&err);
	return yes;
}

/* What the lines of one input came to, while they are read. */
struct read_ctx {
	struct autotune_set *set;
	unsigned file;
	size_t bad_fields;
	char *first_bad;	/* the first field of the wrong type, one line */
};

static void one_event(struct read_ctx *r, struct at_input *in, const struct capture_event *ev)
{
	struct ev_ctx c = { r->set, { r->file, (size_t)ev->line, AT_FMT_EVENTS } };

	if (ev->kind == CAPTURE_EV_OTHER) {
		in->unknown_events++;
		in->ignored++;
		return;
	}
	in->unknown_fields += ev->unknown_fields;
	if (ev->bad_fields && !r->first_bad)
		r->first_bad = xstrdup(ev->bad_field);
	r->bad_fields += ev->bad_fields;
	if (on[ev->kind])	/* a kind known, read by others */
		on[ev->kind](&c, ev);
	in->used++;
}

static void one_line(const struct capture_line *l, void *data)
{
	struct read_ctx *r = data;
	struct at_input *in = &r->set->inputs[r->file];

	if (!l->status)
		in->ignored++;
	else if (l->status > 0)
		one_event(r, in, l->ev);
	else if (l->cut_off)
		in->truncated = 1;
	else
		at_input_malformed(r->set, r->file, (size_t)l->line);
}

/* Fields of the wrong type were read as unknown: said on the input, with the first. */
static void note_bad_fields(struct at_input *in, const struct read_ctx *r)
{
	struct buf b = BUF_INIT;

	if (!r->bad_fields)
		return;
	if (in->note)
		buf_addf(&b, "%s; ", in->note);
	buf_addf(&b, "%zu field%s of the wrong type read as unknown (first: %s)", r->bad_fields,
		 plural(r->bad_fields), r->first_bad);
	free(in->note);
	in->note = buf_detach(&b, NULL);
}

void capture_events_read(struct autotune_set *set, unsigned file,
			 const char *data, size_t len)
{
	struct read_ctx r = { set, file, 0, NULL };
	long lines;

	set->inputs[file].format = AT_FMT_EVENTS;
	set->inputs[file].formats |= 1u << AT_FMT_EVENTS;
	lines = capture_events_each(set->inputs[file].path, data, len, one_line, &r);
	set->inputs[file].lines = (size_t)lines;
	note_bad_fields(&set->inputs[file], &r);
	free(r.first_bad);
}
