/*
 * Report writers: one report model (the analysis of a RUN, model/analysis.h)
 * rendered in several formats by the same sequence of sections, the way
 * redis's rio lets one stream abstraction serve several targets. A format
 * is a struct report_writer (markdown.c, html.c, json.c) whose hooks are
 * called in order by report_render(); a hook left NULL writes nothing for
 * its section. The analysis never knows the format; the writers never
 * decide anything (sentences both text formats share are in rtext.h).
 *
 *	struct buf err = BUF_INIT;
 *	if (report_render(&run, &report_html, "RUN/report/report.html", &err) < 0)
 *		... err names the file
 */
#ifndef TKO_REPORT_WRITER_H
#define TKO_REPORT_WRITER_H

#include <stdio.h>

#include "model/analysis.h"
#include "util/file.h"
#include "util/buf.h"

struct report_writer {
	const char *name;	/* "markdown", "html", "json" */
	const char *ext;	/* the file extension: "md", "html", "json" */
	void (*begin)(FILE *fp, const struct an_run *r);	/* title, run facts, how shares were computed */
	void (*table)(FILE *fp, const struct an_run *r);	/* the ranked kernel table */
	void (*charts)(FILE *fp, const struct an_run *r);	/* run-wide charts */
	void (*kernel)(FILE *fp, const struct an_run *r, const struct an_kernel *k);	/* one kernel */
	void (*others)(FILE *fp, const struct an_run *r);	/* candidates and library calls */
	void (*gaps)(FILE *fp, const struct an_run *r);		/* missing evidence, notes */
	void (*end)(FILE *fp, const struct an_run *r);
};

extern const struct report_writer report_markdown;
extern const struct report_writer report_html;
extern const struct report_writer report_json;

/* Runs every section of w over r into fp. */
void report_write(const struct an_run *r, const struct report_writer *w, FILE *fp);

/* The same into `path` atomically ("-": stdout). 0, or -1 with one line in err. */
int report_render(const struct an_run *r, const struct report_writer *w, const char *path,
		  struct buf *err);

/*
 * The same into `path` of an output set (util/file.h), published when the
 * caller commits the set. 0, or -1 with one line in err.
 */
int report_render_in(const struct an_run *r, const struct report_writer *w,
		     struct atomic_set *set, const char *path, struct buf *err);

/* The writer for a name ("md"/"markdown", "html", "json"), or NULL. */
const struct report_writer *report_writer_find(const char *name);

#endif
