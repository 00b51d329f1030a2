/*
 * The variant plan of tko tune: which launch configs and source variants
 * to try for one kernel, in what order, within a time budget.
 *
 * The search space is a struct tune_space (space.h).
 *
 * The search is smarter than a full grid. Its phases, in an order that
 * depends on what the plan is for:
 *
 *   ladder    for a kernel with no block size to tune (a foreach kernel,
 *             or one whose block sizes are kept: kindplan.h), every value
 *             of each launch option (num_warps 1, 2, 4, ... 32) one at a
 *             time around the best: few enough to time them all, and a
 *             descent from the base would stop at the first step that
 *             does not help;
 *   base      the base config (the autotuned best), and right after it
 *             the two-pass form of an online softmax when the kernel has
 *             one (rewrite_two_pass: another algorithm, not a hint, so
 *             the descent should start from it when it wins);
 *   starts    the other configs Inductor tried (or were given), measured
 *             side by side with it;
 *   source    the source variants (hints, tl.assume, tt.pointer_range=32,
 *             the buffer-ops switch) on the best config so far;
 *   descent   every one-step neighbour of the best (block sizes x2 and /2,
 *             warps x2 and /2, stages +1 and -1, ...): the moves of
 *             Inductor's coordinate descent, all of them at once; repeated
 *             from the new best while it improves by more than the noise,
 *             and again after any later phase that improves the best;
 *   pairs     two parameters moved together where one alone must first
 *             get worse: a block size and the warps both x2 or both /2
 *             (the same work per thread on more or fewer threads), two
 *             block sizes one x2 and the other /2 (the same block, another
 *             shape), and for a template a tile dimension x2 with one
 *             stage less (a larger tile the shared memory holds only so);
 *   grid      a coarse grid around the best (block sizes x4 and /4, warps
 *             x2 and /2);
 *   widen     a descent round around each runner-up, fastest first, while
 *             the budget lasts: every timed config within `widen` of the
 *             best whose neighbours were not planned yet. The best's own
 *             neighbourhood can be a dead end that a slower config's is
 *             not (a reduction whose best single move is num_warps /2,
 *             when XBLOCK x2 then R0_BLOCK x2 leads further: Inductor's
 *             descent, taking the first move that helps, goes there). A
 *             new best found so gets its descent rounds as usual.
 *
 * The config-only track: while the best is a source variant, every
 * descent round also plans the neighbours of the fastest variant with no
 * source variant (the base at first), and repeats from its new best while
 * that improves by more than the noise, after the best's own round. The
 * search moves from the best source flags and all, so without it the
 * config-only space is never searched once a source variant wins (the
 * two-pass softmax of an H200 run won right after the base, and every
 * later variant carried it): tko apply without --source-variants then
 * has nothing to apply, while a config alone (Inductor's coordinate
 * descent found one 1.10x faster) would have helped. Where no source
 * variant wins, the best is config-only and the track is the search.
 *
 * Without timings (--compile-only) the plan shows what the variants
 * compile to: base, starts, source, grid, one descent round. With timings
 * the order puts the best odds first, since the budget usually ends the
 * plan: on NVIDIA the descent first (Inductor kernels already carry
 * tt.divisibility, so hints rarely change the PTX: source variants come
 * last, and one that compiles to the base's ISA is not timed); on AMD and
 * DCU the source variants first (buffer ops can change every memory
 * instruction), then the descent. Widening comes last on both: it spends
 * what the budget has left.
 *
 * Variants are deduplicated by a canonical key; the plan stops at
 * max_variants or when the budget would be exceeded.
 *
 *	struct tune_plan p;
 *	tune_plan_init(&p, &kernel, arch, &opts, &err);
 *	tune_plan_add_base(&p, &cfg, TUNE_FROM_AUTOTUNE, -1);
 *	while ((v = tune_plan_next(&p)))
 *		... run v; tune_plan_record(&p, v->index, ms, usable, cost_s);
 *	tune_plan_release(&p);
 */
#ifndef TKO_TUNE_PLAN_H
#define TKO_TUNE_PLAN_H

#include <jansson.h>
#include <stddef.h>

#include "target/target.h"
#include "tune/kernel.h"
#include "tune/space.h"
#include "util/buf.h"

/* Source variants: flags, combinable. */
enum {
	TUNE_SRC_HINTS = 1 << 0,	/* tl.multiple_of / tl.max_contiguous on offsets */
	TUNE_SRC_ASSUME = 1 << 1,	/* tl.assume(x >= 0) on offsets and size arguments */
	TUNE_SRC_PTR32 = 1 << 2,	/* tt.pointer_range=32 on pointer arguments */
	TUNE_SRC_BUF_ON = 1 << 3,	/* AMDGCN_USE_BUFFER_OPS=1 in the worker */
	TUNE_SRC_BUF_OFF = 1 << 4,	/* AMDGCN_USE_BUFFER_OPS=0 in the worker */
	TUNE_SRC_TWO_PASS = 1 << 5,	/* an online softmax as two passes (twopass.c) */
};

