/*
 * tko collect RUN --kernel NAME --out DIR [--json FILE]: gathers every
 * artifact of one kernel (its Inductor module, each Triton cache entry with
 * all IR stages, ISA, binary and metadata, and its capture directory) into
 * DIR, and nothing outside DIR. What belongs to the kernel is rundir/index.h's
 * business; rundir/collect.c copies it.
 *
 * NAME is exact; when it names several kernels (Inductor reuses
 * "triton_mm" for every max-autotune choice), the candidates are listed
 * as NAME-<hash8> and the exit status is 4.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "analyse/collect_logs.h"
#include "model/collect.h"
#include "report/collect_text.h"
#include "rundir/collect.h"
#include "rundir/index.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko collect RUN --kernel NAME --out DIR [--json FILE]",
	"NAME is a kernel's exact name, or NAME-<hash8> (its capture directory's name) when",
	"several kernels share a name. DIR must be new or empty; DIR/collect.json lists",
	"every file with where it came from.",
	NULL,
};

static void list_candidates(struct rd_kernel *const *v, size_t n)
{
	struct msg_list l = { 0, 0, "    " };
	size_t i;

	for (i = 0; i < n; i++)
		msg_list_item(&l, "%s-%s  %s", v[i]->name, v[i]->hash8,
			      v[i]->module ? v[i]->module : v[i]->capture_dir);
}

/* The kernel `spec` names in the index, or NULL after saying why (*ret: the exit status). */
static struct rd_kernel *pick(struct rd_index *ix, const char *run, const char *spec, int *ret)
{
	const char *dash = strchr(spec, '-');
	struct rd_kernel **v;
	size_t n = rd_index_find(ix, ix->name, dash ? dash + 1 : NULL, NULL, 0);
	struct rd_kernel *k = NULL;

	v = xcalloc(n + 1, sizeof(*v));
	rd_index_find(ix, ix->name, dash ? dash + 1 : NULL, v, n);
	if (n == 1) {
		k = v[0];
	} else {
		if (n)
			msg_error("'%s' names %zu kernels in '%s'; pick one of:", spec, n, run);
		else
			msg_error("no kernel '%s' in '%s'", spec, run);
		list_candidates(v, n);
		*ret = EXIT_NOMATCH;
	}
	free(v);
	return k;
}

/* Gathers kernel `spec` of the RUN into `out`, filling doc. 0, or the exit status. */
static int collect(const char *run, const char *spec, const char *out, struct collect_doc *doc)
{
	struct rundir rd = RUNDIR_INIT;
	struct rd_index ix = RD_INDEX_INIT;
	struct buf err = BUF_INIT;
	const char *dash = strchr(spec, '-');
	char *name = dash ? xstrndup(spec, (size_t)(dash - spec)) : xstrdup(spec);
	struct rd_kernel *k;
	int ret = EXIT_OK;

	if (!rd_kernel_spec_ok(spec)) {
		msg_error("'%s' is not a kernel name (letters, digits and '_', "
			  "optionally -<8 hex digits>)", spec);
		ret = EXIT_FAIL;
	} else if (cmd_open_run(run, &rd, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if (rd_index_build(&ix, &rd, name, RD_COLLECT_PARTS, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if ((k = pick(&ix, run, spec, &ret))) {
		collect_logs_fill(&ix, k);
		if (rd_collect_write(&ix, k, out, doc, &err) < 0) {
			msg_error("%s", err.buf);
			ret = EXIT_FAIL;
		}
	}
	rd_index_release(&ix);
	rd_release(&rd);
	buf_release(&err);
	free(name);
	return ret;
}

int cmd_collect(int argc, const char **argv)
{
	const char *kernel = NULL, *out = NULL, *json = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "kernel", &kernel, "NAME", "the kernel (exact name or NAME-<hash8>)"),
		OPT_STRING(0, "out", &out, "DIR", "where the artifacts go (new or empty)"),
		OPT_STRING(0, "json", &json, "FILE", "also write collect.json to FILE ('-': stdout)"),
		OPT_END(),
	};
	struct collect_doc doc;
	struct buf err = BUF_INIT;
	int n, ret;

	n = opts_parse(argc, argv, options, usage, 0, NULL);
	if (n < 0)
		return opts_exit_code(n);
	if (n != 1 || !kernel || !out) {
		msg_error(n != 1 ? "give one RUN directory" : "--kernel and --out are required");
		return EXIT_USAGE;
	}
	collect_doc_init(&doc);
	ret = collect(argv[0], kernel, out, &doc);
	if (ret == EXIT_OK) {
		if (json && collect_doc_save(&doc, json, &err) < 0) {
			msg_error("%s", err.buf);
			ret = EXIT_FAIL;
		}
		if (!json || strcmp(json, "-"))
			collect_print_summary(stdout, &doc);
	}
	collect_doc_release(&doc);
	buf_release(&err);
	return ret;
}
