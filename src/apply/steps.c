/*
 * The hook's step times (steps.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/steps.h"
#include "util/mem.h"
#include "banned.h"

long apply_steps_auto_warmup(long n)
{
	long w = (n + 9) / 10;

	return w < 1 ? 1 : w > APPLY_STEPS_AUTO_MAX ? APPLY_STEPS_AUTO_MAX : w;
}

void apply_steps_from_typed(struct apply_steps *st, const struct apply_ev_steps *ev, long warmup)
{
	const json_t *v;
	double total = 0;
	size_t i;

	apply_steps_release(st);
	st->window[0] = ev->window[0];
	st->window[1] = ev->window[1];
	st->steps = (long)json_array_size(ev->ms);
	st->warmup = warmup < 0 ? apply_steps_auto_warmup(st->steps) : warmup;
	st->timed = 0;
	json_array_foreach(ev->ms, i, v)
		if ((long)i >= st->warmup && json_is_number(v) &&
		    !((long)i >= st->window[0] && (long)i <= st->window[1])) {
			total += json_number_value(v);
			st->timed++;
		}
	st->ms_per_step = st->timed ? total / (double)st->timed : NAN;
	st->source = ev->source ? xstrdup(ev->source) : NULL;
	st->clock = ev->clock ? xstrdup(ev->clock) : NULL;
	st->losses = json_incref(ev->losses);
}

int apply_steps_from_event(struct apply_steps *st, const json_t *j, long warmup, struct buf *warn)
{
	struct buf ignored = BUF_INIT;
	struct apply_event ev;
	int ret;

	apply_event_init(&ev);
	ret = apply_event_from_json(&ev, j, APPLY_EV_BIT(APPLY_EV_STEPS), "event", 1,
				    warn ? warn : &ignored);
	if (ret > 0)
		apply_steps_from_typed(st, &ev.steps, warmup);
	apply_event_release(&ev);
	buf_release(&ignored);
	return ret > 0 ? 0 : -1;
}

struct last_steps {
	struct apply_steps *st;
	long warmup;
	int found;
};

/* The main process's last `steps` event counts (a worker's would time its own loop). */
static void take_steps(const struct apply_event *ev, void *data)
{
	struct last_steps *l = data;

	if (!apply_event_main(ev))
		return;
	apply_steps_from_typed(l->st, &ev->steps, l->warmup);
	l->found = 1;
}

int apply_steps_read(struct apply_steps *st, const char *path, long warmup, struct buf *err)
{
	struct last_steps l = { st, warmup, 0 };

	if (apply_events_read(path, APPLY_EV_BIT(APPLY_EV_STEPS), take_steps, &l, NULL, err) < 0)
		return -1;
	return l.found ? 0 : 1;
}

void apply_steps_release(struct apply_steps *st)
{
	free(st->source);
	free(st->clock);
	json_decref(st->losses);
	st->source = st->clock = NULL;
	st->losses = NULL;
}
