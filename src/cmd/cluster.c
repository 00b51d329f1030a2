/*
 * tko cluster: a RUN's tuning as a Slurm job array (docs/cluster.md).
 *
 *   tko cluster plan RUN|KERNEL_DIR... [-- TUNE_ARGS]  DIR/plan.json, tune.sbatch, gather.sbatch
 *   tko cluster submit DIR    sbatch of the tasks not finished (--gather: and the merge after)
 *   tko cluster status DIR    where each task stands (task folders and squeue)
 *   tko cluster gather DIR    the tasks' results as one tune.json, as a local tko tune writes it
 *
 * Wiring only: src/cluster/ plans, writes the scripts, reads the states
 * and merges; model/cluster.h holds its documents, report/cluster_text.h
 * prints; tko tune does the tuning, one `tko tune` a task.
 */
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/config.h"
#include "cluster/gather.h"
#include "cluster/kernels.h"
#include "cluster/manifest.h"
#include "cluster/plan.h"
#include "cluster/slurm.h"
#include "cluster/status.h"
#include "cluster/submit.h"
#include "cluster/task.h"
#include "cmd/cmd.h"
#include "exitcode.h"
#include "json/jsonio.h"
#include "report/cluster_text.h"
#include "rundir/layout.h"
#include "tune/cost.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/spawn.h"
#include "util/walk.h"
#include "banned.h"

/* Tasks when neither --tasks nor the config says: a node's worth of GPUs. */
#define DEFAULT_TASKS 8

static const char *const usage[] = {
	"tko cluster plan|submit|status|gather ...",
	"",
	"Tunes a RUN's kernels across a Slurm cluster: `plan` groups the kernels",
	"into array tasks balanced by predicted time and writes the job script,",
	"`submit` runs sbatch on the tasks not finished yet, `status` says where",
	"each task stands, `gather` merges the tasks' results into the tune.json a",
	"local `tko tune` of the same kernels writes. `tko cluster CMD --help`",
	"for each; docs/cluster.md for the workflow.",
	NULL,
};

static const char *const plan_usage[] = {
	"tko cluster plan [--dir DIR] [--tasks N] [--config FILE] [SLURM OPTIONS]\n"
	"                 RUN|KERNEL_DIR... [-- TKO_TUNE_OPTIONS]",
	"",
	"Plans the tuning of a RUN's kernels (RUN/capture/kernels/*) or of the",
	"kernel directories given, as a Slurm job array: one task per group of",
	"kernels, groups balanced by predicted time (longest first). Writes",
	"DIR/plan.json, DIR/tune.sbatch (the array) and DIR/gather.sbatch (the",
	"merge); DIR is RUN/cluster by default. Options after -- go to every",
	"tko tune (--budget, --max-variants, --out, ...). Settings may come from a",
	"file (--config; docs/cluster.md): the command line wins.",
	NULL,
};

static const char *const submit_usage[] = {
	"tko cluster submit [--array LIST] [--gather] [--dry-run] [--json FILE] DIR",
	"",
	"Submits the plan's job array with sbatch: the tasks that have not",
	"finished and are not queued (or --array LIST), so that running it again",
	"after a failure runs only what is left. --gather also submits the merge,",
	"to run when the array is over (--dependency=afterany).",
	NULL,
};

static const char *const status_usage[] = {
	"tko cluster status [--json FILE] DIR",
	"",
	"Where each task of the plan stands: done, errors (finished, with a bad",
	"kernel), failed, pending, running or not_run, from the task folders and",
	"squeue. Exits 0 when every task has finished, 1 otherwise.",
	NULL,
};

static const char *const gather_usage[] = {
	"tko cluster gather [--json FILE] DIR",
	"",
	"Merges the tasks' results into DIR/tune.json (or FILE): the document a",
	"local `tko tune` of the plan's kernels writes, kernels in the same order.",
	"Every task must have finished. Exits 1, as tko tune does, when a kernel",
	"could not be tuned.",
	NULL,
};

struct plan_args {
	const char *dir, *config, *json, *tko;
	const char *partition, *account, *time, *job_name, *gres;
	long tasks, gpus, cpus;		/* -1: not given */
	struct strlist setup, extra;
};

