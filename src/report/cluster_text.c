/* The terminal text of tko cluster (cluster_text.h). */
#include "cluster/slurm.h"
#include "report/cluster_text.h"
#include "util/buf.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

void cluster_print_plan(FILE *fp, const struct cluster_plan_doc *d, const char *dir)
{
	struct buf t = BUF_INIT;

	/* the limit the script really has: the one asked for, else the default */
	if (d->slurm.time)
		buf_addf(&t, "time limit %s", d->slurm.time);
	else {
		buf_adds(&t, "default time limit ");
		cluster_slurm_time_for(d->predicted_makespan_s, &t);
	}
	fprintf(fp, "planned %zu kernel%s in %zu task%s: the largest is predicted at %.0f s "
		"(%s)\n", d->nkernels, plural(d->nkernels), d->ntasks, plural(d->ntasks),
		d->predicted_makespan_s, t.buf);
	fprintf(fp, "wrote %s/{plan.json,tune.sbatch,gather.sbatch}\n", dir);
	fprintf(fp, "next: tko cluster submit --gather %s\n", dir);
	buf_release(&t);
}

void cluster_print_argv(FILE *fp, const char *const *argv)
{
	struct buf b = BUF_INIT;

	for (; *argv; argv++) {
		if (b.len)
			buf_addch(&b, ' ');
		buf_add_shell_word(&b, *argv);
	}
	fprintf(fp, "%s\n", b.buf);
	buf_release(&b);
}

void cluster_print_submitted(FILE *fp, const char *job, const char *list, size_t ntasks)
{
	fprintf(fp, "submitted job %s: tasks %s of %zu\n", job, list, ntasks);
}

void cluster_print_gather_submitted(FILE *fp, const char *gjob, const char *job)
{
	fprintf(fp, "submitted job %s: the gather, once job %s is over\n", gjob, job);
}

void cluster_print_nothing_to_submit(FILE *fp)
{
	fputs("nothing to submit: every task has finished or is queued\n", fp);
}

void cluster_print_status(FILE *fp, const struct cluster_status_doc *d)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "task|kernels|predicted s|state|exit|job", "rrrlrl");
	for (i = 0; i < d->ntasks; i++) {
		const struct cluster_status_task *s = &d->tasks[i];

		table_row(&t);
		table_cell(&t, "%lld", s->index);
		table_cell(&t, "%lld", s->kernels);
		table_cell(&t, "%.0f", s->predicted_s);
		table_cell(&t, "%s", s->state);
		if (s->exit_status != RF_I64_NONE)
			table_cell(&t, "%lld", s->exit_status);
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", s->job_id ? s->job_id : "-");
	}
	table_print(&t, fp);
	table_release(&t);
}

void cluster_print_gathered(FILE *fp, size_t nkernels, size_t ntasks, const char *out)
{
	fprintf(fp, "gathered %zu kernel%s from %zu task%s into %s\n", nkernels, plural(nkernels),
		ntasks, plural(ntasks), out);
}
