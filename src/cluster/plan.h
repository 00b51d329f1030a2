/*
 * A RUN's tuning cut into Slurm array tasks: the kernels, each with a
 * predicted cost, grouped so that the tasks take about the same time.
 *
 *	struct cluster_plan p = CLUSTER_PLAN_INIT;
 *	cluster_plan_add(&p, "run/capture/kernels/a", 42.0, "capture");
 *	...				(in the order a local `tko tune` takes them)
 *	cluster_plan_group(&p, 8);	(p.t[0..p.nt) are the tasks)
 *	cluster_plan_release(&p);
 *
 * Grouping is longest processing time first (Graham's LPT rule): the
 * kernels sorted by predicted cost, longest first, each given to the task
 * with the least predicted work so far. No task then ends later than 4/3
 * of the best possible makespan, and a task runs its kernels longest
 * first, so a task cut short by its time limit has done its big ones.
 * Ties go to the kernel that comes first in the local order and to the
 * task with the lowest index, so the same inputs give the same plan.
 */
#ifndef TKO_CLUSTER_PLAN_H
#define TKO_CLUSTER_PLAN_H

#include <stddef.h>

struct cluster_kernel {
	char *dir;		/* the kernel directory, as `tko tune` is given it */
	double cost_s;		/* predicted seconds of tuning */
	const char *cost_from;	/* what the prediction came from (cost.h); static */
	size_t task;		/* its task, once grouped */
};

struct cluster_task {
	size_t *k;		/* indices into the plan's kernels, longest first */
	size_t nr, alloc;
	double cost_s;		/* the sum of their predicted costs */
};

struct cluster_plan {
	struct cluster_kernel *k;	/* in the order a local run takes them */
	size_t nk, alloc;
	struct cluster_task *t;		/* the tasks, by array index */
	size_t nt;
};
#define CLUSTER_PLAN_INIT { NULL, 0, 0, NULL, 0 }

/* Appends a kernel (dir is copied; from must be a static string). */
void cluster_plan_add(struct cluster_plan *p, const char *dir, double cost_s,
		      const char *from);

/*
 * Groups the kernels into min(ntasks, kernels) tasks. Returns 0, or -1
 * when there is no kernel or ntasks is 0.
 */
int cluster_plan_group(struct cluster_plan *p, size_t ntasks);

/* The largest task's predicted seconds (0 before grouping). */
double cluster_plan_makespan(const struct cluster_plan *p);

void cluster_plan_release(struct cluster_plan *p);

#endif
