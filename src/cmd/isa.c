/*
 * tko isa: scan AMDGCN / PTX / SASS (files, directories, .hsaco/.cubin)
 * and show, per kernel symbol, its instruction families with widths,
 * resources, the source line of each memory/atomic/matrix instruction
 * and findings, with the rules of tko's table that read one kernel alone
 * (their severities and rules: decide/isa_scope.h). Wiring only: the
 * scanner is src/isa (isa.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "decide/isa_scope.h"
#include "isa/isa.h"
#include "json/jsonio.h"
#include "report/isa_json.h"
#include "report/isa_text.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/plural.h"
#include "banned.h"

static const char *const isa_usage[] = {
	"tko isa [--kernel NAME [--arch ARCH]] [--json FILE] [--md FILE] [--details] PATH...",
	"",
	"PATH is AMDGCN assembly (Triton .amdgcn, hipcc -save-temps .s, DTK/DCU",
	"output, Tensile-style .s), PTX, SASS text, a .hsaco/.co or .cubin (read",
	"with llvm-objdump / dccobjdump / nvdisasm / cuobjdump), or a directory",
	"of them. The format is told from the content; LLVM IR, MLIR, Python and",
	"JSON files are skipped. Prints per kernel its instruction families,",
	"resources, findings (facts of the scan) and the decision rules that read",
	"one kernel alone; a finding a fired rule judges is a warning. Which rules",
	"and their limits: docs/rules.md, \"The ISA rules of `tko isa`\".",
	"Writes no file but --json / --md.",
	"Exit codes: 0 done, 1 bad input, 2 usage, 3 a needed tool is missing,",
	"4 --kernel matched no kernel or several.",
	NULL,
};

/* "no kernel named X" / "3 kernels named X": the candidates, one a line. */
static void list_candidates(const struct isa_result *res, const char *name,
			    const char *arch, size_t matches)
{
	struct msg_list l = MSG_LIST_INIT(50);
	size_t i, j;

	for (i = 0; i < res->files_nr; i++)
		for (j = 0; j < res->files[i]->kernels_nr; j++) {
			const struct isa_kernel *k = res->files[i]->kernels[j];

			if (matches && strcmp(k->name, name))
				continue;
			if (matches && arch && (!k->arch || strcmp(k->arch, arch)))
				continue;
			msg_list_item(&l, "%s (%s, %s, %s)", k->name,
				      isa_kind_name(res->files[i]->isa),
				      k->arch ? k->arch : "arch unknown", res->files[i]->path);
		}
	msg_list_end(&l);
}

static int select_kernel(struct isa_result *res, const char *name, const char *arch)
{
	size_t n = isa_result_count(res, name, arch);

	if (n == 1) {
		isa_result_keep(res, name, arch);
		return EXIT_OK;
	}
	if (n)
		msg_error("%zu kernels are named '%s'%s%s; name a file or add --arch:",
			  n, name, arch ? " for " : "", arch ? arch : "");
	else
		msg_error("no kernel named '%s'%s%s; the kernels are:", name,
			  arch ? " for " : "", arch ? arch : "");
	list_candidates(res, name, arch, n);
	return EXIT_NOMATCH;
}

static int named(const char *path, int argc, const char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(path, argv[i]))
			return 1;
	return 0;
}

/*
 * Warnings the scan left, and the skipped files: one note each for files
 * named on the command line, one line of counts by kind for those found
 * in directories (the JSON lists them all).
 */
/*
 * The skipped files: the reasons of those named on the command line into
 * `named` ("; " between them), counts by kind of those found in
 * directories into `walked` ("3 json, 1 mlir"). Returns how many of those
 * there were.
 */
static size_t skips(const struct isa_result *res, int argc, const char **argv,
		    struct buf *said, struct buf *walked)
{
	const char *kind[16];
	size_t count[16], kinds = 0, i, j, in_dirs = 0;

	for (i = 0; i < res->skipped_nr; i++) {
		const struct isa_skip *s = &res->skipped[i];

		if (named(s->path, argc, argv)) {
			buf_addf(said, "%s%s", said->len ? "; " : "", s->reason);
			continue;
		}
		in_dirs++;
		for (j = 0; j < kinds && strcmp(kind[j], s->kind); j++)
			;
		if (j == kinds && kinds < 16) {
			kind[kinds] = s->kind;
			count[kinds++] = 0;
		}
		if (j < kinds)
			count[j]++;
	}
	for (j = 0; j < kinds; j++)
		buf_addf(walked, "%s%zu %s", j ? ", " : "", count[j], kind[j]);
	return in_dirs;
}

static void report_notes(const struct isa_result *res, int argc, const char **argv)
{
	struct buf named = BUF_INIT, walked = BUF_INIT;
	size_t i, j, in_dirs = skips(res, argc, argv, &named, &walked);

	for (i = 0; i < res->files_nr; i++)
		for (j = 0; j < res->files[i]->warnings_nr; j++)
			msg_warn("'%s': %s", res->files[i]->path, res->files[i]->warnings[j]);
	if (named.len)
		msg_note("skipped %s", named.buf);
	if (in_dirs)
		msg_note("skipped %zu file%s that %s not assembly or could not be read "
			 "(%s); --json lists %s", in_dirs, plural(in_dirs),
			 plural_word(in_dirs, "is", "are"), walked.buf, plural_word(in_dirs, "it", "them"));
	buf_release(&named);
	buf_release(&walked);
}

