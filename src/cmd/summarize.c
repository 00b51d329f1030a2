/*
 * tko summarize LOG|RUN... [--kernel NAME] [--json FILE] [--md FILE]
 *
 * Reads autotune evidence (parse/summarize.h) and shows one line per
 * kernel, or one kernel in detail; --json and --md write the same model
 * as JSON (docs/json.md, "tko summarize") and Markdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "parse/summarize.h"
#include "report/autotune_text.h"
#include "report/summarize_json.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/plural.h"
#include "banned.h"

static const char *const usage[] = {
	"tko summarize [--kernel NAME] [--json FILE] [--md FILE] LOG|RUN...",
	"Reads autotune evidence and gives one model per kernel: configs tried,",
	"their times, the chosen config, registers, spills and shared memory, and",
	"the file and line of every fact. Inputs are RUN directories or files of",
	"any of these formats, detected from their content: tko capture's",
	"events.jsonl, TORCH_LOGS=+inductor logs (with max-autotune tables and",
	"TRITON_PRINT_AUTOTUNING=1 lines mixed in), Inductor .best_config files,",
	"the seed skill's autotune.log. NAME is a kernel's name, or name#N when",
	"a name has several instances.",
	NULL,
};

/* Lists the kernels --kernel could have meant. */
static int no_match(const struct autotune_set *s, const char *name, size_t n)
{
	struct msg_list l = MSG_LIST_INIT(0);
	size_t i;

	if (n)
		msg_error("--kernel '%s' matches %zu kernels; name one:", name, n);
	else
		msg_error("no kernel named '%s' (%zu kernel%s read)", name, s->nr, plural(s->nr));
	for (i = 0; i < s->nr; i++) {
		const struct at_kernel *k = s->kernels[i];
		char *id;

		if (n ? strcmp(k->name, name) : !strstr(k->name, name))
			continue;
		id = at_kernel_id(k);
		msg_list_item(&l, "%s", id);
		free(id);
	}
	if (!n && !l.n)
		msg_detail("(run 'tko summarize' without --kernel to list them)");
	return EXIT_NOMATCH;
}

/* --json and --md, published together: neither is replaced unless both are written. */
static int outputs(const struct autotune_set *s, const struct at_kernel *only,
		   const char *json, const char *md)
{
	struct atomic_set set = ATOMIC_SET_INIT;
	struct buf err = BUF_INIT;
	int ret = EXIT_OK;
	FILE *fp;

	if (json && (!(fp = atomic_set_open(&set, json, &err)) ||
		     autotune_set_write_json(fp, s, only) < 0)) {
		if (!err.len)
			buf_addf(&err, "cannot write '%s'", json);
		ret = EXIT_FAIL;
	} else if (md && !(fp = atomic_set_open(&set, md, &err))) {
		ret = EXIT_FAIL;
	} else if (md) {
		autotune_text_print(fp, s, only, 1);
	}
	if (ret != EXIT_OK)
		atomic_set_abort(&set);
	else if (atomic_set_commit(&set, &err) < 0)
		ret = EXIT_FAIL;
	if (ret != EXIT_OK)
		msg_error("%s", err.buf);
	else if (!(json && !strcmp(json, "-")) && !(md && !strcmp(md, "-")))
		autotune_text_print(stdout, s, only, 0);
	buf_release(&err);
	return ret;
}

int cmd_summarize(int argc, const char **argv)
{
	const char *kernel = NULL, *json = NULL, *md = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "kernel", &kernel, "NAME", "only this kernel, in detail"),
		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout)"),
		OPT_STRING(0, "md", &md, "FILE", "write Markdown to FILE ('-': stdout)"),
		OPT_END(),
	};
	struct autotune_set set;
	struct buf err = BUF_INIT;
	const struct at_kernel *only = NULL;
	int n = opts_parse(argc, argv, options, usage, 0, NULL), ret;

	if (n < 0)
		return opts_exit_code(n);
	if (!n) {
		msg_error("no LOG or RUN given (see 'tko summarize --help')");
		return EXIT_USAGE;
	}
	if (json && md && !strcmp(json, "-") && !strcmp(md, "-")) {
		msg_error("--json - and --md - cannot both write to stdout");
		return EXIT_USAGE;
	}
	autotune_set_init(&set);
	if (summarize_paths(argv, (size_t)n, &set, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if (kernel && autotune_set_find(&set, kernel, &only) != 1) {
		ret = no_match(&set, kernel, autotune_set_find(&set, kernel, &only));
	} else {
		ret = outputs(&set, only, json, md);
	}
	buf_release(&err);
	autotune_set_release(&set);
	return ret;
}
