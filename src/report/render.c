/* Driving a report writer over the sections of a run (writer.h). */
#include <errno.h>
#include <string.h>

#include "report/writer.h"
#include "util/file.h"
#include "banned.h"

void report_write(const struct an_run *r, const struct report_writer *w, FILE *fp)
{
	size_t i;

	if (w->begin)
		w->begin(fp, r);
	if (w->table)
		w->table(fp, r);
	if (w->charts)
		w->charts(fp, r);
	for (i = 0; w->kernel && i < r->nkernels; i++)
		w->kernel(fp, r, &r->kernels[i]);
	if (w->others)
		w->others(fp, r);
	if (w->gaps)
		w->gaps(fp, r);
	if (w->end)
		w->end(fp, r);
}

int report_render(const struct an_run *r, const struct report_writer *w, const char *path,
		  struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	report_write(r, w, af.fp);
	if (ferror(af.fp)) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		atomic_abort(&af);
		return -1;
	}
	return atomic_commit(&af, err);
}

int report_render_in(const struct an_run *r, const struct report_writer *w,
		     struct atomic_set *set, const char *path, struct buf *err)
{
	FILE *fp = atomic_set_open(set, path, err);

	if (!fp)
		return -1;
	report_write(r, w, fp);
	if (ferror(fp)) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

const struct report_writer *report_writer_find(const char *name)
{
	static const struct {
		const char *name;
		const struct report_writer *w;
	} names[] = {
		{ "md", &report_markdown },
		{ "markdown", &report_markdown },
		{ "html", &report_html },
		{ "json", &report_json },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, name))
			return names[i].w;
	return NULL;
}
