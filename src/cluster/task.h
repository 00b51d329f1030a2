/*
 * Where a plan's tasks stand, from their folders (DIR/tasks/INDEX/) and
 * from squeue. A task's script writes DIR/tasks/INDEX/exit, `tko tune`'s
 * exit status, when tko returns; a task killed harder than SIGTERM (node
 * failure, SIGKILL after the time limit's grace) leaves none.
 *
 *   done      exit 0
 *   errors    exit 1: finished, but a kernel's input or base variant is
 *             bad, which a rerun does not change; its tune.json holds the
 *             kernels that ran (as a local run's would)
 *   failed    any other exit: a missing tool, a worker that died (3, 5),
 *             a timeout (124), stopped by scancel or the time limit (143)
 *   pending, running   in the queue (squeue), with no exit file
 *   not_run   neither: never submitted, or lost
 *
 * done and errors are finished: submit leaves them, gather takes them.
 */
#ifndef TKO_CLUSTER_TASK_H
#define TKO_CLUSTER_TASK_H

#include <stddef.h>

#include "cluster/slurm.h"
#include "util/buf.h"

enum cluster_state {
	CLUSTER_NOT_RUN,
	CLUSTER_PENDING,
	CLUSTER_RUNNING,
	CLUSTER_DONE,
	CLUSTER_ERRORS,
	CLUSTER_FAILED,
};

struct cluster_task_state {
	enum cluster_state state;
	int exit_status;	/* from the exit file, or -1 */
	const char *job;	/* the job id squeue shows it under, or NULL (borrowed) */
	const char *slurm;	/* squeue's state (RUNNING, COMPLETING, ...), or NULL (borrowed) */
};

/* DIR/tasks/INDEX as a new string. */
char *cluster_task_dir(const char *dir, size_t index);

/*
 * Reads the exit file of task `index`. 0, or -1 with a line in err when it
 * is there but does not hold a status (a number 0-255 and a newline).
 */
int cluster_task_read(const char *dir, size_t index, struct cluster_task_state *st,
		      struct buf *err);

/*
 * Marks the unfinished tasks that squeue lists under one of `jobs` (the
 * plan's submissions) pending or running.
 */
void cluster_task_queue(struct cluster_task_state *st, size_t nt, const struct cluster_queued *q,
			size_t nq, const char *const *jobs, size_t njobs);

int cluster_state_finished(enum cluster_state s);
const char *cluster_state_name(enum cluster_state s);

#endif
