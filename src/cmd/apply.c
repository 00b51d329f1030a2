/*
 * tko apply RUN [options] [-- CMD ARGS...]: runs the user's unchanged
 * command with the confirmed winners of the RUN's tune results installed
 * by tko's in-process hook, shows which ran (apply.jsonl), and with --ab
 * times the whole step against Inductor's default and other arms. Wiring
 * only: src/apply/ (plan, run, proof, ab, predict, artifact) and
 * report/apply_out.c do the work; docs/apply.md is the design.
 * Exit codes: 0; 1 bad input (no tune results, a bad tune.json, an
 * output that cannot be written, a --keep-off region that did not take
 * effect); 2 usage; 5 the command failed;
 * 124 it ran past --timeout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/ab.h"
#include "apply/artifact.h"
#include "apply/drop.h"
#include "apply/kwindow.h"
#include "apply/keepoff.h"
#include "apply/plan.h"
#include "apply/predict.h"
#include "apply/proof.h"
#include "apply/recommend.h"
#include "apply/run.h"
#include "cmd/cmd.h"
#include "exitcode.h"
#include "report/apply_out.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "json/jsonio.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/plural.h"
#include "banned.h"

static const char *const usage[] = {
	"tko apply [--target T] [--out DIR] [--write-artifact DIR] [--source-variants] [--no-pin]\n"
	"          [--ab N [--warmup N] [--arms LIST] [--loss-rtol X]] [--timeout S]\n"
	"          [--step MODULE:QUALNAME] [--step-warmup N] [--kernel-window K]\n"
	"          [--keep-off MODULE:QUALNAME]... [--exclude KERNEL]... [--keep-slower]\n"
	"          [--json FILE] RUN [-- CMD ARGS...]",
	"",
	"Plans the winners of RUN's tune results (capture/kernels/*/tune/<target>/tune.json)",
	"that tune accepted, and runs CMD unchanged with tko's hook installing them",
	"(Inductor's autotune_lookup_table, or a hook where the table cannot carry the",
	"winner; @triton.autotune kernels narrowed to the winner). apply.jsonl records the",
	"config every planned kernel launched with; each winner that did not run is listed",
	"with the reason. Without CMD only the plan (and --write-artifact) is written.",
	"",
	"Where tune kept the autotuner's own pick (the base) after timing its other",
	"candidates, the base is pinned too (\"(pinned base)\"), or the fastest of the",
	"others where tune's sweep timed it more than 2% faster (\"(pinned candidate)\"):",
	"Inductor, like @triton.autotune, picks among them by a short benchmark of its own",
	"in each process, and its pick changes from one compile to the next. --no-pin",
	"leaves it that choice.",
	"",
	"--ab N: after --warmup rounds, N rounds of every arm (default: the command as it",
	"is, the hook only observing; applied: the winners; coordesc: Inductor's",
	"coordinate descent; max-autotune: TORCHINDUCTOR_MAX_AUTOTUNE=1; no CUDA graphs),",
	"order reversed every other round. Step times and losses: tko's hook ends a step",
	"at every optimizer step (torch's global optimizer post hook; the loss is the",
	"scalar given to backward) or, with --step MODULE:QUALNAME, at every return of",
	"that function (its return value the loss); the first --step-warmup steps (default",
	"a tenth, 1 to 50) are left out. Where the hook saw no step, the last line of CMD's",
	"output that is a JSON object with \"ms_per_step\" (and \"losses\" or \"loss\").",
	"The ratio to default: median and a 95% interval. Per kernel: torch.profiler over",
	"--kernel-window K steps of every measured run (after --step-warmup, or step 0; left",
	"out of the step time), the GPU time of each tuned kernel, default over applied per",
	"round, median over the rounds, next to tune's predicted gain. The step gain",
	"measured against the one the RUN's profile predicts. Outputs: DIR/plan.json,",
	"DIR/apply.json (docs/json.md, \"tko apply\"), DIR/runs/<n>-<arm>/; DIR defaults",
	"to RUN/apply. A signal (Ctrl-C, SIGTERM) during the A/B stops the run in progress;",
	"apply.json is written from the runs before it (ab.stopped), then tko exits by that",
	"signal. Another signal 2 s or more after the first stops it at once.",
	"",
	"Losses: each step's against the first default run's, the difference relative to",
	"the larger of that loss and 1% of that run's largest (a loss falling toward 0",
	"keeps the rounding of its first values: docs/apply.md, \"The loss check\"); equal",
	"within --loss-rtol.",
	"",
	"Arms that change numerics, only when named in --arms: tf32 (the command with",
	"torch.set_float32_matmul_precision('high') set by the hook before it runs) and",
	"applied+tf32 (the winners and that setting). Their loss difference is shown next",
	"to their time, not held to --loss-rtol: the user decides. Autocast has no arm:",
	"it cannot be switched on without changing the model's code.",
	"",
	"--keep-off MODULE:QUALNAME (repeatable; e.g. mymodel:Block.attn): arms keep-off",
	"(the command with that function or method under torch._dynamo.disable, put there",
	"by the hook before the script's first line or when MODULE is imported) and",
	"applied+keep-off; without --arms, the arms are default,applied,keep-off. Every",
	"keep-off run must prove the region was replaced and called, or tko apply stops",
	"with an error naming it. The verdict: keep-off faster, not faster (within the",
	"noise) or slower than default, confirming or withdrawing the RUN's proposal.",
	"",
	"A winner whose in-step gain's 95% interval (default over applied, per round of the",
	"kernel window) lies wholly below 1 is slower inside the step: apply.json and the",
	"text say to drop it, the plain artifact written after the A/B leaves it out, and",
	"so does the plan of a later tko apply with the same --out (it reads the earlier",
	"apply.json), unless --keep-slower. --exclude KERNEL (a kernel name or its folder",
	"id; repeatable) leaves a winner out of the plan whatever was measured.",
	NULL,
};

