/*
 * The winners tko apply leaves out (drop.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/drop.h"
#include "apply/kwindow.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* The plan's settings again from the winners left (a subset of a merge without conflicts). */
static void merge_again(struct apply_plan *p)
{
	size_t i;

	json_object_clear(p->settings);
	for (i = 0; i < p->nr; i++)
		if (p->v[i].entry)
			json_object_update(p->settings, p->v[i].entry->inductor_settings);
}

static void leave_out(struct apply_item *it, const char *reason, char *detail, const char *of,
		      json_t *left_out)
{
	json_array_append_new(left_out, json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", it->id, "kernel",
						  it->kernel, "reason", reason, "detail", detail, "of", of));
	apply_plan_kernel_free(it->entry);
	it->entry = NULL;
	it->skip = reason;
	free(it->skip_detail);
	it->skip_detail = detail;
}

static int exclude_one(struct apply_plan *p, const char *name, json_t *left_out, struct buf *err)
{
	size_t i;
	int found = 0;

	for (i = 0; i < p->nr; i++) {
		struct apply_item *it = &p->v[i];

		if (strcmp(it->kernel, name) && strcmp(it->id, name))
			continue;
		found = 1;
		if (it->entry)
			leave_out(it, "excluded", xstrdup("--exclude"), "plan", left_out);
	}
	if (!found)
		buf_addf(err, "--exclude '%s': no tuned kernel of that name or folder id in the RUN's"
			 " tune results", name);
	return found ? 0 : -1;
}

/* "measured 0.910x [0.885, 0.935] inside the step over 3 rounds; tune predicted 1.060x" */
static char *evidence(const json_t *s)
{
	const json_t *ci = json_object_get(s, "measured_gain_ci95");
	double predicted = json_num(s, "predicted_speedup", -1);
	char tail[64] = "";

	if (predicted > 0)
		snprintf(tail, sizeof(tail), "; tune predicted %.3fx", predicted);
	return xstrfmt("measured %.3fx [%.3f, %.3f] inside the step over %lld rounds%s",
		       json_num(s, "measured_gain", NAN), json_number_value(json_array_get(ci, 0)),
		       json_number_value(json_array_get(ci, 1)), json_int(s, "rounds", 0), tail);
}

static int same_str(const char *x, const json_t *b, const char *key)
{
	const char *y = json_str(b, key);

	return x == y || (x && y && !strcmp(x, y));
}

/* The judgement `s` is of this item's winner: same id, hashes and config. */
static int same_winner(const struct apply_item *it, const json_t *s)
{
	const struct apply_plan_kernel *e = it->entry;

	return e && !strcmp(it->id, json_str(s, "id") ? json_str(s, "id") : "") &&
	       same_str(e->lookup_hash, s, "lookup_hash") &&
	       same_str(e->source_hash, s, "source_hash") &&
	       json_equal(e->config, json_object_get(s, "config"));
}

static void carry(struct apply_plan *p, const json_t *earlier, int keep_slower, json_t *carried,
		  json_t *left_out)
{
	const json_t *s;
	size_t i, j;

	json_array_foreach(json_object_get(earlier, "slower_in_step"), i, s)
		for (j = 0; j < p->nr; j++) {
			json_t *c;

			if (!same_winner(&p->v[j], s))
				continue;
			c = json_deep_copy(s);
			json_set_bool(c, "carried", 1);
			json_array_append_new(carried, c);
			if (!keep_slower)
				leave_out(&p->v[j], "slower_in_step", evidence(s), "plan", left_out);
		}
}

/*
 * "tune timed it warm (no L2 flush) at 0.911x [0.876, 0.948] over the base
 * in 7 rounds; cold 1.995x"
 */
static char *warm_evidence(const struct apply_item *it)
{
	char cold[48] = "";

	if (it->speedup > 0)
		snprintf(cold, sizeof(cold), "; cold %.3fx", it->speedup);
	return xstrfmt("tune timed it warm (no L2 flush) at %.3fx [%.3f, %.3f] over the base in "
		       "%ld rounds%s", it->warm, it->warm_lo, it->warm_hi, it->warm_rounds, cold);
}

