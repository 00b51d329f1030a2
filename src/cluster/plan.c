/*
 * Grouping a plan's kernels into array tasks, longest processing time
 * first (plan.h says why).
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/plan.h"
#include "util/mem.h"
#include "banned.h"

void cluster_plan_add(struct cluster_plan *p, const char *dir, double cost_s,
		      const char *from)
{
	struct cluster_kernel *k;

	ALLOC_GROW(p->k, p->nk + 1, p->alloc);
	k = &p->k[p->nk++];
	k->dir = xstrdup(dir);
	k->cost_s = cost_s > 0 ? cost_s : 0;
	k->cost_from = from;
	k->task = 0;
}

/* Longest first; equal costs keep the local order (a stable sort by hand). */
static int before(const struct cluster_plan *p, size_t a, size_t b)
{
	if (p->k[a].cost_s != p->k[b].cost_s)
		return p->k[a].cost_s > p->k[b].cost_s;
	return a < b;
}

static size_t *by_cost(const struct cluster_plan *p)
{
	size_t *order = xcalloc(p->nk, sizeof(*order));
	size_t i, j;

	/* insertion sort: a RUN has hundreds of kernels, not millions */
	for (i = 0; i < p->nk; i++) {
		for (j = i; j > 0 && before(p, i, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	return order;
}

static size_t least_loaded(const struct cluster_plan *p)
{
	size_t i, best = 0;

	for (i = 1; i < p->nt; i++)
		if (p->t[i].cost_s < p->t[best].cost_s)
			best = i;
	return best;
}

static void tasks_release(struct cluster_plan *p)
{
	size_t i;

	for (i = 0; i < p->nt; i++)
		free(p->t[i].k);
	free(p->t);
	p->t = NULL;
	p->nt = 0;
}

int cluster_plan_group(struct cluster_plan *p, size_t ntasks)
{
	size_t *order, i;

	if (!p->nk || !ntasks)
		return -1;
	tasks_release(p);
	p->nt = ntasks < p->nk ? ntasks : p->nk;
	p->t = xcalloc(p->nt, sizeof(*p->t));
	order = by_cost(p);
	for (i = 0; i < p->nk; i++) {
		size_t k = order[i];
		struct cluster_task *t = &p->t[least_loaded(p)];

		ALLOC_GROW(t->k, t->nr + 1, t->alloc);
		t->k[t->nr++] = k;
		t->cost_s += p->k[k].cost_s;
		p->k[k].task = (size_t)(t - p->t);
	}
	free(order);
	return 0;
}

double cluster_plan_makespan(const struct cluster_plan *p)
{
	double m = 0;
	size_t i;

	for (i = 0; i < p->nt; i++)
		if (p->t[i].cost_s > m)
			m = p->t[i].cost_s;
	return m;
}

void cluster_plan_release(struct cluster_plan *p)
{
	size_t i;

	for (i = 0; i < p->nk; i++)
		free(p->k[i].dir);
	free(p->k);
	tasks_release(p);
	p->k = NULL;
	p->nk = p->alloc = 0;
}
