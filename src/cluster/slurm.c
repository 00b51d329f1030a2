/*
 * The job-array script, the gather script and squeue's lines (slurm.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/slurm.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/plural.h"
#include "version.h"
#include "banned.h"

void cluster_slurm_set(char **field, const char *value)
{
	free(*field);
	*field = value ? xstrdup(value) : NULL;
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

void cluster_slurm_add_setup(struct cluster_slurm *s, const char *line)
{
	push(&s->setup, &s->nsetup, line);
}

void cluster_slurm_add_extra(struct cluster_slurm *s, const char *arg)
{
	push(&s->extra, &s->nextra, arg);
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void cluster_slurm_release(struct cluster_slurm *s)
{
	free(s->partition);
	free(s->account);
	free(s->time);
	free(s->job_name);
	free(s->gres);
	free_list(s->setup, s->nsetup);
	free_list(s->extra, s->nextra);
	*s = (struct cluster_slurm)CLUSTER_SLURM_INIT;
}

/* A value sbatch reads from an #SBATCH line as it is: no blank, quote, backslash or control. */
static int sbatch_word(const char *what, const char *v, struct buf *err)
{
	const char *p;

	if (!v)
		return 0;
	if (!*v) {
		buf_addf(err, "%s is empty", what);
		return -1;
	}
	for (p = v; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == '\'' || *p == '"' || *p == '\\' ||
		    (unsigned char)*p == 0x7f) {
			buf_addf(err, "%s '%s' cannot stand in an #SBATCH line "
				 "(no spaces, quotes, backslashes or control characters)", what, v);
			return -1;
		}
	return 0;
}

int cluster_slurm_check(const struct cluster_slurm *s, struct buf *err)
{
	size_t i;

	if (sbatch_word("partition", s->partition, err) < 0 ||
	    sbatch_word("account", s->account, err) < 0 ||
	    sbatch_word("time", s->time, err) < 0 ||
	    sbatch_word("job name", s->job_name, err) < 0 ||
	    sbatch_word("gres", s->gres, err) < 0)
		return -1;
	if (s->gpus < 0 || s->cpus < 0) {
		buf_adds(err, "GPUs and CPUs per task cannot be negative");
		return -1;
	}
	for (i = 0; i < s->nextra; i++)
		if (sbatch_word("sbatch option", s->extra[i], err) < 0)
			return -1;
	for (i = 0; i < s->nsetup; i++)
		if (strpbrk(s->setup[i], "\n\r")) {
			buf_adds(err, "a set-up line cannot hold a line break");
			return -1;
		}
	return 0;
}

int cluster_slurm_check_path(const char *dir, struct buf *err)
{
	return sbatch_word("the plan's folder", dir, err);
}

void cluster_slurm_time_for(double seconds, struct buf *out)
{
	long m = (long)((2 * seconds + 600 + 59) / 60);

	if (m >= 24 * 60)
		buf_addf(out, "%ld-%02ld:%02ld:00", m / (24 * 60), m / 60 % 24, m % 60);
	else
		buf_addf(out, "%02ld:%02ld:00", m / 60, m % 60);
}

static void sbatch_line(struct buf *out, const char *opt, const char *value)
{
	if (value)
		buf_addf(out, "#SBATCH --%s=%s\n", opt, value);
}

/* The lines both scripts share: name, log, where, how long, the site's extras. */
static void header(const struct cluster_job *j, const char *name, const char *log,
		   const char *time, struct buf *out)
{
	const struct cluster_slurm *s = j->slurm;

	buf_adds(out, "#!/bin/bash\n");
	sbatch_line(out, "job-name", name);
	buf_addf(out, "#SBATCH --output=%s/log/%s\n", j->dir, log);
	sbatch_line(out, "partition", s->partition);
	sbatch_line(out, "account", s->account);
	sbatch_line(out, "time", time);
}

static void extras(const struct cluster_slurm *s, struct buf *out)
{
	size_t i;

	for (i = 0; i < s->nextra; i++)
		buf_addf(out, "#SBATCH %s\n", s->extra[i]);
}

static void setup_lines(const struct cluster_slurm *s, struct buf *out)
{
	size_t i;

	if (!s->nsetup)
		return;
	buf_adds(out, "\n# set-up\n");
	for (i = 0; i < s->nsetup; i++)
		buf_addf(out, "%s\n", s->setup[i]);
}

static void word(struct buf *out, const char *s)
{
	buf_addch(out, ' ');
	buf_add_shell_word(out, s);
}

static void task_cases(const struct cluster_plan *p, struct buf *out)
{
	size_t t, i;

	buf_adds(out, "case $task in\n");
	for (t = 0; t < p->nt; t++) {
		buf_addf(out, "%zu) set --", t);
		for (i = 0; i < p->t[t].nr; i++)
			word(out, p->k[p->t[t].k[i]].dir);
		buf_adds(out, " ;;\n");
	}
	buf_adds(out, "*) echo \"tko cluster: this plan has no task $task\" >&2; exit 2 ;;\nesac\n");
}

static void tune_command(const struct cluster_job *j, struct buf *out)
{
	size_t i;

	buf_add_shell_word(out, j->tko);
	buf_adds(out, " tune");
	for (i = 0; i < j->ntune; i++)
		word(out, j->tune_args[i]);
	buf_adds(out, " --json \"$out/tune.json\" \"$@\"\n");
}

