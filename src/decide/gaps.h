/*
 * gaps: what evidence a RUN, and each kernel, lacks, and the command that
 * would fill it (no capture, no replay, no ISA, no measured peak, ...).
 * A RUN whose tko-run.json says the command never launched a Triton
 * kernel (it did not start, failed, or ran without one) gets that one
 * gap, saying which: every other piece of evidence is moot without a
 * kernel.
 * Entry point: gaps_compute(), after share_compute().
 */
#ifndef TKO_DECIDE_GAPS_H
#define TKO_DECIDE_GAPS_H

#include "analyse/analysis.h"
#include "model/analysis.h"

struct gaps_facts {
	int have_log;		/* a TORCH_LOGS=+inductor log was read */
	int have_triton_cache;	/* RUN/cache/triton exists */
	int have_replay;	/* a replay document was read */
	int have_disassembler;	/* cuobjdump or nvdisasm is on PATH */
	/* what the captured command did (tko-run.json), or NULL: as when none was read */
	const struct an_capture_outcome *capture;
};

void gaps_compute(struct an_run *r, const struct gaps_facts *f);

#endif
