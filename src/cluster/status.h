/*
 * The `tko cluster status` document (model/cluster.h) of a plan and its
 * tasks' states: one row a task, and whether every task has finished.
 */
#ifndef TKO_CLUSTER_STATUS_H
#define TKO_CLUSTER_STATUS_H

#include "cluster/plan.h"
#include "cluster/task.h"
#include "model/cluster.h"

/*
 * Fills `d` (initialised here; rf_release(&cluster_status_doc_desc, d)
 * frees it) from the plan, a state per task and whether squeue answered.
 */
void cluster_status_fill(const struct cluster_plan *p, const struct cluster_task_state *st,
			 int queue_read, const char *dir, struct cluster_status_doc *d);

#endif
