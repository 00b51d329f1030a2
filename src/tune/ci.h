/*
 * The noise estimate of tko tune's confirmation (confirm.h): a 95%
 * interval of the ratio of two variants' times measured round by round.
 *
 * Each round gives one ratio, num[i] / den[i] (the base's median time over
 * the candidate's, each the median of that round's repetitions). The
 * interval is Student's t-interval of the mean of the log ratios, mapped
 * back with exp: the ratio is their geometric mean, and the interval is
 * [exp(m - t * s / sqrt(n)), exp(m + t * s / sqrt(n))] with m and s the
 * mean and sample standard deviation (n - 1) of the n log ratios and t the
 * 0.975 quantile of Student's t with n - 1 degrees of freedom. Logs make a
 * 2x gain and a 2x loss symmetric, and a ratio's noise multiplicative.
 *
 *	struct tune_ci ci;
 *	if (tune_ratio_ci(base_ms, cand_ms, rounds, &ci) == 0 && ci.lo > 1.0)
 *		... the candidate is faster beyond the noise
 */
#ifndef TKO_TUNE_CI_H
#define TKO_TUNE_CI_H

#include <stddef.h>

struct tune_ci {
	size_t n;		/* rounds */
	double ratio;		/* geometric mean of num/den */
	double lo, hi;		/* its 95% interval */
};

/*
 * The interval of num[i] / den[i] over n >= 2 rounds. 0, or -1 when n < 2
 * or a time is not positive (ci is then zeroed).
 */
int tune_ratio_ci(const double *num, const double *den, size_t n, struct tune_ci *ci);

/* The same over the rounds i with !skip[i] (skip may be NULL: all of them). */
int tune_ratio_ci_except(const double *num, const double *den, size_t n,
			 const unsigned char *skip, struct tune_ci *ci);

/*
 * A disturbed round is one in which some series took more than
 * TUNE_DISTURBED times its own median over the n rounds: on the H100
 * (2026-12-05) one round of seven timed a 0.023 ms candidate at 0.084 ms
 * while the base beside it was steady, and that one round widened the
 * t-interval of a 1.25x gain (six rounds at 1.24-1.26x) to [0.66, 1.63].
 * Over 1,155 cold (L2-flushed) round times of 73 confirmations in the
 * repository's runs no other time was over 1.18x its median.
 */
#define TUNE_DISTURBED 1.5

/*
 * Marks the disturbed rounds in skip[0..n) (cleared first) and returns
 * their count. series[0..k) are each n times, NULL entries ignored. When
 * more than (n - 1) / 3 rounds are disturbed (above 2 of 7), the noise is
 * the machine's, not a round's: none is marked and 0 returned.
 */
size_t tune_disturbed_rounds(double *const *series, size_t k, size_t n, unsigned char *skip);

/* The 0.975 quantile of Student's t with df >= 1 degrees of freedom. */
double tune_t975(size_t df);

#endif