/* The command line over the config file. */
static void apply_args(const struct plan_args *a, struct cluster_config *c)
{
	size_t i;

	if (a->partition)
		cluster_slurm_set(&c->slurm.partition, a->partition);
	if (a->account)
		cluster_slurm_set(&c->slurm.account, a->account);
	if (a->time)
		cluster_slurm_set(&c->slurm.time, a->time);
	if (a->job_name)
		cluster_slurm_set(&c->slurm.job_name, a->job_name);
	if (a->gres)
		cluster_slurm_set(&c->slurm.gres, a->gres);
	if (a->tko)
		cluster_slurm_set(&c->tko, a->tko);
	if (a->gpus >= 0)
		c->slurm.gpus = a->gpus;
	if (a->cpus >= 0)
		c->slurm.cpus = a->cpus;
	if (a->tasks >= 0)
		c->tasks = a->tasks;
	for (i = 0; i < a->setup.nr; i++)
		cluster_slurm_add_setup(&c->slurm, a->setup.v[i]);
	for (i = 0; i < a->extra.nr; i++)
		cluster_slurm_add_extra(&c->slurm, a->extra.v[i]);
}

/* tko tune options the plan sets itself. */
static int check_tune_args(const char *const *args, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(args[i], "--json") || !strncmp(args[i], "--json=", 7) ||
		    !strcmp(args[i], "--md") || !strncmp(args[i], "--md=", 5)) {
			msg_error("tko tune's --json and --md are the plan's: each task writes "
				  "tasks/INDEX/tune.json, and gather merges them");
			return -1;
		}
	return 0;
}

/* The kernel directories, and the default DIR when a RUN is given. */
static int find_kernels(const char **args, size_t n, struct strlist *dirs, char **dflt)
{
	struct buf err = BUF_INIT;
	size_t i;

	*dflt = NULL;
	if (n == 1 && cmd_is_run(args[0])) {
		if (cluster_run_kernels(args[0], dirs, &err) < 0) {
			msg_error("%s", err.buf);
			buf_release(&err);
			return -1;
		}
		*dflt = rd_path_in(args[0], RD_CLUSTER_DIR);
		return 0;
	}
	for (i = 0; i < n; i++) {
		char *kpy = rd_kernel_path(args[i], RD_K_KERNEL_PY);
		int ok = is_file(kpy);

		free(kpy);
		if (!ok) {
			msg_error("'%s' is neither a RUN (capture/kernels/) nor a kernel directory "
				  "(kernel.py)%s", args[i], n > 1 && cmd_is_run(args[i]) ?
				  ": give a RUN alone" : "");
			return -1;
		}
		strlist_push(dirs, xstrdup(args[i]));
	}
	return 0;
}

static char *self_exe(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return xstrdup("tko");
	path[n] = '\0';
	return xstrdup(path);
}

/* Makes DIR (and log/, tasks/); its absolute path into *abs. */
static int make_dir(const char *dir, char **abs, struct buf *err)
{
	char *p = path_join(dir, CLUSTER_MANIFEST), *real;
	int ret = -1;

	if (is_file(p)) {
		buf_addf(err, "'%s' holds a plan already: remove it first, or give another --dir", p);
		goto out;
	}
	free(p);
	p = path_join(dir, "log");
	if (mkdir_p(p, err) < 0)
		goto out;
	free(p);
	p = path_join(dir, "tasks");
	if (mkdir_p(p, err) < 0)
		goto out;
	real = realpath(dir, NULL);
	if (!real) {
		buf_addf(err, "cannot resolve '%s'", dir);
		goto out;
	}
	*abs = xstrdup(real);
	free(real);
	ret = 0;
out:
	free(p);
	return ret;
}

static int add_text(struct atomic_set *set, const char *path, const char *text, struct buf *err)
{
	FILE *fp = atomic_set_open(set, path, err);

	return fp && fputs(text, fp) >= 0 ? 0 : -1;
}

static int add_plan(struct atomic_set *set, const char *path, const struct cluster_plan_doc *doc,
		    struct buf *err)
{
	FILE *fp = atomic_set_open(set, path, err);

