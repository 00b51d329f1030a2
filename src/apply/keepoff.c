/*
 * The keep-off arms' option, proof and verdict (keepoff.h).
 */
#include <ctype.h>
#include <string.h>

#include "apply/keepoff.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/lines.h"
#include "banned.h"

/* Dotted identifiers: "torch.nn.functional", "Block.attn". */
static int dotted(const char *s, size_t n)
{
	size_t i;
	int start = 1;

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '.') {
			if (start)
				return 0;
			start = 1;
		} else if (isalpha(c) || c == '_' || (!start && isdigit(c))) {
			start = 0;
		} else {
			return 0;
		}
	}
	return !start;
}

int keepoff_parse(const char *spec, struct buf *err)
{
	const char *colon = strchr(spec, ':');

	if (!colon || !dotted(spec, (size_t)(colon - spec)) || !dotted(colon + 1, strlen(colon + 1))) {
		buf_addf(err, "--keep-off '%s': expected MODULE:QUALNAME (e.g. mymodel:Block.attn)", spec);
		return -1;
	}
	return 0;
}

/*
 * Whether `status` replaces `have` as a region's status over processes: the
 * first that did not take effect wins, except no_script, a process that
 * runs no script (an Inductor helper, a spawned worker) on a region of
 * __main__: no word on it, kept only when no other process spoke.
 */
static int worse(const char *have, const char *status)
{
	if (!strcmp(status, "no_script"))
		return 0;
	return !strcmp(have, "no_script") || (!strcmp(have, "took_effect") && strcmp(status, "took_effect"));
}

static void add_region(json_t *out, const json_t *r)
{
	const char *name = json_str(r, "region"), *status = json_str(r, "status");
	json_t *have;

	if (!name || !status)
		return;
	have = json_object_get(out, name);
	if (!have) {
		json_object_set_new(out, name, json_pack("{s:s, s:s, s:I, s:O?}", "region", name,
							 "status", status, "calls",
							 json_int(r, "calls", 0), "message",
							 json_object_get(r, "message")));
		return;
	}
	json_set_new(have, "calls", json_integer(json_int(have, "calls", 0) + json_int(r, "calls", 0)));
	if (worse(json_str(have, "status"), status)) {
		json_set_str(have, "status", status);
		json_set_new(have, "message", json_incref(json_object_get(r, "message")));
	}
}

static void add_line(json_t *out, const char *p, size_t n)
{
	json_t *ev = json_loadb(p, n, 0, NULL);
	const json_t *r;
	size_t i;

	if (json_str(ev, "event") && !strcmp(json_str(ev, "event"), "keep_off") &&
	    json_str(ev, "role") && !strcmp(json_str(ev, "role"), "main"))
		json_array_foreach(json_object_get(ev, "regions"), i, r)
			add_region(out, r);
	json_decref(ev);
}

json_t *keepoff_read(const char *jsonl)
{
	struct mapped_file m = MAPPED_FILE_INIT;
	struct buf ignored = BUF_INIT;
	json_t *by_name = json_object(), *list = NULL, *v;
	const char *line = NULL, *key;
	struct lines it;
	size_t len;

	if (file_map(jsonl, 0, &m, &ignored) == 0) {
		it = (struct lines)LINES_INIT(m.data, m.len);
		while (lines_next(&it, &line, &len))
			if (len)
				add_line(by_name, line, len);
		file_unmap(&m);
	}
	if (json_object_size(by_name)) {
		list = json_array();
		json_object_foreach(by_name, key, v)
			json_array_append(list, v);
	}
	json_decref(by_name);
	buf_release(&ignored);
	return list;
}

int keepoff_check(const json_t *regions, const char *arm, const char *jsonl, struct buf *err)
{
	const json_t *r;
	size_t i;

	if (!regions) {
		buf_addf(err, "arm %s: no keep_off record in %s (tko's hook did not run to the end)", arm, jsonl);
		return -1;
	}
	json_array_foreach(regions, i, r) {
		const char *msg = json_str(r, "message");

		if (strcmp(json_str(r, "status"), "took_effect")) {
			buf_addf(err, "keep-off region '%s' %s in arm %s%s%s; see %s", json_str(r, "region"),
				 json_str(r, "status"), arm, msg ? ": " : "", msg ? msg : "", jsonl);
			return -1;
		}
	}
	return 0;
}

const char *keepoff_verdict(double lo, double hi)
{
	if (hi < 1)
		return "faster";
	if (lo > 1)
		return "slower";
	return "not_faster";
}
