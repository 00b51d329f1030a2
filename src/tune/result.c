/*
 * Sweep results and the winner (see result.h).
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/result.h"
#include "util/mem.h"
#include "banned.h"

const char *tune_status_name(enum tune_status st)
{
	return st >= 0 && st < TUNE_ST_NR ? tune_status_names[st] : "error";
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int status_of(const char *name, enum tune_status *st)
{
	int i;

	for (i = 0; name && i < TUNE_ST_NR; i++)
		if (!strcmp(tune_status_names[i], name)) {
			*st = (enum tune_status)i;
			return 0;
		}
	return -1;
}

struct tune_result *tune_results_at(struct tune_results *rs, size_t index)
{
	if (index >= rs->nr) {
		ALLOC_GROW(rs->r, index + 1, rs->alloc);
		memset(rs->r + rs->nr, 0, (index + 1 - rs->nr) * sizeof(*rs->r));
		for (; rs->nr <= index; rs->nr++) {
			rs->r[rs->nr].time_ms = rs->r[rs->nr].compile_ms = -1;
			rs->r[rs->nr].shared_bytes = -1;
			rs->r[rs->nr].n_regs = rs->r[rs->nr].n_spills = -1;
		}
	}
	return &rs->r[index];
}

void tune_results_release(struct tune_results *rs)
{
	size_t i;

	for (i = 0; i < rs->nr; i++) {
		free(rs->r[i].error);
		free(rs->r[i].traceback);
		free(rs->r[i].source);
		free(rs->r[i].fingerprint);
		free(rs->r[i].same_as);
		if (rs->r[i].isa)
			tune_isa_release(rs->r[i].isa);
		free(rs->r[i].isa);
		json_decref(rs->r[i].files);
		json_decref(rs->r[i].checks);
	}
	free(rs->r);
	rs->r = NULL;
	rs->nr = rs->alloc = 0;
}

void tune_result_fail(struct tune_result *r, enum tune_status st, const char *msg)
{
	r->status = st;
	free(r->error);
	r->error = msg ? xstrdup(msg) : NULL;
}

void tune_result_from_reply(struct tune_result *r, const json_t *reply)
{
	const char *st = json_str(reply, "status");
	const json_t *md = json_object_get(reply, "metadata");
	enum tune_status s;

	if (status_of(st, &s) < 0 || s == TUNE_ST_PENDING || s == TUNE_ST_COMPILED) {
		char *msg = xstrfmt("the worker answered status '%s'", st ? st : "(none)");

		tune_result_fail(r, TUNE_ST_ERROR, msg);
		free(msg);
		return;
	}
	r->time_ms = json_num(reply, "time_ms", -1);
	if (s == TUNE_ST_OK && r->time_ms < 0)
		s = TUNE_ST_COMPILED;
	tune_result_fail(r, s, json_str(reply, "error"));
	r->compile_ms = json_num(reply, "compile_ms", -1);
	r->shared_bytes = (long)json_int(md, "shared", -1);
	r->n_regs = (long)json_int(md, "n_regs", -1);
	r->n_spills = (long)json_int(md, "n_spills", -1);
	free(r->traceback);
	free(r->fingerprint);
	free(r->same_as);
	r->traceback = dup_or_null(json_str(reply, "traceback"));
	r->fingerprint = dup_or_null(json_str(reply, "fingerprint"));
	r->same_as = dup_or_null(json_str(reply, "same_as"));
	json_decref(r->files);
	json_decref(r->checks);
	r->files = json_deep_copy(json_object_get(reply, "files"));
	r->checks = json_deep_copy(json_object_get(reply, "checks"));
}

int tune_result_usable(const struct tune_result *r)
{
	return r->status == TUNE_ST_OK && r->time_ms > 0;
}

long tune_winner(const struct tune_plan *p, const struct tune_results *rs, double noise)
{
	long best = -1, base = p->base;
	size_t i;

	for (i = 0; i < rs->nr && i < p->nr; i++)
		if (tune_result_usable(&rs->r[i]) &&
		    (best < 0 || rs->r[i].time_ms < rs->r[best].time_ms))
			best = (long)i;
	if (base < 0 || (size_t)base >= rs->nr || !tune_result_usable(&rs->r[base]))
		return best;
	if (best >= 0 && rs->r[best].time_ms < rs->r[base].time_ms * (1 - noise))
		return best;
	return base;
}