	return fp && cluster_plan_doc_write(fp, doc) == 0 ? 0 : -1;
}

/* plan.json, tune.sbatch, gather.sbatch (and --json's copy), all or none. */
static int write_plan(const struct cluster_job *j, const struct cluster_plan_doc *doc,
		      const char *dir, const char *json, struct buf *err)
{
	struct atomic_set set = ATOMIC_SET_INIT;
	struct buf tasks = BUF_INIT, gather = BUF_INIT;
	char *pj = path_join(dir, CLUSTER_MANIFEST), *ts = path_join(dir, "tune.sbatch"),
	     *gs = path_join(dir, "gather.sbatch");
	int ret;

	cluster_script_tasks(j, &tasks);
	cluster_script_gather(j, &gather);
	ret = add_plan(&set, pj, doc, err) < 0 || add_text(&set, ts, tasks.buf, err) < 0 ||
	      add_text(&set, gs, gather.buf, err) < 0 ||
	      (json && add_plan(&set, json, doc, err) < 0) ? -1 : 0;
	if (ret < 0)
		atomic_set_abort(&set);
	else
		ret = atomic_set_commit(&set, err);
	buf_release(&tasks);
	buf_release(&gather);
	free(pj);
	free(ts);
	free(gs);
	return ret;
}

static void predict(struct cluster_plan *p, const struct strlist *dirs,
		    const struct tune_cost_opts *co)
{
	size_t i;

	for (i = 0; i < dirs->nr; i++) {
		const char *from;
		double s = tune_cost_predict(dirs->v[i], co, &from);

		cluster_plan_add(p, dirs->v[i], s, from);
	}
}

