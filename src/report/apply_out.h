/*
 * report/apply_out: tko apply's document (docs/json.md, "tko apply"; its
 * typed model is model/apply_doc.h) and its text. The document is built
 * from the plan, the proofs of the applied runs, the runs' step reports
 * and the profile's prediction (apply_out.c); the text is rendered from
 * the document (apply_text.c), so the two never disagree.
 */
#ifndef TKO_REPORT_APPLY_OUT_H
#define TKO_REPORT_APPLY_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "apply/ab.h"
#include "apply/plan.h"
#include "apply/predict.h"
#include "apply/proof.h"
#include "model/apply_doc.h"
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
	const struct apply_runs *runs;	/* the runs of the command, or NULL */
	const enum ab_arm *arms;	/* the A/B's arms, NULL without --ab */
	size_t narms;
	long rounds, warmup;
	double loss_rtol;
	const struct apply_recommended_list *recommended;	/* apply_recommend's, or NULL */
	const struct apply_judgements *slower;	/* judged slower inside the step (apply/drop.h), or NULL */
	const struct apply_left_outs *left_out;	/* left out of the plan or the artifact, or NULL */
	int keep_slower;		/* --keep-slower */
	int stopped_by;			/* the signal that stopped the A/B, or 0 */
	long stopped_in;		/* the run it cut short, or 0 */
};

/* The document, into an uninitialised d (rf_release(&apply_doc_desc, d) frees it). */
void apply_report_build(const struct apply_report *r, struct apply_doc *d);

/* The text for people, from the document. */
void apply_report_text(FILE *fp, const struct apply_doc *d);

#endif
