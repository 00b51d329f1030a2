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

/* The 0.975 quantile of Student's t with df >= 1 degrees of freedom. */
double tune_t975(size_t df);

#endif