struct apply_opts {
	const char *target, *out, *artifact, *json, *arms, *step_fn;
	struct strlist keep_off;	/* --keep-off, as given */
	struct strlist exclude;		/* --exclude */
	long ab, warmup, step_warmup, kernel_window;
	double loss_rtol, timeout_s;
	int source_variants, no_pin, keep_slower;
	const char *const *cmd;
	const char *run;
};

struct session {
	struct apply_opts *o;
	struct apply_plan plan;
	char *plan_path;
	enum ab_arm arms[AB_NARMS];
	size_t narms;
	struct apply_runs runs;		/* every run so far, apply.json's "runs" */
	struct apply_proof *proofs;
	size_t nproofs;
	long n;			/* runs so far */
	char *keep_off;		/* TKO_APPLY_KEEP_OFF of the keep-off arms, or NULL */
	struct apply_judgements carried;	/* earlier judgements of this plan's winners (apply/drop.h) */
	struct apply_left_outs left_out;	/* winners left out of the plan or the artifact, and why */
	struct apply_judgements slower;		/* apply.json's slower_in_step */
	int stopped_by;		/* the signal that stopped the A/B (util/cleanup.h), or 0 */
	long stopped_in;	/* the run it cut short (not recorded), or 0 */
};

static int write_plan(struct session *s, struct buf *err)
{
	s->plan_path = path_join(s->o->out, "plan.json");
	return mkdir_p(s->o->out, err) < 0 ? -1 : apply_plan_write(&s->plan, s->plan_path, err);
}

static int run_failed(const struct apply_run *r, const char *arm, struct buf *err)
{
	if (r->not_found) {
		if (!err->len)	/* child_run says why, when it knows */
			buf_addf(err, "cannot run '%s': not found", r->cmd[0]);
	}
	else if (r->timed_out)
		buf_addf(err, "the command ran past --timeout in arm %s; see %s/stderr.txt", arm, r->dir);
	else if (r->exit_status)
		buf_addf(err, "the command failed in arm %s (exit %d); see %s/stderr.txt", arm,
			 r->exit_status, r->dir);
	else
		return 0;
	return 1;
}

/* What the hook saw of the steps; none (null) when it saw none. */
static void hook_of(const struct apply_steps *h, struct apply_run_rec *rec)
{
	if (!h->steps)
		return;
	rec->has_hook_steps = 1;
	rec->hook_steps.source = h->source ? xstrdup(h->source) : NULL;
	rec->hook_steps.clock = h->clock ? xstrdup(h->clock) : NULL;
	rec->hook_steps.steps = h->steps;
	rec->hook_steps.warmup = h->warmup;
	rec->hook_steps.timed = h->timed;
}

