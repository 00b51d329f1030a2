/*
 * What `tko cluster submit` decides and records: which array indices to
 * submit (the tasks neither finished nor queued, written as Slurm's
 * --array list), the job id sbatch --parsable answers, and DIR/jobs.json,
 * the plan's submissions (docs/json.md, "tko cluster"), which status
 * reads to know which of the queue's jobs are the plan's.
 */
#ifndef TKO_CLUSTER_SUBMIT_H
#define TKO_CLUSTER_SUBMIT_H

#include <stddef.h>

#include "cluster/task.h"
#include "model/cluster.h"
#include "util/buf.h"

#define CLUSTER_JOBS "jobs.json"

/*
 * The indices to submit, as "0-3,5,7-8" (nothing when none): the tasks
 * that are neither finished nor pending or running.
 */
void cluster_submit_list(const struct cluster_task_state *st, size_t nt, struct buf *out);

/*
 * Checks an --array list given by hand: numbers, "A-B" ranges, commas,
 * every index below nt. 0, or -1 with a line in err.
 */
int cluster_array_check(const char *list, size_t nt, struct buf *err);

/*
 * The job id of `sbatch --parsable`'s answer ("123" or "123;cluster"),
 * newly allocated, or NULL when it is not one.
 */
char *cluster_job_id(const char *out, size_t len);

/*
 * What sbatch printed (its standard error, or an answer that is not a job
 * id), as one readable line for an error message: its non-blank lines,
 * trimmed, each without a leading "sbatch: ", joined with "; ", cut at
 * about 1000 bytes ("..."). Slurm words an error over several lines
 * ("sbatch: error: invalid partition ...", then "Batch job submission
 * failed: ..."), which msg_error would show as "\x0a" escapes. Appended
 * to out; nothing for a text of blank lines.
 */
void cluster_sbatch_said(const char *text, size_t len, struct buf *out);

/*
 * DIR/jobs.json's document into `jobs` (initialised here; release it with
 * rf_release(&cluster_jobs_doc_desc, jobs)): the file's, or an empty one
 * when there is none. 0, or -1 with a line in err when it is unreadable.
 */
int cluster_jobs_read(const char *dir, struct cluster_jobs_doc *jobs, struct buf *err);
/* Adds a submission (gather_job may be NULL) and writes the file. 0 or -1 + err. */
int cluster_jobs_add(const char *dir, struct cluster_jobs_doc *jobs, const char *job,
		     const char *array, const char *gather_job, struct buf *err);
/* The job ids of the submissions (borrowed from `jobs`), as a new array of *n. */
const char **cluster_jobs_ids(const struct cluster_jobs_doc *jobs, size_t *n);

#endif
