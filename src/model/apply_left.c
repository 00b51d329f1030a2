/* The lists of winners tko apply leaves out (apply_left.h). */
#include <stdlib.h>
#include <string.h>

#include "model/apply_left.h"
#include "util/mem.h"
#include "banned.h"

#define L struct apply_left_out
static const struct rf_field left_out_fields[] = {
	RF_FX(L, "id", RF_STR, id, RF_NEED),
	RF_FX(L, "kernel", RF_STR, kernel, RF_NEED),
	RF_FX(L, "reason", RF_STR, reason, RF_NEED),
	RF_F(L, "detail", RF_STR, detail),
	RF_FX(L, "of", RF_STR, of, RF_NEED),
	RF_FEND,
};
#undef L
const struct rf_struct apply_left_out_desc = {
	"left_out", sizeof(struct apply_left_out), left_out_fields
};

#define J struct apply_judgement
static const struct rf_field judgement_fields[] = {
	RF_FX(J, "id", RF_STR, id, RF_NEED),
	RF_FX(J, "kernel", RF_STR, kernel, RF_NEED),
	RF_F(J, "lookup_hash", RF_STR, lookup_hash),
	RF_F(J, "source_hash", RF_STR, source_hash),
	RF_FX(J, "config", RF_JSON, config, RF_OBJECT | RF_NEED),
	RF_F(J, "predicted_speedup", RF_NUM, predicted_speedup),
	RF_F(J, "measured_gain", RF_NUM, measured_gain),
	RF_F(J, "measured_gain_ci95", RF_JSON, measured_gain_ci95),
	RF_F(J, "rounds", RF_LONG, rounds),
	RF_F(J, "carried", RF_BOOL, carried),
	RF_FEND,
};
#undef J
const struct rf_struct apply_judgement_desc = {
	"slower_in_step", sizeof(struct apply_judgement), judgement_fields
};

/* What a later tko apply reads of an apply.json: its judgements alone. */
static const struct rf_field earlier_fields[] = {
	RF_A(struct apply_judgements, "slower_in_step", v, nr, &apply_judgement_desc),
	RF_FEND,
};
static const struct rf_struct earlier_desc = {
	"apply.json", sizeof(struct apply_judgements), earlier_fields
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void apply_left_outs_add(struct apply_left_outs *l, const char *id, const char *kernel,
			 const char *reason, const char *detail, const char *of)
{
	struct apply_left_out *e;

	l->v = rf_grow(l->v, l->nr, sizeof(*l->v));
	e = &l->v[l->nr++];
	e->id = dup_or_null(id);
	e->kernel = dup_or_null(kernel);
	e->reason = dup_or_null(reason);
	e->detail = dup_or_null(detail);
	e->of = dup_or_null(of);
}

const struct apply_left_out *apply_left_outs_find(const struct apply_left_outs *l, const char *id)
{
	size_t i;

	for (i = 0; l && id && i < l->nr; i++)
		if (l->v[i].id && !strcmp(l->v[i].id, id))
			return &l->v[i];
	return NULL;
}

void apply_left_outs_release(struct apply_left_outs *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		rf_release(&apply_left_out_desc, &l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

struct apply_judgement *apply_judgements_add(struct apply_judgements *l)
{
	struct apply_judgement *j;

	l->v = rf_grow(l->v, l->nr, sizeof(*l->v));
	j = &l->v[l->nr++];
	rf_init(&apply_judgement_desc, j);
	return j;
}

void apply_judgements_copy(struct apply_judgements *l, const struct apply_judgement *j)
{
	struct apply_judgement *c = apply_judgements_add(l);

	*c = *j;
	c->id = dup_or_null(j->id);
	c->kernel = dup_or_null(j->kernel);
	c->lookup_hash = dup_or_null(j->lookup_hash);
	c->source_hash = dup_or_null(j->source_hash);
	c->config = json_incref(j->config);
	c->measured_gain_ci95 = json_incref(j->measured_gain_ci95);
}

void apply_judgements_release(struct apply_judgements *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		rf_release(&apply_judgement_desc, &l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

int apply_judgements_read(struct apply_judgements *l, const json_t *doc, const char *what,
			  struct buf *err)
{
	return rf_read(&earlier_desc, l, doc, what, err);
}