/* The A/B needs every run's time: -1 + err (one line) when neither the hook nor the command gave one. */
static int no_step_time(const struct apply_run *r, const char *arm, struct buf *err)
{
	if (isfinite(r->ms_per_step))
		return 0;
	if (r->hook.steps)
		buf_addf(err, "no step time in arm %s: the hook saw %ld step%s, all within the warm-up of %ld"
			 " (--step-warmup), and the command printed no JSON line with \"ms_per_step\"; see %s",
			 arm, r->hook.steps, plural(r->hook.steps), r->hook.warmup, r->dir);
	else
		buf_addf(err, "no step time in arm %s: the hook saw no optimizer step%s and the command"
			 " printed no JSON line with \"ms_per_step\" (name the step function with --step"
			 " MODULE:QUALNAME); see %s/apply.jsonl", arm,
			 r->step_fn ? " nor a call of --step's function" : "", r->dir);
	return -1;
}

/* The run's kernel window, for the kernels of the plan (apply/kwindow.h); none when the hook profiled none. */
static void window_of(const struct session *s, const struct apply_run *r, struct apply_run_rec *rec)
{
	const char **names;
	char *trace;
	size_t i;

	if (r->hook.window[0] < 0)
		return;
	names = xcalloc(s->plan.nr + 1, sizeof(*names));
	trace = path_join(r->dir, "kernel_window.json");
	for (i = 0; i < s->plan.nr; i++)
		names[i] = s->plan.v[i].kernel;
	apply_kwindow_read(trace, r->hook.window[1] - r->hook.window[0], names, s->plan.nr,
			   &rec->kernel_window);
	rec->has_kernel_window = 1;
	free(names);
	free(trace);
}

/* A keep-off run's proof: its regions into the run's record; -1 + err unless all took effect. */
static int prove_keep_off(const char *dir, const char *arm, struct apply_run_rec *run,
			  struct buf *err)
{
	char *jsonl = path_join(dir, "apply.jsonl");
	int ret;

	keepoff_read(jsonl, &run->keep_off);
	ret = keepoff_check(&run->keep_off, arm, jsonl, err);
	free(jsonl);
	return ret;
}

/* The run's record in s->runs (apply.json's "runs"). */
static struct apply_run_rec *record(struct session *s, const struct apply_run *r, const char *arm,
				    long round, int measured)
{
	struct apply_run_rec *rec = apply_runs_add(&s->runs);

	rec->n = s->n;
	rec->arm = xstrdup(arm);
	rec->round = round;
	rec->measured = measured;
	rec->exit_status = r->exit_status;
	rec->ms_per_step = isfinite(r->ms_per_step) ? r->ms_per_step : NAN;
	rec->step_source = r->step_source ? xstrdup(r->step_source) : NULL;
	hook_of(&r->hook, rec);
	if (r->kernel_window)
		window_of(s, r, rec);
	rec->wall_s = r->wall_s;
	rec->losses = json_incref(r->losses);
	rec->dir = xstrdup(r->dir);
	return rec;
}

/*
 * A measured run's apply.jsonl: which planned kernels ran the plan's config
 * (rec->ran_planned_config: in the default arm, where Inductor's own pick
 * was the plan's, the kernel's in-step gain is not the plan's doing), and
 * for the applied arm the proof s->proofs keeps.
 */
static void prove(struct session *s, enum ab_arm a, const char *dir, struct apply_run_rec *rec)
{
	char *jsonl = path_join(dir, "apply.jsonl");
	struct apply_proof pr = APPLY_PROOF_INIT;
	struct buf err = BUF_INIT;

	/* no apply.jsonl: every winner is reported as no_record */
	if (apply_proof_read(&pr, jsonl, &err) == 0)
		rec->ran_planned_config = apply_proof_ran_planned(&pr);
	if (a == AB_APPLIED) {
		s->proofs = xrealloc(s->proofs, (s->nproofs + 1) * sizeof(*s->proofs));
		s->proofs[s->nproofs++] = pr;
	} else {
		apply_proof_release(&pr);
	}
	buf_release(&err);
	free(jsonl);
}

