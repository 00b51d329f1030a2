/* The events of capture/events.jsonl, typed (capture_events.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/capture_events.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

/*
 * How a field is read. CF_INT takes any number, truncated, and CF_NUM any
 * number, as the readers did before (jsonio's json_int, json_num); null
 * is unknown. CF_ENUM is a string, or a number that stays unknown (an
 * enum's value: heuristic_type). CF_KNOWN is written by the hook and read
 * by no one here.
 */
enum cf_type {
	CF_KNOWN, CF_STR, CF_ENUM, CF_INT, CF_NUM, CF_OBJECT, CF_LIST, CF_DEVICE, CF_CONFIGS,
	CF_COUNTS
};

struct cf_row {
	const char *key;
	enum cf_type type;
	size_t off;		/* of the member in its struct */
};

#define EV(key, type, m) { key, type, offsetof(struct capture_event, m) }
#define KNOWN(key) { key, CF_KNOWN, 0 }
#define ROWS_END { NULL, CF_KNOWN, 0 }

/* Every event's (schema_version and event are read first, by hand). */
static const struct cf_row common_rows[] = {
	KNOWN("schema_version"), KNOWN("event"), EV("time", CF_NUM, time), EV("pid", CF_INT, pid),
	ROWS_END
};

/* An event about one kernel. */
static const struct cf_row kernel_ref_rows[] = {
	EV("kernel", CF_STR, kernel), EV("source_hash", CF_STR, source_hash),
	EV("kernel_dir", CF_STR, kernel_dir), ROWS_END
};

/* docs/capture-events.md's two lists: the types' fields, then those tko capture adds. */
static const struct cf_row session_start_rows[] = {
	KNOWN("argv"), KNOWN("python"), EV("torch", CF_STR, torch), EV("triton", CF_STR, triton),
	EV("device", CF_DEVICE, device), EV("hooks", CF_LIST, hooks), KNOWN("tko"), KNOWN("kernels_regex"),
	ROWS_END
};
static const struct cf_row kernel_rows[] = {
	EV("heuristic_type", CF_ENUM, heuristic_type), EV("source_file", CF_STR, source_file),
	KNOWN("size_hints"), KNOWN("mutated_arg_names"), EV("num_configs", CF_INT, num_configs),
	EV("kind", CF_STR, kernel_kind), EV("source_kind", CF_STR, source_kind),
	EV("heuristic", CF_STR, heuristic), KNOWN("reset_to_zero_arg_names"),
	KNOWN("restore_value"), KNOWN("inductor_kernel_name"), KNOWN("selected"), ROWS_END
};
static const struct cf_row autotune_rows[] = {
	EV("chosen_by", CF_STR, chosen_by), EV("configs", CF_CONFIGS, configs),
	EV("best_index", CF_INT, best_index), EV("elapsed_ms", CF_NUM, elapsed_ms),
	KNOWN("autotune_time_ms"), KNOWN("autotune_cache_state"), KNOWN("optimize_mem"), ROWS_END
};
static const struct cf_row launch_rows[] = {
	KNOWN("grid"), KNOWN("config_index"), KNOWN("config"), KNOWN("args"), ROWS_END
};
static const struct cf_row capture_rows[] = { KNOWN("inputs_bytes"), ROWS_END };
static const struct cf_row error_rows[] = {
	EV("stage", CF_STR, stage), EV("error_type", CF_STR, error_type),
	EV("message", CF_STR, message), ROWS_END
};
static const struct cf_row template_lookup_rows[] = {
	EV("op", CF_STR, op), EV("key", CF_STR, key), EV("template_ids", CF_LIST, template_ids),
	EV("layouts", CF_LIST, layouts), ROWS_END
};
static const struct cf_row session_end_rows[] = {
	EV("launch_counts", CF_COUNTS, launch_counts), KNOWN("exit_status"), ROWS_END
};

