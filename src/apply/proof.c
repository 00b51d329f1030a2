/*
 * Reading apply.jsonl (proof.h).
 */
#include <string.h>

#include "apply/proof.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/lines.h"
#include "banned.h"

static void add_outcomes(struct apply_proof *pr, const json_t *ev)
{
	const json_t *o;
	size_t i;
	int main_role = json_str(ev, "role") && !strcmp(json_str(ev, "role"), "main");

	json_array_foreach(json_object_get(ev, "outcomes"), i, o) {
		const char *id = json_str(o, "id");

		/* the main process's word first; a worker's only where main has none */
		if (id && (main_role || !json_object_get(pr->outcomes, id)))
			json_object_set(pr->outcomes, id, (json_t *)o);
	}
}

static void add_construct(struct apply_proof *pr, const json_t *ev)
{
	const char *id = json_str(ev, "id"), *how = json_str(ev, "how");
	json_t *list;

	if (!id || !how)
		return;
	list = json_object_get(pr->constructed, id);
	if (!list) {
		list = json_array();
		json_object_set_new(pr->constructed, id, list);
	}
	json_array_append_new(list, json_string(how));
}

static void add_line(struct apply_proof *pr, const char *p, size_t n)
{
	json_t *ev = json_loadb(p, n, 0, NULL);
	const char *what = json_str(ev, "event");

	if (!json_is_object(ev) || !what) {
		pr->bad_lines++;
	} else if (!strcmp(what, "session_end")) {
		add_outcomes(pr, ev);
	} else if (!strcmp(what, "construct")) {
		add_construct(pr, ev);
	} else if (!strcmp(what, "error")) {
		pr->errors++;
	} else if (!strcmp(what, "session_start")) {
		pr->sessions++;
	}
	json_decref(ev);
}

int apply_proof_read(struct apply_proof *pr, const char *path, struct buf *err)
{
	struct mapped_file m = MAPPED_FILE_INIT;
	struct lines it;
	const char *line = NULL;
	size_t len;

	pr->outcomes = json_object();
	pr->constructed = json_object();
	if (file_map(path, 0, &m, err) < 0)
		return -1;
	it = (struct lines)LINES_INIT(m.data, m.len);
	while (lines_next(&it, &line, &len))
		if (len)
			add_line(pr, line, len);
	file_unmap(&m);
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

void apply_proof_release(struct apply_proof *pr)
{
	json_decref(pr->outcomes);
	json_decref(pr->constructed);
	pr->outcomes = pr->constructed = NULL;
}
