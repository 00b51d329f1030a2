/* Writing a diff (diff_out.h). */
#include <string.h>

#include "report/diff_out.h"
#include "util/table.h"
#include "banned.h"

static void totals(FILE *fp, const struct an_diff *d)
{
	fprintf(fp, "%zu kernels in both (%zu changed, %zu unchanged), %zu only in A, %zu only in B\n",
		d->changed + d->same, d->changed, d->same, d->only_a, d->only_b);
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

		if (k->status == DIFF_SAME)
			continue;
		fprintf(fp, "## %s (%s)\n\n", k->id, k->status == DIFF_ONLY_A ? "only in A" :
			k->status == DIFF_ONLY_B ? "only in B" : "changed");
		if (k->changes.nr)
			changes_md(fp, &k->changes);
	}
	if (d->same) {
		fputs("## Unchanged\n\n", fp);
		for (i = 0; i < d->nr; i++)
			if (d->v[i].status == DIFF_SAME)
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

static json_t *changes_json(const struct rf_changes *c)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < c->nr; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "field", c->v[i].path,
						   "a", c->v[i].a, "b", c->v[i].b));
	return a;
}

json_t *diff_to_json(const struct an_diff *d)
{
	json_t *ks = json_array();
	size_t i;

	for (i = 0; i < d->nr; i++)
		json_array_append_new(ks, json_pack("{s:s, s:s, s:o}", "id", d->v[i].id, "status",
						    diff_status_names[d->v[i].status], "changes",
						    changes_json(&d->v[i].changes)));
	return json_pack("{s:i, s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I}, s:o, s:o}",
			 "schema_version", 1, "tool", "tko diff", "a", d->a, "b", d->b,
			 "summary", "changed", (json_int_t)d->changed, "same", (json_int_t)d->same,
			 "only_a", (json_int_t)d->only_a, "only_b", (json_int_t)d->only_b,
			 "run", changes_json(&d->run), "kernels", ks);
}