void cluster_script_tasks(const struct cluster_job *j, struct buf *out)
{
	const struct cluster_slurm *s = j->slurm;
	struct buf time = BUF_INIT;

	if (!s->time)
		cluster_slurm_time_for(cluster_plan_makespan(j->plan), &time);
	header(j, s->job_name ? s->job_name : "tko-tune", "slurm-%A_%a.out",
	       s->time ? s->time : time.buf, out);
	buf_addf(out, "#SBATCH --array=0-%zu\n", j->plan->nt - 1);
	if (s->gpus > 0)
		buf_addf(out, "#SBATCH --gres=%s:%ld\n", s->gres ? s->gres : "gpu", s->gpus);
	if (s->cpus > 0)
		buf_addf(out, "#SBATCH --cpus-per-task=%ld\n", s->cpus);
	extras(s, out);
	buf_addf(out, "#\n# Written by `tko cluster plan` (tko %s): one task of a RUN's tuning\n"
		 "# per array index, %zu task%s over %zu kernel%s, each kernel's results in its\n"
		 "# own folder as a local `tko tune` leaves them, each task's tune.json in\n"
		 "# tasks/INDEX/. `tko cluster submit` submits the tasks not finished yet.\n"
		 "# A finished task (exit 0, or 1: a kernel's input or base variant is bad,\n"
		 "# which a rerun does not change) is not run again.\n",
		 TKO_VERSION, j->plan->nt, plural(j->plan->nt), j->plan->nk, plural(j->plan->nk));
	setup_lines(s, out);
	buf_adds(out, "\ntask=${SLURM_ARRAY_TASK_ID:?submit this script as a job array}\ncd");
	word(out, j->cwd);
	buf_adds(out, " || exit 1\n");
	task_cases(j->plan, out);
	buf_adds(out, "out=");
	buf_add_shell_word(out, j->dir);
	buf_adds(out, "/tasks/$task\n"
		 "if [ -f \"$out/exit\" ] && read -r rc <\"$out/exit\" && { [ \"$rc\" = 0 ] || [ \"$rc\" = 1 ]; }; then\n"
		 "\techo \"tko cluster: task $task finished before (exit $rc): not run again\"\n"
		 "\texit 0\n"
		 "fi\n"
		 "mkdir -p \"$out\" && rm -f \"$out/exit\" \"$out/tune.json\" || exit 1\n"
		 "# On scancel or the time limit tko stops its workers and exits 143; record that.\n"
		 "trap : TERM\n"
		 "echo \"tko cluster: task $task on $(hostname): $# kernels\" \\\n"
		 "\t\"(CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-} HIP_VISIBLE_DEVICES=${HIP_VISIBLE_DEVICES-}\" \\\n"
		 "\t\"ROCR_VISIBLE_DEVICES=${ROCR_VISIBLE_DEVICES-})\"\n");
	tune_command(j, out);
	buf_adds(out, "rc=$?\n"
		 "echo \"$rc\" >\"$out/exit.tmp\" && mv -f \"$out/exit.tmp\" \"$out/exit\"\n"
		 "exit \"$rc\"\n");
	buf_release(&time);
}

void cluster_script_gather(const struct cluster_job *j, struct buf *out)
{
	const struct cluster_slurm *s = j->slurm;

	header(j, "tko-gather", "slurm-gather-%j.out", "00:10:00", out);
	extras(s, out);
	buf_addf(out, "#\n# Written by `tko cluster plan` (tko %s): merges the tasks' results\n"
		 "# into one tune.json once they are over (`tko cluster submit --gather`\n"
		 "# submits it with --dependency=afterany on the array).\n", TKO_VERSION);
	setup_lines(s, out);
	buf_adds(out, "\ncd");
	word(out, j->cwd);
	buf_adds(out, " || exit 1\nexec ");
	buf_add_shell_word(out, j->tko);
	buf_adds(out, " cluster gather");
	word(out, j->dir);
	buf_addch(out, '\n');
}

static char *field(const char **p, const char *end)
{
	const char *s = *p, *e;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (e = s; e < end && *e != ' ' && *e != '\t'; e++)
		;
	*p = e;
	return e > s ? xstrndup(s, (size_t)(e - s)) : NULL;
}

size_t cluster_squeue_parse(const char *text, size_t len, struct cluster_queued **out)
{
	const char *p = text, *end = text + len;
	struct cluster_queued *q = NULL;
	size_t n = 0, alloc = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *c = p;
		char *job, *task, *state;
		long t;

		if (!eol)
			eol = end;
		job = field(&c, eol);
		task = field(&c, eol);
		state = field(&c, eol);
		if (job && task && state && parse_long(task, &t) == 0 && t >= 0) {
			ALLOC_GROW(q, n + 1, alloc);
			q[n].job = job;
			q[n].task = t;
			q[n++].state = state;
			job = state = NULL;
		}
		free(job);
		free(task);
		free(state);
		p = eol + (eol < end);
	}
	*out = q;
	return n;
}

void cluster_queued_free(struct cluster_queued *q, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(q[i].job);
		free(q[i].state);
	}
	free(q);
}
