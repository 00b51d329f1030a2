/*
 * The keep-off arms' option, proof and verdict (keepoff.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "apply/keepoff.h"
#include "model/apply_events.h"
#include "util/mem.h"
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

static struct apply_region_proof *find(struct apply_region_proofs *out, const char *name)
{
	size_t i;

	for (i = 0; i < out->nr; i++)
		if (!strcmp(out->v[i].region, name))
			return &out->v[i];
	return NULL;
}

static void add_region(struct apply_region_proofs *out, const struct apply_ev_region *r)
{
	struct apply_region_proof *have;
	long calls = r->calls < 0 ? 0 : r->calls;

	if (!r->region || !r->status)
		return;
	have = find(out, r->region);
	if (!have) {
		have = apply_region_proofs_add(out);
		have->region = xstrdup(r->region);
		have->status = xstrdup(r->status);
		have->calls = calls;
		have->message = json_incref(r->message);
		return;
	}
	have->calls += calls;
	if (worse(have->status, r->status)) {
		free(have->status);
		have->status = xstrdup(r->status);
		json_decref(have->message);
		have->message = json_incref(r->message);
	}
}

static void add_event(const struct apply_event *ev, void *data)
{
	size_t i;

	if (apply_event_main(ev))
		for (i = 0; i < ev->keep_off.nr; i++)
			add_region(data, &ev->keep_off.v[i]);
}

void keepoff_read(const char *jsonl, struct apply_region_proofs *out)
{
	struct buf ignored = BUF_INIT;	/* no file: no keep_off record, keepoff_check says so */

	apply_events_read(jsonl, APPLY_EV_BIT(APPLY_EV_KEEP_OFF), add_event, out, NULL, &ignored);
	buf_release(&ignored);
}

int keepoff_check(const struct apply_region_proofs *regions, const char *arm, const char *jsonl,
		  struct buf *err)
{
	size_t i;

	if (!regions->nr) {
		buf_addf(err, "arm %s: no keep_off record in %s (tko's hook did not run to the end)", arm, jsonl);
		return -1;
	}
	for (i = 0; i < regions->nr; i++) {
		const struct apply_region_proof *r = &regions->v[i];
		const char *msg = json_string_value(r->message);

		if (strcmp(r->status, "took_effect")) {
			buf_addf(err, "keep-off region '%s' %s in arm %s%s%s; see %s", r->region,
				 r->status, arm, msg ? ": " : "", msg ? msg : "", jsonl);
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
