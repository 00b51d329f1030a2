/*
 * apply/artifact: the plain artifact (docs/apply.md, "The plain
 * artifact"): DIR/tko_winners.json from the plan, and tko's
 * python/tko/winners_loader.py and winners_sitecustomize.py copied as
 * DIR/tko_winners.py and DIR/sitecustomize.py, so a user can review the
 * winners and run them without tko (`import tko_winners`, or
 * PYTHONPATH=DIR). The three files are published together or not at all.
 *
 * Each planned winner goes where the hook's default preference would put
 * it: an Inductor kernel with "_fused_" whose config is BLOCK keys,
 * num_warps and num_stages only to "autotune_lookup_table"; another
 * Inductor or template kernel to "configs" (on HIP with waves_per_eu and
 * matrix_instr_nonkdim among the kwargs); a @triton.autotune kernel to
 * "triton_autotune". A winner no table can carry whole (kpack, CUDA
 * options, a source variant) is listed in "not_carried" with the reason.
 *
 * `left_out` (apply/drop.h, model/apply_left.h; may be NULL) lists winners
 * tko apply left out ({id, kernel, reason, detail, of}): those ids are not carried, the
 * settings are merged from the winners carried, and the list is the
 * document's "left_out" and, one comment line each, the head of
 * tko_winners.py, so a reviewer sees what was dropped and why.
 */
#ifndef TKO_APPLY_ARTIFACT_H
#define TKO_APPLY_ARTIFACT_H

#include "apply/plan.h"
#include "model/apply_artifact.h"
#include "util/buf.h"

/* tko_winners.json's document for the plan (model/apply_artifact.h), into an uninitialised doc. */
void apply_artifact_build(const struct apply_plan *p, const struct apply_left_outs *left_out,
			  struct apply_artifact_doc *doc);

/* Writes the three files into `dir` (made when missing). 0, or -1 + err. */
int apply_artifact_write(const struct apply_plan *p, const struct apply_left_outs *left_out,
			 const char *dir, struct buf *err);

#endif
