/*
 * tko report RUN|ANALYSIS.json [--md FILE] [--json FILE] [--html FILE] [--top N]
 *
 * Renders the report again from a RUN's analysis (RUN/analysis/kernels.json,
 * written by `tko investigate`), without reading the logs, caches or ISA
 * again: after a tko upgrade changed the writers, or to get one format
 * somewhere else. Without --md/--json/--html it rewrites
 * RUN/report/report.{md,json,html}.
 *
 * Exit: 0 done; 1 the analysis is missing or unreadable, or an output
 * cannot be written; 2 usage.
 */
#include <stdlib.h>
#include <string.h>

#include "model/analysis.h"
#include "model/analysis_store.h"
#include "cmd/cmd.h"
#include "exitcode.h"
#include "rundir/layout.h"
#include "report/summary.h"
#include "report/writer.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko report RUN|ANALYSIS.json [--md FILE] [--json FILE] [--html FILE] [--top N]",
	"Renders the report from a RUN's analysis (RUN/analysis/kernels.json from",
	"tko investigate, or a report.json) without analysing again. With no format",
	"option it rewrites RUN/report/report.{md,json,html}.",
	NULL,
};

/*
 * The analysis file: a RUN's analysis/kernels.json (the RUN opened into rd,
 * whose report/ it belongs to), else the file given. NULL + err when the
 * RUN cannot be opened. A RUN is what tko report's row needs (any directory).
 */
static char *analysis_file(const char *arg, struct rundir *rd, struct buf *err)
{
	if (!cmd_is_run(arg))
		return xstrdup(arg);
	if (cmd_open_run(arg, rd, err) < 0)
		return NULL;
	return rd_path(rd, RD_KERNELS_JSON);
}

/* 1 when RUN/analysis/kernels.json is there only through a link out of the RUN (err says so). */
static int leads_out(const char *run, struct buf *err)
{
	char *p = rd_part(run, RD_KERNELS_JSON, err);

	free(p);
	return !p && err->len;
}

/*
 * The formats asked for, or RUN/report/report.{md,json,html}, published
 * together: none is replaced unless all are written completely.
 */
static int render(const struct an_run *r, const char *base, const char *md, const char *json,
		  const char *html, struct buf *err)
{
	struct atomic_set set = ATOMIC_SET_INIT;
	char *dir = NULL;
	int ret;

	if (md || json || html) {
		ret = (md && report_render_in(r, &report_markdown, &set, md, err) < 0) ||
		      (json && report_render_in(r, &report_json, &set, json, err) < 0) ||
		      (html && report_render_in(r, &report_html, &set, html, err) < 0) ? -1 : 0;
	} else if (!base) {
		buf_addf(err, "give --md, --json or --html to render a loose analysis file");
		return -1;
	} else {
		dir = rd_path_in(base, RD_REPORT_DIR);
		ret = atomic_set_mkdir(&set, base, rd_parts[RD_REPORT_DIR].rel, err) < 0 ||
		      report_write_dir(r, &set, dir, err) < 0 ? -1 : 0;
	}
	if (ret < 0)
		atomic_set_abort(&set);
	else
		ret = atomic_set_commit(&set, err);
	if (ret == 0 && dir)
		msg_note("report: %s/report.{md,html,json}", dir);
	free(dir);
	return ret;
}

int cmd_report(int argc, const char **argv)
{
	const char *md = NULL, *json = NULL, *html = NULL;
	long top = 10;
	const struct opt options[] = {
		OPT_STRING(0, "md", &md, "FILE", "write the Markdown report to FILE ('-': stdout)"),
		OPT_STRING(0, "json", &json, "FILE", "write the JSON report to FILE ('-': stdout)"),
		OPT_STRING(0, "html", &html, "FILE", "write the HTML report to FILE ('-': stdout)"),
		OPT_INT(0, "top", &top, "N", "kernels in the terminal summary (default 10, 0: all)"),
		OPT_END(),
	};
	int n = opts_parse(argc, argv, options, usage, 0, NULL), ret = EXIT_OK, out;
	struct buf err = BUF_INIT;
	struct rundir rd = RUNDIR_INIT;
	const char *base;
	char *file;
	struct an_run r;

	if (n < 0)
		return opts_exit_code(n);
	if (n != 1) {
		msg_error("give one RUN directory or analysis file (see 'tko report --help')");
		return EXIT_USAGE;
	}
	out = (md && !strcmp(md, "-")) + (json && !strcmp(json, "-")) + (html && !strcmp(html, "-"));
	if (out > 1 || top < 0) {
		msg_error(top < 0 ? "--top takes a positive number" :
			  "only one of --md, --json, --html can write to stdout");
		return EXIT_USAGE;
	}
	file = analysis_file(argv[0], &rd, &err);
	base = rd.root;
	an_run_init(&r);
	if (!file || (base && leads_out(base, &err))) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if (base && !is_file(file)) {
		struct buf cmd = BUF_INIT;

		buf_add_shell_word(&cmd, argv[0]);
		msg_error("'%s' has no analysis (%s); run 'tko investigate %s' first", argv[0], file,
			  cmd.buf);
		buf_release(&cmd);
		ret = EXIT_FAIL;
	} else if (an_store_load(&r, file, &err) < 0 || render(&r, base, md, json, html, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if (!out) {
		report_print_summary(stdout, &r, (size_t)top);
	}
	an_run_release(&r);
	buf_release(&err);
	free(file);
	rd_release(&rd);
	return ret;
}