/* Runs one arm once; records it in s->runs and, for a measured applied run, its proof. */
static int run_arm(struct session *s, enum ab_arm a, long round, int measured, int *exit_code,
		   struct buf *err)
{
	const struct ab_arm_info *arm = &ab_arms[a];
	char *dir = xstrfmt("%s/runs/%ld-%s", s->o->out, ++s->n, arm->name);
	char *cache = xstrfmt("%s/cache/%s", s->o->out, arm->name);
	struct apply_run r = { .cmd = s->o->cmd, .plan = s->plan_path, .dir = dir, .mode = arm->mode,
			       .env = arm->env, .cache = cache, .timeout_s = s->o->timeout_s,
			       .step_fn = s->o->step_fn, .step_warmup = s->o->step_warmup,
			       .kernel_window = s->o->ab && measured ? s->o->kernel_window : 0,
			       .keep_off = ab_keeps_off(a) ? s->keep_off : NULL,
			       .ms_per_step = NAN, .hook = APPLY_STEPS_INIT };
	struct apply_run_rec *rec;
	int ret = -1;

	msg_progress("run %ld: %s%s", s->n, arm->name, measured ? "" : " (warm-up)");
	if (apply_run_one(&r, err) < 0 && !cleanup_held_signal())
		goto done;
	msg_progress_done();
	if (cleanup_held_signal()) {
		/* cut short: neither a failure nor a measurement */
		s->stopped_in = s->n;
		buf_reset(err);
		ret = 0;
		goto done;
	}
	if (run_failed(&r, arm->name, err)) {
		*exit_code = r.timed_out ? EXIT_TIMEOUT : EXIT_CHILD;
		goto done;
	}
	if (s->o->ab && no_step_time(&r, arm->name, err) < 0)
		goto done;
	msg_note("run %ld: %s%s: %.3f ms/step (%s), %.1f s", s->n, arm->name,
		 measured ? "" : " (warm-up)", r.ms_per_step, r.step_source ? r.step_source : "none", r.wall_s);
	rec = record(s, &r, arm->name, round, measured);
	if (ab_keeps_off(a) && prove_keep_off(dir, arm->name, rec, err) < 0) {
		*exit_code = EXIT_FAIL;
		goto done;
	}
	if (measured)
		prove(s, a, dir, rec);
	ret = 0;
done:
	apply_run_release(&r);
	free(dir);
	free(cache);
	return ret;
}

static int run_all(struct session *s, int *exit_code, struct buf *err)
{
	long rounds = s->o->ab ? s->o->ab : 1, warm = s->o->ab ? s->o->warmup : 0, k;
	size_t i;

	if (!s->o->ab) {
		s->arms[0] = AB_APPLIED;
		s->narms = 1;
	}
	for (k = -warm; k < rounds; k++)
		for (i = 0; i < s->narms; i++) {
			/* warm-up rounds count down to -1; the order alternates across all rounds */
			size_t at = ab_order(s->narms, k + warm, i);

			if (cleanup_held_signal())
				return 0;
			if (run_arm(s, s->arms[at], k < 0 ? -1 : k, k >= 0, exit_code, err) < 0)
				return -1;
		}
	return 0;
}

/*
 * A signal during the A/B stops the run in progress and keeps the rounds
 * already run: apply.json is written from them (ab.stopped), then tko dies
 * of the signal (util/cleanup.h). A wrapper's time limit then costs the
 * run it cut short, not the whole A/B: on the H100 (2026-12-05, fifth
 * session) a cap stopped one in its second round and left no apply.json.
 */
static int run_ab(struct session *s, int *exit_code, struct buf *err)
{
	int ret;

	if (s->o->ab)
		cleanup_hold_signals();
	ret = run_all(s, exit_code, err);
	if ((s->stopped_by = cleanup_held_signal())) {
		char where[48] = "between runs";

		if (s->stopped_in)
			snprintf(where, sizeof(where), "in run %ld", s->stopped_in);
		msg_warn("%s stopped the A/B %s; apply.json gets the %zu run%s before it",
			 cleanup_signal_name(s->stopped_by), where, s->runs.nr, plural(s->runs.nr));
	}
	return ret;
}

