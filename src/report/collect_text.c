/* tko collect's summary (collect_text.h). */
#include <stdlib.h>
#include <string.h>

#include "report/collect_text.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

struct role_count {
	const char *role;
	long long files, bytes;
};

void collect_print_summary(FILE *fp, const struct collect_doc *d)
{
	struct role_count *c = xcalloc(d->nfiles + 1, sizeof(*c));
	struct table t = TABLE_INIT;
	size_t i, j, n = 0;

	for (i = 0; i < d->nfiles; i++) {
		const struct collect_file *f = &d->files[i];

		for (j = 0; j < n && strcmp(c[j].role, f->role); j++)
			;
		if (j == n)
			c[n++].role = f->role;
		c[j].files++;
		c[j].bytes += f->bytes;
	}
	table_columns(&t, "artifact|files|bytes", "lrr");
	for (j = 0; j < n; j++) {
		table_row(&t);
		table_cell(&t, "%s", c[j].role);
		table_cell(&t, "%lld", c[j].files);
		table_cell(&t, "%lld", c[j].bytes);
	}
	fprintf(fp, "%s: %zu Triton cache %s\n", d->kernel, d->nentries,
		plural_word(d->nentries, "entry", "entries"));
	table_print(&t, fp);
	if (d->nskipped)
		fprintf(fp, "skipped %zu input%s (see collect.json)\n", d->nskipped, plural(d->nskipped));
	table_release(&t);
	free(c);
}