static int plan_build(struct plan_args *a, const char **kargs, size_t nk,
		      const char *const *tune, size_t ntune)
{
	struct cluster_config c = CLUSTER_CONFIG_INIT;
	struct tune_cost_opts co = TUNE_COST_OPTS_INIT;
	struct cluster_plan p = CLUSTER_PLAN_INIT;
	struct cluster_plan_doc doc = { 0 };
	struct strlist dirs = STRLIST_INIT;
	struct buf err = BUF_INIT;
	char *dflt = NULL, *abs = NULL, *cwd = NULL, *tko = NULL;
	const char *dir;
	int ret = EXIT_FAIL;

	if (a->config && cluster_config_read(a->config, &c, &err) < 0)
		goto out;
	apply_args(a, &c);
	if (cluster_slurm_check(&c.slurm, &err) < 0 ||
	    tune_cost_opts_parse(&co, tune, ntune, &err) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (find_kernels(kargs, nk, &dirs, &dflt) < 0)
		goto out;
	dir = a->dir ? a->dir : dflt;
	if (!dir) {
		msg_error("give --dir DIR for the plan's files when the kernels are not one RUN's");
		ret = EXIT_USAGE;
		goto out;
	}
	predict(&p, &dirs, &co);
	cluster_plan_group(&p, c.tasks > 0 ? (size_t)c.tasks : DEFAULT_TASKS);
	/* RUN/cluster is made as the layout makes a RUN's folders: never through a link */
	if ((!a->dir && rd_mkdir(kargs[0], RD_CLUSTER_DIR, NULL, NULL, &err) < 0) ||
	    make_dir(dir, &abs, &err) < 0 || cluster_slurm_check_path(abs, &err) < 0)
		goto out;
	cwd = getcwd(NULL, 0);
	tko = c.tko ? xstrdup(c.tko) : self_exe();
	{
		struct cluster_job j = { &p, &c.slurm, cwd, abs, tko, tune, ntune };

		if (!cwd)
			goto out;
		cluster_manifest_fill(&j, nk == 1 && dflt ? kargs[0] : NULL, &doc);
		if (write_plan(&j, &doc, dir, a->json, &err) < 0)
			goto out;
	}
	cluster_print_plan(stdout, &doc, dir);
	ret = EXIT_OK;
out:
	if (err.len)
		msg_error("%s", err.buf);
	cluster_config_release(&c);
	cluster_plan_release(&p);
	rf_release(&cluster_plan_doc_desc, &doc);
	walk_release(&dirs);
	buf_release(&err);
	free(dflt);
	free(abs);
	free(cwd);
	free(tko);
	return ret;
}

static int cmd_plan(int argc, const char **argv)
{
	struct plan_args a = { .tasks = -1, .gpus = -1, .cpus = -1,
			       .setup = STRLIST_INIT, .extra = STRLIST_INIT };
	const struct opt options[] = {
		OPT_STRING(0, "dir", &a.dir, "DIR", "the plan's folder (default RUN/cluster)"),
		OPT_INT(0, "tasks", &a.tasks, "N", "array tasks (default 8, never more than kernels)"),
		OPT_STRING(0, "config", &a.config, "FILE", "settings file (docs/cluster.md)"),
		OPT_STRING(0, "partition", &a.partition, "NAME", "Slurm partition"),
		OPT_STRING(0, "account", &a.account, "NAME", "Slurm account"),
		OPT_STRING(0, "time", &a.time, "LIMIT", "time limit of a task (default: twice the largest task's prediction + 10 min)"),
		OPT_INT(0, "gpus-per-task", &a.gpus, "N", "GPUs per task, --gres=GRES:N (default 1; 0: none)"),
		OPT_STRING(0, "gres", &a.gres, "NAME", "the GPUs' gres name (default gpu; dcu on many DCU sites)"),
		OPT_INT(0, "cpus-per-task", &a.cpus, "N", "CPUs per task, for Triton's compile processes"),
		OPT_LIST(0, "setup", &a.setup, "LINE", "a shell line run first: module load ..., source VENV/bin/activate (repeatable)"),
		OPT_LIST(0, "sbatch-arg", &a.extra, "ARG", "another sbatch option, as one word: --mem=64G (repeatable)"),
		OPT_STRING(0, "job-name", &a.job_name, "NAME", "the array's job name (default tko-tune)"),
		OPT_STRING(0, "tko", &a.tko, "PATH", "the tko the tasks run (default: this one)"),
		OPT_STRING(0, "json", &a.json, "FILE", "also write plan.json to FILE"),
		OPT_END(),
	};
	int rest = -1, n = opts_parse(argc, argv, options, plan_usage, OPTS_REST, &rest), ret;
	size_t nk;

	if (n < 0)
		return opts_exit_code(n);
	nk = rest < 0 ? (size_t)n : (size_t)rest;
	if (!nk) {
		msg_error("no RUN or kernel directory given");
		ret = EXIT_USAGE;
	} else if (a.tasks == 0) {
		msg_error("--tasks must be at least 1");
		ret = EXIT_USAGE;
	} else if (check_tune_args(argv + nk, (size_t)n - nk) < 0) {
		ret = EXIT_USAGE;
	} else {
		ret = plan_build(&a, argv, nk, argv + nk, (size_t)n - nk);
	}
	strlist_release(&a.setup);
	strlist_release(&a.extra);
	return ret;
}

/* The plan, its tasks' states and, when asked, the queue's view of them. */
struct view {
	struct cluster_manifest m;
	struct cluster_task_state *st;
	struct cluster_jobs_doc jobs;	/* DIR/jobs.json's document */
	struct cluster_queued *q;	/* squeue's lines */
	size_t nq;
	int queue_read;			/* squeue answered */
};
#define VIEW_INIT { CLUSTER_MANIFEST_INIT, NULL, { NULL, 0 }, NULL, 0, 0 }

static const char *user_name(void)
{
	struct passwd *pw = getpwuid(getuid());

	return pw ? pw->pw_name : NULL;
}

/* squeue's array tasks of this user; a missing or failing squeue leaves the queue empty. */
static void read_queue(struct view *v)
{
	const char *user = user_name();
	const char *argv[] = { "squeue", "-h", "-r", "-o", "%A %K %T", "-u", user, NULL };
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT;

	if (!user)
		return;
	c.argv = argv;
	c.capture_out = c.capture_err = c.null_in = 1;
	c.timeout_s = 60;
	if (child_run(&c, &err) == 0 && !c.not_found && !c.timed_out && c.exit_status == 0) {
		v->nq = cluster_squeue_parse(c.out.buf, c.out.len, &v->q);
		v->queue_read = 1;
	}
	child_release(&c);
	buf_release(&err);
}

static int view_load(struct view *v, const char *dir, int queue, struct buf *err)
{
	size_t t, njobs;
	const char **ids;

	if (cluster_manifest_read(dir, &v->m, err) < 0 || cluster_jobs_read(dir, &v->jobs, err) < 0)
		return -1;
	v->st = xcalloc(v->m.plan.nt, sizeof(*v->st));
	for (t = 0; t < v->m.plan.nt; t++)
		if (cluster_task_read(dir, t, &v->st[t], err) < 0)
			return -1;
	ids = cluster_jobs_ids(&v->jobs, &njobs);
	if (queue && njobs)
		read_queue(v);
	cluster_task_queue(v->st, v->m.plan.nt, v->q, v->nq, ids, njobs);
	free(ids);
	return 0;
}

static void view_release(struct view *v)
{
	cluster_manifest_release(&v->m);
	free(v->st);
	rf_release(&cluster_jobs_doc_desc, &v->jobs);
	cluster_queued_free(v->q, v->nq);
}

/* sbatch ARGS...; the job id into *id. The exit code to return on failure. */
static int sbatch(const char *const *argv, char **id)
{
	struct child c = CHILD_INIT;
	struct buf err = BUF_INIT, said = BUF_INIT;
	int ret = EXIT_OK;

	c.argv = argv;
	c.capture_out = c.capture_err = c.null_in = 1;
	c.timeout_s = 300;
	*id = NULL;
	if (child_run(&c, &err) < 0 || c.not_found) {
		msg_error("cannot run sbatch%s%s", err.len ? ": " : " (not on PATH)", err.buf);
		ret = EXIT_TOOL;
	} else if (c.timed_out) {
		msg_error("sbatch did not answer in %.0f s", c.timeout_s);
		ret = EXIT_CHILD;
	} else if (c.exit_status != 0) {
		cluster_sbatch_said(c.err.buf, c.err.len, &said);
		if (!said.len)
			cluster_sbatch_said(c.out.buf, c.out.len, &said);
		msg_error("sbatch failed (exit %d): %s", c.exit_status,
			  said.len ? said.buf : "it printed nothing");
		ret = EXIT_CHILD;
	} else if (!(*id = cluster_job_id(c.out.buf, c.out.len))) {
		cluster_sbatch_said(c.out.buf, c.out.len, &said);
		msg_error("sbatch answered no job id: '%s'", said.buf);
		ret = EXIT_CHILD;
	}
	child_release(&c);
	buf_release(&err);
	buf_release(&said);
	return ret;
}

struct submit_args {
	const char *array, *json;
	int gather, dry_run;
};

static int submit_jobs(const struct submit_args *a, const char *dir, struct view *v,
		       const char *list)
{
	char *opt = xstrfmt("--array=%s", list), *ts = path_join(dir, "tune.sbatch"),
	     *gs = path_join(dir, "gather.sbatch"), *dep = NULL, *job = NULL, *gjob = NULL;
	const char *targv[] = { "sbatch", "--parsable", opt, ts, NULL };
	const char *gargv[] = { "sbatch", "--parsable", NULL, gs, NULL };
	struct buf err = BUF_INIT;
	int ret = EXIT_OK;

	if (a->dry_run) {
		cluster_print_argv(stdout, targv);
		if (a->gather) {
			gargv[2] = "--dependency=afterany:JOB";
			cluster_print_argv(stdout, gargv);
		}
		goto out;
	}
	if ((ret = sbatch(targv, &job)) != EXIT_OK)
		goto out;
	cluster_print_submitted(stdout, job, list, v->m.plan.nt);
	if (a->gather) {
		dep = xstrfmt("--dependency=afterany:%s", job);
		gargv[2] = dep;
		if ((ret = sbatch(gargv, &gjob)) == EXIT_OK)
			cluster_print_gather_submitted(stdout, gjob, job);
	}
	if (cluster_jobs_add(dir, &v->jobs, job, list, gjob, &err) < 0 ||
	    (a->json && cluster_jobs_doc_save(&v->jobs, a->json, &err) < 0)) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	}
out:
	buf_release(&err);
	free(opt);
	free(ts);
	free(gs);
	free(dep);
	free(job);
	free(gjob);
	return ret;
}