static const struct {
	const char *name;
	const struct cf_row *rows;
	int about_kernel;
} kinds[CAPTURE_EV_OTHER] = {
	[CAPTURE_EV_SESSION_START] = { "session_start", session_start_rows, 0 },
	[CAPTURE_EV_KERNEL] = { "kernel", kernel_rows, 1 },
	[CAPTURE_EV_AUTOTUNE] = { "autotune", autotune_rows, 1 },
	[CAPTURE_EV_LAUNCH] = { "launch", launch_rows, 1 },
	[CAPTURE_EV_CAPTURE] = { "capture", capture_rows, 1 },
	[CAPTURE_EV_ERROR] = { "error", error_rows, 1 },
	[CAPTURE_EV_SESSION_END] = { "session_end", session_end_rows, 0 },
	[CAPTURE_EV_TEMPLATE_LOOKUP] = { "template_lookup", template_lookup_rows, 0 },
};

#define CFG(key, type, m) { key, type, offsetof(struct capture_ev_config, m) }
static const struct cf_row config_rows[] = {
	CFG("kwargs", CF_OBJECT, kwargs), CFG("num_warps", CF_INT, num_warps),
	CFG("num_stages", CF_INT, num_stages), CFG("num_ctas", CF_INT, num_ctas),
	CFG("maxnreg", CF_INT, maxnreg), CFG("time_ms", CF_NUM, time_ms),
	CFG("n_regs", CF_INT, n_regs), CFG("n_spills", CF_INT, n_spills),
	CFG("shared_bytes", CF_INT, shared_bytes), CFG("cache_hash", CF_STR, cache_hash), ROWS_END
};

#define DEV(key, type, m) { key, type, offsetof(struct capture_ev_device, m) }
static const struct cf_row device_rows[] = {
	DEV("name", CF_STR, name), DEV("backend", CF_STR, backend), DEV("arch", CF_STR, arch),
	DEV("warp_size", CF_INT, warp_size), DEV("multiprocessor_count", CF_INT, multiprocessors),
	ROWS_END
};

static void config_init(struct capture_ev_config *c)
{
	memset(c, 0, sizeof(*c));
	c->num_warps = c->num_stages = c->num_ctas = c->maxnreg = -1;
	c->n_regs = c->n_spills = c->shared_bytes = -1;
	c->time_ms = NAN;
}

void capture_event_init(struct capture_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = CAPTURE_EV_OTHER;
	ev->schema_version = 1;
	ev->time = ev->elapsed_ms = NAN;
	ev->pid = ev->num_configs = ev->best_index = -1;
	ev->device.warp_size = ev->device.multiprocessors = -1;
}

void capture_event_release(struct capture_event *ev)
{
	char **s[] = {
		&ev->type, &ev->kernel, &ev->source_hash, &ev->kernel_dir, &ev->torch, &ev->triton,
		&ev->device.name, &ev->device.backend, &ev->device.arch, &ev->heuristic_type,
		&ev->heuristic, &ev->kernel_kind, &ev->source_kind,
		&ev->source_file, &ev->chosen_by, &ev->stage, &ev->error_type, &ev->message,
		&ev->bad_field, &ev->op, &ev->key,
	};
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		free(*s[i]);
	json_decref(ev->device.facts);
	json_decref(ev->hooks);
	json_decref(ev->template_ids);
	json_decref(ev->layouts);
	for (i = 0; i < ev->nconfigs; i++) {
		json_decref(ev->configs[i].kwargs);
		free(ev->configs[i].cache_hash);
	}
	free(ev->configs);
	for (i = 0; i < ev->nlaunch_counts; i++)
		free(ev->launch_counts[i].kernel);
	free(ev->launch_counts);
	capture_event_init(ev);
}

/* Where a field is and what is wrong with it, for the first bad field's line. */
struct cf_ctx {
	struct capture_event *ev;
	const char *path;
};

