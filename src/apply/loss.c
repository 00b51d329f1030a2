/*
 * tko apply --ab's loss check (apply/loss.h).
 */
#include <math.h>

#include "apply/loss.h"
#include "banned.h"

/* The i-th loss, NAN where it is missing (null) or not a number. */
static double loss_at(const json_t *v, size_t i)
{
	const json_t *x = json_array_get(v, i);

	return json_is_number(x) ? json_number_value(x) : NAN;
}

double apply_loss_scale(const json_t *b)
{
	double scale = 0;
	size_t i, n = json_array_size(b);

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		double y = loss_at(b, i);

		if (!isfinite(y))
			return NAN;
		scale = fmax(scale, fabs(y));
	}
	return scale;
}

double apply_loss_diff(const json_t *a, const json_t *b)
{
	double worst = 0, bound = APPLY_LOSS_FLOOR * apply_loss_scale(b);
	size_t i, n = json_array_size(a);

	if (!n || n != json_array_size(b) || !isfinite(bound))
		return NAN;
	bound = fmax(bound, 1e-12);
	for (i = 0; i < n; i++) {
		double x = loss_at(a, i), y = loss_at(b, i);

		if (!isfinite(x))
			return NAN;
		worst = fmax(worst, fabs(x - y) / fmax(fabs(y), bound));
	}
	return worst;
}