/* Where a variant came from. */
enum tune_origin {
	TUNE_FROM_AUTOTUNE,	/* the config Inductor's autotuning chose */
	TUNE_FROM_INDUCTOR,	/* another config Inductor tried */
	TUNE_FROM_GIVEN,	/* --config, or a .best_config file */
	TUNE_FROM_DEFAULT,	/* tko's guess: no autotuned config was known */
	TUNE_FROM_SOURCE,	/* a source variant of the base config */
	TUNE_FROM_GRID,		/* the coarse grid */
	TUNE_FROM_DESCENT,	/* a coordinate-descent neighbour */
	TUNE_FROM_PAIRS,	/* two parameters moved together */
	TUNE_FROM_LADDER,	/* every value of a launch option (no block size to tune) */
	TUNE_FROM_CONFIRM,	/* a source-patch winner's config alone, for its confirmation */
};

struct tune_variant {
	size_t index;		/* position in the plan */
	struct tune_config cfg;	/* the launch config */
	unsigned src;		/* TUNE_SRC_* flags */
	enum tune_origin origin;	/* why it was planned */
	char *key;		/* canonical key, for dedupe */
	char *label;		/* short name for tables: "base", "XBLOCK=2048 +ptr32" */
	double inductor_ms;	/* Inductor's own timing of this config, or -1 */
	double time_ms;		/* measured here, or -1 */
	int usable;		/* compiled (and, with timings, correct) */
	int done;		/* recorded */
	int centered;		/* its one-step neighbours were planned */
};

struct tune_plan_opts {
	double budget_s;	/* stop planning past this much work after the base (0: no limit);
				 * judged on measured costs, so one search variant always runs */
	size_t max_variants;	/* at most this many variants (0: no limit) */
	size_t grid_max;	/* coarse-grid points at most */
	double noise;		/* relative improvement that counts (0.01) */
	int no_source;		/* plan no source variants */
	int no_search;		/* plan no grid, descent or pairs */
	int timed;		/* variants will be timed: the order of best odds first */
	double widen;		/* runners-up this much slower than the best, at most,
				 * get a descent round of their own (0: none) */
};
#define TUNE_PLAN_OPTS_INIT { 60.0, 40, 8, 0.01, 0, 0, 0, 0.10 }

enum tune_phase {
	TUNE_PH_BASE, TUNE_PH_STARTS, TUNE_PH_SOURCE, TUNE_PH_DESCENT, TUNE_PH_PAIRS,
	TUNE_PH_GRID, TUNE_PH_WIDEN, TUNE_PH_LADDER, TUNE_PH_DONE,
};

/* A starting config kept for the starts phase. */
struct tune_start {
	struct tune_config cfg;		/* the config */
	enum tune_origin origin;	/* where it came from */
	double inductor_ms;		/* Inductor's time for it, or -1 */
};

struct tune_plan {
	struct tune_space space;	/* the parameters */
	struct tune_plan_opts opts;	/* limits */
	struct tune_variant *v;		/* every variant planned, in order */
	size_t nr, alloc;
	size_t next;			/* the first not handed out */
	long base;			/* index of the base variant, -1 before tune_plan_add_base */
	long best;			/* index of the best usable timed variant, -1 */
	long descent_center;		/* the variant whose neighbours were planned last */
	long plain_center;		/* the same on the config-only track, -1 */
	enum tune_phase phase;		/* what the queue is filled with */
	const enum tune_phase *order;	/* the phases, in order, ending with TUNE_PH_DONE */
	size_t step;			/* the next phase in order */
	int descending;			/* the descent phase has started */
	struct tune_start *starts;	/* starting configs after the base */
	size_t starts_nr, starts_alloc;
	unsigned src_allowed;		/* source flags that apply to this target */
	double spent_s;			/* recorded cost so far, the base's left out */
	size_t costed;			/* variants whose cost was recorded, the base left out */
	int stopped;			/* budget or max_variants reached */
	const char *stop_reason;	/* why the plan stopped early, or NULL */
};

/*
 * Builds the space for `k` on `arch`. Returns 0, or -1 with a line in err
 * (e.g. a hand-written kernel with no tunable parameter).
 */
int tune_plan_init(struct tune_plan *p, const struct tune_kernel *k,
		   const struct target *arch, const struct tune_plan_opts *opts,
		   struct buf *err);
void tune_plan_release(struct tune_plan *p);

/*
 * Adds a starting config. The first added is the base, against which
 * labels and speedups are given, and is planned first; `inductor_ms` is
 * Inductor's own time for it (-1 when unknown). Later ones are kept for
 * the starts phase. A starting config is not held to the space's validity
 * rules (Inductor chose it; it is measured as it is), but the configs
 * derived from it are. Returns the base's index, 1 for a config kept for
 * later, or -1 when the config is a duplicate.
 */
long tune_plan_add_base(struct tune_plan *p, const struct tune_config *cfg,
			enum tune_origin origin, double inductor_ms);

/* The next variant to run, or NULL when the plan is done. */
struct tune_variant *tune_plan_next(struct tune_plan *p);

/*
 * Records a variant's outcome: time_ms < 0 when not timed, usable 0 when
 * it failed to compile, timed out or was wrong; cost_s the seconds it took.
 */
void tune_plan_record(struct tune_plan *p, size_t index, double time_ms,
		      int usable, double cost_s);

/*
 * The variant with variant c's launch config and no source variant,
 * planned now (after the plan, for the confirmation: confirm.h) unless it
 * was; its index. One planned but never handed out gets that origin too.
 */
long tune_plan_config_only(struct tune_plan *p, size_t c);

/* "hints+ptr32", or "" for none. */
void tune_src_names(unsigned src, struct buf *out);
const char *tune_origin_name(enum tune_origin o);

#endif
