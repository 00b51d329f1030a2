/*
 * Writing and reading DIR/plan.json (manifest.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/manifest.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/mem.h"
#include "version.h"
#include "banned.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void strs_copy(char ***v, size_t *nr, const char *const *from, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*v = rf_grow(*v, *nr, sizeof(**v));
		(*v)[(*nr)++] = xstrdup(from[i]);
	}
}

static void slurm_fill(const struct cluster_slurm *s, struct cluster_doc_slurm *d)
{
	d->partition = dup_or_null(s->partition);
	d->account = dup_or_null(s->account);
	d->time = dup_or_null(s->time);
	d->job_name = dup_or_null(s->job_name);
	d->gres = dup_or_null(s->gres);
	d->gpus_per_task = s->gpus;
	d->cpus_per_task = s->cpus;
	strs_copy(&d->setup, &d->nsetup, (const char *const *)s->setup, s->nsetup);
	strs_copy(&d->sbatch_args, &d->nsbatch_args, (const char *const *)s->extra, s->nextra);
}

static void kernels_fill(const struct cluster_plan *p, struct cluster_plan_doc *d)
{
	size_t i;

	d->kernels = xcalloc(rf_capacity(p->nk), sizeof(*d->kernels));
	for (i = 0; i < p->nk; i++) {
		struct cluster_doc_kernel *k = &d->kernels[d->nkernels++];

		k->dir = xstrdup(p->k[i].dir);
		k->predicted_s = p->k[i].cost_s;
		k->predicted_from = xstrdup(p->k[i].cost_from);
		k->task = (long long)p->k[i].task;
	}
}

static void tasks_fill(const struct cluster_plan *p, struct cluster_plan_doc *d)
{
	size_t t, i;

	d->tasks = xcalloc(rf_capacity(p->nt), sizeof(*d->tasks));
	for (t = 0; t < p->nt; t++) {
		struct cluster_doc_task *task = &d->tasks[d->ntasks++];

		task->index = (long long)t;
		task->predicted_s = p->t[t].cost_s;
		for (i = 0; i < p->t[t].nr; i++) {
			const char *dir = p->k[p->t[t].k[i]].dir;

			strs_copy(&task->kernels, &task->nkernels, &dir, 1);
		}
	}
}

void cluster_manifest_fill(const struct cluster_job *j, const char *run,
			   struct cluster_plan_doc *d)
{
	rf_init(&cluster_plan_doc_desc, d);
	d->tko_version = xstrdup(TKO_VERSION);
	d->run = dup_or_null(run);
	d->dir = xstrdup(j->dir);
	d->cwd = xstrdup(j->cwd);
	d->tko = xstrdup(j->tko);
	strs_copy(&d->tune_args, &d->ntune_args, j->tune_args, j->ntune);
	slurm_fill(j->slurm, &d->slurm);
	d->script = xstrdup("tune.sbatch");
	d->gather_script = xstrdup("gather.sbatch");
	d->predicted_makespan_s = cluster_plan_makespan(j->plan);
	kernels_fill(j->plan, d);
	tasks_fill(j->plan, d);
}

static long find_kernel(const struct cluster_plan *p, const char *dir)
{
	size_t i;

	for (i = 0; i < p->nk; i++)
		if (!strcmp(p->k[i].dir, dir))
			return (long)i;
	return -1;
}

/* Rebuilds p->t from the tasks' kernel lists; every kernel in exactly one task. */
static int read_tasks(struct cluster_plan *p, const struct cluster_plan_doc *d, const char *file,
		      struct buf *err)
{
	size_t t, i, *seen = xcalloc(p->nk, sizeof(*seen));
	int ret = 0;

	p->nt = d->ntasks;
	p->t = xcalloc(p->nt, sizeof(*p->t));
	for (t = 0; !ret && t < d->ntasks; t++) {
		const struct cluster_doc_task *task = &d->tasks[t];

		if (task->index != (long long)t) {
			buf_addf(err, "'%s': tasks[%zu].index: not %zu", file, t, t);
			ret = -1;
			break;
		}
		p->t[t].cost_s = task->predicted_s;
		for (i = 0; i < task->nkernels; i++) {
			long k = find_kernel(p, task->kernels[i]);

			if (k < 0 || seen[k]++) {
				buf_addf(err, "'%s': tasks[%zu].kernels[%zu]: '%s' %s", file, t, i,
					 task->kernels[i], k < 0 ? "is not in kernels" :
					 "is in two tasks");
				ret = -1;
				break;
			}
			ALLOC_GROW(p->t[t].k, p->t[t].nr + 1, p->t[t].alloc);
			p->t[t].k[p->t[t].nr++] = (size_t)k;
			p->k[k].task = t;
		}
	}
	for (i = 0; !ret && i < p->nk; i++)
		if (!seen[i]) {
			buf_addf(err, "'%s': kernel '%s' is in no task", file, p->k[i].dir);
			ret = -1;
		}
	free(seen);
	return ret;
}

int cluster_manifest_read(const char *dir, struct cluster_manifest *m, struct buf *err)
{
	char *path = path_join(dir, CLUSTER_MANIFEST);
	json_t *j = json_load_path(path, err);
	size_t i;
	int ret = -1;

	rf_init(&cluster_plan_doc_desc, &m->doc);
	if (!j || cluster_plan_doc_read(&m->doc, j, path, err) < 0)
		goto out;
	for (i = 0; i < m->doc.nkernels; i++)
		cluster_plan_add(&m->plan, m->doc.kernels[i].dir, m->doc.kernels[i].predicted_s,
				 "plan.json");
	if (!m->plan.nk) {
		buf_addf(err, "'%s': kernels: empty", path);
		goto out;
	}
	m->dir = m->doc.dir;
	m->cwd = m->doc.cwd;
	ret = read_tasks(&m->plan, &m->doc, path, err);
out:
	json_decref(j);
	free(path);
	return ret;
}

void cluster_manifest_release(struct cluster_manifest *m)
{
	cluster_plan_release(&m->plan);
	rf_release(&cluster_plan_doc_desc, &m->doc);
	m->dir = m->cwd = NULL;
}
