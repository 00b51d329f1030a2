/*
 * report/apply_out: tko apply's document (docs/json.md, "tko apply") and
 * its text. The document is built from the plan, the proofs of the
 * applied runs, the runs' step reports and the profile's prediction; the
 * text is rendered from the document, so the two never disagree.
 */
#ifndef TKO_REPORT_APPLY_OUT_H
#define TKO_REPORT_APPLY_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "apply/ab.h"
#include "apply/plan.h"
#include "apply/predict.h"
#include "apply/proof.h"
#include "model/apply_left.h"

struct apply_report {
	const char *run;		/* the RUN as given */
	const char *out;		/* the output folder */
	const char *artifact;		/* the plain artifact's folder, or NULL */
	const char *const *cmd;		/* the command, or NULL (plan only) */
	const struct apply_plan *plan;
	const struct apply_predict *pred;
	const struct apply_proof *proofs;	/* one a measured applied run */
	size_t nproofs;
	const json_t *runs;		/* [{n, arm, round, measured, exit_status, ms_per_step, losses, dir}] */
	const enum ab_arm *arms;	/* the A/B's arms, NULL without --ab */
	size_t narms;
	long rounds, warmup;
	double loss_rtol;
	const json_t *recommended;	/* apply_recommend's list, or NULL */
	const struct apply_judgements *slower;	/* judged slower inside the step (apply/drop.h), or NULL */
	const struct apply_left_outs *left_out;	/* left out of the plan or the artifact, or NULL */
	int keep_slower;		/* --keep-slower */
};

/* The document (a new reference). */
json_t *apply_report_json(const struct apply_report *r);

/* The text for people, from the document. */
void apply_report_text(FILE *fp, const json_t *doc);

/* max_i |a_i - b_i| / max(|b_i|, 1e-12), NAN when the lists differ in length or are empty. */
double apply_loss_diff(const json_t *a, const json_t *b);

#endif
