/*
 * The hook's step times (steps.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/steps.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

long apply_steps_auto_warmup(long n)
{
	long w = (n + 9) / 10;

	return w < 1 ? 1 : w > APPLY_STEPS_AUTO_MAX ? APPLY_STEPS_AUTO_MAX : w;
}

void apply_steps_from_event(struct apply_steps *st, const json_t *ev, long warmup)
{
	const json_t *ms = json_object_get(ev, "ms"), *v;
	const json_t *losses = json_object_get(ev, "losses");
	const json_t *win = json_object_get(ev, "window");
	double total = 0;
	size_t i;

	apply_steps_release(st);
	st->window[0] = json_is_integer(json_array_get(win, 0)) ? (long)json_integer_value(json_array_get(win, 0)) : -1;
	st->window[1] = json_is_integer(json_array_get(win, 1)) ? (long)json_integer_value(json_array_get(win, 1)) : -1;
	st->steps = (long)json_array_size(ms);
	st->warmup = warmup < 0 ? apply_steps_auto_warmup(st->steps) : warmup;
	st->timed = 0;
	json_array_foreach(ms, i, v)
		if ((long)i >= st->warmup && json_is_number(v) &&
		    !((long)i >= st->window[0] && (long)i <= st->window[1])) {
			total += json_number_value(v);
			st->timed++;
		}
	st->ms_per_step = st->timed ? total / (double)st->timed : NAN;
	st->source = json_str(ev, "source") ? xstrdup(json_str(ev, "source")) : NULL;
	st->clock = json_str(ev, "clock") ? xstrdup(json_str(ev, "clock")) : NULL;
	st->losses = json_is_array(losses) ? json_incref((json_t *)losses) : NULL;
}

/* The main process's last `steps` event of the file (a new reference), or NULL. */
static json_t *last_steps_event(const char *data, size_t len)
{
	struct lines it = LINES_INIT(data, len);
	const char *line = NULL;
	size_t n;
	json_t *found = NULL;

	while (lines_next(&it, &line, &n)) {
		json_t *ev;

		if (!n || !memmem(line, n, "\"steps\"", 7))
			continue;
		ev = json_loadb(line, n, 0, NULL);
		if (json_str(ev, "event") && !strcmp(json_str(ev, "event"), "steps") &&
		    json_str(ev, "role") && !strcmp(json_str(ev, "role"), "main")) {
			json_decref(found);
			found = ev;
		} else {
			json_decref(ev);
		}
	}
	return found;
}

int apply_steps_read(struct apply_steps *st, const char *path, long warmup, struct buf *err)
{
	struct mapped_file m = MAPPED_FILE_INIT;
	json_t *ev;

	if (file_map(path, 0, &m, err) < 0)
		return -1;
	ev = last_steps_event(m.data, m.len);
	file_unmap(&m);
	if (!ev)
		return 1;
	apply_steps_from_event(st, ev, warmup);
	json_decref(ev);
	return 0;
}

void apply_steps_release(struct apply_steps *st)
{
	free(st->source);
	free(st->clock);
	json_decref(st->losses);
	st->source = st->clock = NULL;
	st->losses = NULL;
}
