/*
 * gaps: what evidence a RUN, and each kernel, lacks, and the command that
 * would fill it (no capture, no replay, no ISA, no measured peak, ...).
 * A RUN whose tko-run.json says the command never launched a Triton
 * kernel (it did not start, failed, or ran without one) gets that one
 * gap, saying which: every other piece of evidence is moot without a
 * kernel.
 * A log, a Triton cache or a profile that a RUN tko capture made lacks
 * although tko set what makes it (tko-run.json's env_set) is not
 * suggested again: the gap says that it was set and what can still have
 * kept it out (or what the user's own setting was, env_kept). A kernel's
 * "no ISA" gap in such a RUN with no Triton cache points to that gap
 * rather than suggesting the capture again.
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
	const char *bandwidth_error;	/* env.json's: why --measure measured nothing, or NULL */
};

void gaps_compute(struct an_run *r, const struct gaps_facts *f);

#endif
