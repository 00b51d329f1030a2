/* Merging one tuning told by two inputs (autotune_twins.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/autotune_twins.h"
#include "rundir/layout.h"
#include "util/mem.h"
#include "banned.h"

/*
 * Half a unit of the seed log's fourth decimal ("%.4f" of milliseconds),
 * with room for the binary rounding of the six-decimal side.
 */
#define TIME_SLACK_MS 5.0001e-5

static int same_known(long a, long b)
{
	return a < 0 || b < 0 || a == b;
}

static int has_kwarg(const struct at_config *c, const struct at_kwarg *kw)
{
	size_t i;

	for (i = 0; i < c->nkw; i++)
		if (!strcmp(c->kw[i].name, kw->name) && !strcmp(c->kw[i].value, kw->value))
			return 1;
	return 0;
}

static int same_time(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	return fabs(a - b) <= TIME_SLACK_MS;
}

static int same_config(const struct at_config *a, const struct at_config *b)
{
	size_t i;

	if (a->nkw != b->nkw || a->num_warps != b->num_warps ||
	    a->num_stages != b->num_stages || !same_known(a->num_ctas, b->num_ctas) ||
	    !same_known(a->maxnreg, b->maxnreg) || !same_time(a->time_ms, b->time_ms))
		return 0;
	if (a->label && b->label && strcmp(a->label, b->label))
		return 0;
	for (i = 0; i < a->nkw; i++)
		if (!has_kwarg(b, &a->kw[i]))
			return 0;
	return 1;
}

/* Fills map[j] with the config of a matching b's config j; 0 when some has none. */
static int match(const struct at_tuning *a, const struct at_tuning *b, long *map)
{
	char *used;
	size_t i, j;
	int ok = 1;

	if (a->method != b->method || a->src.file == b->src.file || !a->nr || a->nr != b->nr)
		return 0;
	used = xcalloc(a->nr, 1);
	for (j = 0; ok && j < b->nr; j++) {
		map[j] = -1;
		for (i = 0; i < a->nr && map[j] < 0; i++)
			if (!used[i] && same_config(&a->configs[i], &b->configs[j])) {
				used[i] = 1;
				map[j] = (long)i;
			}
		ok = map[j] >= 0;
	}
	free(used);
	return ok;
}

static void fill_long(long *to, long from)
{
	if (*to < 0)
		*to = from;
}

static void fill_str(char **to, const char *from)
{
	if (!*to && from)
		*to = xstrdup(from);
}

static void fill_config(struct at_config *to, const struct at_config *from)
{
	fill_long(&to->num_ctas, from->num_ctas);
	fill_long(&to->maxnreg, from->maxnreg);
	fill_long(&to->n_regs, from->n_regs);
	fill_long(&to->n_spills, from->n_spills);
	fill_long(&to->shared_bytes, from->shared_bytes);
	fill_str(&to->label, from->label);
	fill_str(&to->text, from->text);
	fill_str(&to->error, from->error);
	fill_str(&to->cache_hash, from->cache_hash);
	if (isnan(to->pct_of_best))
		to->pct_of_best = from->pct_of_best;
	/* The seed log rounds to four decimals; any other input is finer. */
	if (to->src.fmt == AT_FMT_SEED_LOG && from->src.fmt != AT_FMT_SEED_LOG &&
	    isfinite(from->time_ms))
		to->time_ms = from->time_ms;
}

/* Points the saved-to index entry of path at `to` where it named `from`. */
static void repoint_saved(struct autotune_set *s, const char *path,
			  struct at_tuning *from, struct at_tuning *to)
{
	const char *tail;
	void **slot;

	if (!path)
		return;
	tail = rd_tail2(path, strlen(path));
	slot = strmap_put_ptr(&s->saved, tail, strlen(tail));
	if (!*slot || *slot == from)
		*slot = to;
}

static void fill_tuning(struct autotune_set *s, struct at_tuning *a,
			struct at_tuning *b, const long *map)
{
	size_t j;

	for (j = 0; j < b->nr; j++)
		fill_config(&a->configs[map[j]], &b->configs[j]);
	if (a->best < 0 && b->best >= 0) {
		a->best = map[b->best];
		a->best_src = b->best_src;
	}
	if (isnan(a->elapsed_ms) && !isnan(b->elapsed_ms)) {
		a->elapsed_ms = b->elapsed_ms;
		a->elapsed_src = b->elapsed_src;
	}
	if (isnan(a->precompile_ms))
		a->precompile_ms = b->precompile_ms;
	if (isnan(a->speedup))
		a->speedup = b->speedup;
	fill_long(&a->num_choices, b->num_choices);
	fill_str(&a->key, b->key);
	fill_str(&a->cache_file, b->cache_file);
	repoint_saved(s, b->saved_to, b, a);
	fill_str(&a->saved_to, b->saved_to);
	a->complete |= b->complete;
	if (a->twin_src.fmt == AT_FMT_NONE)
		a->twin_src = b->src;
}

static size_t merge_kernel(struct autotune_set *s, struct at_kernel *k)
{
	size_t i, j, merged = 0;

	for (i = 0; i < k->ntunings; i++) {
		for (j = i + 1; j < k->ntunings; j++) {
			struct at_tuning *a = k->tunings[i], *b = k->tunings[j];
			long *map = xcalloc(b->nr ? b->nr : 1, sizeof(*map));

			if (match(a, b, map)) {
				fill_tuning(s, a, b, map);
				at_tuning_remove(k, j--);
				merged++;
			}
			free(map);
		}
	}
	return merged;
}

size_t autotune_set_merge_twins(struct autotune_set *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += merge_kernel(s, s->kernels[i]);
	return n;
}
