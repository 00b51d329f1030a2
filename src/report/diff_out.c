/* Writing a diff (diff_out.h). */
#include "report/diff_out.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

static void totals(FILE *fp, const struct an_diff *d)
{
	const struct diff_summary *s = &d->summary;

	fprintf(fp, "%lld kernel%s in both (%lld changed, %lld unchanged), %lld only in A, %lld only in B\n",
		s->changed + s->same, plural(s->changed + s->same), s->changed, s->same, s->only_a,
		s->only_b);
}

static void changes_md(FILE *fp, const struct rf_changes *c)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "field|A|B", "lll");
	for (i = 0; i < c->nr; i++) {
		table_row(&t);
		table_cell(&t, "%s", c->v[i].path);
		table_cell(&t, "%s", c->v[i].a);
		table_cell(&t, "%s", c->v[i].b);
	}
	table_print_md(&t, fp);
	fputc('\n', fp);
	table_release(&t);
}

void diff_print_md(FILE *fp, const struct an_diff *d)
{
	size_t i;

	fprintf(fp, "# tko diff\n\n- A: `%s`\n- B: `%s`\n- ", d->a, d->b);
	totals(fp, d);
	fputc('\n', fp);
	if (d->run.nr) {
		fputs("## The run\n\n", fp);
		changes_md(fp, &d->run);
	}
	for (i = 0; i < d->nr; i++) {
		const struct kdiff *k = &d->v[i];

		if (diff_doc_is(k, DIFF_SAME))
			continue;
		fprintf(fp, "## %s (%s)\n\n", k->id, diff_doc_is(k, DIFF_ONLY_A) ? "only in A" :
			diff_doc_is(k, DIFF_ONLY_B) ? "only in B" : "changed");
		if (k->changes.nr)
			changes_md(fp, &k->changes);
	}
	if (d->summary.same) {
		fputs("## Unchanged\n\n", fp);
		for (i = 0; i < d->nr; i++)
			if (diff_doc_is(&d->v[i], DIFF_SAME))
				fprintf(fp, "- %s\n", d->v[i].id);
	}
}

void diff_print_text(FILE *fp, const struct an_diff *d)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i, j;

	totals(fp, d);
	table_columns(&t, "kernel|status|changes", "lll");
	for (i = 0; i < d->nr; i++) {
		const struct kdiff *k = &d->v[i];

		table_row(&t);
		table_cell(&t, "%s", k->id);
		table_cell(&t, "%s", diff_status_names[k->status]);
		for (j = 0; j < k->changes.nr; j++)
			buf_addf(&b, "%s%s: %s -> %s", j ? "; " : "", k->changes.v[j].path,
				 k->changes.v[j].a, k->changes.v[j].b);
		table_cell(&t, "%s", b.len ? b.buf : "-");
		buf_reset(&b);
	}
	table_print(&t, fp);
	table_release(&t);
	buf_release(&b);
}