/* --exclude and the earlier apply.json's judgements of this plan's winners (apply/drop.h). */
static int drop_from_plan(struct session *s, struct buf *err)
{
	char *earlier = path_join(s->o->out, "apply.json");
	struct buf warn = BUF_INIT;
	int ret = apply_drop_plan(&s->plan, earlier, s->o->exclude.v, s->o->exclude.nr, s->o->keep_slower,
				  &s->carried, &s->left_out, &warn, err);

	if (warn.len)
		msg_warn("%s", warn.buf);
	buf_release(&warn);
	free(earlier);
	return ret;
}

/* After the A/B: the winners it judged slower leave the artifact (unless --keep-slower). */
static int judge(struct session *s, struct buf *err)
{
	struct apply_judgements judged = APPLY_JUDGEMENTS_INIT;
	int ret = 0;

	apply_drop_judged(&s->plan, &s->runs, s->o->ab, &judged);
	apply_drop_slower(&s->plan, &judged, &s->carried, &s->runs, s->o->ab, &s->slower);
	apply_drop_artifact(&judged, s->o->keep_slower, &s->left_out);
	if (s->o->artifact)
		ret = apply_artifact_write(&s->plan, &s->left_out, s->o->artifact, err);
	apply_judgements_release(&judged);
	return ret;
}

static int publish(struct session *s, const struct apply_predict *pred, struct buf *err)
{
	struct apply_report r = { .run = s->o->run, .out = s->o->out, .artifact = s->o->artifact,
				  .cmd = s->o->cmd, .plan = &s->plan, .pred = pred,
				  .proofs = s->proofs, .nproofs = s->nproofs, .runs = &s->runs,
				  .arms = s->o->ab ? s->arms : NULL, .narms = s->narms,
				  .rounds = s->o->ab, .warmup = s->o->warmup,
				  .loss_rtol = s->o->loss_rtol, .slower = &s->slower,
				  .left_out = &s->left_out, .keep_slower = s->o->keep_slower,
				  .stopped_by = s->stopped_by, .stopped_in = s->stopped_in };
	struct buf why = BUF_INIT;
	struct apply_recommended_list rec = APPLY_RECOMMENDED_LIST_INIT;
	char *path = path_join(s->o->out, "apply.json");
	struct apply_doc doc;
	int ret;

	/* the analysis is optional: its damage must not cost the A/B */
	if (apply_recommend(s->o->run, s->arms, s->o->ab ? s->narms : 0, s->keep_off,
			    s->o->cmd, &rec, &why) < 0) {
		msg_warn("%s; no arm recommended from it", why.buf);
		apply_recommended_release(&rec);
	}
	r.recommended = &rec;
	apply_report_build(&r, &doc);
	apply_recommended_release(&rec);
	buf_release(&why);
	ret = apply_doc_save(path, &doc, err);

	if (ret == 0 && s->o->json)
		ret = apply_doc_save(s->o->json, &doc, err);
	if (ret == 0 && (!s->o->json || strcmp(s->o->json, "-")))
		apply_report_text(stdout, &doc);
	rf_release(&apply_doc_desc, &doc);
	free(path);
	return ret;
}

static int check_opts(struct apply_opts *o, int n, int rest, const char **argv)
{
	if (n < 1 || (rest != 1 && !(rest < 0 && n == 1))) {
		msg_error(n < 1 ? "missing RUN (see 'tko apply --help')" :
			  "give one RUN before '--' (see 'tko apply --help')");
		return -1;
	}
	o->run = argv[0];
	o->cmd = rest == 1 && n > 1 ? argv + 1 : NULL;
	if (o->step_fn && (!strchr(o->step_fn, ':') || o->step_fn[0] == ':' ||
			   !strchr(o->step_fn, ':')[1])) {
		msg_error("--step '%s': expected MODULE:QUALNAME (e.g. __main__:train_step)", o->step_fn);
		return -1;
	}
	if (o->ab < 0 || o->warmup < 0 || o->loss_rtol < 0 || o->timeout_s < 0 || o->kernel_window < 0) {
		msg_error("--ab, --warmup, --loss-rtol, --kernel-window and --timeout must not be negative");
		return -1;
	}
	if (o->ab && !o->cmd) {
		msg_error("--ab needs the command to time: give it after '--'");
		return -1;
	}
	if (o->ab == 1) {
		msg_error("--ab needs at least 2 rounds for a noise estimate");
		return -1;
	}
	if (o->keep_off.nr && !o->ab) {
		msg_error("--keep-off is an arm of the A/B: give --ab N");
		return -1;
	}
	return 0;
}

