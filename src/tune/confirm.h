/*
 * The confirmation of a sweep's winner, outside the selection loop.
 *
 * The sweep picks its winner from one timing per variant, and the pick
 * favours whichever variant had the luckiest timing: its gain is biased
 * up, and the 2% margin of tune_winner() is below a sweep's own noise. So
 * after the sweep, the candidate (its pick), the base (Inductor's config)
 * and the fastest config-only variant (no source variant: what a
 * triton.Config alone applies) are timed again, on the captured inputs
 * with the sweep's warm-up, repetitions and L2 flush, over several rounds
 * in alternating order (round r starts with the r-th of them), and each
 * round gives one ratio per pair. A 95% interval of the ratio (ci.h)
 * decides:
 *
 *   - the candidate is accepted when the interval of base / candidate
 *     lies above 1.0;
 *   - a candidate with a source variant is accepted only when, besides,
 *     the interval of config-only / candidate lies above 1.0: else the
 *     config-only variant wins if its own interval over the base lies
 *     above 1.0;
 *   - otherwise the base stays.
 *
 * In the same turns, right after each cold timing, every role is timed
 * again warm: the same repetitions and restores with no L2 flush, so the
 * inputs the last repetition read and the restore wrote are still in L2,
 * as for a kernel inside a step whose inputs the kernel before it just
 * wrote. The warm interval of base / the final winner (the candidate when
 * the base stays) is recorded beside the cold one, and decides nothing
 * here: tko apply leaves out a winner slower warm beyond the noise
 * (docs/apply.md). A worker that sends no warm times gives no warm interval.
 *
 * The rounds are one "confirm" request to the worker (docs/json.md, "tko
 * tune worker protocol"); variants that need workers of different
 * environments (AMDGCN_USE_BUFFER_OPS) alternate one round at a time.
 *
 * Entry points: tune_confirm_run() after the sweep's tune_winner(), then
 * tune_confirm_json() for tune.json's winner.confirmation (its text is
 * report/tune_text.c's, from that).
 */
#ifndef TKO_TUNE_CONFIRM_H
#define TKO_TUNE_CONFIRM_H

#include <jansson.h>
#include <stddef.h>

#include "tune/ci.h"
#include "util/buf.h"

/* The timed roles, in the order of a round's first turn. */
enum { TUNE_CF_BASE, TUNE_CF_CAND, TUNE_CF_CFG, TUNE_CF_N };

struct tune_confirm {
	int ran;			/* 1 once a confirmation was attempted */
	long id[TUNE_CF_N];		/* variant per role, -1 when absent */
	size_t rounds;			/* rounds timed */
	double *ms[TUNE_CF_N];		/* per role, the median of each round (owned) */
	double *warm_ms[TUNE_CF_N];	/* the same timed with no L2 flush (owned) */
	unsigned char *disturbed;	/* per round, left out of the intervals (ci.h; owned) */
	unsigned char *warm_disturbed;	/* the same for the warm interval (owned) */
	int warm_missing;		/* a reply had no (usable) warm times */
	int has_warm;			/* warm_ci holds base / warm_of, timed warm */
	long warm_of;
	struct tune_ci warm_ci;
	struct tune_ci vs_base;		/* base / candidate */
	struct tune_ci cfg_vs_cand;	/* config-only / candidate */
	struct tune_ci cfg_vs_base;	/* base / config-only */
	int accepted;			/* the candidate was confirmed */
	long winner;			/* the winner after confirmation */
	char *reason;			/* why, one line (owned) */
	char *error;			/* the timing failed: why (owned), or NULL */
	double wall_s;			/* seconds it took */
};

struct tune_sweep;

/*
 * Confirms s->winner when it is not the base, the base was timed, and
 * s->o->confirm_rounds >= 2 (2 rounds are the fewest an interval needs),
 * and sets s->winner to the winner it decides. A failed timing keeps the
 * base.
 */
void tune_confirm_run(struct tune_sweep *s);

/* tune.json's winner.confirmation, or NULL when none ran. A new reference. */
json_t *tune_confirm_json(const struct tune_sweep *s);

/* The confirmed speedup of the final winner over the base, or -1 when none ran. */
double tune_confirm_speedup(const struct tune_sweep *s);

/*
 * The interval of the final winner over the base, or NULL when it is the
 * base or no confirmation ran: a winner with one is confirmed faster than
 * the base beyond the noise.
 */
const struct tune_ci *tune_confirm_winner_ci(const struct tune_sweep *s);

/*
 * The config-only variant a source-variant candidate was held against
 * (with no confirmation, the fastest one the sweep timed), or -1 when the
 * candidate had no source variant or none was timed; *ci gets base / it
 * from the confirmation's rounds, NULL when no rounds were timed.
 * tune.json's winner.config_only: what tko apply plans when it leaves
 * source variants out.
 */
long tune_confirm_config_only(const struct tune_sweep *s, const struct tune_ci **ci);

void tune_confirm_release(struct tune_confirm *c);

#endif
