/*
 * tko investigate [options] RUN
 * tko investigate [options] [--out RUN] [--kernels REGEX] [--measure] [--no-replay] -- CMD [ARGS...]
 *
 * tko's main job: on a RUN directory (or after capturing CMD into a new
 * one with the capture library, capture/session.h, and replaying the
 * kernels it saved with the replay library, run/replay.h), read every piece of evidence, join
 * it per kernel, rank the kernels by their share of GPU time and decide
 * for each (decide/decide.h), then write RUN/analysis/{kernels,summarize,
 * meta,isa}.json and RUN/report/report.{md,json,html} and print a short
 * ranked summary. --out-dir DIR puts analysis/ and report/ under DIR
 * instead (for a RUN one cannot write to).
 *
 * --tune-top N then tunes the N hottest kernels the decisions mark "tune"
 * (decide/tune_pick.h) with the tune library (tune/tune.h), each into its
 * capture directory's tune/ as `tko tune KERNEL_DIR` does, where the
 * analysis, `tko report` and `tko apply` read it, and decides and writes
 * the report again with the results.
 *
 * Exit: 0 done; 1 bad input or an output that cannot be written; 2 usage;
 * 5 the captured command failed (the report is still written); else,
 * with --tune-top, the status `tko tune` of those kernels would have
 * (tune/exit.h; the report is still written).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/session.h"
#include "cmd/cmd.h"
#include "model/analysis_desc.h"
#include "model/analysis_store.h"
#include "parse/kernel_uses.h"
#include "exitcode.h"
#include "decide/decide.h"
#include "decide/tune_pick.h"
#include "report/capture_text.h"
#include "report/raw_docs.h"
#include "report/replay_text.h"
#include "report/summary.h"
#include "report/writer.h"
#include "run/replay.h"
#include "rundir/layout.h"
#include "tune/exit.h"
#include "tune/tune.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/plural.h"
#include "util/walk.h"
#include "banned.h"

static const char *const usage[] = {
	"tko investigate [options] RUN",
	"   or: tko investigate [options] [--out RUN] [--kernels REGEX] [--measure] [--no-replay] -- CMD [ARGS...]",
	"Analyses a RUN directory (or captures CMD into one and replays the kernels it saved):",
	"every kernel the model ran, ranked by its share of GPU time (of the whole step's GPU",
	"busy time, library kernels included, when the RUN has a profile/ or --profile names",
	"one: tko profile --help lists the formats), with where it came from,",
	"its configs, hints, ISA, resources, footprint rate against the measured peak, and a",
	"decision from named rules (docs/rules.md).",
	"Writes RUN/analysis/*.json and RUN/report/report.{md,json,html}.",
	"A RUN without capture/ (a colleague's logs and caches) is analysed with what it has;",
	"what is missing is listed with the command that would fill it.",
	"--tune-top N then runs tko tune (on this machine's GPU) on the N kernels with the",
	"most GPU time that the decisions mark 'tune' and have captured inputs, writes each",
	"result to its RUN/capture/kernels/<kernel>/tune/tune.json (where tko report and",
	"tko apply read it), and writes the report again with the results. A kernel with a",
	"tune result already is not tuned again (tko tune KERNEL_DIR does that); the",
	"report from before tuning is written first. Exits 5 when the captured command",
	"failed, else as tko tune of those kernels would (1 a kernel failed, 3 no Python,",
	"worker or GPU, 5 the worker died), the report written either way.",
	NULL,
};

struct inv_opts {
	const char *out_dir;	/* --out-dir */
	const char *run_out;	/* --out, with -- CMD */
	const char *kernels;	/* --kernels, with -- CMD */
	int measure;		/* --measure, with -- CMD */
	int no_replay;		/* --no-replay, with -- CMD */
	double peak;		/* --peak-gbps */
	const char *replay;	/* --replay */
	struct strlist tunes;	/* --tune */
	int isa_tools;		/* --isa-tools */
	long top;		/* --top */
	const char *md, *json, *html;	/* extra copies */
	const char *profile;	/* --profile */
	long tune_top;		/* --tune-top: kernels to tune, 0 none */
	double tune_budget;	/* --tune-budget, -1: tko tune's default */
};

