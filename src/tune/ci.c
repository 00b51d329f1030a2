/*
 * A ratio's 95% t-interval on log ratios (see ci.h).
 *
 * The quantiles are the two-sided 95% column of the standard t table
 * (df 1-30, 40, 60, 120); between table rows the smaller df's value is
 * used, which widens the interval slightly: a gain is never accepted on a
 * quantile rounded in its favour.
 */
#include <math.h>
#include <string.h>

#include "tune/ci.h"
#include "banned.h"

static const double t975[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double tune_t975(size_t df)
{
	if (df < 1)
		return INFINITY;
	if (df <= 30)
		return t975[df - 1];
	if (df < 40)
		return t975[29];
	if (df < 60)
		return 2.021;
	if (df < 120)
		return 2.000;
	return 1.980;
}

int tune_ratio_ci(const double *num, const double *den, size_t n, struct tune_ci *ci)
{
	double sum = 0, ss = 0, m, half;
	size_t i;

	memset(ci, 0, sizeof(*ci));
	if (n < 2)
		return -1;
	for (i = 0; i < n; i++) {
		if (!(num[i] > 0) || !(den[i] > 0) || !isfinite(num[i]) || !isfinite(den[i]))
			return -1;
		sum += log(num[i] / den[i]);
	}
	m = sum / (double)n;
	for (i = 0; i < n; i++) {
		double d = log(num[i] / den[i]) - m;

		ss += d * d;
	}
	half = tune_t975(n - 1) * sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	ci->n = n;
	ci->ratio = exp(m);
	ci->lo = exp(m - half);
	ci->hi = exp(m + half);
	return 0;
}
