/* The documents of tko cluster as typed models (cluster.h). */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/cluster.h"
#include "util/mem.h"
#include "banned.h"

#define T struct cluster_doc_slurm
static const struct rf_field slurm_fields[] = {
	RF_F(T, "partition", RF_STR, partition),
	RF_F(T, "account", RF_STR, account),
	RF_F(T, "time", RF_STR, time),
	RF_F(T, "job_name", RF_STR, job_name),
	RF_F(T, "gres", RF_STR, gres),
	RF_FX(T, "gpus_per_task", RF_I64, gpus_per_task, RF_COUNT),
	RF_FX(T, "cpus_per_task", RF_I64, cpus_per_task, RF_COUNT),
	RF_V(T, "setup", setup, nsetup),
	RF_V(T, "sbatch_args", sbatch_args, nsbatch_args),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct slurm_desc = {
	"slurm", sizeof(struct cluster_doc_slurm), slurm_fields
};

#define T struct cluster_doc_kernel
static const struct rf_field kernel_fields[] = {
	RF_FX(T, "dir", RF_STR, dir, RF_NEED),
	RF_FX(T, "predicted_s", RF_NUM, predicted_s, RF_NEED | RF_TIME),
	RF_F(T, "predicted_from", RF_STR, predicted_from),
	RF_FX(T, "task", RF_I64, task, RF_NEED | RF_COUNT),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct kernel_desc = {
	"kernel", sizeof(struct cluster_doc_kernel), kernel_fields
};

#define T struct cluster_doc_task
static const struct rf_field task_fields[] = {
	RF_FX(T, "index", RF_I64, index, RF_NEED | RF_COUNT),
	RF_FX(T, "predicted_s", RF_NUM, predicted_s, RF_NEED | RF_TIME),
	{ "kernels", RF_STRV, offsetof(T, kernels), offsetof(T, nkernels), NULL, RF_NEED, NULL },
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct task_desc = { "task", sizeof(struct cluster_doc_task), task_fields };

#define T struct cluster_plan_doc
static const struct rf_field plan_fields[] = {
	RF_F(T, "tko_version", RF_STR, tko_version),
	RF_F(T, "run", RF_STR, run),
	RF_FX(T, "dir", RF_STR, dir, RF_NEED),
	RF_FX(T, "cwd", RF_STR, cwd, RF_NEED),
	RF_F(T, "tko", RF_STR, tko),
	RF_V(T, "tune_args", tune_args, ntune_args),
	RF_S(T, "slurm", slurm, &slurm_desc, 0),
	RF_F(T, "script", RF_STR, script),
	RF_F(T, "gather_script", RF_STR, gather_script),
	RF_FX(T, "predicted_makespan_s", RF_NUM, predicted_makespan_s, RF_TIME),
	RF_AX(T, "kernels", kernels, nkernels, &kernel_desc, RF_NEED),
	RF_AX(T, "tasks", tasks, ntasks, &task_desc, RF_NEED),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
const struct rf_struct cluster_plan_doc_desc = {
	"plan.json", sizeof(struct cluster_plan_doc), plan_fields
};

#define T struct cluster_doc_job
static const struct rf_field job_fields[] = {
	RF_FX(T, "job_id", RF_STR, job_id, RF_NEED),
	RF_FX(T, "array", RF_STR, array, RF_NEED),
	RF_F(T, "gather_job_id", RF_STR, gather_job_id),
	RF_F(T, "submitted", RF_STR, submitted),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct job_desc = { "job", sizeof(struct cluster_doc_job), job_fields };

#define T struct cluster_jobs_doc
static const struct rf_field jobs_fields[] = {
	RF_AX(T, "jobs", jobs, njobs, &job_desc, RF_NEED),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
const struct rf_struct cluster_jobs_doc_desc = {
	"jobs.json", sizeof(struct cluster_jobs_doc), jobs_fields
};

#define T struct cluster_status_task
static const struct rf_field status_task_fields[] = {
	RF_FX(T, "index", RF_I64, index, RF_COUNT),
	RF_FX(T, "kernels", RF_I64, kernels, RF_COUNT),
	RF_FX(T, "predicted_s", RF_NUM, predicted_s, RF_TIME),
	RF_F(T, "state", RF_STR, state),
	RF_F(T, "exit_status", RF_I64, exit_status),
	RF_F(T, "job_id", RF_STR, job_id),
	RF_F(T, "slurm_state", RF_STR, slurm_state),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct status_task_desc = {
	"task", sizeof(struct cluster_status_task), status_task_fields
};

#define T struct cluster_status_doc
static const struct rf_field status_fields[] = {
	RF_F(T, "dir", RF_STR, dir),
	RF_F(T, "queue_read", RF_BOOL, queue_read),
	RF_A(T, "tasks", tasks, ntasks, &status_task_desc),
	RF_F(T, "finished", RF_BOOL, finished),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
const struct rf_struct cluster_status_doc_desc = {
	"tko cluster status", sizeof(struct cluster_status_doc), status_fields
};

int cluster_plan_doc_read(struct cluster_plan_doc *d, const json_t *j, const char *what,
			  struct buf *err)
{
	const char *tool = json_str(j, "tool");

	if (json_int(j, "schema_version", 0) != CLUSTER_SCHEMA_VERSION || !tool ||
	    strcmp(tool, CLUSTER_PLAN_TOOL)) {
		buf_addf(err, "'%s' is not a tko cluster plan (schema_version 1)", what);
		return -1;
	}
	return rf_read(&cluster_plan_doc_desc, d, j, what, err);
}

int cluster_jobs_doc_read(struct cluster_jobs_doc *d, const json_t *j, const char *what,
			  struct buf *err)
{
	return rf_read(&cluster_jobs_doc_desc, d, j, what, err);
}

void cluster_jobs_doc_add(struct cluster_jobs_doc *d, const char *job_id, const char *array,
			  const char *gather_job_id, const char *submitted)
{
	struct cluster_doc_job *j;

	d->jobs = rf_grow(d->jobs, d->njobs, sizeof(*d->jobs));
	j = &d->jobs[d->njobs++];
	j->job_id = xstrdup(job_id);
	j->array = xstrdup(array);
	j->gather_job_id = gather_job_id ? xstrdup(gather_job_id) : NULL;
	j->submitted = xstrdup(submitted);
}

int cluster_plan_doc_save(const struct cluster_plan_doc *d, const char *path, struct buf *err)
{
	return rf_save_doc(path, &cluster_plan_doc_desc, d, CLUSTER_SCHEMA_VERSION,
			   CLUSTER_PLAN_TOOL, err);
}

int cluster_plan_doc_write(FILE *fp, const struct cluster_plan_doc *d)
{
	return rf_write_doc(fp, &cluster_plan_doc_desc, d, CLUSTER_SCHEMA_VERSION,
			    CLUSTER_PLAN_TOOL);
}

int cluster_jobs_doc_save(const struct cluster_jobs_doc *d, const char *path, struct buf *err)
{
	return rf_save_doc(path, &cluster_jobs_doc_desc, d, CLUSTER_SCHEMA_VERSION,
			   CLUSTER_JOBS_TOOL, err);
}

int cluster_status_doc_save(const struct cluster_status_doc *d, const char *path,
			    struct buf *err)
{
	return rf_save_doc(path, &cluster_status_doc_desc, d, CLUSTER_SCHEMA_VERSION,
			   CLUSTER_STATUS_TOOL, err);
}
