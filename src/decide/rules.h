/*
 * rules: the decisions of `tko investigate`, from one table of named
 * rules (rules[] in rules.c) and one set of limits (struct rule_limits).
 * docs/rules.md documents them in table order; its limits table and its
 * rule index are generated from these tables and checked by
 * tests/unit/test-rules.c.
 *
 * A row is one rule: its name, the decision it argues for, what it reads
 * (its scope: a kernel, a kernel with the whole run, one scanned kernel
 * alone, a whole-step group or the step), the function that tests it,
 * a one-line summary and, when the decision's default sentence
 * (model/names.h) does not fit, its own action sentence. Summaries and
 * actions are templates, so a limit is written in one place:
 *
 *	summary  "{hot_share}"      the limit as the docs write it: "2%",
 *	                            "10 us", "1 MiB", "1.02x", "4"
 *	action   "{where}"          the user's source line behind the kernel
 *	                            ("model.py:37 in forward"), else its module
 *	         "{why}"            the deciding rule's sentence
 *	         "{knobs}"          the knobs of every tune rule that fired,
 *	                            "; " between them, in table order (none:
 *	                            "block sizes and num_warps")
 *	         "{rule_knobs}"     the deciding rule's own knobs
 *	         "{consumer}"       ", <the call the zeroed buffer goes to>"
 *	                            or nothing
 *
 * Kernels: every row of scope RULE_KERNEL is tried on every kernel and
 * each one that fires is recorded (struct an_fired: name, decision, a
 * sentence with its numbers, knobs, the numbers themselves). The decision
 * is that of the first row that fired, so the table order is the
 * precedence: mostly leave it alone (not hot, only initialises memory, a
 * small copy, near the peak; a zero-fill is told to move into its
 * consumer) > measure (no time: the rules below still list their
 * findings) > keep TorchInductor off (a GEMM scalarised by fusion) >
 * rewrite the model code (atomics, tiny launches, shape specialisation,
 * gathers, scatters, strided lanes) > keep TorchInductor off (configs
 * alike far below the peak) > tune. A RULE_FALLBACK row (hot) is tried
 * only when no other row fired; when it does not fire either, the kernel
 * gets "no_finding" (leave). A RULE_SEARCH row (few_configs, hot, ...)
 * advises searching block sizes, warps and stages: once tko tune has
 * searched them and the base config stayed the winner, it is not tried
 * and tune_found_nothing (leave, after every tune row) says so, so the
 * kernel is decided by what tune does not try (a rewrite, a source
 * change) or left alone. Rows of scope RULE_ISA read only what one
 * scanned kernel shows: `tko isa` runs them (decide/isa_scope.h).
 *
 * Whole-step groups (RULE_GROUP): the first row that fires decides the
 * group. The step (RULE_STEP): every row that fires is listed.
 *
 * Entry points: rules_apply() over a run; rules_apply_kernel() for one
 * kernel; rules_fire() for a subset of rows without deciding.
 */
#ifndef TKO_DECIDE_RULES_H
#define TKO_DECIDE_RULES_H

#include <stddef.h>

#include "model/analysis.h"

/* The thresholds the rules compare with; rule_limit_info[] says what each is. */
struct rule_limits {
	double hot_share;	/* below this share of measured time a kernel is not hot */
	double near_peak;	/* a footprint rate at or above this fraction of the peak is near it */
	double over_peak;	/* above this fraction the byte count overstates traffic (footprint) */
	double slow_fraction;	/* a memory-bound kernel under this fraction of the peak is slow */
	double tiny_ms;		/* a launch shorter than this is tiny */
	long tiny_launches;	/* ... when there are at least this many */
	double narrow_share;	/* fewer 128-bit accesses than this share is narrow */
	long narrow_min_ops;	/* ... among at least this many global/buffer accesses */
	long low_occupancy;	/* AMD waves per SIMD at or below this is low */
	long few_configs;	/* the autotuner timed at most this many configs */
	double tune_gain;	/* a tko tune winner this much faster is worth applying */
	double flat_spread;	/* timed configs within this fraction of each other are alike */
	double far_fraction;	/* ... and under this fraction of the peak, far below it */
	double small_bytes;	/* a copy of fewer bytes than this is small */
	double lib_share;	/* a library group with less of the busy time is left alone */
	double library_bound;	/* library share of the busy time that makes the step library-bound */
	double idle_fraction;	/* idle share of the profiled span that makes it host-bound */
	long row_multiple;	/* a reduction row whose length is no multiple of this defeats alignment */
	long row_pad;		/* ... and is padded to a multiple of this */
};