static void progress(void *data, const char *step)
{
	(void)data;
	msg_progress("%s", step);
}

/*
 * Captures CMD into `run` as `tko capture --out RUN` does, its lines and
 * closing table included; returns the command's exit status (or the
 * capture's failure status), or -1 when no RUN directory was made.
 */
static int capture(const struct inv_opts *o, const char *run, const char **cmd, int ncmd)
{
	struct capture_opts co = CAPTURE_OPTS_INIT;
	struct capture_session s;
	int status;

	co.out = run;
	co.kernels = o->kernels;
	co.measure = o->measure;
	capture_session_init(&s);
	status = capture_session_run(&s, &co, cmd, ncmd);
	if (s.ran && !msg_settings.quiet)
		capture_print_summary(stderr, &s.m);
	capture_session_release(&s);
	return is_dir(run) ? status : -1;
}

/*
 * Replays every kernel the capture saved as `tko run` does (keeping
 * RUN/analysis/replay.json, printing its table and its lines as "tko
 * run: ..."), so that the report ranks kernels by their own time and not
 * by the autotuner's, which can include host copies and launch overhead.
 * A failed replay is a warning: the report then says which times it used.
 */
static void replay(const char *run)
{
	struct strlist dirs = STRLIST_INIT;
	struct replay_opts ro = REPLAY_OPTS_INIT;
	struct replay_outcome out = REPLAY_OUTCOME_INIT;
	size_t n = rd_kernel_dirs(run, &dirs);
	int status;

	if (!n) {
		msg_note("the capture saved no kernel inputs; nothing to replay");
		walk_release(&dirs);
		return;
	}
	msg_note("replaying the %zu captured kernel director%s (tko run; --no-replay skips this)",
		 n, plural_word(n, "y", "ies"));
	ro.read_uses = kernel_uses_read;
	status = replay_into_run(&dirs, &ro, 1, &out);
	replay_text_show(&out, 1, "run");
	replay_outcome_release(&out);
	if (status != EXIT_OK)
		msg_warn("the replay exited with status %d; the report uses what it kept", status);
	walk_release(&dirs);
}

static int write_extra(const struct an_run *r, const struct report_writer *w,
		       struct atomic_set *set, const char *path, struct buf *err)
{
	return path ? report_render_in(r, w, set, path, err) : 0;
}

/* The tools' JSON, the model, the report, and with `extras` the extra copies: into the set. */
static int write_outputs(const struct an_run *r, const struct an_raw *raw,
			 const struct inv_opts *o, int extras, const char *base,
			 struct atomic_set *set, struct buf *err)
{
	char *adir = path_join(base, "analysis"), *rdir = path_join(base, "report");
	char *store = path_join(adir, AN_STORE_FILE);
	int ret = 0;

	if (raw_docs_write(raw, set, adir, err) < 0 ||
	    an_store_save(r, set, store, err) < 0 || report_write_dir(r, set, rdir, err) < 0)
		ret = -1;
	else if (extras && (write_extra(r, &report_markdown, set, o->md, err) < 0 ||
			    write_extra(r, &report_json, set, o->json, err) < 0 ||
			    write_extra(r, &report_html, set, o->html, err) < 0))
		ret = -1;
	free(adir);
	free(rdir);
	free(store);
	return ret;
}

static int to_stdout(const struct inv_opts *o)
{
	return (o->md && !strcmp(o->md, "-")) || (o->json && !strcmp(o->json, "-")) ||
	       (o->html && !strcmp(o->html, "-"));
}

/*
 * The folders the outputs go to: --out-dir as given (made when missing),
 * then analysis/ and report/ inside it, which must be real folders (a link
 * there would lead the writes out of the RUN).
 */
