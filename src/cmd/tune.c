/*
 * tko tune: sweep a kernel's launch configs and source variants, check
 * every variant against the base, and emit the winner. Wiring only: the
 * work is in src/tune/ (sweep.h describes the flow).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "json/jsonio.h"
#include "json/jsonw.h"
#include "report/tune_text.h"
#include "tune/dispatch.h"
#include "tune/exit.h"
#include "tune/sweep.h"
#include "tune/tune.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

static const char *const usage[] = {
	"tko tune [--compile-only --target ARCH] [--budget SECONDS] [--json FILE] [--md FILE]\n"
	"         [--out DIR] [--kernel NAME] [--config K=V,...] KERNEL_DIR|KERNEL.py...",
	"",
	"Plans variants of each kernel (launch configs around the autotuned best,",
	"tl.multiple_of/tl.assume hints, tt.pointer_range=32, AMD buffer ops, and",
	"an online softmax's two-pass form),",
	"compiles them with Triton, and on a GPU times them and checks their outputs",
	"against the base config's on captured and random inputs, then confirms",
	"the winner: it, the base and the best config-only variant re-timed in",
	"alternating rounds, accepted only when faster beyond the noise (a 95%",
	"interval of the ratio above 1.0). --compile-only",
	"needs no GPU: it shows what each variant compiles to for --target.",
	"gfx926/928/936/938 need DTK and triton-das; upstream Triton cannot compile them.",
	NULL,
};

static int check_target(const char *target)
{
	const struct target *t = target ? target_find(target) : NULL;
	struct buf err = BUF_INIT;
	int ret = EXIT_OK;

	if (target && target_check_tunable(target, 0, &err) < 0) {
		msg_error("%s", err.buf);
		ret = t && t->tunable ? EXIT_TOOL : EXIT_USAGE;
	}
	buf_release(&err);
	return ret;
}

/* One request of the serving mode (tune/dispatch.h): the kernel into its files. */
static int serve_one(const json_t *req, const struct tune_opts *o, struct tune_pool *pool,
		     int *ran)
{
	const char *input = json_str(req, "input"), *json = json_str(req, "json");
	const char *md = json_str(req, "md"), *out = json_str(req, "out");
	struct tune_sweep s = { 0 };
	struct tune_outcome outcome;
	struct buf err = BUF_INIT;
	struct tune_doc doc;
	FILE *fp;
	int ret;

	*ran = 0;
	if (!input || !json || !out)
		return EXIT_USAGE;
	tune_doc_start(&doc, o);
	tune_one(&s, input, o, pool, &doc, &outcome);
	ret = tune_exit_of(&outcome);
	*ran = outcome.ran;
	if (*ran && (tune_doc_save(json, &doc, &err) < 0 || (md && tune_text_write_md(md, &doc, &err) < 0)))
		ret = EXIT_FAIL;
	if (*ran && (fp = fopen(out, "w"))) {
		tune_text_kernel(fp, &doc.kernels[0], o->compile_only, 0);
		fclose(fp);
	}
	if (err.len)
		msg_error("%s", err.buf);
	tune_sweep_release(&s);
	rf_release(&tune_doc_desc, &doc);
	buf_release(&err);
	return ret;
}

/* The answer to one request: {"exit":STATUS,"ran":0|1} on one line (tune/dispatch.h). */
static void serve_reply(int rc, int ran)
{
	struct jsonw w;

	jsonw_init_compact(&w, stdout);
	jsonw_object(&w);
	jsonw_key(&w, "exit");
	jsonw_int(&w, rc);
	jsonw_key(&w, "ran");
	jsonw_int(&w, ran);
	jsonw_end(&w);
	jsonw_finish(&w);
	fflush(stdout);
}

/* tko tune --gpus's worker on one GPU: a kernel a request line, until EOF. */
static int serve(const struct tune_opts *o)
{
	struct tune_pool pool = TUNE_POOL_INIT;
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, stdin) > 0) {
		json_t *req = json_loads(line, 0, NULL);
		int ran, rc = serve_one(req, o, &pool, &ran);

		json_decref(req);
		serve_reply(rc, ran);
	}
	free(line);
	tune_pool_release(&pool);
	return EXIT_OK;
}

struct print_each {
	int to_stdout;	/* the JSON does not go to stdout: each kernel's text does */
	int compile_only;
};

/* Each kernel's text as soon as its sweep is done, between the progress lines. */
static void print_ran(void *data, const struct tune_sweep *s, const struct tune_doc_kernel *k,
		      const struct tune_outcome *out)
{
	const struct print_each *pr = data;

	(void)s;
	if (out->ran && k && pr->to_stdout)
		tune_text_kernel(stdout, k, pr->compile_only, 0);
}

/* The checks opts_parse cannot make; EXIT_OK or EXIT_USAGE, said. */
static int check_opts(int n, long max_variants, const struct tune_opts *o)
{
	if (!n) {
		msg_error("no kernel given (a KERNEL_DIR or KERNEL.py)");
		return EXIT_USAGE;
	}
	if (max_variants < 1 || o->budget_s < 0 || o->timeout_s <= 0) {
		msg_error("--max-variants, --budget and --timeout must be positive");
		return EXIT_USAGE;
	}
	if (o->confirm_rounds < 0 || o->confirm_rounds == 1 || o->confirm_rounds > 1000) {
		msg_error("--confirm-rounds must be 0 (none) or 2 to 1000 (an interval needs 2 rounds)");
		return EXIT_USAGE;
	}
	return check_target(o->target);
}