/* The --keep-off list, checked, as TKO_APPLY_KEEP_OFF; the arms agree with it. */
static int keep_off_opts(struct apply_opts *o, struct session *s, struct buf *err)
{
	struct buf list = BUF_INIT;
	size_t i;
	int arms = 0;

	for (i = 0; i < o->keep_off.nr; i++) {
		if (keepoff_parse(o->keep_off.v[i], err) < 0) {
			buf_release(&list);
			return -1;
		}
		buf_addf(&list, "%s%s", i ? "," : "", o->keep_off.v[i]);
	}
	for (i = 0; i < s->narms; i++)
		arms += ab_keeps_off(s->arms[i]);
	if (arms && !list.len)
		buf_adds(err, "--arms keep-off and applied+keep-off need --keep-off MODULE:QUALNAME");
	else if (!arms && list.len)
		buf_adds(err, "--keep-off needs arm keep-off or applied+keep-off in --arms");
	if (err->len) {
		buf_release(&list);
		return -1;
	}
	s->keep_off = list.len ? buf_detach(&list, NULL) : NULL;
	buf_release(&list);
	return 0;
}

static unsigned plan_flags(const struct apply_opts *o)
{
	return (o->source_variants ? APPLY_PLAN_SOURCE_VARIANTS : 0) |
	       (o->no_pin ? APPLY_PLAN_NO_PIN : 0);
}

/* "3 winners planned (2 of them pinned configs) of 14 tuned kernels; plan in ..." */
static void note_planned(const struct session *s)
{
	size_t planned = apply_plan_planned(&s->plan), pinned = apply_plan_pinned(&s->plan);
	char pins[64] = "";

	if (pinned)
		snprintf(pins, sizeof(pins), " (%zu of them pinned config%s)", pinned,
			 plural(pinned));
	msg_note("%zu winner%s planned%s of %zu tuned kernel%s; plan in %s", planned,
		 plural(planned), pins, s->plan.nr, plural(s->plan.nr), s->plan_path);
}

static int apply_main(struct apply_opts *o, struct session *s)
{
	struct apply_predict pred = APPLY_PREDICT_INIT;
	struct rundir rd = RUNDIR_INIT;
	struct buf err = BUF_INIT;
	int code = EXIT_FAIL;
	char *out = NULL;

	if (!o->arms)
		o->arms = o->keep_off.nr ? "default,applied,keep-off" : "default,applied";
	if ((o->arms && ab_parse_arms(o->arms, s->arms, &s->narms, &err) < 0) ||
	    keep_off_opts(o, s, &err) < 0) {
		msg_error("%s", err.buf);
		buf_release(&err);
		return EXIT_USAGE;
	}
	if (!o->out)
		o->out = out = path_join(o->run, "apply");
	/* with --ab the artifact waits for the A/B's verdicts */
	if (cmd_open_run(o->run, &rd, &err) < 0 ||
	    apply_plan_build(&s->plan, o->run, o->target, plan_flags(o), &err) < 0 ||
	    drop_from_plan(s, &err) < 0 || write_plan(s, &err) < 0 ||
	    (o->artifact && !o->ab && apply_artifact_write(&s->plan, &s->left_out, o->artifact, &err) < 0))
		goto done;
	note_planned(s);
	apply_predict_step(&pred, &s->plan, o->run);
	if (o->cmd && run_ab(s, &code, &err) < 0)
		goto done;
	if (o->ab && judge(s, &err) < 0)
		goto done;
	if (!o->ab)
		apply_drop_slower(&s->plan, NULL, &s->carried, &s->runs, 0, &s->slower);
	code = publish(s, &pred, &err) < 0 ? EXIT_FAIL : EXIT_OK;
done:
	if (code != EXIT_OK)
		msg_error("%s", err.buf);
	apply_predict_release(&pred);
	rd_release(&rd);
	buf_release(&err);
	free(out);
	return code;
}