static int make_dirs(const struct inv_opts *o, const char *base, struct atomic_set *set,
		     struct buf *err)
{
	if (o->out_dir && mkdir_p(o->out_dir, err) < 0)
		return -1;
	if (atomic_set_mkdir(set, base, "analysis", err) < 0 ||
	    atomic_set_mkdir(set, base, "report", err) < 0) {
		if (!o->out_dir)
			buf_adds(err, " (use --out-dir DIR to write elsewhere)");
		return -1;
	}
	return 0;
}

/*
 * Writes analysis/{summarize,meta,isa,kernels}.json and
 * report/report.{md,json,html} (with `extras`, the extra copies too) as
 * one set, whose folders make_dirs() made: when any of them cannot be
 * written completely, none is published (docs/exit-codes.md).
 */
static int publish(const struct an_run *r, const struct an_raw *raw, const struct inv_opts *o,
		   int extras, const char *base, struct atomic_set *set, struct buf *err)
{
	if (write_outputs(r, raw, o, extras, base, set, err) < 0) {
		atomic_set_abort(set);
		return -1;
	}
	return atomic_set_commit(set, err);
}

/* Reads the RUN's evidence into r and raw (both fresh) and decides. */
static int analyse(const char *run, const struct inv_opts *o, struct an_run *r,
		   struct an_raw *raw, struct buf *err)
{
	struct an_opts ao = AN_OPTS_INIT;

	ao.peak_gbps = o->peak;
	ao.replay = o->replay;
	ao.tunes = o->tunes.v;
	ao.ntunes = o->tunes.nr;
	ao.isa_tools = o->isa_tools;
	ao.profile = o->profile;
	ao.raw = raw;
	ao.progress = progress;
	ao.need = cmd_need();
	return decide_run(run, &ao, r, err);
}

/* Tuning's progress: a line as each kernel starts and ends. */
struct tune_log {
	const struct an_kernel *const *k;	/* the kernels, in the order tuned */
	size_t n, done;
};

static void tune_starts(const struct tune_log *l, size_t i)
{
	const struct an_kernel *k = l->k[i];

	if (isnan(k->share))
		msg_note_as("tune", "[%zu/%zu] %s", i + 1, l->n, k->name);
	else
		msg_note_as("tune", "[%zu/%zu] %s (%.1f%% of the GPU time)", i + 1, l->n, k->name,
			    100 * k->share);
}

static void tune_ended(void *data, const struct tune_sweep *s, const struct tune_doc_kernel *kd,
		       const struct tune_outcome *out)
{
	struct tune_log *l = data;
	size_t i = l->done++;
	int stops;

	(void)kd;
	if (out->ran && !out->failed && s->winner >= 0 && s->winner != s->plan.base)
		msg_note_as("tune", "[%zu/%zu] %s: winner %s after %.1f s; %s/%s", i + 1, l->n,
			    s->k.name, s->plan.v[s->winner].label, s->wall_s, s->out_dir,
			    RD_TUNE_DOC);
	else if (out->ran && !out->failed)
		msg_note_as("tune", "[%zu/%zu] %s: no variant beat the base after %.1f s; %s/%s",
			    i + 1, l->n, s->k.name, s->wall_s, s->out_dir, RD_TUNE_DOC);
	/* tune_run() stops at a kernel that could not start for want of tools or the target */
	stops = !out->ran && (out->fail == TUNE_FAIL_TOOL || out->fail == TUNE_FAIL_TARGET);
	if (l->done < l->n && !stops)
		tune_starts(l, l->done);
}

/*
 * Tunes the kernels as one tune_run() (one pool of workers for all), each
 * into its capture directory's tune/. *ran: how many got as far as their
 * sweep; returns the exit status tko tune of them would have.
 */
