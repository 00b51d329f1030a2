/*
 * gaps: what evidence a RUN, and each kernel, lacks, and the command that
 * would fill it (no capture, no replay, no ISA, no measured peak, ...).
 * Entry point: gaps_compute(), after share_compute().
 */
#ifndef TKO_DECIDE_GAPS_H
#define TKO_DECIDE_GAPS_H

#include "model/analysis.h"

struct gaps_facts {
	int have_log;		/* a TORCH_LOGS=+inductor log was read */
	int have_triton_cache;	/* RUN/cache/triton exists */
	int have_replay;	/* a replay document was read */
	int have_disassembler;	/* cuobjdump or nvdisasm is on PATH */
};

void gaps_compute(struct an_run *r, const struct gaps_facts *f);

#endif