int cmd_apply(int argc, const char **argv)
{
	struct apply_opts o = { .warmup = 1, .loss_rtol = 1e-3, .step_warmup = -1, .kernel_window = 5,
				.keep_off = STRLIST_INIT, .exclude = STRLIST_INIT };
	const struct opt options[] = {
		OPT_STRING(0, "target", &o.target, "T", "the tune results' target (default: the only one)"),
		OPT_STRING(0, "out", &o.out, "DIR", "outputs (default RUN/apply)"),
		OPT_STRING(0, "write-artifact", &o.artifact, "DIR", "write the plain artifact: tko_winners.json, tko_winners.py, sitecustomize.py"),
		OPT_BOOL(0, "source-variants", &o.source_variants, "also apply winners that change the kernel's source"),
		OPT_BOOL(0, "no-pin", &o.no_pin, "where the base won, leave Inductor to choose among its configs (default: pin the base)"),
		OPT_INT(0, "ab", &o.ab, "N", "A/B: N measured rounds of every arm"),
		OPT_INT(0, "warmup", &o.warmup, "N", "rounds before the measured ones (default 1)"),
		OPT_STRING(0, "arms", &o.arms, "LIST", "default,coordesc,max-autotune,applied,tf32,applied+tf32,keep-off,applied+keep-off (default: default,applied)"),
		OPT_LIST(0, "keep-off", &o.keep_off, "MODULE:QUALNAME", "keep TorchInductor off this function or method in the keep-off arms (repeatable)"),
		OPT_LIST(0, "exclude", &o.exclude, "KERNEL", "leave this winner (kernel name or folder id) out of the plan (repeatable)"),
		OPT_BOOL(0, "keep-slower", &o.keep_slower, "keep winners measured slower inside the step, or timed slower warm by tune, in the artifact and the plan"),
		OPT_DOUBLE(0, "loss-rtol", &o.loss_rtol, "X", "losses equal within X (see Losses; default 1e-3)"),
		OPT_STRING(0, "step", &o.step_fn, "MOD:QUALNAME", "a step is a call of this function (default: an optimizer step)"),
		OPT_INT(0, "step-warmup", &o.step_warmup, "N", "steps of each run left out of its time (default: a tenth, 1 to 50)"),
		OPT_INT(0, "kernel-window", &o.kernel_window, "K", "steps profiled for the per-kernel gain (default 5, 0: none)"),
		OPT_DOUBLE(0, "timeout", &o.timeout_s, "S", "time limit of one run of CMD (default none)"),
		OPT_STRING(0, "json", &o.json, "FILE", "also write the document to FILE ('-': stdout, no text)"),
		OPT_END(),
	};
	struct session s = { .o = &o, .plan = APPLY_PLAN_INIT, .runs = APPLY_RUNS_INIT,
			     .carried = APPLY_JUDGEMENTS_INIT,
			     .left_out = APPLY_LEFT_OUTS_INIT, .slower = APPLY_JUDGEMENTS_INIT };
	int n, rest, code;
	size_t i;

	n = opts_parse(argc, argv, options, usage, OPTS_REST, &rest);
	if (n < 0 || check_opts(&o, n, rest, argv) < 0) {
		strlist_release(&o.keep_off);
		strlist_release(&o.exclude);
		return n < 0 ? opts_exit_code(n) : EXIT_USAGE;
	}
	code = apply_main(&o, &s);
	/* what it has is written: a held signal now ends tko as it would have */
	cleanup_release_signals();
	for (i = 0; i < s.nproofs; i++)
		apply_proof_release(&s.proofs[i]);
	free(s.proofs);
	apply_runs_release(&s.runs);
	apply_plan_release(&s.plan);
	free(s.plan_path);
	free(s.keep_off);
	apply_judgements_release(&s.carried);
	apply_left_outs_release(&s.left_out);
	apply_judgements_release(&s.slower);
	strlist_release(&o.keep_off);
	strlist_release(&o.exclude);
	return code;
}