static int tune_kernels(const char *run, const struct an_run *r, const struct inv_opts *o,
			const struct an_kernel *const *k, size_t n, size_t *ran)
{
	struct tune_opts to = TUNE_OPTS_INIT;
	const char **inputs = xcalloc(n, sizeof(*inputs));
	struct tune_sweep *s = xcalloc(n, sizeof(*s));
	struct tune_outcome *outs = xcalloc(n, sizeof(*outs));
	struct tune_log log = { k, n, 0 };
	struct tune_each each = { tune_ended, &log };
	struct tune_job job = { &to, inputs, n };
	struct tune_doc doc;
	size_t i, tried;
	int ret = EXIT_OK;

	if (o->tune_budget >= 0)
		to.budget_s = o->tune_budget;
	to.peak_gbps = isfinite(r->peak_gbps) ? r->peak_gbps : 0;
	for (i = 0; i < n; i++)
		inputs[i] = path_join(run, k[i]->kernel_dir);
	tune_doc_start(&doc, &to);
	tune_starts(&log, 0);
	tried = tune_run(&job, s, outs, &doc, &each);
	for (*ran = 0, i = 0; i < tried; i++) {
		int code = tune_exit_of(&outs[i]);

		*ran += outs[i].ran != 0;
		if (code != EXIT_OK)
			ret = code;
		tune_sweep_release(&s[i]);
	}
	if (tried < n)
		msg_note_as("tune", "%zu kernel%s not tried: tuning stopped", n - tried,
			    plural(n - tried));
	for (i = 0; i < n; i++)
		free((char *)inputs[i]);
	free(inputs);
	free(s);
	free(outs);
	rf_release(&tune_doc_desc, &doc);
	return ret;
}

/*
 * Why a kernel has no inputs, for the note: a RUN tko capture made (it has
 * tko-run.json) is not told to capture; its events say what happened to the
 * kernel (docs/capture-events.md: launch events, the kernel event's
 * "selected" under --kernels, error events of stage snapshot).
 */
static const char *why_uncaptured(const char *run)
{
	char *manifest = rd_path_in(run, RD_MANIFEST);
	int captured = is_file(manifest);

	free(manifest);
	return captured ? "the RUN's tko capture saved none for it: RUN/capture/events.jsonl"
			  " says whether it was launched, selected by --kernels, or failed to"
			  " snapshot" :
			  "capture the model with tko capture";
}

/* The kernels to tune, with a note for each passed over; *n of them (a new array). */
static const struct an_kernel **to_tune(const struct an_run *r, const struct inv_opts *o,
					const char *run, size_t *n)
{
	struct tune_pick *p;
	size_t i, np = tune_pick(r, (size_t)o->tune_top, &p);
	const struct an_kernel **k = xcalloc(np + 1, sizeof(*k));

	*n = 0;
	for (i = 0; i < np; i++) {
		const struct an_kernel *pk = p[i].k;

		if (p[i].what == TUNE_PICK_TUNE)
			k[(*n)++] = pk;
		else if (p[i].what == TUNE_PICK_TUNED)
			msg_note_as("tune", "%s has a tune result already (%s); "
				    "'tko tune %s/%s' tunes it again", pk->name, pk->tune.file, run,
				    pk->kernel_dir);
		else
			msg_note_as("tune", "%s is marked tune but has no captured inputs to "
				    "tune with (%s)", pk->name, why_uncaptured(run));
	}
	if (!np)
		msg_note_as("tune", "no kernel is marked tune: nothing to tune");
	free(p);
	return k;
}

/*
 * --tune-top: tunes the kernels chosen from r's decisions, after writing
 * the report as it is through `set` (a long tuning or a stopped one leaves
 * it behind; the set is then ready for the next), then decides again into
 * r and raw with the results. *status: tune's exit status. 0, or -1 with
 * err when an output cannot be written or the second analysis fails.
 */
static int tune_hot(const char *run, const struct inv_opts *o, const char *base,
		    struct an_run *r, struct an_raw *raw, struct atomic_set *set, int *status,
		    struct buf *err)
{
	size_t n, ran = 0;
	const struct an_kernel **k;
	int ret = 0;

