/*
 * Hygon HCU targets for `tko env` (internal to src/env/): every
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
 * The HCU rows and their columns (name, triton-das, verified) are the
 * Hygon rows of src/target/target.c.
 */
#ifndef TKO_ENV_HCU_H
#define TKO_ENV_HCU_H

#include "model/env.h"
#include "target/target.h"

/* The Hygon row of an arch name ("gfx936", "gfx936:sramecc-", any case), or NULL. */
const struct target *hcu_target_find(const char *arch);

/*
 * Fills doc's hcu_targets (one per distinct HCU arch among its gpus) and
 * warnings, and sets dcu when a GPU's arch is an HCU name. Reads gpus,
 * torch, env and dcu, so it runs after those are set.
 */
void env_hcu(struct env_doc *doc);

#endif
