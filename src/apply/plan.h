/*
 * apply/plan: the plan `tko apply` gives the in-process hook (docs/apply.md,
 * "The plan"), made from a RUN's tune results: every kernel folder's
 * tune/<target>/tune.json (rundir/layout.h), its capture.json and kernel.py.
 *
 * A kernel is planned when tune found a winner other than Inductor's own
 * choice and, where tune.json holds winner.confirmation (rounds, ratio,
 * ci95, accepted, reason), that confirmation accepted it. Every other
 * kernel is kept with the reason it is not applied, so the report lists
 * it. Inductor kernels are named by their lookup key (apply/lookup.h),
 * hand-written @triton.autotune kernels by capture's source_hash. A
 * template winner whose body (BLOCK_M/N/K) differs from tune's base is
 * planned for Inductor's template lookup table when capture recorded its
 * op's key (apply/tmplkey.h), and skipped as "cannot_carry" otherwise
 * (the hook sets num_warps and num_stages only); one with the base's body
 * is planned without it. Where the base won and tune timed the autotuner's
 * other candidates, the base is pinned (fallback "pinned_base"), or the
 * fastest other one where tune's sweep timed it faster than the base by
 * more than TUNE_SWEEP_MARGIN ("pinned_candidate"):
 * Inductor's own choice among them varies from one compile to the next.
 *
 *	struct apply_plan p = APPLY_PLAN_INIT;
 *	if (apply_plan_build(&p, run, NULL, 0, &err) < 0) ... err
 *	if (apply_plan_write(&p, "DIR/plan.json", &err) < 0) ... err
 *	apply_plan_release(&p);
 */
#ifndef TKO_APPLY_PLAN_H
#define TKO_APPLY_PLAN_H

#include <stddef.h>

#include <jansson.h>

#include "apply/tmplkey.h"
#include "model/apply_plan.h"
#include "util/buf.h"

struct tune_doc_kernel;

struct apply_item {
	char *id;		/* the kernel folder's name: unique in the RUN */
	char *kernel;		/* the kernel's name */
	char *tune_path;	/* the tune.json it came from */
	const char *skip;	/* why it is not planned (a fixed word), NULL when planned */
	char *skip_detail;	/* more on it (the confirmation's reason), or NULL */
	double speedup;		/* tune's winner over the base, -1 unknown */
	double time_ms;		/* the winner's time, -1 unknown */
	double warm;		/* the winner over the base timed warm (no L2 flush), NAN unknown */
	double warm_lo, warm_hi;	/* its 95% interval */
	long warm_rounds;
	struct apply_plan_kernel *entry;	/* the plan's kernel entry when planned, else NULL */
};

struct apply_plan {
	struct apply_item *v;
	size_t nr, alloc;
	char *target;		/* "sm_90", "gfx942": the tune results' target */
	const char *backend;	/* "cuda" or "hip" */
	json_t *settings;	/* the merged inductor_settings */
	struct apply_plan_versions versions;	/* of the capture (model/apply_plan.h) */
	unsigned flags;		/* APPLY_PLAN_* */
	char *events;		/* RUN/capture/events.jsonl: template winners' keys */
	struct tmplkey_events tmplkeys;	/* read at the first template winner that needs one */
};
#define APPLY_PLAN_INIT { NULL, 0, 0, NULL, NULL, NULL, { NULL, NULL, 0 }, 0, NULL, \
			  TMPLKEY_EVENTS_INIT }

/* apply_plan_build's flags */
#define APPLY_PLAN_SOURCE_VARIANTS 1u	/* --source-variants: winners that change the source */
#define APPLY_PLAN_NO_PIN 2u		/* --no-pin: leave Inductor's choice where the base won */

/*
 * Reads every tune result of `run` (a RUN directory the caller opened:
 * cmd_open_run) for `target` (NULL: the only target the
 * RUN was tuned for). 0, or -1 with one line in err: no tune results, two
 * targets and no choice, a tune.json that is not tko tune's, two winners
 * needing different values of one Inductor setting.
 */
int apply_plan_build(struct apply_plan *p, const char *run, const char *target,
		     unsigned flags, struct buf *err);

/*
 * One kernel of a tune document (model/tune.h): whether it has a winner
 * to apply and its config (it->entry gets its kernel, config, predicted
 * and the inductor_settings the winner needs, if any), else it->skip; and
 * the winner's warm interval (it->warm) when its confirmation timed it
 * warm (winner.confirmation.warm of the final winner).
 */
void apply_item_from_doc(struct apply_item *it, const struct tune_doc_kernel *k, unsigned flags);
/*
 * The same from `tk` alone, exposed for the unit tests: a kernel entry
 * the model cannot read is skipped as "unreadable" with the reason
 * (apply_plan_build fails on it instead).
 */
void apply_item_from_tune(struct apply_item *it, const json_t *tk, unsigned flags);

/*
 * 1 when the item has a warm interval (it->warm > 0: an item built by
 * hand and zeroed has none).
 */
int apply_item_has_warm(const struct apply_item *it);
/* The speedup a step prediction takes for the item: the warm one where known, else tune's. */
double apply_item_predicted(const struct apply_item *it);

/* The plan document (model/apply_plan.h) at `path`, atomically. 0, or -1 + err. */
int apply_plan_write(const struct apply_plan *p, const char *path, struct buf *err);
/* Kernels planned. */
size_t apply_plan_planned(const struct apply_plan *p);
/* Of them, pinned configs (fallback "pinned_base" or "pinned_candidate"). */
size_t apply_plan_pinned(const struct apply_plan *p);
/* The item of plan id `id`, or NULL. */
const struct apply_item *apply_plan_find(const struct apply_plan *p, const char *id);
void apply_plan_release(struct apply_plan *p);

#endif