static int cmd_submit(int argc, const char **argv)
{
	struct submit_args a = { NULL, NULL, 0, 0 };
	const struct opt options[] = {
		OPT_STRING(0, "array", &a.array, "LIST", "these tasks only (\"3,5\", \"0-7\"), finished or not"),
		OPT_BOOL(0, "gather", &a.gather, "also submit the gather step, after the array"),
		OPT_BOOL(0, "dry-run", &a.dry_run, "print the sbatch commands, run none"),
		OPT_STRING(0, "json", &a.json, "FILE", "also write the plan's submissions (jobs.json) to FILE"),
		OPT_END(),
	};
	int n = opts_parse(argc, argv, options, submit_usage, 0, NULL), ret;
	struct view v = VIEW_INIT;
	struct buf err = BUF_INIT, list = BUF_INIT;

	if (n < 0)
		return opts_exit_code(n);
	if (n != 1) {
		msg_error("give one plan folder (tko cluster plan's DIR)");
		return EXIT_USAGE;
	}
	ret = EXIT_FAIL;
	if (view_load(&v, argv[0], !a.array, &err) < 0) {
		msg_error("%s", err.buf);
	} else if (a.array && cluster_array_check(a.array, v.m.plan.nt, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_USAGE;
	} else {
		if (a.array)
			buf_adds(&list, a.array);
		else
			cluster_submit_list(v.st, v.m.plan.nt, &list);
		if (list.len) {
			ret = submit_jobs(&a, argv[0], &v, list.buf);
		} else {
			cluster_print_nothing_to_submit(stdout);
			ret = EXIT_OK;
		}
	}
	view_release(&v);
	buf_release(&err);
	buf_release(&list);
	return ret;
}

static int cmd_status(int argc, const char **argv)
{
	const char *json = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout)"),
		OPT_END(),
	};
	int n = opts_parse(argc, argv, options, status_usage, 0, NULL), ret = EXIT_FAIL;
	struct view v = VIEW_INIT;
	struct buf err = BUF_INIT;
	struct cluster_status_doc doc = { 0 };

	if (n < 0)
		return opts_exit_code(n);
	if (n != 1) {
		msg_error("give one plan folder (tko cluster plan's DIR)");
		return EXIT_USAGE;
	}
	if (view_load(&v, argv[0], 1, &err) < 0) {
		msg_error("%s", err.buf);
		goto out;
	}
	cluster_status_fill(&v.m.plan, v.st, v.queue_read, argv[0], &doc);
	if (json && cluster_status_doc_save(&doc, json, &err) < 0) {
		msg_error("%s", err.buf);
		goto out;
	}
	if (!json || strcmp(json, "-"))
		cluster_print_status(stdout, &doc);
	ret = doc.finished ? EXIT_OK : EXIT_FAIL;
