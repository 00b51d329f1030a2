/*
 * tko env [--json FILE] [--measure]: what this machine has for running and
 * analysing Triton kernels (src/env/probe.c gathers it, report/env_text.c
 * prints it; this file parses options). Works with no GPU, no torch and no
 * Python: it says so in its notes and still exits 0.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "env/probe.h"
#include "report/env_text.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko env [--json FILE] [--measure]",
	"Versions of python, torch and triton, the GPUs and their arch, DTK/ROCm/CUDA,",
	"the GPU tools on PATH and the environment flags that change code generation.",
	"--measure also times a large device-to-device copy (read+write bytes): the",
	"peak that tko run and the reports compare kernels against.",
	NULL,
};

int cmd_env(int argc, const char **argv)
{
	const char *json = NULL;
	int measure = 0, n;
	struct env_opts eo = ENV_OPTS_INIT;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write the JSON document to FILE ('-': stdout)"),
		OPT_BOOL(0, "measure", &measure, "measure device copy bandwidth (needs torch and a GPU)"),
		OPT_END(),
	};
	struct buf err = BUF_INIT;
	struct env_doc doc;
	int ret = EXIT_OK;

	n = opts_parse(argc, argv, options, usage, 0, NULL);
	if (n < 0)
		return opts_exit_code(n);
	if (n > 0) {
		msg_error("unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	eo.measure = measure;
	env_probe_doc(&eo, &doc);
	if (json && env_doc_save(&doc, json, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	}
	if (!json || strcmp(json, "-"))
		env_text_print(stdout, &doc);
	env_doc_release(&doc);
	buf_release(&err);
	return ret;
}
