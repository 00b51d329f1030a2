/*
 * model/apply_left: the two lists of winners tko apply leaves out
 * (apply/drop.h), typed with their reflect tables, as apply.json and the
 * plain artifact's tko_winners.json hold them:
 *
 *   left_out        [{id, kernel, reason, detail, of}]   of: "plan" or "artifact"
 *   slower_in_step  [{id, kernel, lookup_hash, source_hash, config,
 *                     predicted_speedup, measured_gain, measured_gain_ci95,
 *                     rounds, carried}]
 *
 * A later tko apply reads the earlier apply.json's slower_in_step back
 * through these tables (apply/drop.c).
 */
#ifndef TKO_MODEL_APPLY_LEFT_H
#define TKO_MODEL_APPLY_LEFT_H

#include <stddef.h>
#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

/* A winner left out of the plan or of the artifact, and why. */
struct apply_left_out {
	char *id, *kernel;
	char *reason;		/* "cannot_carry", "excluded", "slower_in_step", "slower_warm" */
	char *detail;		/* the evidence, or NULL */
	char *of;		/* "plan" (and so its runs and the artifact) or "artifact" */
};

struct apply_left_outs {
	struct apply_left_out *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};
#define APPLY_LEFT_OUTS_INIT { NULL, 0 }

/* A winner an A/B's kernel window judged slower inside the step. */
struct apply_judgement {
	char *id, *kernel;
	char *lookup_hash, *source_hash;	/* the winner's identity (NULL: not its kind) */
	json_t *config;				/* the winner's config */
	double predicted_speedup;		/* tune's, -1 unknown */
	double measured_gain;			/* default over applied, median of the rounds */
	json_t *measured_gain_ci95;		/* [lo, hi] */
	long rounds;
	int carried;				/* 1: judged by an earlier tko apply */
};

struct apply_judgements {
	struct apply_judgement *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};
#define APPLY_JUDGEMENTS_INIT { NULL, 0 }

extern const struct rf_struct apply_left_out_desc;
extern const struct rf_struct apply_judgement_desc;

/* Appends {id, kernel, reason, detail, of}, the strings copied. */
void apply_left_outs_add(struct apply_left_outs *l, const char *id, const char *kernel,
			 const char *reason, const char *detail, const char *of);
/* The entry of id `id`, or NULL. */
const struct apply_left_out *apply_left_outs_find(const struct apply_left_outs *l, const char *id);
void apply_left_outs_release(struct apply_left_outs *l);

/* Appends an initialised judgement and returns it. */
struct apply_judgement *apply_judgements_add(struct apply_judgements *l);
/* Appends a copy of `j` (its own strings and references). */
void apply_judgements_copy(struct apply_judgements *l, const struct apply_judgement *j);
void apply_judgements_release(struct apply_judgements *l);
/*
 * Appends the judgements of apply.json's tree `doc` ("slower_in_step";
 * none when it is missing) to an empty list. 0, or -1 with one line in err
 * naming `what` and the field.
 */
int apply_judgements_read(struct apply_judgements *l, const json_t *doc, const char *what,
			  struct buf *err);

#endif
