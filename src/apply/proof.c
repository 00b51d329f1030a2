/*
 * Reading apply.jsonl (proof.h).
 */
#include <stdlib.h>
#include <string.h>

#include "apply/proof.h"
#include "json/jsonio.h"
#include "model/apply_events.h"
#include "util/mem.h"
#include "banned.h"

static void add_outcomes(struct apply_proof *pr, const struct apply_event *ev)
{
	const json_t *o;
	size_t i;
	int main_role = apply_event_main(ev);

	json_array_foreach(ev->end.outcomes, i, o) {
		const char *id = json_str(o, "id");

		/* the main process's word first; a worker's only where main has none */
		if (id && (main_role || !json_object_get(pr->outcomes, id)))
			json_object_set(pr->outcomes, id, (json_t *)o);
	}
}

static void add_construct(struct apply_proof *pr, const struct apply_ev_construct *c)
{
	json_t *list;

	if (!c->id || !c->how)
		return;
	list = json_object_get(pr->constructed, c->id);
	if (!list) {
		list = json_array();
		json_object_set_new(pr->constructed, c->id, list);
	}
	json_array_append_new(list, json_string(c->how));
}

static void add_event(const struct apply_event *ev, void *data)
{
	struct apply_proof *pr = data;

	if (ev->kind == APPLY_EV_SESSION_END)
		add_outcomes(pr, ev);
	else if (ev->kind == APPLY_EV_CONSTRUCT)
		add_construct(pr, &ev->construct);
	else if (ev->kind == APPLY_EV_ERROR)
		pr->errors++;
	else if (ev->kind == APPLY_EV_SESSION_START && apply_event_main(ev))
		pr->sessions++;	/* a compile worker's or launcher's is not the command's */
}

int apply_proof_read(struct apply_proof *pr, const char *path, struct buf *err)
{
	unsigned kinds = APPLY_EV_BIT(APPLY_EV_SESSION_END) | APPLY_EV_BIT(APPLY_EV_CONSTRUCT) |
			 APPLY_EV_BIT(APPLY_EV_ERROR) | APPLY_EV_BIT(APPLY_EV_SESSION_START);
	struct apply_events_stats st = { 0, 0 };

	pr->outcomes = json_object();
	pr->constructed = json_object();
	if (apply_events_read(path, kinds, add_event, pr, &st, err) < 0)
		return -1;
	pr->bad_lines = st.not_events;
	pr->skipped = st.warnings;
	return 0;
}

const char *apply_proof_status(const struct apply_proof *pr, const char *id, const char **reason)
{
	const json_t *o = json_object_get(pr->outcomes, id);

	*reason = json_str(o, "reason");
	if (!o || !json_str(o, "status")) {
		*reason = pr->sessions ? "no_session_end" : "hook_not_loaded";
		return "no_record";
	}
	return json_str(o, "status");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *apply_proof_ran_planned(const struct apply_proof *pr)
{
	const char **names = xcalloc(json_object_size(pr->outcomes) + 1, sizeof(*names));
	json_t *list = json_array();
	const char *id;
	const json_t *o;
	size_t n = 0, i;

	json_object_foreach((json_t *)pr->outcomes, id, o) {
		const char *s = json_str(o, "status"), *k = json_str(o, "kernel");

		if (s && k && !strcmp(s, "ran_winner"))
			names[n++] = k;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			json_array_append_new(list, json_string(names[i]));
	free(names);
	return list;
}

void apply_proof_release(struct apply_proof *pr)
{
	json_decref(pr->outcomes);
	json_decref(pr->constructed);
	pr->outcomes = pr->constructed = NULL;
}