/* The winners tune's confirmation timed slower warm beyond the noise, out unless keep_slower. */
static void warm_slower(struct apply_plan *p, int keep_slower, json_t *left_out)
{
	size_t i;

	if (keep_slower)
		return;
	for (i = 0; i < p->nr; i++)
		if (p->v[i].entry && apply_item_has_warm(&p->v[i]) && p->v[i].warm_hi < 1)
			leave_out(&p->v[i], "slower_warm", warm_evidence(&p->v[i]), "plan", left_out);
}

int apply_drop_plan(struct apply_plan *p, const char *previous, const char *const *exclude,
		    size_t nexclude, int keep_slower, json_t *carried, json_t *left_out,
		    struct buf *warn, struct buf *err)
{
	json_t *earlier = NULL;
	size_t i;

	if (previous && is_file(previous)) {
		struct buf why = BUF_INIT;

		earlier = json_load_path(previous, &why);
		file_forget_input(previous);	/* replaced by this run's: the judgements are carried */
		if (!earlier || (json_object_get(earlier, "slower_in_step") &&
				 !json_is_array(json_object_get(earlier, "slower_in_step"))))
			buf_addf(warn, "%s: %s; no earlier judgement of the winners read from it", previous,
				 earlier ? "'slower_in_step' is not a list" : why.buf);
		else
			carry(p, earlier, keep_slower, carried, left_out);
		buf_release(&why);
		json_decref(earlier);
	}
	/* a measured judgement first: its evidence is the step's own */
	warm_slower(p, keep_slower, left_out);
	/* after the earlier judgements, so an excluded winner keeps its evidence */
	for (i = 0; i < nexclude; i++)
		if (exclude_one(p, exclude[i], left_out, err) < 0)
			return -1;
	merge_again(p);
	return 0;
}

static json_t *judgement(const struct apply_item *it, const struct apply_kgain *g)
{
	const struct apply_plan_kernel *e = it->entry;

	return json_pack("{s:s, s:s, s:s?, s:s?, s:O, s:f, s:f, s:[f, f], s:i, s:b}", "id", it->id,
			 "kernel", it->kernel, "lookup_hash", e->lookup_hash,
			 "source_hash", e->source_hash, "config", e->config, "predicted_speedup", it->speedup, "measured_gain",
			 g->gain, "measured_gain_ci95", g->lo, g->hi, "rounds", (int)g->rounds,
			 "carried", 0);
}

json_t *apply_drop_judged(const struct apply_plan *p, const json_t *runs, long rounds)
{
	json_t *out = json_array();
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct apply_item *it = &p->v[i];
		struct apply_kgain g;

		if (!it->entry)
			continue;
		apply_kernel_gain(runs, it->kernel, rounds, &g);
		if (!strcmp(apply_kgain_verdict(&g), "slower"))
			json_array_append_new(out, judgement(it, &g));
	}
	return out;
}

/* This A/B measured the kept winner `id` again (its window saw it in a round). */
static int measured_again(const struct apply_plan *p, const char *id, const json_t *runs, long rounds)
{
	const struct apply_item *it = apply_plan_find(p, id ? id : "");
	struct apply_kgain g;

	return it && it->entry && apply_kernel_gain(runs, it->kernel, rounds, &g) > 0;
}

json_t *apply_drop_slower(const struct apply_plan *p, const json_t *judged, const json_t *carried,
			  const json_t *runs, long rounds)
{
	json_t *out = judged ? json_deep_copy(judged) : json_array();
	const json_t *c;
	size_t i;

	json_array_foreach(carried, i, c)
		if (!measured_again(p, json_str(c, "id"), runs, rounds))
			json_array_append(out, (json_t *)c);
	return out;
}

void apply_drop_artifact(const json_t *judged, int keep_slower, json_t *left_out)
{
	const json_t *s;
	size_t i;

	if (keep_slower)
		return;
	json_array_foreach(judged, i, s) {
		char *detail = evidence(s);

		json_array_append_new(left_out, json_pack("{s:O, s:O, s:s, s:s, s:s}", "id",
							  json_object_get(s, "id"), "kernel",
							  json_object_get(s, "kernel"), "reason", "slower_in_step",
							  "detail", detail, "of", "artifact"));
		free(detail);
	}
}