	msg_progress_done();
	k = to_tune(r, o, run, &n);
	*status = EXIT_OK;
	if (n && (publish(r, raw, o, 0, base, set, err) < 0 || make_dirs(o, base, set, err) < 0))
		ret = -1;
	else if (n)
		*status = tune_kernels(run, r, o, k, n, &ran);
	free(k);
	if (ret < 0 || !ran)
		return ret;
	an_run_release(r);
	an_raw_release(raw);
	an_raw_init(raw);
	an_run_init(r);
	return analyse(run, o, r, raw, err);
}

/*
 * Analyses the RUN (with --tune-top, tunes and analyses again) and writes
 * its outputs. *tune_status: the tuning's exit status, EXIT_OK without.
 */
static int investigate(const char *run, const struct inv_opts *o, int *tune_status)
{
	const char *base = o->out_dir ? o->out_dir : run;
	char *adir = path_join(base, "analysis"), *rdir = path_join(base, "report");
	struct atomic_set set = ATOMIC_SET_INIT;
	struct buf err = BUF_INIT;
	struct an_raw raw;
	struct an_run r;
	int ret = EXIT_OK;

	*tune_status = EXIT_OK;
	an_raw_init(&raw);
	an_run_init(&r);
	if (make_dirs(o, base, &set, &err) < 0 || analyse(run, o, &r, &raw, &err) < 0 ||
	    (o->tune_top && tune_hot(run, o, base, &r, &raw, &set, tune_status, &err) < 0) ||
	    publish(&r, &raw, o, 1, base, &set, &err) < 0) {
		atomic_set_abort(&set);
		ret = EXIT_FAIL;
	}
	msg_progress_done();
	if (ret != EXIT_OK) {
		msg_error("%s", err.buf);
	} else {
		msg_note("report: %s/report.{md,html,json}; analysis: %s/", rdir, adir);
		if (!to_stdout(o))
			report_print_summary(stdout, &r, (size_t)o->top);
	}
	an_run_release(&r);
	an_raw_release(&raw);
	buf_release(&err);
	free(adir);
	free(rdir);
	return ret;
}

static int check_args(int n, int rest, const struct inv_opts *o)
{
	int with_cmd = rest >= 0;

	if (with_cmd && rest == n) {
		msg_error("no command after '--' (see 'tko investigate --help')");
		return -1;
	}
	if (!with_cmd && n != 1) {
		msg_error(n ? "give one RUN directory (see 'tko investigate --help')" :
			  "no RUN directory or '-- CMD' given (see 'tko investigate --help')");
		return -1;
	}
	if (with_cmd && rest != 0) {
		msg_error("give either a RUN directory or '-- CMD', not both");
		return -1;
	}
	if (!with_cmd && (o->run_out || o->kernels || o->measure || o->no_replay)) {
		msg_error("--out, --kernels, --measure and --no-replay go with '-- CMD'");
		return -1;
	}
	if ((o->md && !strcmp(o->md, "-")) + (o->json && !strcmp(o->json, "-")) +
	    (o->html && !strcmp(o->html, "-")) > 1) {
		msg_error("only one of --md, --json, --html can write to stdout");
		return -1;
	}
	if (o->top < 0 || o->peak < 0) {
		msg_error("--top and --peak-gbps take a positive number");
		return -1;
	}
	if (o->tune_top < 0 || (o->tune_budget < 0 && o->tune_budget != -1)) {
		msg_error("--tune-top and --tune-budget take a positive number");
		return -1;
	}
	if (!o->tune_top && o->tune_budget != -1) {
		msg_error("--tune-budget goes with --tune-top");
		return -1;
	}
	return 0;
}

