/*
 * tko diff A B [--json FILE] [--md FILE]
 *
 * Compares two analyses kernel by kernel (src/report/diff.h): two RUN
 * directories (their analysis/kernels.json, else analysed now), two
 * analysis or report JSON files, two `tko isa --json` documents, or two
 * directories or files of assembly (capture kernel directories, tune
 * variants, Triton cache entries). Prints one row per kernel with what
 * changed in time, config, ISA families and widths, resources and
 * decision.
 *
 * Exit: 0 no kernel changed; 1 something changed, as diff(1) does, or an
 * input cannot be read (the message says which); 2 usage.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/diff.h"
#include "exitcode.h"
#include "report/diff_out.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko diff A B [--json FILE] [--md FILE]",
	"A and B are each a RUN directory, an analysis/report JSON file (kernels.json,",
	"report.json), a `tko isa --json` document, or a directory or file of assembly.",
	"Kernels are paired by id, else by a name unique on both sides. Exits 0 when",
	"nothing changed, 1 when something did (numbers within 0.5% are the same).",
	NULL,
};

static int write_md(const struct an_diff *d, const char *path, struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	diff_print_md(af.fp, d);
	return atomic_commit(&af, err);
}

static int outputs(const struct an_diff *d, const char *json, const char *md, struct buf *err)
{
	int ret = 0;

	if (json)
		ret = diff_doc_save(d, json, err);
	if (ret == 0 && md)
		ret = write_md(d, md, err);
	if (ret == 0 && !(json && !strcmp(json, "-")) && !(md && !strcmp(md, "-")))
		diff_print_text(stdout, d);
	return ret;
}

int cmd_diff(int argc, const char **argv)
{
	const char *json = NULL, *md = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout)"),
		OPT_STRING(0, "md", &md, "FILE", "write Markdown to FILE ('-': stdout)"),
		OPT_END(),
	};
	int n = opts_parse(argc, argv, options, usage, 0, NULL), ret;
	struct an_diff d = AN_DIFF_INIT;
	struct buf err = BUF_INIT;
	struct an_run a, b;

	if (n < 0)
		return opts_exit_code(n);
	if (n != 2) {
		msg_error("give two inputs to compare (see 'tko diff --help')");
		return EXIT_USAGE;
	}
	if (json && md && !strcmp(json, "-") && !strcmp(md, "-")) {
		msg_error("--json - and --md - cannot both write to stdout");
		return EXIT_USAGE;
	}
	an_run_init(&a);
	an_run_init(&b);
	if (diff_load(argv[0], cmd_need(), &a, &err) < 0 ||
	    diff_load(argv[1], cmd_need(), &b, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else {
		diff_runs(&a, &b, &d);
		free(d.a);
		free(d.b);
		d.a = xstrdup(argv[0]);
		d.b = xstrdup(argv[1]);
		if (outputs(&d, json, md, &err) < 0) {
			msg_error("%s", err.buf);
			ret = EXIT_FAIL;
		} else {
			ret = d.summary.changed || d.summary.only_a || d.summary.only_b ? EXIT_FAIL : EXIT_OK;
		}
	}
	an_diff_release(&d);
	an_run_release(&a);
	an_run_release(&b);
	buf_release(&err);
	return ret;
}
