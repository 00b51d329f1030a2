/*
 * tko collect RUN --kernel NAME --out DIR [--json FILE]: gathers every
 * artifact of one kernel (its Inductor module, each Triton cache entry with
 * all IR stages, ISA, binary and metadata, and its capture directory) into
 * DIR, and nothing outside DIR (src/live/collect.c does the work).
 *
 * NAME is exact; when it names several kernels (Inductor reuses
 * "triton_mm" for every max-autotune choice), the candidates are listed
 * as NAME-<hash8> and the exit status is 4.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/exitcode.h"
#include "live/collect.h"
#include "util/jsonio.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/table.h"
#include "banned.h"

static const char *const usage[] = {
	"tko collect RUN --kernel NAME --out DIR [--json FILE]",
	"NAME is a kernel's exact name, or NAME-<hash8> (its capture directory's name) when",
	"several kernels share a name. DIR must be new or empty; DIR/collect.json lists",
	"every file with where it came from.",
	NULL,
};

static void list_candidates(const struct collect *col)
{
	size_t i;

	for (i = 0; i < col->nr; i++) {
		const struct kernel_candidate *c = &col->c[i];

		msg_detail("    %s-%s  %s", col->name, c->hash8,
			c->module ? c->module : c->capture_dir);
	}
}

static void print_summary(const json_t *m)
{
	struct table t = TABLE_INIT;
	json_t *counts = json_object(), *f, *v;
	const char *role;
	size_t i;

	json_array_foreach(json_object_get(m, "files"), i, f) {
		json_t *c = json_object_get(counts, json_str(f, "role"));

		if (!c) {
			c = json_pack("{s:i, s:I}", "files", 0, "bytes", (json_int_t)0);
			json_object_set_new(counts, json_str(f, "role"), c);
		}
		json_set_int(c, "files", json_int(c, "files", 0) + 1);
		json_set_int(c, "bytes", json_int(c, "bytes", 0) + json_int(f, "bytes", 0));
	}
	table_columns(&t, "artifact|files|bytes", "lrr");
	json_object_foreach(counts, role, v) {
		table_row(&t);
		table_cell(&t, "%s", role);
		table_cell(&t, "%lld", json_int(v, "files", 0));
		table_cell(&t, "%lld", json_int(v, "bytes", 0));
	}
	printf("%s: %zu Triton cache entries\n", json_str(m, "kernel"),
	       json_array_size(json_object_get(m, "triton_cache_entries")));
	table_print(&t, stdout);
	if (json_array_size(json_object_get(m, "skipped")))
		printf("skipped %zu inputs (see collect.json)\n",
		       json_array_size(json_object_get(m, "skipped")));
	table_release(&t);
	json_decref(counts);
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
	struct collect col = COLLECT_INIT;
	struct buf err = BUF_INIT;
	json_t *m = NULL;
	int n, ret = EXIT_OK;

	n = opts_parse(argc, argv, options, usage, 0, NULL);
	if (n < 0)
		return opts_exit_code(n);
	if (n != 1 || !kernel || !out) {
		msg_error(n != 1 ? "give one RUN directory" : "--kernel and --out are required");
		return EXIT_USAGE;
	}
	if (collect_find(&col, argv[0], kernel, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if (col.nr != 1) {
		if (col.nr)
			msg_error("'%s' names %zu kernels in '%s'; pick one of:", kernel, col.nr, argv[0]);
		else
			msg_error("no kernel '%s' in '%s'", kernel, argv[0]);
		list_candidates(&col);
		ret = EXIT_NOMATCH;
	} else if (collect_write(&col, 0, out, &m, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else {
		if (json && json_write_path(m, json, &err) < 0) {
			msg_error("%s", err.buf);
			ret = EXIT_FAIL;
		}
		if (!json || strcmp(json, "-"))
			print_summary(m);
	}
	json_decref(m);
	collect_release(&col);
	buf_release(&err);
	return ret;
}
