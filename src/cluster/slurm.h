/*
 * The Slurm side of a plan: the settings a site needs (partition, account,
 * time limit, GPUs per task, set-up lines), the job-array script that runs
 * one task per array index, the gather step's script, and reading squeue.
 *
 * The scripts are bash (a login module system needs it) and hold every
 * setting as an #SBATCH line, so that they can be read, edited and
 * submitted by hand as well as by `tko cluster submit`. Nothing tko tune
 * does is in them: a task is `tko tune ARGS --json TASK/tune.json DIR...`.
 */
#ifndef TKO_CLUSTER_SLURM_H
#define TKO_CLUSTER_SLURM_H

#include <stddef.h>

#include "cluster/plan.h"
#include "util/buf.h"

struct cluster_slurm {
	char *partition;	/* --partition, or NULL: the cluster's default */
	char *account;		/* --account, or NULL */
	char *time;		/* --time in Slurm's format, or NULL: from the plan */
	char *job_name;		/* --job-name, or NULL: "tko-tune" */
	char *gres;		/* the GPUs' gres name, or NULL: "gpu" ("dcu" on many DCU sites) */
	long gpus;		/* GPUs per task (--gres=NAME:N); 0: none asked for */
	long cpus;		/* --cpus-per-task; 0: the cluster's default */
	char **setup;		/* shell lines run first: module loads, a venv's activate */
	size_t nsetup;
	char **extra;		/* further sbatch options, one word each ("--mem=64G") */
	size_t nextra;
};
#define CLUSTER_SLURM_INIT { NULL, NULL, NULL, NULL, NULL, 1, 0, NULL, 0, NULL, 0 }

void cluster_slurm_set(char **field, const char *value);	/* replaces, copying */
void cluster_slurm_add_setup(struct cluster_slurm *s, const char *line);
void cluster_slurm_add_extra(struct cluster_slurm *s, const char *arg);
void cluster_slurm_release(struct cluster_slurm *s);

/*
 * 0, or -1 with a line in err when a value cannot stand in an #SBATCH line
 * (a space, a quote, a control character: sbatch would split or mangle
 * it) or a set-up line spans lines.
 */
int cluster_slurm_check(const struct cluster_slurm *s, struct buf *err);

/* 0, or -1 with a line in err when the plan's folder cannot stand in an #SBATCH line. */
int cluster_slurm_check_path(const char *dir, struct buf *err);

/*
 * Slurm's time limit for a task predicted to take `seconds`: twice that
 * plus 10 minutes, in whole minutes, written D-HH:MM:SS or HH:MM:SS.
 */
void cluster_slurm_time_for(double seconds, struct buf *out);

/* Everything a script is made of. */
struct cluster_job {
	const struct cluster_plan *plan;	/* grouped */
	const struct cluster_slurm *slurm;
	const char *cwd;		/* absolute: where tasks run; kernel dirs are relative to it */
	const char *dir;		/* absolute: the plan's folder */
	const char *tko;		/* the tko binary the tasks run */
	const char *const *tune_args;	/* passed to every `tko tune` */
	size_t ntune;
};

/* The job-array script (DIR/tune.sbatch). */
void cluster_script_tasks(const struct cluster_job *j, struct buf *out);
/* The gather step's script (DIR/gather.sbatch). */
void cluster_script_gather(const struct cluster_job *j, struct buf *out);

/* One array task as squeue lists it. */
struct cluster_queued {
	char *job;		/* the array's job id */
	long task;		/* the array index */
	char *state;		/* PENDING, RUNNING, COMPLETING, ... */
};

/*
 * Reads the output of `squeue -h -r -o "%A %K %T"`: one array task a line.
 * Lines of jobs that are not array tasks are skipped. Returns the number
 * read into a new *out (free with cluster_queued_free).
 */
size_t cluster_squeue_parse(const char *text, size_t len, struct cluster_queued **out);
void cluster_queued_free(struct cluster_queued *q, size_t n);

#endif
