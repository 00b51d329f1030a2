/*
 * Hygon HCU targets for `tko env` (internal to src/live/env*.c): every
 * Hygon name the brief's HCU table gives (gfx926, gfx928, gfx92a, gfx936,
 * gfx938, gfx946, gfx948), what tko has verified for each on real files
 * and what it has not, and the warnings the brief's check_env gives:
 * buffer ops switched off (AMDGCN_USE_BUFFER_OPS=0) or forced on a DCU,
 * an architecture outside the known set, torch blind to the GPUs.
 *
 * A name says which chip it is, never what it can do (the brief's table
 * carries capabilities_verified: false for every row): the "verified"
 * sentences are only what tko's own tests checked on files of that arch.
 *
 * The same HCU set is in src/isa/arch.c (dcu rows) and src/tune/arch.c
 * (hcu rows); tests/unit/test-envhcu.c checks the three agree.
 */
#ifndef TKO_LIVE_ENVHCU_H
#define TKO_LIVE_ENVHCU_H

#include <stddef.h>

#include <jansson.h>

struct hcu_target {
	const char *arch;	/* "gfx936" */
	const char *name;	/* the brief's HCU table: "伯温 a0 (Bowen a0)" */
	int das;		/* in triton-das's is_hcu set (it compiles for it) */
	int das_vgprs;		/* the VGPR file triton-das's clang flags ask for, 0: none */
	const char *verified;	/* what tko's tests checked on files of this arch */
	const char *not_verified;	/* what they have not */
};

/* The row of an arch name ("gfx936", "gfx936:sramecc-", any case), or NULL. */
const struct hcu_target *hcu_target_find(const char *arch);
/* The rows, in the table's order; *n receives their count. */
const struct hcu_target *hcu_targets(size_t *n);

/*
 * Adds "hcu_targets" (one object per distinct HCU arch among doc's "gpus")
 * and "warnings" to doc, and sets "dcu" when a GPU's arch is an HCU name.
 * Reads doc's "gpus", "torch", "env" and "dcu", so it runs after those.
 */
void env_hcu(json_t *doc);

#endif
