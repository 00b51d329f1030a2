/* The terminal summary and the report directory (summary.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/rtext.h"
#include "report/summary.h"
#include "report/writer.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

static void cell(struct table *t, struct buf *b)
{
	table_cell(t, "%s", b->buf);
	buf_reset(b);
}

static void counts(FILE *fp, const struct an_run *r)
{
	size_t j;
	int rank, d;

	fprintf(fp, "%zu kernel%s the model ran (%ld timed, %ld without a time)", r->nkernels,
		plural(r->nkernels), r->timed, r->untimed);
	if (r->timed)
		fprintf(fp, ", %.4f ms measured", r->measured_ms);
	fputs(":", fp);
	for (rank = 0; rank < DECISION_NR; rank++) {
		size_t n = 0;

		for (d = 0; decision_info[d].summary_rank != rank; d++)
			;
		for (j = 0; j < r->nkernels; j++)
			n += r->kernels[j].decision == (enum decision)d;
		if (n)
			fprintf(fp, " %zu %s,", n, rt_decision_title(d));
	}
	fprintf(fp, " %zu autotuning candidate name%s, %zu library call%s\n", r->ncandidates,
		plural(r->ncandidates), r->nlibcalls, plural(r->nlibcalls));
}

/* The whole step: the largest profile groups and the step rules. */
static void print_step(FILE *fp, const struct an_run *r, size_t top)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i, n = top && top < r->nstep_groups ? top : r->nstep_groups;

	if (!r->profile.file)
		return;
	fprintf(fp, "whole step (%s, %s): GPU busy %.3f ms", r->profile.file, r->profile.format,
		r->profile.busy_ms);
	if (!isnan(r->profile.idle_ms))
		fprintf(fp, ", idle %.3f ms", r->profile.idle_ms);
	if (!isnan(r->profile.step_ms))
		fprintf(fp, ", %ld step%s of %.3f ms", r->profile.steps, plural(r->profile.steps),
			r->profile.step_ms);
	fprintf(fp, "%s\n", r->profile.partial ? " (PARTIAL: the file ends early)" : "");
	table_columns(&t, "#|share|busy ms|calls|class|op / kernel|decision", "rrrrlll");
	for (i = 0; i < n; i++) {
		const struct an_step_group *g = &r->step_groups[i];

		table_row(&t);
		table_cell(&t, "%ld", g->rank);
		rt_pct(&b, g->share);
		cell(&t, &b);
		table_cell(&t, "%.3f", g->busy_ms);
		table_cell(&t, "%ld", g->calls);
		table_cell(&t, "%s", NAME_OF(prof_class_names, g->cls));
		if (!g->kernel_id && g->op && g->dtype)
			table_cell(&t, "%.60s (%s)", g->op, g->dtype);
		else
			table_cell(&t, "%.60s", g->kernel_id ? g->kernel_id : g->op ? g->op :
				   g->kernel ? g->kernel : "?");
		table_cell(&t, "%s", g->decision != DECISION_NONE ? g->fired[0].rule :
			   g->kernel_id ? "(see kernel)" : "");
	}
	table_print(&t, fp);
	for (i = 0; i < r->nstep_rules; i++)
		fprintf(fp, "step: %s: %s\n", r->step_rules[i].rule, r->step_rules[i].why);
	for (i = 0; i < r->nstep_groups; i++)
		if (r->step_groups[i].decision != DECISION_NONE)
			fprintf(fp, "%s (%s): %s\n", r->step_groups[i].op ? r->step_groups[i].op :
				r->step_groups[i].kernel, r->step_groups[i].fired[0].rule,
				r->step_groups[i].action);
	table_release(&t);
	buf_release(&b);
}

/* The rates over 105% of the copy rate among the kernels shown, each with its cause. */
static void print_doubts(FILE *fp, const struct an_run *r, size_t top)
{
	size_t i, shown = 0;

	for (i = 0; i < r->nkernels && (!top || shown < top); i++) {
		const struct an_kernel *k = &r->kernels[i];

		if (k->rank < 0)
			continue;
		shown++;
		if (k->rate_doubt)
			fprintf(fp, "%s: %.0f GB/s is over 105%% of the %.0f GB/s copy rate, not a fact: %s\n",
				k->id, k->gbps, r->peak_gbps, k->rate_doubt);
	}
}

void report_print_summary(FILE *fp, const struct an_run *r, size_t top)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i, shown = 0, unranked = 0;

	counts(fp, r);
	table_columns(&t, "rank|kernel|share|ms/launch|launches|GB/s|of copy|decision", "rlrrrrrl");
	for (i = 0; i < r->nkernels; i++) {
		const struct an_kernel *k = &r->kernels[i];

		if (k->rank < 0) {
			unranked++;
			continue;
		}
		if (top && shown >= top)
			continue;
		shown++;
		table_row(&t);
		table_cell(&t, "%ld", k->rank);
		table_cell(&t, "%s", k->id);
		rt_pct(&b, k->share);
		cell(&t, &b);
		rt_ms(&b, k->time_ms);
		cell(&t, &b);
		table_cell(&t, "%ld", k->launches);
		rt_rate(&b, k);
		cell(&t, &b);
		rt_rate_fraction(&b, k);
		cell(&t, &b);
		table_cell(&t, "%s", rt_decision_title(k->decision));
	}
	if (table_rows(&t))
		table_print(&t, fp);
	print_doubts(fp, r, top);
	if (top && shown < (size_t)r->timed)
		fprintf(fp, "... %ld more ranked kernel%s in the report\n", r->timed - (long)shown,
			plural(r->timed - (long)shown));
	if (unranked)
		fprintf(fp, "%zu kernel%s %s no time (decision: measure first; see the report)\n",
			unranked, plural(unranked), plural_word(unranked, "has", "have"));
	print_step(fp, r, top);
	for (i = 0; i < r->ngaps; i++)
		fprintf(fp, "gap: %s%s%s\n", r->gaps[i].what, r->gaps[i].command ? ": " : "",
			r->gaps[i].command ? r->gaps[i].command : "");
	table_release(&t);
	buf_release(&b);
}

int report_write_dir(const struct an_run *r, struct atomic_set *set, const char *dir,
		     struct buf *err)
{
	static const struct report_writer *const writers[] = {
		&report_markdown, &report_json, &report_html,
	};
	size_t i;

	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		char *name = xstrfmt("report.%s", writers[i]->ext);
		char *path = path_join(dir, name);
		int ret = report_render_in(r, writers[i], set, path, err);

		free(path);
		free(name);
		if (ret < 0)
			return -1;
	}
	return 0;
}
