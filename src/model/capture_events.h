/*
 * model/capture_events: the events of RUN/capture/events.jsonl
 * (docs/capture-events.md), typed, for its readers: capture/summary.h
 * (tko-run.json's counts) and parse/capture_events.h (tko summarize's
 * model). The one place that knows the keys the hook writes
 * (python/tko/capture.py, inductor_hooks.py, triton_hooks.py,
 * kerneldir.py): each kind's table lists them all, those read into struct
 * capture_event and those only known, so every other key is counted as
 * unknown.
 *
 * One JSON object a line. A line that is blank (whitespace only) is no
 * event and no error; one that is not a JSON object with a string "event"
 * is not an event, with one line naming the file, the line and why (not
 * JSON, binary, not UTF-8, no "event"); the last line without its newline
 * is the writer killed mid-line. A field of the wrong type (a string for
 * num_configs) does not lose the event: the field is read as unknown, as
 * the readers always took it, and counted, the first described in one line.
 */
#ifndef TKO_MODEL_CAPTURE_EVENTS_H
#define TKO_MODEL_CAPTURE_EVENTS_H

#include <stddef.h>
#include <jansson.h>

#include "util/buf.h"

enum capture_ev_kind {
	CAPTURE_EV_SESSION_START,
	CAPTURE_EV_KERNEL,
	CAPTURE_EV_AUTOTUNE,
	CAPTURE_EV_LAUNCH,
	CAPTURE_EV_CAPTURE,
	CAPTURE_EV_ERROR,
	CAPTURE_EV_SESSION_END,
	CAPTURE_EV_TEMPLATE_LOOKUP,
	CAPTURE_EV_OTHER,	/* a type this tko does not know, or a schema_version but 1 */
	CAPTURE_EV_KINDS
};

/* session_start's "device": python/tko/gpu.py's facts. */
struct capture_ev_device {
	char *name, *backend;	/* NULL when missing */
	char *arch;		/* what captures before the facts wrote; NULL today */
	long warp_size;		/* -1 unknown */
	long multiprocessors;	/* "multiprocessor_count", -1 unknown */
	json_t *facts;		/* the object as written (target_gpu_facts_read), or NULL */
};

/* One of autotune's "configs". */
struct capture_ev_config {
	json_t *kwargs;		/* an object, or NULL */
	long num_warps, num_stages, num_ctas, maxnreg;	/* -1 unknown */
	double time_ms;		/* NAN: not timed */
	long n_regs, n_spills, shared_bytes;		/* -1 unknown */
	char *cache_hash;	/* NULL when missing */
};

/* One of session_end's "launch_counts". */
struct capture_ev_count {
	char *kernel;
	long long launches;
};

struct capture_event {
	enum capture_ev_kind kind;
	char *type;		/* "event" as written (any kind) */
	long line;		/* 1-based */
	long schema_version;	/* 1 when missing */
	double time;		/* NAN unknown */
	long pid;		/* -1 unknown */
	/* the kernel the event is about (kernel, autotune, launch, capture, error) */
	char *kernel, *source_hash, *kernel_dir;
	/* session_start */
	char *torch, *triton;
	json_t *hooks;		/* the hooks capture installed ("Class.method"), as written */
	struct capture_ev_device device;
	/* kernel */
	char *heuristic_type;	/* "pointwise", "user_autotune"; NULL where Inductor wrote
				   HeuristicType's value, a number (torch 2.11) */
	char *heuristic;	/* HeuristicType's name in lower case: "pointwise" */
	char *kernel_kind;	/* "kind": inductor, user_autotune, user_jit */
	char *source_kind;	/* inductor_module, function_only, tko_module */
	char *source_file;
	long num_configs;	/* -1 unknown */
	/* autotune */
	char *chosen_by;
	struct capture_ev_config *configs;	/* a config per entry, one that is no object unknown */
	size_t nconfigs;
	long best_index;	/* -1 unknown */
	double elapsed_ms;	/* NAN unknown */
	/* error */
	char *stage, *error_type, *message;
	/* template_lookup: Inductor's template lookup key of one templated op */
	char *op, *key;
	json_t *template_ids;	/* the list as written, or NULL */
	json_t *layouts;	/* [[dtype, shape, stride], ...] as written, or NULL */
	/* session_end: the counts that are integers */
	struct capture_ev_count *launch_counts;
	size_t nlaunch_counts;
	/* what was not read (a kind of CAPTURE_EV_OTHER reads nothing) */
	size_t unknown_fields;	/* keys its kind does not list */
	size_t bad_fields;	/* fields of the wrong type, read as unknown */
	char *bad_field;	/* the first: "'P' line 3: kernel: num_configs: not an integer" */
};

void capture_event_init(struct capture_event *ev);
void capture_event_release(struct capture_event *ev);

/*
 * Line `line` of `path`, p[0..n): 1 with *ev filled (init'ed by the
 * caller) when it is an event; 0 when it is blank; -1 with one line in err
 * when it is not an event ("'P' line 9: not JSON: ...").
 */
int capture_event_parse(struct capture_event *ev, const char *p, size_t n,
			const char *path, long line, struct buf *err);

/* What capture_events_each() says about one line. */
struct capture_line {
	long line;		/* 1-based */
	int status;		/* 1 an event, 0 blank, -1 not an event */
	int cut_off;		/* status -1 on the last line, which has no newline */
	const struct capture_event *ev;	/* status 1 */
	const char *error;	/* status -1: one line naming the file and the line */
};

typedef void capture_line_fn(const struct capture_line *l, void *data);

/* Calls fn for every line of data[0..len) (`path` names it); returns the number of lines. */
long capture_events_each(const char *path, const char *data, size_t len,
			 capture_line_fn *fn, void *data_fn);
/* The same over the file at `path`: 0, or -1 + err when it cannot be read. */
int capture_events_each_file(const char *path, capture_line_fn *fn, void *data_fn,
			     struct buf *err);

#endif
