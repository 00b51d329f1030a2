/* The events of apply.jsonl, typed (apply_events.h). */
#include <stdarg.h>
#include <string.h>

#include "model/apply_events.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/msg.h"
#include "banned.h"

static const char *const kind_names[APPLY_EV_KINDS] = {
	"session_start", "error", "construct", "session_end", "steps", "keep_off",
};

static const struct rf_field head_fields[] = {
	RF_F(struct apply_event, "role", RF_STR, role),
	RF_FEND,
};
static const struct rf_struct head_desc = { "event", sizeof(struct apply_event), head_fields };

static const struct rf_field construct_fields[] = {
	RF_F(struct apply_ev_construct, "id", RF_STR, id),
	RF_F(struct apply_ev_construct, "how", RF_STR, how),
	RF_FEND,
};
static const struct rf_struct construct_desc = {
	"construct", sizeof(struct apply_ev_construct), construct_fields
};

/* The keys of an outcome tko reads; the rest passes through (scratch struct). */
struct outcome {
	char *id, *status, *reason;
};
static const struct rf_field outcome_fields[] = {
	RF_F(struct outcome, "id", RF_STR, id),
	RF_F(struct outcome, "status", RF_STR, status),
	RF_F(struct outcome, "reason", RF_STR, reason),
	RF_FEND,
};
static const struct rf_struct outcome_desc = { "outcome", sizeof(struct outcome), outcome_fields };

static const struct rf_field end_fields[] = {
	RF_JX(struct apply_ev_session_end, "outcomes", outcomes, &outcome_desc, RF_OBJECTS),
	RF_FEND,
};
static const struct rf_struct end_desc = {
	"session_end", sizeof(struct apply_ev_session_end), end_fields
};

/* window is checked by hand (two longs, no row type for them) */
static const struct rf_field steps_fields[] = {
	RF_F(struct apply_ev_steps, "source", RF_STR, source),
	RF_F(struct apply_ev_steps, "clock", RF_STR, clock),
	RF_F(struct apply_ev_steps, "ms", RF_JSON, ms),
	RF_F(struct apply_ev_steps, "losses", RF_JSON, losses),
	RF_FEND,
};
static const struct rf_struct steps_desc = { "steps", sizeof(struct apply_ev_steps), steps_fields };

#define R struct apply_ev_region
static const struct rf_field region_fields[] = {
	RF_F(R, "region", RF_STR, region),
	RF_F(R, "status", RF_STR, status),
	RF_F(R, "calls", RF_LONG, calls),
	RF_F(R, "message", RF_JSON, message),
	RF_FEND,
};
#undef R
static const struct rf_struct region_desc = { "region", sizeof(struct apply_ev_region), region_fields };

static const struct rf_field keep_off_fields[] = {
	RF_A(struct apply_ev_keep_off, "regions", v, nr, &region_desc),
	RF_FEND,
};
static const struct rf_struct keep_off_desc = {
	"keep_off", sizeof(struct apply_ev_keep_off), keep_off_fields
};

int apply_event_main(const struct apply_event *ev)
{
	return ev->role && !strcmp(ev->role, "main");
}

void apply_event_init(struct apply_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	rf_init(&head_desc, ev);
	rf_init(&construct_desc, &ev->construct);
	rf_init(&end_desc, &ev->end);
	rf_init(&steps_desc, &ev->steps);
	rf_init(&keep_off_desc, &ev->keep_off);
	ev->steps.window[0] = ev->steps.window[1] = -1;
	ev->line = 0;
}

void apply_event_release(struct apply_event *ev)
{
	rf_release(&construct_desc, &ev->construct);
	rf_release(&end_desc, &ev->end);
	rf_release(&steps_desc, &ev->steps);
	rf_release(&keep_off_desc, &ev->keep_off);
	rf_release(&head_desc, ev);	/* last: re-initialising it clears the whole struct */
	apply_event_init(ev);
}