out:
	rf_release(&cluster_status_doc_desc, &doc);
	view_release(&v);
	buf_release(&err);
	return ret;
}

/* The tasks that have not finished, as "1 (failed, exit 3), 4 (not_run)". */
static int unfinished(const struct view *v, struct buf *out)
{
	size_t t;
	int n = 0;

	for (t = 0; t < v->m.plan.nt; t++) {
		const struct cluster_task_state *s = &v->st[t];

		if (cluster_state_finished(s->state))
			continue;
		buf_addf(out, "%s%zu (%s", n++ ? ", " : "", t, cluster_state_name(s->state));
		if (s->exit_status >= 0)
			buf_addf(out, ", exit %d", s->exit_status);
		buf_addch(out, ')');
	}
	return n;
}

/* Each finished task's tune.json, or NULL where it wrote none. */
static int load_docs(const struct view *v, const char *dir, struct tune_doc **docs, char **names,
		     struct buf *err)
{
	size_t t;

	for (t = 0; t < v->m.plan.nt; t++) {
		char *tdir = cluster_task_dir(dir, t);

		names[t] = path_join(tdir, "tune.json");
		free(tdir);
		if (is_file(names[t]))
			docs[t] = cluster_doc_load(names[t], err);
		else if (v->st[t].state == CLUSTER_DONE)
			buf_addf(err, "task %zu finished but wrote no '%s'", t, names[t]);
		if (err->len)
			return -1;
	}
	return 0;
}

