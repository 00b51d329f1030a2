/*
 * tko meta FILE.py|DIR... [--kernel NAME] [--json FILE]: what Triton
 * kernel sources say about each kernel (parse/meta.h does the work;
 * report/meta_text.h draws the tables). Exit codes: 0, 1 bad input (a bad
 * file under a directory is skipped with a warning, and still makes the
 * exit 1), 2 usage, 4 --kernel matched none or several.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "parse/meta.h"
#include "report/meta_json.h"
#include "report/meta_text.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/plural.h"
#include "banned.h"

/* Candidates listed after a --kernel miss, at most. */
#define MAX_CANDIDATES 20

static const char *const usage[] = {
	"tko meta [--kernel NAME] [--json FILE] FILE.py|DIR...",
	"",
	"Reads Triton kernel sources without running them: TorchInductor kernel",
	"modules and wrapper (output code) modules, and hand-written @triton.jit",
	"files. A directory (a RUN, an Inductor cache) means every .py under it.",
	"For each kernel: kind, signature and pointer arguments, tt.divisibility /",
	"tt.pointer_range hints and the pointers lacking them, device, Inductor",
	"metadata, the ATen ops behind it, and each tl.assume / multiple_of /",
	"max_contiguous / atomic_* / where / dot / masked load and store with its line.",
	NULL,
};

/*
 * After a --kernel miss: the kernels of that exact name (several matched),
 * or those whose name contains it, or (none does) all of them.
 */
static void list_candidates(const struct meta_set *set, const char *name, int matched)
{
	struct msg_list l = MSG_LIST_INIT(MAX_CANDIDATES);
	size_t i, sub = 0;

	for (i = 0; i < set->kernels.nr; i++)
		sub += strstr(set->kernels.v[i]->name, name) != NULL;
	for (i = 0; i < set->kernels.nr; i++) {
		const struct meta_kernel *k = set->kernels.v[i];

		if (matched ? strcmp(k->name, name) != 0 : sub && !strstr(k->name, name))
			continue;
		msg_list_item(&l, "%s  %s:%zu", k->name, k->file, k->line);
	}
	msg_list_end(&l);
}

/* Narrows to --kernel NAME; returns 0, or the exit code after an error. */
static int select_kernel(const struct meta_set *set, const char *name,
			 const struct meta_kernel **one)
{
	size_t n = meta_find(set, name, one, 1);

	if (n == 1)
		return 0;
	if (!n)
		msg_error("no kernel named '%s' (%zu kernel%s read); candidates:", name,
			  set->kernels.nr, plural(set->kernels.nr));
	else
		msg_error("%zu kernels are named '%s'; name one file:", n, name);
	list_candidates(set, name, n > 1);
	return EXIT_NOMATCH;
}

static int scan_inputs(struct meta_set *set, const char **paths, int n)
{
	struct buf err = BUF_INIT;
	size_t i;
	int p;

	for (p = 0; p < n; p++)
		if (meta_scan_path(set, paths[p], &err) < 0) {
			msg_error("%s", err.buf);
			buf_release(&err);
			return EXIT_FAIL;
		}
	meta_link(set);
	for (i = 0; i < set->nfiles; i++)
		if (set->files[i].error)
			msg_warn("skipped: %s", set->files[i].error);
	if (!set->kernels.nr) {
		msg_error("no Triton kernel found in '%s'%s", paths[0], n > 1 ? " and the rest" : "");
		return EXIT_FAIL;
	}
	return 0;
}

/* Streams the JSON document to `path` through atomic_open. */
static int write_json(const struct meta_set *set, const struct meta_kernel *one,
		      const char *path, struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	if (meta_write_json(af.fp, set, one ? &one : NULL, one ? 1 : 0) < 0) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		atomic_abort(&af);
		return -1;
	}
	return atomic_commit(&af, err);
}

static int write_outputs(const struct meta_set *set, const struct meta_kernel *one,
			 const char *json)
{
	struct buf err = BUF_INIT;

	if (json) {
		if (write_json(set, one, json, &err) < 0) {
			msg_error("%s", err.buf);
			buf_release(&err);
			return EXIT_FAIL;
		}
		if (!strcmp(json, "-"))
			return 0;
	}
	if (one || set->kernels.nr == 1)
		meta_print_kernel(stdout, one ? one : set->kernels.v[0]);
	else
		meta_print_summary(stdout, (const struct meta_kernel *const *)set->kernels.v,
				   set->kernels.nr);
	return 0;
}

int cmd_meta(int argc, const char **argv)
{
	const char *kernel = NULL, *json = NULL;
	const struct opt options[] = {
		OPT_STRING('k', "kernel", &kernel, "NAME", "only the kernel with this exact name"),
		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout, no table)"),
		OPT_END(),
	};
	struct meta_set set = META_SET_INIT;
	const struct meta_kernel *one = NULL;
	int n = opts_parse(argc, argv, options, usage, 0, NULL), ret;

	if (n < 0)
		return opts_exit_code(n);
	if (!n) {
		msg_error("missing FILE.py or directory (see 'tko meta --help')");
		return EXIT_USAGE;
	}
	ret = scan_inputs(&set, argv, n);
	if (!ret && kernel)
		ret = select_kernel(&set, kernel, &one);
	if (!ret)
		ret = write_outputs(&set, one, json);
	if (!ret && set.nerrors)
		ret = EXIT_FAIL;
	meta_set_release(&set);
	return ret;
}