static void say(struct buf *warn, const char *path, long line, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void say(struct buf *warn, const char *path, long line, const char *kind, const char *fmt, ...)
{
	va_list ap;

	buf_addf(warn, "'%s' line %ld: %s: ", path, line, kind);
	va_start(ap, fmt);
	buf_vaddf(warn, fmt, ap);
	va_end(ap);
}

/* A list of numbers and nulls (ms, losses), or none. */
static int numbers(const json_t *v, const char *key, struct buf *warn, const char *path, long line)
{
	const json_t *e;
	size_t i;

	if (!v)
		return 0;
	if (!json_is_array(v)) {
		say(warn, path, line, "steps", "%s: not a list", key);
		return -1;
	}
	json_array_foreach(v, i, e)
		if (!json_is_number(e) && !json_is_null(e)) {
			say(warn, path, line, "steps", "%s[%zu]: not a number", key, i);
			return -1;
		}
	return 0;
}

static int steps_extra(struct apply_ev_steps *s, const json_t *j, struct buf *warn,
		       const char *path, long line)
{
	const json_t *w = json_object_get(j, "window");
	size_t i;

	if (numbers(s->ms, "ms", warn, path, line) < 0 || numbers(s->losses, "losses", warn, path, line) < 0)
		return -1;
	if (!w || json_is_null(w))
		return 0;
	if (json_array_size(w) != 2 || !json_is_integer(json_array_get(w, 0)) ||
	    !json_is_integer(json_array_get(w, 1))) {
		say(warn, path, line, "steps", "window: not a list of two integers");
		return -1;
	}
	for (i = 0; i < 2; i++)
		s->window[i] = (long)json_integer_value(json_array_get(w, i));
	return 0;
}

/* rf_read's message is "'PATH': FIELD: ..."; the warning names the line and the event. */
static int typed(const struct rf_struct *d, void *p, const json_t *j, const char *kind,
		 const char *path, long line, struct buf *warn)
{
	struct buf e = BUF_INIT;
	size_t skip = strlen(path) + 4;
	int ret = rf_read(d, p, j, path, &e);

	if (ret < 0)
		say(warn, path, line, kind, "%s", e.len > skip ? e.buf + skip : e.buf);
	buf_release(&e);
	return ret;
}

static void *member(struct apply_event *ev, const struct rf_struct **d)
{
	switch (ev->kind) {
	case APPLY_EV_CONSTRUCT: *d = &construct_desc; return &ev->construct;
	case APPLY_EV_SESSION_END: *d = &end_desc; return &ev->end;
	case APPLY_EV_STEPS: *d = &steps_desc; return &ev->steps;
	case APPLY_EV_KEEP_OFF: *d = &keep_off_desc; return &ev->keep_off;
	default: *d = NULL; return NULL;	/* counted only */
	}
}

int apply_event_from_json(struct apply_event *ev, const json_t *j, unsigned kinds,
			  const char *path, long line, struct buf *warn)
{
	const char *name = json_string_value(json_object_get(j, "event"));
	const struct rf_struct *d;
	void *m;
	int k;

	for (k = 0; name && k < APPLY_EV_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			break;
	if (!name || k == APPLY_EV_KINDS || !(kinds & APPLY_EV_BIT(k)))
		return 0;
	ev->kind = (enum apply_ev_kind)k;
	ev->line = line;
	m = member(ev, &d);
	if (typed(&head_desc, ev, j, name, path, line, warn) < 0 ||
	    (d && typed(d, m, j, name, path, line, warn) < 0) ||
	    (ev->kind == APPLY_EV_STEPS && steps_extra(&ev->steps, j, warn, path, line) < 0))
		return -1;
	return 1;
}

int apply_event_parse(struct apply_event *ev, const char *p, size_t n, unsigned kinds,
		      const char *path, long line, int *not_event, struct buf *warn)
{
	json_t *j = json_loadb(p, n, 0, NULL);
	int ret;

	*not_event = !json_is_object(j) || !json_is_string(json_object_get(j, "event"));
	ret = *not_event ? 0 : apply_event_from_json(ev, j, kinds, path, line, warn);
	json_decref(j);
	return ret;
}

/* Whether the line may hold an event of `kinds`: its name in quotes (no parse for the rest). */
static int may_hold(const char *p, size_t n, unsigned kinds)
{
	char quoted[32];
	int k;

	for (k = 0; k < APPLY_EV_KINDS; k++) {
		int len = snprintf(quoted, sizeof(quoted), "\"%s\"", kind_names[k]);

		if ((kinds & APPLY_EV_BIT(k)) && memmem(p, n, quoted, (size_t)len))
			return 1;
	}
	return 0;
}

static void one_line(const char *p, size_t n, long line, unsigned kinds, apply_event_fn *fn,
		     void *data, struct apply_events_stats *st, const char *path)
{
	struct apply_event ev;
	struct buf warn = BUF_INIT;
	int not_event = 0, r;

	if (!n || !may_hold(p, n, kinds))
		return;
	apply_event_init(&ev);
	r = apply_event_parse(&ev, p, n, kinds, path, line, &not_event, &warn);
	st->not_events += not_event;
	if (r > 0) {
		fn(&ev, data);
	} else if (r < 0) {
		st->warnings++;
		msg_warn("%s; the event is skipped", warn.buf);
	}
	apply_event_release(&ev);
	buf_release(&warn);
}

int apply_events_read(const char *path, unsigned kinds, apply_event_fn *fn, void *data,
		      struct apply_events_stats *st, struct buf *err)
{
	struct mapped_file m = MAPPED_FILE_INIT;
	struct apply_events_stats ignored = { 0, 0 };
	const char *line = NULL;
	struct lines it;
	size_t len;
	long nr = 0;

	if (!st)
		st = &ignored;
	if (file_map(path, 0, &m, err) < 0)
		return -1;
	it = (struct lines)LINES_INIT(m.data, m.len);
	while (lines_next(&it, &line, &len))
		one_line(line, len, ++nr, kinds, fn, data, st, path);
	file_unmap(&m);
	return 0;
}