static void bad(struct cf_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(struct cf_ctx *c, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	if (c->ev->bad_fields++)
		return;
	buf_addf(&b, "'%s' line %ld: %s: ", c->path, c->ev->line, c->ev->type);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	c->ev->bad_field = buf_detach(&b, NULL);
}

static const char *const type_words[] = {
	[CF_STR] = "not a string", [CF_ENUM] = "not a string or a number",
	[CF_INT] = "not an integer", [CF_NUM] = "not a number", [CF_OBJECT] = "not an object",
	[CF_LIST] = "not a list",
	[CF_DEVICE] = "not an object", [CF_CONFIGS] = "not a list", [CF_COUNTS] = "not an object",
};

/* A scalar or object member; 0, or -1 when v has the wrong type. */
static int scalar(void *m, enum cf_type t, json_t *v)
{
	if ((t == CF_STR || t == CF_ENUM) && json_is_string(v))
		*(char **)m = xstrdup(json_string_value(v));
	else if (t == CF_ENUM && json_is_number(v))
		;	/* the enum's value, not its name */
	else if (t == CF_INT && json_is_integer(v))
		*(long *)m = (long)json_integer_value(v);
	else if (t == CF_INT && json_is_real(v))
		*(long *)m = (long)json_real_value(v);
	else if (t == CF_NUM && json_is_number(v))
		*(double *)m = json_number_value(v);
	else if (t == CF_OBJECT && json_is_object(v))
		*(json_t **)m = json_incref(v);
	else if (t == CF_LIST && json_is_array(v))
		*(json_t **)m = json_incref(v);
	else
		return -1;
	return 0;
}

static const struct cf_row *row_of(const struct cf_row *rows, const char *key)
{
	for (; rows && rows->key; rows++)
		if (!strcmp(rows->key, key))
			return rows;
	return NULL;
}

static void read_rows(struct cf_ctx *c, const struct cf_row *rows, void *base, json_t *obj,
		      const char *where);

static void read_configs(struct cf_ctx *c, json_t *list)
{
	struct capture_event *ev = c->ev;
	json_t *j;
	size_t i;
	char where[48];

	ev->configs = xcalloc(json_array_size(list) ? json_array_size(list) : 1, sizeof(*ev->configs));
	json_array_foreach(list, i, j) {
		struct capture_ev_config *cfg = &ev->configs[ev->nconfigs++];

		config_init(cfg);
		snprintf(where, sizeof(where), "configs[%zu].", i);
		if (json_is_object(j))
			read_rows(c, config_rows, cfg, j, where);
		else
			bad(c, "configs[%zu]: not an object", i);
	}
}

static void read_counts(struct cf_ctx *c, json_t *obj)
{
	struct capture_event *ev = c->ev;
	const char *name;
	json_t *v;

	ev->launch_counts = xcalloc(json_object_size(obj) ? json_object_size(obj) : 1,
				    sizeof(*ev->launch_counts));
	json_object_foreach(obj, name, v) {
		struct capture_ev_count *n;

		/* the key is a kernel name, which the message leaves out (it may hold anything) */
		if (!json_is_integer(v)) {
			if (!json_is_null(v))
				bad(c, "launch_counts: a count that is not an integer");
			continue;
		}
		n = &ev->launch_counts[ev->nlaunch_counts++];
		n->kernel = xstrdup(name);
		n->launches = json_integer_value(v);
	}
}

static void read_field(struct cf_ctx *c, const struct cf_row *r, void *base, json_t *v,
		       const char *where)
{
	void *m = (char *)base + r->off;

	if (r->type == CF_KNOWN || json_is_null(v))
		return;
	if (r->type == CF_DEVICE && json_is_object(v)) {
		c->ev->device.facts = json_incref(v);
		read_rows(c, device_rows, m, v, "device.");
	} else if (r->type == CF_CONFIGS && json_is_array(v)) {
		read_configs(c, v);
	} else if (r->type == CF_COUNTS && json_is_object(v)) {
		read_counts(c, v);
	} else if (r->type >= CF_DEVICE || scalar(m, r->type, v) < 0) {
		bad(c, "%s%s: %s", where, r->key, type_words[r->type]);
	}
}

/* The members of obj that rows list; in a nested object the others are not counted. */
static void read_rows(struct cf_ctx *c, const struct cf_row *rows, void *base, json_t *obj,
		      const char *where)
{
	const struct cf_row *r;
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v)
		if ((r = row_of(rows, key)))
			read_field(c, r, base, v, where);
}

