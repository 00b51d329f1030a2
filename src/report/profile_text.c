/* The profile as text (profile_text.h). */
#include <math.h>
#include <string.h>

#include "profile/tojson.h"
#include "report/profile_text.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

#define NAME_WIDTH 72

static void print_header(FILE *fp, const struct prof *p)
{
	size_t i;

	fprintf(fp, "%s: %s%s, %zu GPU %s on %ld stream%s%s%s\n", p->path,
		prof_format_names[p->format], p->partial ? " (PARTIAL: the file ends early)" : "",
		p->nacts, plural_word(p->nacts, "activity", "activities"), p->streams,
		plural(p->streams), p->device ? ", " : "", p->device ? p->device : "");
	if (p->timeline)
		fprintf(fp, "GPU busy %.3f ms of a %.3f ms span (%.1f%%), idle %.3f ms in %ld gap%s"
			" (largest %.3f ms); kernel time %.3f ms\n", p->busy / 1e3,
			(p->last - p->first) / 1e3,
			p->last > p->first ? 100.0 * p->busy / (p->last - p->first) : 0.0,
			p->idle / 1e3, p->gaps, plural(p->gaps), p->largest_gap / 1e3, p->total / 1e3);
	else
		fprintf(fp, "kernel time %.3f ms (a statistics table: no timeline)\n", p->busy / 1e3);
	if (p->nsteps)
		fprintf(fp, "%zu profiler step%s; step time from the GPU timeline %.3f ms\n", p->nsteps,
			plural(p->nsteps), p->step_time / 1e3);
	for (i = 0; i < p->nnotes; i++)
		fprintf(fp, "note: %s\n", p->notes[i]);
	if (p->skipped)
		fprintf(fp, "note: %ld event%s or row%s could not be used\n", p->skipped,
			plural(p->skipped), plural(p->skipped));
}

static void print_classes(FILE *fp, const struct prof *p)
{
	double busy[PROF_CLASS_COUNT];
	long calls[PROF_CLASS_COUNT];
	size_t i;
	int first = 1;

	prof_class_totals(p, busy, calls);
	fprintf(fp, "by class:");
	for (i = 0; i < PROF_CLASS_COUNT; i++)
		if (calls[i]) {
			fprintf(fp, "%s %s %.1f%%", first ? "" : ",", prof_class_names[i],
				p->busy > 0 ? 100.0 * busy[i] / p->busy : 0.0);
			first = 0;
		}
	fputc('\n', fp);
}

/* A long kernel name cut to fit, with its end kept (template arguments say less). */
static void cell_name(struct table *t, const char *s)
{
	size_t n = strlen(s);

	if (n <= NAME_WIDTH)
		table_cell(t, "%s", s);
	else
		table_cell(t, "%.*s...", NAME_WIDTH - 3, s);
}

/* A library op with its input type: bf16 and fp32 calls of one op are two groups. */
static void cell_op(struct table *t, const struct prof *p, const struct prof_group *g)
{
	char s[NAME_WIDTH + 1];

	if (g->cls == PROF_CLASS_TRITON || !g->dtype) {
		cell_name(t, prof_str(p, g->key));
		return;
	}
	snprintf(s, sizeof(s), "%s (%s)", prof_str(p, g->key), prof_str(p, g->dtype));
	cell_name(t, s);
}

void profile_print(FILE *fp, const struct prof *p, size_t top)
{
	struct table t = TABLE_INIT;
	size_t i, n = top && top < p->ngroups ? top : p->ngroups;

	print_header(fp, p);
	print_classes(fp, p);
	table_columns(&t, "#|share|busy ms|calls|class|op / kernel|top kernel", "rrrrlll");
	for (i = 0; i < n; i++) {
		const struct prof_group *g = &p->groups[i];

		table_row(&t);
		table_cell(&t, "%zu", i + 1);
		table_cell(&t, "%.1f%%", isnan(g->share) ? 0.0 : 100.0 * g->share);
		table_cell(&t, "%.3f", g->busy / 1e3);
		table_cell(&t, "%ld", g->calls);
		table_cell(&t, "%s", prof_class_names[g->cls]);
		cell_op(&t, p, g);
		cell_name(&t, g->top == g->key ? "" : prof_str(p, g->top));
	}
	table_print(&t, fp);
	if (n < p->ngroups)
		fprintf(fp, "... %zu more group%s (--top 0 shows all)\n", p->ngroups - n,
			plural(p->ngroups - n));
	table_release(&t);
}
