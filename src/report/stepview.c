/* The whole step in the Markdown and HTML reports (stepview.h). */
#include <math.h>
#include <string.h>

#include "report/rtext.h"
#include "report/stepview.h"
#include "report/svg.h"
#include "util/buf.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

#define STEP_BARS 12

static const char *label_of(const struct an_step_group *g)
{
	return g->kernel_id ? g->kernel_id : g->op ? g->op : g->kernel ? g->kernel : "?";
}

static void accounting(struct buf *b, const struct an_profile *p)
{
	buf_addf(b, "%s (%s%s%s): %ld GPU %s, busy %.3f ms", p->file, p->format,
		 p->device ? ", " : "", p->device ? p->device : "", p->activities,
		 plural_word(p->activities, "activity", "activities"), p->busy_ms);
	if (!isnan(p->span_ms))
		buf_addf(b, " of a %.3f ms span (idle %.3f ms)", p->span_ms, p->idle_ms);
	if (!isnan(p->step_ms))
		buf_addf(b, "; %ld profiler step%s, %.3f ms a step on the GPU", p->steps,
			 plural(p->steps), p->step_ms);
	if (p->partial)
		buf_adds(b, "; PARTIAL: the file ends early");
}

void stepview_markdown(FILE *fp, const struct an_run *r)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	if (!r->profile.file)
		return;
	accounting(&b, &r->profile);
	fprintf(fp, "## Whole step (profile)\n\n%s.\n\n", b.buf);
	for (i = 0; i < r->nstep_rules; i++)
		fprintf(fp, "- **%s** (%s): %s%s%s\n", r->step_rules[i].rule,
			rt_decision_title(r->step_rules[i].decision), r->step_rules[i].why,
			r->step_rules[i].knobs ? ". Try: " : "",
			r->step_rules[i].knobs ? r->step_rules[i].knobs : "");
	if (r->nstep_rules)
		fputc('\n', fp);
	table_columns(&t, "#|share|busy ms|calls|class|op or kernel|dtype|decision|why", "rrrrlllll");
	for (i = 0; i < r->nstep_groups; i++) {
		const struct an_step_group *g = &r->step_groups[i];

		table_row(&t);
		table_cell(&t, "%ld", g->rank);
		buf_reset(&b);
		rt_pct(&b, g->share);
		table_cell(&t, "%s", b.buf);
		table_cell(&t, "%.3f", g->busy_ms);
		table_cell(&t, "%ld", g->calls);
		table_cell(&t, "%s", NAME_OF(prof_class_names, g->cls));
		table_cell(&t, "%s", label_of(g));
		table_cell(&t, "%s", g->dtype ? g->dtype : "");
		table_cell(&t, "%s", g->decision != DECISION_NONE ? rt_decision_title(g->decision) :
			   g->kernel_id ? "see the kernel" : "");
		table_cell(&t, "%s", g->nfired ? g->fired[0].why : "");
	}
	table_print_md(&t, fp);
	fputc('\n', fp);
	table_release(&t);
	buf_release(&b);
}

void stepview_html_chart(FILE *fp, const struct an_run *r)
{
	struct svg_bar bars[STEP_BARS] = { { NULL, NAN, NULL, 0 } };
	struct buf texts[STEP_BARS];
	struct svg_chart c = SVG_CHART_INIT;
	size_t i, n = r->nstep_groups < STEP_BARS ? r->nstep_groups : STEP_BARS;

	if (!r->profile.file)
		return;
	for (i = 0; i < n; i++) {
		const struct an_step_group *g = &r->step_groups[i];

		buf_init(&texts[i]);
		buf_addf(&texts[i], "%.1f%% %s", 100 * g->share, NAME_OF(prof_class_names, g->cls));
		bars[i].label = label_of(g);
		bars[i].value = 100 * g->share;
		bars[i].text = texts[i].buf;
		bars[i].highlight = g->cls != PROF_CLASS_TRITON;
	}
	c.id = "chart-step";
	c.title = "Share of the whole step's GPU busy time (profile; library kernels highlighted)";
	c.unit = "%";
	svg_bar_chart(fp, &c, bars, n);
	for (i = 0; i < n; i++)
		buf_release(&texts[i]);
}

static void esc(FILE *fp, const char *s)
{
	xml_escape(fp, s ? s : "");
}

void stepview_html(FILE *fp, const struct an_run *r)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!r->profile.file)
		return;
	accounting(&b, &r->profile);
	fputs("<h2 id=\"step\">Whole step (profile)</h2>\n<p>", fp);
	esc(fp, b.buf);
	fputs("</p>\n<ul>\n", fp);
	for (i = 0; i < r->nstep_rules; i++) {
		fputs("<li><b>", fp);
		esc(fp, r->step_rules[i].rule);
		fputs("</b>: ", fp);
		esc(fp, r->step_rules[i].why);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n<table><thead><tr><th>#</th><th>share</th><th>busy ms</th><th>calls</th>"
	      "<th>class</th><th>op or kernel</th><th>dtype</th><th>decision</th><th>why</th>"
	      "</tr></thead><tbody>\n", fp);
	for (i = 0; i < r->nstep_groups; i++) {
		const struct an_step_group *g = &r->step_groups[i];

		fprintf(fp, "<tr><td class=\"num\">%ld</td><td class=\"num\">%.1f%%</td>"
			"<td class=\"num\">%.3f</td><td class=\"num\">%ld</td><td>", g->rank,
			100 * g->share, g->busy_ms, g->calls);
		esc(fp, NAME_OF(prof_class_names, g->cls));
		fputs("</td><td class=\"mono\">", fp);
		esc(fp, label_of(g));
		fputs("</td><td>", fp);
		esc(fp, g->dtype);
		fputs("</td><td>", fp);
		esc(fp, g->decision != DECISION_NONE ? rt_decision_title(g->decision) :
		    g->kernel_id ? "see the kernel" : "");
		fputs("</td><td>", fp);
		esc(fp, g->nfired ? g->action : "");
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	buf_release(&b);
}