static void note_missing(const struct view *v, const size_t *missing, size_t n, const char *dir)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct cluster_kernel *k = &v->m.plan.k[missing[i]];

		msg_warn("no result for '%s': its sweep did not start (see %s/log/, task %zu)",
			 k->dir, dir, k->task);
	}
}

static int gather_write(const struct view *v, const char *dir, const char *json)
{
	size_t nt = v->m.plan.nt, t, nmissing = 0, *missing = xcalloc(v->m.plan.nk, sizeof(*missing));
	struct tune_doc **docs = xcalloc(nt, sizeof(*docs)), *merged = NULL;
	char **names = xcalloc(nt, sizeof(*names)), *out = json ? xstrdup(json) : path_join(dir, "tune.json");
	struct buf err = BUF_INIT;
	int ret = EXIT_FAIL, errors = 0;

	if (load_docs(v, dir, docs, names, &err) == 0)
		merged = cluster_gather(&v->m.plan, docs, (const char *const *)names, missing,
					&nmissing, &err);
	if (merged && nmissing == v->m.plan.nk)
		buf_addf(&err, "no task tuned a kernel: nothing to gather (see %s/log/)", dir);
	else if (merged && tune_doc_save(out, merged, &err) == 0) {
		note_missing(v, missing, nmissing, dir);
		for (t = 0; t < nt; t++)
			errors += v->st[t].state == CLUSTER_ERRORS;
		if (strcmp(out, "-"))
			cluster_print_gathered(stdout, v->m.plan.nk - nmissing, nt, out);
		ret = errors ? EXIT_FAIL : EXIT_OK;
	}
	if (err.len)
		msg_error("%s", err.buf);
	for (t = 0; t < nt; t++) {
		cluster_doc_free(docs[t]);
		free(names[t]);
	}
	cluster_doc_free(merged);
	free(docs);
	free(names);
	free(missing);
	free(out);
	buf_release(&err);
	return ret;
}

static int cmd_gather(int argc, const char **argv)
{
	const char *json = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write the merged tune.json to FILE ('-': stdout; default DIR/tune.json)"),
		OPT_END(),
	};
	int n = opts_parse(argc, argv, options, gather_usage, 0, NULL), ret = EXIT_FAIL;
	struct view v = VIEW_INIT;
	struct buf err = BUF_INIT, left = BUF_INIT;

	if (n < 0)
		return opts_exit_code(n);
	if (n != 1) {
		msg_error("give one plan folder (tko cluster plan's DIR)");
		return EXIT_USAGE;
	}
	if (view_load(&v, argv[0], 0, &err) < 0)
		msg_error("%s", err.buf);
	else if (unfinished(&v, &left))
		msg_error("tasks not finished: %s; run `tko cluster submit %s` for them", left.buf,
			  argv[0]);
	else
		ret = gather_write(&v, argv[0], json);
	view_release(&v);
	buf_release(&err);
	buf_release(&left);
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
} subs[] = {
	{ "plan", cmd_plan },
	{ "submit", cmd_submit },
	{ "status", cmd_status },
	{ "gather", cmd_gather },
};

int cmd_cluster(int argc, const char **argv)
{
	const struct opt options[] = { OPT_END() };
	size_t i;

	if (argc < 2 || argv[1][0] == '-') {
		int n = opts_parse(argc, argv, options, usage, 0, NULL);

		if (n < 0)
			return opts_exit_code(n);
		msg_error("give a subcommand: plan, submit, status or gather");
		return EXIT_USAGE;
	}
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	msg_error("unknown subcommand '%s': plan, submit, status or gather", argv[1]);
	return EXIT_USAGE;
}
