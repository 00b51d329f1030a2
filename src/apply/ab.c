/*
 * Arms, order and statistics of the A/B (ab.h).
 */
#include <math.h>
#include <string.h>

#include "apply/ab.h"
#include "util/median.h"
#include "banned.h"

/* python/tko/apply.py calls torch.set_float32_matmul_precision with it */
#define AB_TF32_ENV "TKO_APPLY_FLOAT32_MATMUL_PRECISION=high"

const struct ab_arm_info ab_arms[AB_NARMS] = {
	[AB_DEFAULT] = { "default", "observe", NULL, NULL },
	[AB_COORDESC] = { "coordesc", "observe", "TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1", NULL },
	[AB_MAX_AUTOTUNE] = { "max-autotune", "observe", "TORCHINDUCTOR_MAX_AUTOTUNE=1", NULL },
	[AB_APPLIED] = { "applied", "apply", NULL, NULL },
	[AB_TF32] = { "tf32", "observe", AB_TF32_ENV, "tf32" },
	[AB_APPLIED_TF32] = { "applied+tf32", "apply", AB_TF32_ENV, "tf32" },
	/* their TKO_APPLY_KEEP_OFF is the user's --keep-off list: apply_run.keep_off */
	[AB_KEEP_OFF] = { "keep-off", "observe", NULL, NULL },
	[AB_APPLIED_KEEP_OFF] = { "applied+keep-off", "apply", NULL, NULL },
};

int ab_keeps_off(enum ab_arm a)
{
	return a == AB_KEEP_OFF || a == AB_APPLIED_KEEP_OFF;
}

static int arm_named(const char *s, size_t len)
{
	int a;

	for (a = 0; a < AB_NARMS; a++)
		if (strlen(ab_arms[a].name) == len && !memcmp(ab_arms[a].name, s, len))
			return a;
	return -1;
}

int ab_parse_arms(const char *list, enum ab_arm *arms, size_t *n, struct buf *err)
{
	unsigned seen = 0;
	const char *p = list;

	*n = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int a = arm_named(p, len);

		if (a < 0 || (seen & (1u << a))) {
			buf_addf(err, "--arms: %s '%.*s' (arms: default, coordesc, max-autotune, applied, tf32, applied+tf32, keep-off, applied+keep-off)",
				 a < 0 ? "unknown arm" : "repeated arm", (int)len, p);
			return -1;
		}
		seen |= 1u << a;
		arms[(*n)++] = (enum ab_arm)a;
		p += len + (p[len] == ',');
	}
	if (!(seen & (1u << AB_DEFAULT)) || !(seen & (1u << AB_APPLIED))) {
		buf_adds(err, "--arms must name default and applied");
		return -1;
	}
	return 0;
}

size_t ab_order(size_t n, long round, size_t i)
{
	return round % 2 ? n - 1 - i : i;
}

/* P(X < k) for X ~ Binomial(n, 1/2). */
static double below(size_t n, size_t k)
{
	double c = 1, sum = 0;
	size_t j;

	for (j = 0; j < k; j++) {
		sum += c;
		c = c * (double)(n - j) / (double)(j + 1);
	}
	return sum / pow(2, (double)n);
}

int ab_ratio_stats(double *v, size_t n, struct ab_stats *out)
{
	size_t k = 1;

	if (!n)
		return -1;
	out->n = n;
	out->median = median_in_place(v, n);
	while (k + 1 <= (n + 1) / 2 && below(n, k + 1) <= 0.025)
		k++;
	out->lo = v[k - 1];
	out->hi = v[n - k];
	out->level = 1 - 2 * below(n, k);
	return 0;
}
