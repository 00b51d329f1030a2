/*
 * apply/ab: the A/B of the whole step (docs/apply.md, "A/B of the whole
 * step"): which arms run in which order, and the statistics of their step
 * times.
 *
 * Arms: default (the unchanged command; the hook only observes), applied
 * (tko's winners), and optionally coordesc (Inductor's coordinate descent,
 * TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1) and max-autotune
 * (TORCHINDUCTOR_MAX_AUTOTUNE=1); every arm runs without CUDA graphs.
 * Arms that change numerics only when asked for: tf32 (the unchanged
 * command with torch.set_float32_matmul_precision('high'), set by the hook
 * from TKO_APPLY_FLOAT32_MATMUL_PRECISION) and applied+tf32 (the winners
 * and that setting). Their loss difference is reported next to their time
 * for the user to judge, never held to the loss tolerance. Autocast has no
 * arm: it cannot be switched on without changing the model's code.
 * Keep-off arms, only when asked for (tko apply --keep-off): keep-off (the
 * unchanged command with the regions under torch._dynamo.disable, set by
 * the hook from TKO_APPLY_KEEP_OFF; python/tko/keep_off.py) and
 * applied+keep-off (the winners too); see apply/keepoff.h.
 *
 * Order: warm-up rounds, then measured rounds; each round runs every arm
 * once, in the order given in even rounds and reversed in odd ones
 * (A B, B A, A B, ...), so a drift of the machine over the session falls
 * on the arms alike.
 *
 * Noise: per measured round r the ratio t_arm(r) / t_ref(r) of two arms'
 * step times (paired: the same round ran both), the median of the ratios
 * and a distribution-free 95% interval of that median from the order
 * statistics (the binomial interval of the median: [r_(k), r_(n+1-k)]
 * with the largest k that leaves at most 2.5% on each side). With fewer
 * than 6 rounds no such k exists: the interval is [min, max] and `level`
 * says its lower coverage, 1 - 2/2^n.
 */
#ifndef TKO_APPLY_AB_H
#define TKO_APPLY_AB_H

#include <stddef.h>

#include "util/buf.h"

enum ab_arm {
	AB_DEFAULT, AB_COORDESC, AB_MAX_AUTOTUNE, AB_APPLIED, AB_TF32, AB_APPLIED_TF32,
	AB_KEEP_OFF, AB_APPLIED_KEEP_OFF,
	AB_NARMS
};

struct ab_arm_info {
	const char *name;	/* as --arms spells it */
	const char *mode;	/* TKO_APPLY_MODE */
	const char *env;	/* one more NAME=value, or NULL */
	const char *numerics;	/* what the arm changes in the numerics ("tf32"), or NULL */
};
extern const struct ab_arm_info ab_arms[AB_NARMS];

/*
 * "default,coordesc,max-autotune,applied,tf32,applied+tf32,keep-off,applied+keep-off" into arms[] (at most AB_NARMS,
 * no repeats; default and applied must be there). 0, or -1 + err.
 */
int ab_parse_arms(const char *list, enum ab_arm *arms, size_t *n, struct buf *err);

/* 1 for the arms that keep TorchInductor off the --keep-off regions. */
int ab_keeps_off(enum ab_arm a);

/* The arm index (into arms[0..n)) of the i-th run of `round`. */
size_t ab_order(size_t n, long round, size_t i);

struct ab_stats {
	size_t n;		/* ratios */
	double median;
	double lo, hi;		/* the interval */
	double level;		/* its coverage: >= 0.95, or less with few rounds */
};

/* Statistics of n ratios (v is sorted in place). 0, or -1 when n is 0. */
int ab_ratio_stats(double *v, size_t n, struct ab_stats *out);

#endif
