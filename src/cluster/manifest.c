/*
 * Writing and reading DIR/plan.json (manifest.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/manifest.h"
#include "json/jsonio.h"
#include "util/file.h"
#include "util/jcheck.h"
#include "util/mem.h"
#include "version.h"
#include "banned.h"

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strs(char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *slurm_json(const struct cluster_slurm *s)
{
	json_t *j = json_object();

	json_set_new(j, "partition", str_or_null(s->partition));
	json_set_new(j, "account", str_or_null(s->account));
	json_set_new(j, "time", str_or_null(s->time));
	json_set_new(j, "job_name", str_or_null(s->job_name));
	json_set_new(j, "gres", str_or_null(s->gres));
	json_set_int(j, "gpus_per_task", s->gpus);
	json_set_int(j, "cpus_per_task", s->cpus);
	json_set_new(j, "setup", strs(s->setup, s->nsetup));
	json_set_new(j, "sbatch_args", strs(s->extra, s->nextra));
	return j;
}

static json_t *kernels_json(const struct cluster_plan *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nk; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:s, s:I}", "dir", p->k[i].dir,
						   "predicted_s", p->k[i].cost_s,
						   "predicted_from", p->k[i].cost_from,
						   "task", (json_int_t)p->k[i].task));
	return a;
}

static json_t *tasks_json(const struct cluster_plan *p)
{
	json_t *a = json_array();
	size_t t, i;

	for (t = 0; t < p->nt; t++) {
		json_t *dirs = json_array();

		for (i = 0; i < p->t[t].nr; i++)
			json_array_append_new(dirs, json_string(p->k[p->t[t].k[i]].dir));
		json_array_append_new(a, json_pack("{s:I, s:f, s:o}", "index", (json_int_t)t,
						   "predicted_s", p->t[t].cost_s, "kernels", dirs));
	}
	return a;
}

json_t *cluster_manifest_json(const struct cluster_job *j, const char *run)
{
	json_t *doc = json_pack("{s:i, s:s, s:s}", "schema_version", 1, "tool", "tko cluster",
				"tko_version", TKO_VERSION);

	json_set_new(doc, "run", str_or_null(run));
	json_set_str(doc, "dir", j->dir);
	json_set_str(doc, "cwd", j->cwd);
	json_set_str(doc, "tko", j->tko);
	json_set_new(doc, "tune_args", strs((char *const *)j->tune_args, j->ntune));
	json_set_new(doc, "slurm", slurm_json(j->slurm));
	json_set_str(doc, "script", "tune.sbatch");
	json_set_str(doc, "gather_script", "gather.sbatch");
	json_set_num(doc, "predicted_makespan_s", cluster_plan_makespan(j->plan));
	json_set_new(doc, "kernels", kernels_json(j->plan));
	json_set_new(doc, "tasks", tasks_json(j->plan));
	return doc;
}

static const struct jc_field kernel_fields[] = {
	{ "dir", JC_STR, JC_NEED, NULL },
	{ "predicted_s", JC_TIME, JC_NEED, NULL },
	{ "task", JC_COUNT, JC_NEED, NULL },
	{ NULL, 0, 0, NULL },
};

static const struct jc_field task_fields[] = {
	{ "index", JC_COUNT, JC_NEED, NULL },
	{ "predicted_s", JC_TIME, JC_NEED, NULL },
	{ "kernels", JC_STRS, JC_NEED, NULL },
	{ NULL, 0, 0, NULL },
};

static const struct jc_field fields[] = {
	{ "dir", JC_STR, JC_NEED, NULL },
	{ "cwd", JC_STR, JC_NEED, NULL },
	{ "kernels", JC_LIST, JC_NEED, kernel_fields },
	{ "tasks", JC_LIST, JC_NEED, task_fields },
	{ NULL, 0, 0, NULL },
};

static long find_kernel(const struct cluster_plan *p, const char *dir)
{
	size_t i;

	for (i = 0; i < p->nk; i++)
		if (!strcmp(p->k[i].dir, dir))
			return (long)i;
	return -1;
}

/* Rebuilds p->t from the tasks' kernel lists; every kernel in exactly one task. */
static int read_tasks(struct cluster_plan *p, const json_t *tasks, const char *file,
		      struct buf *err)
{
	size_t t, i, *seen = xcalloc(p->nk, sizeof(*seen));
	json_t *task, *dir;
	int ret = 0;

	p->nt = json_array_size(tasks);
	p->t = xcalloc(p->nt, sizeof(*p->t));
	json_array_foreach(tasks, t, task) {
		if (json_int(task, "index", -1) != (long long)t) {
			buf_addf(err, "'%s': tasks[%zu].index: not %zu", file, t, t);
			ret = -1;
			break;
		}
		p->t[t].cost_s = json_num(task, "predicted_s", 0);
		json_array_foreach(json_object_get(task, "kernels"), i, dir) {
			long k = find_kernel(p, json_string_value(dir));

			if (k < 0 || seen[k]++) {
				buf_addf(err, "'%s': tasks[%zu].kernels[%zu]: '%s' %s", file, t, i,
					 json_string_value(dir), k < 0 ? "is not in kernels" :
					 "is in two tasks");
				ret = -1;
				break;
			}
			ALLOC_GROW(p->t[t].k, p->t[t].nr + 1, p->t[t].alloc);
			p->t[t].k[p->t[t].nr++] = (size_t)k;
			p->k[k].task = t;
		}
		if (ret)
			break;
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
	json_t *k;
	size_t i;
	int ret = -1;

	m->doc = json_load_path(path, err);
	if (!m->doc)
		goto out;
	if (json_int(m->doc, "schema_version", 0) != 1 ||
	    !json_str(m->doc, "tool") || strcmp(json_str(m->doc, "tool"), "tko cluster")) {
		buf_addf(err, "'%s' is not a tko cluster plan (schema_version 1)", path);
		goto out;
	}
	if (jc_check(m->doc, fields, path, err) < 0)
		goto out;
	json_array_foreach(json_object_get(m->doc, "kernels"), i, k)
		cluster_plan_add(&m->plan, json_str(k, "dir"), json_num(k, "predicted_s", 0),
				 "plan.json");
	if (!m->plan.nk) {
		buf_addf(err, "'%s': kernels: empty", path);
		goto out;
	}
	m->dir = json_str(m->doc, "dir");
	m->cwd = json_str(m->doc, "cwd");
	ret = read_tasks(&m->plan, json_object_get(m->doc, "tasks"), path, err);
out:
	free(path);
	return ret;
}

void cluster_manifest_release(struct cluster_manifest *m)
{
	cluster_plan_release(&m->plan);
	json_decref(m->doc);
	m->doc = NULL;
	m->dir = m->cwd = NULL;
}