/* The event's own fields: those of its kind, the kernel's, the common ones. */
static void read_event(struct cf_ctx *c, json_t *obj)
{
	const struct cf_row *own = kinds[c->ev->kind].rows;
	const struct cf_row *ref = kinds[c->ev->kind].about_kernel ? kernel_ref_rows : NULL;
	const struct cf_row *r;
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		if (!(r = row_of(own, key)) && !(r = row_of(ref, key)) && !(r = row_of(common_rows, key)))
			c->ev->unknown_fields++;
		else
			read_field(c, r, c->ev, v, "");
	}
}

/* The event's kind from its type and schema_version: another version is another language. */
static void read_head(struct cf_ctx *c, json_t *obj)
{
	struct capture_event *ev = c->ev;
	json_t *ver = json_object_get(obj, "schema_version");
	int k;

	ev->type = xstrdup(json_string_value(json_object_get(obj, "event")));
	if (ver && !json_is_null(ver) && scalar(&ev->schema_version, CF_INT, ver) < 0)
		bad(c, "schema_version: not an integer");
	ev->kind = CAPTURE_EV_OTHER;
	for (k = 0; ev->schema_version == 1 && k < CAPTURE_EV_OTHER; k++)
		if (!strcmp(ev->type, kinds[k].name))
			ev->kind = (enum capture_ev_kind)k;
}

/* Why p[0..n) is not JSON at all: binary, not UTF-8, or jansson's words. */
static void not_json(const char *p, size_t n, const json_error_t *je, const char *path,
		     long line, struct buf *err)
{
	const char *z = memchr(p, '\0', n);
	size_t off;

	buf_addf(err, "'%s' line %ld: ", path, line);
	if (z)
		buf_addf(err, "binary, not text (NUL byte at column %zu)", (size_t)(z - p) + 1);
	else if (utf8_check(p, n, &off))
		buf_addf(err, "not UTF-8 text (invalid byte at column %zu)", off + 1);
	else
		buf_addf(err, "not JSON (%s)", je->text);
}

int capture_event_parse(struct capture_event *ev, const char *p, size_t n,
			const char *path, long line, struct buf *err)
{
	struct cf_ctx c = { ev, path };
	json_error_t je;
	json_t *j;

	span_trim(&p, &n);
	if (!n)
		return 0;
	j = json_loadb(p, n, 0, &je);
	if (!j) {
		not_json(p, n, &je, path, line, err);
		return -1;
	}
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "event"))) {
		buf_addf(err, "'%s' line %ld: not an event (no JSON object with a string \"event\")",
			 path, line);
		json_decref(j);
		return -1;
	}
	ev->line = line;
	read_head(&c, j);
	if (ev->kind != CAPTURE_EV_OTHER)
		read_event(&c, j);
	json_decref(j);
	return 1;
}

long capture_events_each(const char *path, const char *data, size_t len,
			 capture_line_fn *fn, void *data_fn)
{
	struct lines it = LINES_INIT(data, len);
	struct capture_event ev;
	struct buf err = BUF_INIT;
	const char *s;
	size_t n;

	capture_event_init(&ev);
	while (lines_next(&it, &s, &n)) {
		struct capture_line l = { (long)it.lineno, 0, 0, &ev, NULL };

		l.status = capture_event_parse(&ev, s, n, path, l.line, &err);
		if (l.status < 0) {
			l.cut_off = it.last_unterminated;
			if (l.cut_off)
				buf_adds(&err, "; the last line, cut off mid-write");
			l.error = err.buf;
		}
		fn(&l, data_fn);
		capture_event_release(&ev);
		buf_reset(&err);
	}
	buf_release(&err);
	return (long)it.lineno;
}

int capture_events_each_file(const char *path, capture_line_fn *fn, void *data_fn,
			     struct buf *err)
{
	struct mapped_file m = MAPPED_FILE_INIT;

	if (file_map(path, 0, &m, err) < 0)
		return -1;
	capture_events_each(path, m.data, m.len, fn, data_fn);
	file_unmap(&m);
	return 0;
}
