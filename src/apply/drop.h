/*
 * apply/drop: which winners tko apply leaves out (docs/apply.md, "Winners
 * slower inside the step"), and why.
 *
 * Tune times a kernel alone with L2 flushed; inside the step its inputs
 * may be warm, and a small winner can lose there. The A/B's kernel window
 * judges each winner (apply/kwindow.h: "slower" only when the 95% interval
 * of default/applied lies wholly below 1). A winner judged slower:
 *
 *   - leaves the plain artifact written after that A/B;
 *   - is listed in apply.json's "slower_in_step" with its evidence (the
 *     winner's config, the measured gain and interval), and a later tko
 *     apply with the same --out reads that list and leaves the winner out
 *     of its plan, as long as the winner is the same (same id, lookup or
 *     source hash and config: a re-tuned winner is judged afresh);
 *
 * unless --keep-slower. A winner that tune's confirmation timed slower
 * than the base warm (no L2 flush) beyond the noise (the warm interval's
 * upper bound below 1: model/tune.h, winner.confirmation.warm) leaves the
 * plan before any run, reason "slower_warm" with that evidence, unless
 * --keep-slower too. --exclude NAME (a kernel name or its folder id)
 * leaves a winner out of the plan whatever was measured. A confirmed
 * winner the plan could not carry (apply/plan.h: "cannot_carry") is listed
 * with them, since the user can still set it by hand. What was left out
 * is listed ("left_out": id, kernel, reason, detail, of: "plan" for this
 * run's plan and so its runs and artifact, "artifact" for the artifact
 * only) in apply.json and in the artifact's header.
 *
 *	struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;
 *	struct apply_judgements carried = APPLY_JUDGEMENTS_INIT, judged = ..., slower = ...;
 *	if (apply_drop_plan(&plan, out "/apply.json", names, n, keep_slower,
 *			    &carried, &left, &warn, &err) < 0) ... err
 *	... the A/B ...
 *	apply_drop_judged(&plan, runs, rounds, &judged);
 *	apply_drop_slower(&plan, &judged, &carried, runs, rounds, &slower);
 *	apply_drop_artifact(&judged, keep_slower, &left) ... the artifact's list
 */
#ifndef TKO_APPLY_DROP_H
#define TKO_APPLY_DROP_H

#include <stddef.h>
#include <jansson.h>

#include "apply/plan.h"
#include "model/apply_doc.h"
#include "model/apply_left.h"
#include "util/buf.h"

/*
 * Leaves --exclude's winners, and those an earlier apply.json at `previous`
 * judged slower (unless keep_slower), out of the plan: the item's entry
 * goes, its skip is "excluded", "slower_in_step" or "slower_warm" with a detail, and the
 * plan's settings are merged again from the winners left. Appends to
 * `left_out` what was left out (of: "plan"; the plan's "cannot_carry"
 * winners first) and to `carried` the earlier
 * judgements that still hold for this plan's winners (left out or kept).
 * A missing `previous` is no earlier judgement; one that cannot be read
 * (not JSON, or its slower_in_step not as model/apply_left.h types it) is
 * ignored with one line in `warn`. -1 + err when an --exclude names no
 * kernel of the RUN.
 */
int apply_drop_plan(struct apply_plan *p, const char *previous, const char *const *exclude,
		    size_t nexclude, int keep_slower, struct apply_judgements *carried,
		    struct apply_left_outs *left_out, struct buf *warn, struct buf *err);

/* Appends to `out` the planned winners this A/B's kernel windows judged slower (carried 0). */
void apply_drop_judged(const struct apply_plan *p, const struct apply_runs *runs, long rounds,
		       struct apply_judgements *out);

/*
 * Appends apply.json's "slower_in_step" to `out`: this A/B's judgements
 * (`judged`, or NULL), and the carried ones for winners it did not measure
 * again (left out of the plan, or not seen in its windows). A kept winner
 * measured again is judged by this A/B alone.
 */
void apply_drop_slower(const struct apply_plan *p, const struct apply_judgements *judged,
		       const struct apply_judgements *carried, const struct apply_runs *runs, long rounds,
		       struct apply_judgements *out);

/* Appends this A/B's slower winners to left_out (of: "artifact") unless keep_slower. */
void apply_drop_artifact(const struct apply_judgements *judged, int keep_slower,
			 struct apply_left_outs *left_out);

#endif
