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
		      struct apply_left_outs *left_out)
{
	apply_left_outs_add(left_out, it->id, it->kernel, reason, detail, of);
	apply_plan_kernel_free(it->entry);
	it->entry = NULL;
	it->skip = reason;
	free(it->skip_detail);
	it->skip_detail = detail;
}

static int exclude_one(struct apply_plan *p, const char *name, struct apply_left_outs *left_out,
		       struct buf *err)
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
static char *evidence(const struct apply_judgement *s)
{
	const json_t *ci = s->measured_gain_ci95;
	char tail[64] = "";

	if (s->predicted_speedup > 0)
		snprintf(tail, sizeof(tail), "; tune predicted %.3fx", s->predicted_speedup);
	return xstrfmt("measured %.3fx [%.3f, %.3f] inside the step over %ld rounds%s",
		       s->measured_gain, json_number_value(json_array_get(ci, 0)),
		       json_number_value(json_array_get(ci, 1)), s->rounds < 0 ? 0 : s->rounds, tail);
}

static int same_str(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* The judgement `s` is of this item's winner: same id, hashes and config. */
static int same_winner(const struct apply_item *it, const struct apply_judgement *s)
{
	const struct apply_plan_kernel *e = it->entry;

	return e && !strcmp(it->id, s->id ? s->id : "") &&
	       same_str(e->lookup_hash, s->lookup_hash) && same_str(e->source_hash, s->source_hash) &&
	       json_equal(e->config, s->config);
}

static void carry(struct apply_plan *p, const struct apply_judgements *earlier, int keep_slower,
		  struct apply_judgements *carried, struct apply_left_outs *left_out)
{
	size_t i, j;

	for (i = 0; i < earlier->nr; i++)
		for (j = 0; j < p->nr; j++) {
			const struct apply_judgement *s = &earlier->v[i];

			if (!same_winner(&p->v[j], s))
				continue;
			apply_judgements_copy(carried, s);
			carried->v[carried->nr - 1].carried = 1;
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
static void warm_slower(struct apply_plan *p, int keep_slower, struct apply_left_outs *left_out)
{
	size_t i;

	if (keep_slower)
		return;
	for (i = 0; i < p->nr; i++)
		if (p->v[i].entry && apply_item_has_warm(&p->v[i]) && p->v[i].warm_hi < 1)
			leave_out(&p->v[i], "slower_warm", warm_evidence(&p->v[i]), "plan", left_out);
}

/*
 * The earlier apply.json's judgements (model/apply_left.h), typed; a
 * document that cannot be read is one line in `warn` and no judgement.
 */
static int read_earlier(const char *previous, struct apply_judgements *earlier, struct buf *warn)
{
	struct buf why = BUF_INIT;
	json_t *doc = json_load_path(previous, &why);
	int ret = 0;

	file_forget_input(previous);	/* replaced by this run's: the judgements are carried */
	if (!doc || apply_judgements_read(earlier, doc, previous, &why) < 0) {
		/* the parser's line does not name the file first; the model's does */
		buf_addf(warn, "%s%s%s; no earlier judgement of the winners read from it",
			 doc ? "" : previous, doc ? "" : ": ", why.buf);
		ret = -1;
	}
	buf_release(&why);
	json_decref(doc);
	return ret;
}

/*
 * The confirmed winners the plan could not carry (plan.c: a template winner
 * that changed its body): not planned, yet a win the user can still set by
 * hand, so the artifact names them with the rest.
 */
static void not_carried(const struct apply_plan *p, struct apply_left_outs *left_out)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (p->v[i].skip && !strcmp(p->v[i].skip, "cannot_carry"))
			apply_left_outs_add(left_out, p->v[i].id, p->v[i].kernel, p->v[i].skip,
					    p->v[i].skip_detail, "plan");
}

int apply_drop_plan(struct apply_plan *p, const char *previous, const char *const *exclude,
		    size_t nexclude, int keep_slower, struct apply_judgements *carried,
		    struct apply_left_outs *left_out, struct buf *warn, struct buf *err)
{
	size_t i;

	not_carried(p, left_out);
	if (previous && is_file(previous)) {
		struct apply_judgements earlier = APPLY_JUDGEMENTS_INIT;

		if (read_earlier(previous, &earlier, warn) == 0)
			carry(p, &earlier, keep_slower, carried, left_out);
		apply_judgements_release(&earlier);
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

static void judgement(const struct apply_item *it, const struct apply_kgain *g,
		      struct apply_judgement *j)
{
	const struct apply_plan_kernel *e = it->entry;

	j->id = xstrdup(it->id);
	j->kernel = xstrdup(it->kernel);
	j->lookup_hash = e->lookup_hash ? xstrdup(e->lookup_hash) : NULL;
	j->source_hash = e->source_hash ? xstrdup(e->source_hash) : NULL;
	j->config = json_incref(e->config);
	j->predicted_speedup = it->speedup;
	j->measured_gain = g->gain;
	j->measured_gain_ci95 = json_pack("[f, f]", g->lo, g->hi);
	j->rounds = g->rounds;
	j->carried = 0;
}

void apply_drop_judged(const struct apply_plan *p, const struct apply_runs *runs, long rounds,
		       struct apply_judgements *out)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct apply_item *it = &p->v[i];
		struct apply_kgain g;

		if (!it->entry)
			continue;
		apply_kernel_gain(runs, it->kernel, rounds, &g);
		if (!strcmp(apply_kgain_verdict(&g), "slower"))
			judgement(it, &g, apply_judgements_add(out));
	}
}

/* This A/B measured the kept winner `id` again (its window saw it in a round). */
static int measured_again(const struct apply_plan *p, const char *id, const struct apply_runs *runs, long rounds)
{
	const struct apply_item *it = apply_plan_find(p, id ? id : "");
	struct apply_kgain g;

	return it && it->entry && apply_kernel_gain(runs, it->kernel, rounds, &g) > 0;
}

void apply_drop_slower(const struct apply_plan *p, const struct apply_judgements *judged,
		       const struct apply_judgements *carried, const struct apply_runs *runs, long rounds,
		       struct apply_judgements *out)
{
	size_t i;

	for (i = 0; judged && i < judged->nr; i++)
		apply_judgements_copy(out, &judged->v[i]);
	for (i = 0; i < carried->nr; i++)
		if (!measured_again(p, carried->v[i].id, runs, rounds))
			apply_judgements_copy(out, &carried->v[i]);
}

void apply_drop_artifact(const struct apply_judgements *judged, int keep_slower,
			 struct apply_left_outs *left_out)
{
	size_t i;

	if (keep_slower)
		return;
	for (i = 0; i < judged->nr; i++) {
		char *detail = evidence(&judged->v[i]);

		apply_left_outs_add(left_out, judged->v[i].id, judged->v[i].kernel, "slower_in_step",
				    detail, "artifact");
		free(detail);
	}
}
