/*
 * model/cluster: the documents of `tko cluster` (docs/json.md, "tko
 * cluster") as typed structs with their reflect tables:
 *
 *   plan.json   what `plan` decided (tool "tko cluster"): schema_version,
 *               tool, tko_version, run, dir, cwd, tko, tune_args[], slurm
 *               {partition, account, time, job_name, gres, gpus_per_task,
 *               cpus_per_task, setup[], sbatch_args[]}, script,
 *               gather_script, predicted_makespan_s, kernels [{dir,
 *               predicted_s, predicted_from, task}], tasks [{index,
 *               predicted_s, kernels[]}]
 *   jobs.json   the plan's submissions (tool "tko cluster submit"):
 *               schema_version, tool, jobs [{job_id, array, gather_job_id,
 *               submitted}]
 *   status      `status --json` (tool "tko cluster status"): schema_version,
 *               tool, dir, queue_read, tasks [{index, kernels, predicted_s,
 *               state, exit_status, job_id, slurm_state}], finished
 *
 * cluster/manifest.h fills and reads the plan, cluster/submit.h the jobs,
 * cluster/status.h fills the status; report/cluster_text.h renders them.
 */
#ifndef TKO_MODEL_CLUSTER_H
#define TKO_MODEL_CLUSTER_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

#define CLUSTER_SCHEMA_VERSION 1
#define CLUSTER_PLAN_TOOL "tko cluster"
#define CLUSTER_JOBS_TOOL "tko cluster submit"
#define CLUSTER_STATUS_TOOL "tko cluster status"

/* The Slurm settings the scripts were written with. */
struct cluster_doc_slurm {
	char *partition, *account, *time, *job_name, *gres;	/* NULL: not asked for */
	long long gpus_per_task;	/* 0: none asked for */
	long long cpus_per_task;	/* 0: the cluster's default */
	char **setup;			/* shell lines before each task */
	size_t nsetup;
	char **sbatch_args;		/* extra sbatch arguments */
	size_t nsbatch_args;
};

struct cluster_doc_kernel {
	char *dir;			/* the kernel directory, as `tko tune` is given it */
	double predicted_s;		/* predicted seconds of tuning */
	char *predicted_from;		/* what the prediction came from */
	long long task;			/* its task */
};

struct cluster_doc_task {
	long long index;		/* its array index: its place in tasks[] */
	double predicted_s;		/* the sum of its kernels' */
	char **kernels;			/* their dirs, longest first */
	size_t nkernels;
};

/* plan.json. */
struct cluster_plan_doc {
	char *tko_version;
	char *run;			/* the RUN planned, or NULL (kernel dirs given) */
	char *dir;			/* absolute: the plan's folder */
	char *cwd;			/* absolute: where the tasks run */
	char *tko;			/* the tko the tasks run */
	char **tune_args;		/* passed to every `tko tune` */
	size_t ntune_args;
	struct cluster_doc_slurm slurm;
	char *script, *gather_script;	/* "tune.sbatch", "gather.sbatch" */
	double predicted_makespan_s;	/* the largest task's prediction */
	struct cluster_doc_kernel *kernels;	/* in the order a local run takes them */
	size_t nkernels;
	struct cluster_doc_task *tasks;	/* by array index */
	size_t ntasks;
};

/* One submission of jobs.json. */
struct cluster_doc_job {
	char *job_id;			/* the array's */
	char *array;			/* the --array list submitted */
	char *gather_job_id;		/* the gather's, or NULL */
	char *submitted;		/* ISO 8601, UTC */
};

/* jobs.json. */
struct cluster_jobs_doc {
	struct cluster_doc_job *jobs;
	size_t njobs;
};

struct cluster_status_task {
	long long index;
	long long kernels;		/* how many */
	double predicted_s;
	char *state;			/* cluster/task.h's state name */
	long long exit_status;		/* RF_I64_NONE: none recorded */
	char *job_id, *slurm_state;	/* the queue's, or NULL */
};

/* `tko cluster status --json`. */
struct cluster_status_doc {
	char *dir;			/* the plan folder as given */
	int queue_read;			/* squeue answered */
	struct cluster_status_task *tasks;
	size_t ntasks;
	int finished;			/* every task finished */
};

extern const struct rf_struct cluster_plan_doc_desc;
extern const struct rf_struct cluster_jobs_doc_desc;
extern const struct rf_struct cluster_status_doc_desc;

/*
 * Reads plan.json's tree, the version and tool checked first: 0, or -1
 * with one line in err naming `what` (util/jcheck.c's words).
 */
int cluster_plan_doc_read(struct cluster_plan_doc *d, const json_t *j, const char *what,
			  struct buf *err);
/* Reads jobs.json's tree: 0, or -1 with one line in err naming `what`. */
int cluster_jobs_doc_read(struct cluster_jobs_doc *d, const json_t *j, const char *what,
			  struct buf *err);
/* Appends a submission; the strings are copied (gather_job_id may be NULL). */
void cluster_jobs_doc_add(struct cluster_jobs_doc *d, const char *job_id, const char *array,
			  const char *gather_job_id, const char *submitted);

/* Each document written at `path` ("-": standard output), atomically: 0 or -1 + err. */
int cluster_plan_doc_save(const struct cluster_plan_doc *d, const char *path, struct buf *err);
int cluster_jobs_doc_save(const struct cluster_jobs_doc *d, const char *path, struct buf *err);
int cluster_status_doc_save(const struct cluster_status_doc *d, const char *path,
			    struct buf *err);
/* The plan into an open stream (an atomic_set's): 0 or -1. */
int cluster_plan_doc_write(FILE *fp, const struct cluster_plan_doc *d);

#endif