/*
 * Tunes the n kernels of argv in this process, then writes the document:
 * the exit code of the worst kernel, or EXIT_FAIL when writing failed.
 */
static int tune_here(struct tune_opts *o, const char **argv, int n, const char *json,
		     const char *md)
{
	struct print_each pr = { 0 };
	struct tune_each each = { print_ran, &pr };
	struct tune_job job = { o, argv, (size_t)n };
	struct tune_sweep *s = xcalloc((size_t)n, sizeof(*s));
	struct tune_outcome *outs = xcalloc((size_t)n, sizeof(*outs));
	struct buf err = BUF_INIT;
	struct tune_doc doc;
	int i, tried, done = 0, ret = EXIT_OK;

	tune_doc_start(&doc, o);
	pr.to_stdout = !json || strcmp(json, "-");
	pr.compile_only = o->compile_only;
	tried = (int)tune_run(&job, s, outs, &doc, &each);
	for (i = 0; i < tried; i++) {
		int r = tune_exit_of(&outs[i]);

		done += outs[i].ran != 0;
		if (r != EXIT_OK)
			ret = r;
	}
	/* When no kernel got as far as its sweep, nothing is written: an old output stays. */
	if (done && json && tune_doc_save(json, &doc, &err) < 0)
		ret = EXIT_FAIL;
	else if (done && md && tune_text_write_md(md, &doc, &err) < 0)
		ret = EXIT_FAIL;
	if (err.len)
		msg_error("%s", err.buf);
	for (i = 0; i < tried; i++)
		tune_sweep_release(&s[i]);
	free(s);
	free(outs);
	rf_release(&tune_doc_desc, &doc);
	buf_release(&err);
	return ret;
}

int cmd_tune(int argc, const char **argv)
{
	struct tune_opts o = TUNE_OPTS_INIT;
	struct strlist consts = STRLIST_INIT;
	const char *json = NULL, *md = NULL, *gpus = NULL;
	long max_variants = 40;
	int n, ret, dispatched = 0;
	const struct opt options[] = {
		OPT_BOOL(0, "compile-only", &o.compile_only, "compile every variant, launch none (no GPU needed)"),
		OPT_STRING(0, "target", &o.target, "ARCH", "gfx942, gfx90a, gfx950, sm_90, ... (default: the GPU's)"),
		OPT_DOUBLE(0, "budget", &o.budget_s, "SECONDS", "seconds of search per kernel after its base variant (default 60)"),
		OPT_INT(0, "max-variants", &max_variants, "N", "at most N variants per kernel (default 40)"),
		OPT_DOUBLE(0, "timeout", &o.timeout_s, "SECONDS", "time limit of one variant (default 300)"),
		OPT_STRING(0, "kernel", &o.kernel, "NAME", "the kernel to tune in a file with several"),
		OPT_STRING(0, "config", &o.config, "K=V,...", "the base config (default: the autotuned one)"),
		OPT_STRING(0, "signature", &o.signature, "NAME=TYPE,...", "argument types of a hand-written kernel (x_ptr=*fp32,n=i32:16; :16 = divisible by 16)"),
		OPT_LIST(0, "const", &consts, "NAME=VALUE", "a constexpr value of a hand-written kernel (repeatable)"),
		OPT_DOUBLE(0, "peak-gbps", &o.peak_gbps, "GBPS", "the device's copy bandwidth for the peak column"),
		OPT_BOOL(0, "no-source", &o.no_source, "no source variants, launch configs only"),
		OPT_BOOL(0, "no-search", &o.no_search, "no config search, source variants only"),
		OPT_INT(0, "confirm-rounds", &o.confirm_rounds, "N", "re-time the winner, the base and the best config-only variant in N alternating rounds before accepting it (default 7; 0: no confirmation)"),
		OPT_STRING(0, "out", &o.out_dir, "DIR", "files go to DIR/<kernel>-<target>/ (default: KERNEL_DIR/tune/, or ./tko-tune/<kernel>-<target>/)"),
		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout)"),
		OPT_STRING(0, "md", &md, "FILE", "write Markdown to FILE"),
		OPT_STRING(0, "gpus", &gpus, "LIST", "all (default: every visible GPU) or GPU numbers, 0,1: one timing worker each"),
		OPT_END(),
	};
	/* the command line as given, for the tko tunes of --gpus (opts_parse reorders argv) */
	const char **given = xcalloc((size_t)argc, sizeof(*argv));

	memcpy(given, argv + 1, (size_t)(argc - 1) * sizeof(*argv));
	n = opts_parse(argc, argv, options, usage, 0, NULL);
	o.max_variants = (size_t)max_variants;
	o.consts = &consts;
	if (n < 0) {
		ret = opts_exit_code(n);
	} else if (getenv(TUNE_SERVE_ENV)) {
		ret = serve(&o);
	} else if ((ret = check_opts(n, max_variants, &o)) == EXIT_OK) {
		struct tune_dispatch d = { NULL, given, (size_t)argc - 1, argv, (size_t)n, json, md,
					   o.budget_s, max_variants, o.compile_only };

		dispatched = tune_dispatch_maybe(gpus, &d, &ret);
		if (ret == EXIT_OK && !dispatched)
			ret = tune_here(&o, argv, n, json, md);
	}
	free(given);
	strlist_release(&consts);
	return ret;
}
