/*
 * model/apply_events: the events of apply.jsonl (docs/apply.md,
 * "apply.jsonl"), typed with their reflect tables, for tko apply's readers
 * (apply/proof.h, apply/steps.h, apply/keepoff.h). One JSON object a line,
 * from every process, each with "event" and "role"; the kinds read here:
 *
 *   session_start  (counted)
 *   error          (counted)
 *   construct      {id, how}
 *   session_end    {outcomes: [{id, status, reason, ...}]}, each outcome kept
 *                  as the hook wrote it (apply.json passes its keys through)
 *   steps          {source, clock, ms: [number|null], losses: [number|null],
 *                   window: [S, E]}
 *   keep_off       {regions: [{region, status, calls, message}]}
 *
 * A line that is not a JSON object with a string "event" is no event (a
 * process killed mid-line leaves a truncated last one) and is skipped as
 * before. An event of a kind read here whose field has the wrong type (a
 * number for a status, a string in ms) is skipped too, with a warning that
 * names the file, the line and the field; an event whose optional field is
 * missing or null is read with it unknown.
 */
#ifndef TKO_MODEL_APPLY_EVENTS_H
#define TKO_MODEL_APPLY_EVENTS_H

#include <stddef.h>
#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

enum apply_ev_kind {
	APPLY_EV_SESSION_START,
	APPLY_EV_ERROR,
	APPLY_EV_CONSTRUCT,
	APPLY_EV_SESSION_END,
	APPLY_EV_STEPS,
	APPLY_EV_KEEP_OFF,
	APPLY_EV_KINDS
};
#define APPLY_EV_BIT(k) (1u << (k))

struct apply_ev_construct {
	char *id, *how;			/* NULL when missing */
};

struct apply_ev_session_end {
	json_t *outcomes;		/* a list of outcome objects, or NULL */
};

struct apply_ev_steps {
	char *source, *clock;
	json_t *ms;			/* a list of numbers and nulls, or NULL */
	json_t *losses;			/* the same, or NULL */
	long window[2];			/* the profiled steps [S, E), -1 -1 when none */
};

struct apply_ev_region {
	char *region, *status;		/* NULL when missing */
	long calls;			/* -1 when missing */
	json_t *message;		/* as written, or NULL */
};

struct apply_ev_keep_off {
	struct apply_ev_region *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};

struct apply_event {
	enum apply_ev_kind kind;
	char *role;			/* "main", "compile_worker", or NULL */
	long line;			/* 1-based */
	struct apply_ev_construct construct;
	struct apply_ev_session_end end;
	struct apply_ev_steps steps;
	struct apply_ev_keep_off keep_off;
};

/* The event's role is "main". */
int apply_event_main(const struct apply_event *ev);

/*
 * One line of `path` (line number `line`): 1 with *ev filled when it is an
 * event of a kind in `kinds` (APPLY_EV_BIT()s); 0 when it is no event
 * (*not_event 1: not a JSON object with a string "event") or one of another
 * kind; -1 with one line in warn ("'P' line N: steps: ms[2]: not a number")
 * when a field has the wrong type. *ev is released by the caller either way.
 */
int apply_event_parse(struct apply_event *ev, const char *p, size_t n, unsigned kinds,
		      const char *path, long line, int *not_event, struct buf *warn);
/* The same from a parsed object (tests, apply/steps.h). */
int apply_event_from_json(struct apply_event *ev, const json_t *j, unsigned kinds,
			  const char *path, long line, struct buf *warn);
void apply_event_init(struct apply_event *ev);
void apply_event_release(struct apply_event *ev);

struct apply_events_stats {
	long not_events;	/* lines that might hold a kind asked for but are no event */
	long warnings;		/* events skipped for a field of the wrong type */
};

typedef void apply_event_fn(const struct apply_event *ev, void *data);

/*
 * Calls fn for every event of a kind in `kinds` in the file, in order; a
 * skipped event is a warning on stderr (msg_warn). 0, or -1 + err when the
 * file cannot be read.
 */
int apply_events_read(const char *path, unsigned kinds, apply_event_fn *fn, void *data,
		      struct apply_events_stats *st, struct buf *err);

#endif