extern const struct rule_limits rule_limits_default;

/* How a limit is written (rule_limit_text). */
enum rule_limit_unit {
	LIM_SHARE,	/* of the measured time: 0.02 -> "2%" */
	LIM_FRACTION,	/* of the peak or of each other: 0.80 -> "80%" */
	LIM_MS,		/* milliseconds, written in us: 0.010 -> "10 us" */
	LIM_COUNT,	/* a long: 4 -> "4" */
	LIM_RATIO,	/* 1.02 -> "1.02x" */
	LIM_BYTES,	/* 1048576 -> "1 MiB" */
};

struct rule_limit_info {
	const char *name;		/* the member's name, as templates and docs/rules.md say it */
	size_t off;			/* offsetof(struct rule_limits, ...) */
	enum rule_limit_unit unit;	/* LIM_COUNT members are long, the others double */
	const char *doc;		/* docs/rules.md's sentence for it */
};

/* One row per member of struct rule_limits, in its order. */
extern const struct rule_limit_info rule_limit_info[];
extern const size_t rule_nlimits;

/* The limit's value as a double / as docs/rules.md writes it (newly allocated). */
double rule_limit_value(const struct rule_limits *lim, const struct rule_limit_info *li);
char *rule_limit_text(const struct rule_limits *lim, const struct rule_limit_info *li);

struct rule_ctx {
	const struct an_run *run;	/* for run-wide facts (peak, other kernels) */
	const struct rule_limits *lim;	/* the thresholds */
	const struct an_step_group *group;	/* RULE_GROUP: the group being decided */
	int have_template;	/* RULE_GROUP: an Inductor mm template ran in the step */
};

/* One rule's verdict while it is being tested. */
struct rule_out {
	struct an_fired *f;	/* filled by the rule: why, knobs, evidence */
};

/* What a row reads, and when it is tried. */
enum {
	RULE_KERNEL = 1,	/* decides a kernel */
	RULE_RUN = 2,		/* ... reading run totals or other kernels as well */
	RULE_ISA = 4,		/* ... and can be decided from one scanned kernel alone */
	RULE_FALLBACK = 8,	/* tried only when no other row fired */
	RULE_GROUP = 16,	/* decides a whole-step group (ctx->group; k is NULL) */
	RULE_STEP = 32,		/* a fact about the whole step (ctx->run; k is NULL) */
	RULE_SEARCH = 64,	/* its advice is a launch-config search: not tried once tko
				 * tune's own search found nothing (rule_tune_searched) */
};

struct rule {
	const char *name;	/* stable name used in JSON and docs/rules.md */
	enum decision decision;	/* what it argues for */
	unsigned scope;		/* RULE_KERNEL, RULE_ISA, ... */
	/* 1 when it fires, after filling out->f (why, knobs, evidence) */
	int (*fires)(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *out);
	const char *summary;	/* template: one line for docs/rules.md */
	const char *action;	/* template of the action when it decides, or NULL: its decision's */
	const char *const *findings;	/* RULE_ISA: the ISA finding ids it judges (NULL-terminated) */
};

/* The rules in precedence order; *n is their number. */
const struct rule *rules_table(size_t *n);
/* The row named `name`, or NULL. */
const struct rule *rule_find(const char *name);

/* The row's summary with the limits written in (newly allocated). */
char *rule_summary(const struct rule *r, const struct rule_limits *lim);
/*
 * The sentence saying what to do when `d` (fired by r) decides: r's
 * action, else its decision's, with the placeholders above filled from k
 * (NULL for a group: only {why} and {rule_knobs} then). Newly allocated.
 */
char *rule_action(const struct rule *r, const struct an_kernel *k, const struct an_fired *d);

/*
 * Tries the rows whose scope has every bit of `scope` (and not
 * RULE_FALLBACK unless asked) on k, appending each one that fires to
 * k->fired; returns how many fired. Decides nothing.
 */
size_t rules_fire(const struct rule_ctx *c, struct an_kernel *k, unsigned scope);

/* Decides every kernel, group and the step of r with the default limits. */
void rules_apply(struct an_run *r);
/* Decides one kernel (replacing what it held) with limits `lim`. */
void rules_apply_kernel(const struct an_run *r, struct an_kernel *k,
			const struct rule_limits *lim);
/* Decides the whole-step groups and lists the step rules (no profile: nothing). */
void rules_apply_step(struct an_run *r, const struct rule_limits *lim);

/* Frees what one fired entry holds. */
void rules_fired_release(struct an_fired *f);

#endif