/* Nothing to report: one line, with what was skipped as the reason. */
static void report_none(const struct isa_result *res, int argc, const char **argv)
{
	struct buf named = BUF_INIT, walked = BUF_INIT;
	size_t in_dirs = skips(res, argc, argv, &named, &walked);

	if (named.len && !in_dirs) {
		msg_error("no kernels found: skipped %s", named.buf);
	} else {
		struct buf why = BUF_INIT;

		if (in_dirs)
			buf_addf(&why, ": %zu file%s skipped (%s)", in_dirs, plural(in_dirs), walked.buf);
		if (named.len)
			buf_addf(&why, "; skipped %s", named.buf);
		msg_error("no kernels found in '%s'%s%s", argv[0],
			  argc > 1 ? " and the other paths" : "", why.buf);
		buf_release(&why);
	}
	buf_release(&named);
	buf_release(&walked);
}

static size_t kernel_total(const struct isa_result *res)
{
	size_t i, n = 0;

	for (i = 0; i < res->files_nr; i++)
		n += res->files[i]->kernels_nr;
	return n;
}

/* --json and --md, published together: neither is replaced unless both are written. */
static int write_outputs(const struct isa_result *res, const char *json,
			 const char *md, int details)
{
	struct atomic_set set = ATOMIC_SET_INIT;
	struct buf err = BUF_INIT;
	FILE *fp;

	if (json) {
		json_t *doc = isa_result_to_json(res);
		int ret = (fp = atomic_set_open(&set, json, &err)) ? json_write_fp(doc, fp) : -1;

		json_decref(doc);
		if (ret < 0 && fp)
			buf_addf(&err, "cannot write '%s'", json);
		if (ret < 0)
			goto fail;
	}
	if (md) {
		if (!(fp = atomic_set_open(&set, md, &err)))
			goto fail;
		isa_render_md(fp, res);
	}
	if (atomic_set_commit(&set, &err) < 0)
		goto fail_committed;
	if ((!json || strcmp(json, "-")) && (!md || strcmp(md, "-")))
		isa_render_text(stdout, res, details);
	return EXIT_OK;
fail:
	atomic_set_abort(&set);
fail_committed:
	msg_error("%s", err.buf);
	buf_release(&err);
	return EXIT_FAIL;
}

int cmd_isa(int argc, const char **argv)
{
	const char *kernel = NULL, *arch = NULL, *json = NULL, *md = NULL;
	int details = 0, ret = EXIT_OK, n, i;
	struct isa_options opts = ISA_OPTIONS_INIT;
	const struct opt options[] = {
		OPT_STRING(0, "kernel", &kernel, "NAME", "only the kernel with this exact symbol name"),
		OPT_STRING(0, "arch", &arch, "ARCH", "with --kernel: only this arch (gfx942, sm_90a)"),
		OPT_STRING(0, "json", &json, "FILE", "write the result as JSON ('-': stdout)"),
		OPT_STRING(0, "md", &md, "FILE", "write the result as Markdown ('-': stdout)"),
		OPT_BOOL(0, "details", &details, "show every kernel in full, not a summary"),
		OPT_DOUBLE(0, "timeout", &opts.tool_timeout_s, "S",
			   "stop a disassembler that runs past S seconds (default 120)"),
		OPT_END(),
	};
	struct isa_result res = ISA_RESULT_INIT;
	struct buf err = BUF_INIT;

	n = opts_parse(argc, argv, options, isa_usage, 0, NULL);
	if (n < 0)
		return opts_exit_code(n);
	if (!n || opts.tool_timeout_s <= 0) {
		msg_error(n ? "--timeout must be positive" : "no PATH given (see 'tko isa --help')");
		return EXIT_USAGE;
	}
	for (i = 0; i < n && ret == EXIT_OK; i++) {
		int r = isa_scan_path(argv[i], &opts, &res, &err);

		if (r < 0) {
			msg_error("%s", err.buf);
			ret = r == ISA_ERR_TOOL ? EXIT_TOOL : EXIT_FAIL;
		}
	}
	if (ret == EXIT_OK && !kernel_total(&res)) {
		report_none(&res, n, argv);
		ret = EXIT_FAIL;
	} else if (ret == EXIT_OK) {
		report_notes(&res, n, argv);
	}
	if (ret == EXIT_OK && kernel)
		ret = select_kernel(&res, kernel, arch);
	if (ret == EXIT_OK) {
		decide_isa_result(&res, &rule_limits_default);
		ret = write_outputs(&res, json, md, details);
	}
	isa_result_release(&res);
	buf_release(&err);
	return ret;
}
