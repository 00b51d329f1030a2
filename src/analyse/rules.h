/*
 * rules: the decision for each kernel, from named rules that each say
 * which numbers they used (docs/rules.md documents them one by one).
 *
 * Every rule of the table is tried on every kernel; each one that fires
 * is recorded (struct an_fired: name, decision it argues for, a sentence
 * with its numbers, the numbers themselves). The decision is that of the
 * first rule in table order that fired, so the table order is the
 * precedence (docs/rules.md lists it): mostly leave it alone (not hot,
 * only initialises memory, a small copy, near the peak; a zero-fill is
 * told to move into its consumer) > keep TorchInductor off (a GEMM
 * scalarised by fusion) > rewrite the model code (atomics, tiny launches,
 * shape specialisation, gathers, scatters, strided lanes) > keep
 * TorchInductor off (configs alike far below the peak) > tune (knobs from
 * every tune rule that fired, in order). The rules from the brief's advice
 * live in rules_addr.c and rules_value.c. A kernel without a
 * time cannot be called hot or cold, so it is decided "measure" (rule
 * no_time), with the other rules' findings still listed. A timed, hot
 * kernel where nothing fired is "tune" (rule hot).
 *
 * Entry points: rules_apply() over a run; rules_apply_kernel() for one.
 */
#ifndef TKO_ANALYSE_RULES_H
#define TKO_ANALYSE_RULES_H

#include <stddef.h>

#include "analyse/model.h"

/* The thresholds the rules compare with (docs/rules.md). */
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
};

extern const struct rule_limits rule_limits_default;

struct rule_ctx {
	const struct an_run *run;	/* for run-wide facts (peak, other kernels) */
	const struct rule_limits *lim;	/* the thresholds */
};

/* One rule's verdict while it is being tested. */
struct rule_out {
	struct an_fired *f;	/* filled by the rule: why, knobs, evidence */
};

struct rule {
	const char *name;	/* stable name used in JSON and docs/rules.md */
	enum decision decision;	/* what it argues for */
	/* 1 when it fires, after filling out->f (why, knobs, evidence) */
	int (*fires)(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *out);
	const char *summary;	/* one line for docs and --help */
};

/* The rules in precedence order; *n is their number. */
const struct rule *rules_table(size_t *n);

/* Decides every kernel of r with the default limits. */
void rules_apply(struct an_run *r);
/* Decides one kernel (replacing what it held) with limits `lim`. */
void rules_apply_kernel(const struct an_run *r, struct an_kernel *k,
			const struct rule_limits *lim);

#endif
