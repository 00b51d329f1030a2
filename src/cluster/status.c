/* The status document of a plan (status.h). */
#include <stdlib.h>

#include "cluster/status.h"
#include "util/mem.h"
#include "banned.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void cluster_status_fill(const struct cluster_plan *p, const struct cluster_task_state *st,
			 int queue_read, const char *dir, struct cluster_status_doc *d)
{
	size_t t;

	rf_init(&cluster_status_doc_desc, d);
	d->dir = xstrdup(dir);
	d->queue_read = !!queue_read;
	d->finished = 1;
	d->tasks = xcalloc(rf_capacity(p->nt), sizeof(*d->tasks));
	for (t = 0; t < p->nt; t++) {
		struct cluster_status_task *row = &d->tasks[d->ntasks++];

		d->finished &= cluster_state_finished(st[t].state);
		row->index = (long long)t;
		row->kernels = (long long)p->t[t].nr;
		row->predicted_s = p->t[t].cost_s;
		row->state = xstrdup(cluster_state_name(st[t].state));
		row->exit_status = st[t].exit_status >= 0 ? st[t].exit_status : RF_I64_NONE;
		row->job_id = dup_or_null(st[t].job);
		row->slurm_state = dup_or_null(st[t].slurm);
	}
}