int cmd_investigate(int argc, const char **argv)
{
	struct inv_opts o = { NULL, NULL, NULL, 0, 0, 0, NULL, STRLIST_INIT, 0, 10, NULL, NULL, NULL,
			      NULL, 0, -1 };
	const struct opt options[] = {
		OPT_STRING(0, "out-dir", &o.out_dir, "DIR", "write analysis/ and report/ under DIR (default: the RUN)"),
		OPT_DOUBLE(0, "peak-gbps", &o.peak, "X", "the peak to compare against (default: RUN/env.json's measured copy rate)"),
		OPT_STRING(0, "replay", &o.replay, "FILE", "a `tko run --json` result (default: RUN/analysis/replay.json)"),
		OPT_LIST(0, "tune", &o.tunes, "FILE", "a `tko tune --json` result (repeatable; capture dirs' tune/*/tune.json are read anyway)"),
		OPT_STRING(0, "profile", &o.profile, "FILE", "a whole-step profile (torch.profiler, rocprof, nsys; default: RUN/profile/)"),
		OPT_BOOL(0, "isa-tools", &o.isa_tools, "let the ISA scan run cuobjdump/nvdisasm/llvm-objdump on binaries"),
		OPT_INT(0, "top", &o.top, "N", "kernels in the terminal summary (default 10, 0: all)"),
		OPT_INT(0, "tune-top", &o.tune_top, "N", "then tune the N hottest kernels marked tune (tko tune, on the GPU) and report again"),
		OPT_DOUBLE(0, "tune-budget", &o.tune_budget, "SECONDS", "with --tune-top: tko tune's --budget, seconds of search per kernel (default 60)"),
		OPT_STRING(0, "md", &o.md, "FILE", "also write the Markdown report to FILE ('-': stdout)"),
		OPT_STRING(0, "json", &o.json, "FILE", "also write the JSON report to FILE ('-': stdout)"),
		OPT_STRING(0, "html", &o.html, "FILE", "also write the HTML report to FILE ('-': stdout)"),
		OPT_STRING(0, "out", &o.run_out, "RUN", "with -- CMD: the RUN directory to capture into (default tko-run-<time>)"),
		OPT_STRING(0, "kernels", &o.kernels, "REGEX", "with -- CMD: capture inputs only of kernels matching REGEX"),
		OPT_BOOL(0, "measure", &o.measure, "with -- CMD: measure the copy bandwidth first (on the GPU)"),
		OPT_BOOL(0, "no-replay", &o.no_replay, "with -- CMD: do not replay the captured kernels (tko run) before the report"),
		OPT_END(),
	};
	int rest = -1, n = opts_parse(argc, argv, options, usage, OPTS_REST, &rest), ret, status = 0;
	int tune_status;
	char *run = NULL;

	if (n < 0)
		return opts_exit_code(n);
	if (check_args(n, rest, &o) < 0) {
		strlist_release(&o.tunes);
		return EXIT_USAGE;
	}
	if (rest >= 0) {
		struct buf err = BUF_INIT;

		run = o.run_out ? xstrdup(o.run_out) : rd_make_default(time(NULL), &err);
		if (!run) {
			msg_error("%s", err.buf);
			buf_release(&err);
			strlist_release(&o.tunes);
			return EXIT_FAIL;
		}
		buf_release(&err);
		status = capture(&o, run, argv + rest, n - rest);
		if (status < 0) {
			msg_error("the capture made no RUN directory '%s'", run);
			free(run);
			strlist_release(&o.tunes);
			return EXIT_FAIL;
		}
		if (!o.no_replay && !o.replay)
			replay(run);
	}
	ret = investigate(run ? run : argv[0], &o, &tune_status);
	if (ret == EXIT_OK && status != 0) {
		msg_warn("the command exited with status %d; the report covers what it ran", status);
		ret = EXIT_CHILD;
	} else if (ret == EXIT_OK && tune_status != EXIT_OK) {
		msg_warn_as("tune", "not every kernel was tuned (exit %d); the report shows those that were",
			    tune_status);
		ret = tune_status;
	}
	free(run);
	strlist_release(&o.tunes);
	return ret;
}
