/*
 * model/apply_doc: tko apply's document (DIR/apply.json and --json;
 * docs/json.md, "tko apply") as a typed struct with its reflect tables,
 * the rows in the document's key order:
 *
 *   schema_version, tool, run, target, backend, out_dir, command, plan,
 *   artifact, inductor_settings, summary, kernels [row], runs [run],
 *   ab (null without --ab), step (only without --ab: with it, ab.step),
 *   recommended_arms, keep_slower, slower_in_step, left_out
 *
 * Keys that some rows have and others do not (a kernel's "measured" only
 * when an A/B ran, "detail" only when it was not planned or run) are
 * RF_PRESENT rows: the int beside them says whether the key is there.
 * What Python wrote and tko passes on as it is (the command's argv and
 * losses, the hook's proof and messages, tune's configs and settings)
 * stays JSON, and so do the lists of numbers reflect has no row for
 * ([lo, hi] intervals, an arm's step times with their nulls, a region's
 * calls) and the kernel window's map keyed by kernel name.
 *
 * report/apply_out.h fills it and renders the text from it; a later tko
 * apply reads its slower_in_step back (model/apply_left.h);
 * tests/gpu's check reads the keys in Python.
 */
#ifndef TKO_MODEL_APPLY_DOC_H
#define TKO_MODEL_APPLY_DOC_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "json/reflect.h"
#include "model/apply_left.h"
#include "util/buf.h"

#define APPLY_DOC_SCHEMA 1

/* A ratio's statistics over the rounds (apply/ab.h): null when no round had both. */
struct apply_stats {
	long rounds;
	double median;
	json_t *ci95;		/* [lo, hi] */
	double level;
};

/* A kernel's gain in the A/B's kernel windows. */
struct apply_row_measured {
	long rounds;
	double default_us_per_step, applied_us_per_step;
};

/* One kernel of the plan (the document's "kernels"). */
struct apply_row {
	char *id, *kernel;
	int planned;
	char *tune;			/* its tune.json */
	char *fallback;			/* the plan entry's "config_only", "pinned_base" or
					 * "pinned_candidate", or NULL */
	double predicted_speedup;	/* NAN: none */
	double predicted_warm_speedup;	/* NAN: not timed warm (the key left out) */
	json_t *predicted_warm_ci95;	/* or NULL (left out) */
	double ms_per_step, share, predicted_saving_ms, measured_speedup;	/* NAN: null */
	json_t *measured_gain_ci95;	/* [lo, hi], or NULL */
	char *verdict;			/* "faster", "slower", "inconclusive", or NULL */
	struct apply_row_measured measured;	/* null when every member is unknown */
	int has_measured;		/* the key is there (an A/B ran) */
	json_t *mechanism, *launches, *notes, *constructed;	/* the hook's proof, as it wrote it */
	int has_proof;			/* those four keys are there (a planned kernel that ran) */
	char *status;			/* "ran_winner", "not_run", "not_planned", ... */
	char *reason;
	char *detail;
	int has_detail;			/* the key is there (not planned, or not run) */
};

struct apply_summary {
	long planned, ran_winner, not_planned;
	int every_winner_ran;
};

/* What the hook saw of a run's steps (apply/steps.h). */
struct apply_hook_steps {
	char *source, *clock;		/* "optimizer", "perf_counter", or NULL */
	long steps, warmup, timed;
};

/* A measured run's kernel window (apply/kwindow.h). */
struct apply_kwindow {
	long long steps;		/* the steps profiled (RF_I64: as counted) */
	char *trace;			/* its Chrome trace */
	char *note;			/* why it holds no kernel, or NULL */
	double gpu_us_per_step;		/* every GPU activity's time a step; NAN: null (a note) */
	double tuned_us_per_step;	/* the named kernels' */
	double other_us_per_step;	/* the rest: library kernels, copies, fills, unnamed Triton */
	json_t *kernels;		/* {kernel name: {calls_per_step, us_per_step}}, keyed by name */
};

/* A keep-off region's proof in one run (apply/keepoff.h). */
struct apply_region_proof {
	char *region;
	char *status;			/* "took_effect", "never_called", ... */
	long long calls;
	json_t *message;		/* the hook's message, as it wrote it */
};

struct apply_region_proofs {
	struct apply_region_proof *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};

/* A run of the command (the document's "runs"). */
struct apply_run_rec {
	long n;
	char *arm;
	long long round;		/* -1 a warm-up round (RF_I64: negative is a value) */
	int measured;
	long long exit_status;
	double ms_per_step;		/* NAN: null */
	char *step_source;		/* "hook", "stdout", or NULL */
	struct apply_hook_steps hook_steps;	/* null when the hook saw no step */
	int has_hook_steps;
	struct apply_kwindow kernel_window;	/* null when the hook profiled none */
	int has_kernel_window;
	double wall_s;
	json_t *losses;			/* the command's losses, or null */
	char *dir;
	json_t *ran_planned_config;	/* planned kernels every launch of which in this run had
					 * the plan's config (its proof's ran_winner; in a
					 * default run: Inductor picked it too), or NULL */
	struct apply_region_proofs keep_off;	/* a keep-off arm's proof; the key left out when empty */
};

struct apply_runs {
	struct apply_run_rec *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};
#define APPLY_RUNS_INIT { NULL, 0 }

/* A keep-off region's calls, one a measured run. */
struct apply_region {
	char *region;
	json_t *calls;			/* [n, ...] */
};

/* A keep-off arm's verdict against its reference arm. */
struct apply_keep_off {
	struct apply_region *regions;
	size_t nregions;
	char *vs;			/* "default" or "applied" */
	struct apply_stats ratio;
	int has_ratio;
	char *verdict, *proposal;	/* or NULL */
};

/* One arm of the A/B. */
struct apply_arm {
	char *arm, *numerics;		/* numerics: what the arm changes, or NULL */
	json_t *ms_per_step;		/* one a round, null where the round has none */
	char *step_source;
	double median_ms;
	struct apply_stats vs_default;
	int has_vs_default;
	json_t *gpu_ms_per_step;	/* the kernel windows' GPU time, one a round; null: no window */
	double gpu_median_ms;
	struct apply_stats gpu_vs_default;
	int has_gpu_vs_default;
	double loss_max_rel_diff;
	int loss_equal;			/* RF_TRI */
	struct apply_keep_off keep_off;
	int has_keep_off;		/* the key is there (a keep-off arm) */
};

/* applied against another arm: on the wall clock, and on the kernel windows' GPU time. */
struct apply_vs {
	char *arm, *numerics;
	struct apply_stats ratio;
	int has_ratio;
	int slower_beyond_noise;	/* RF_TRI */
	struct apply_stats gpu_ratio;	/* null without windows in both arms */
	int has_gpu_ratio;
	int gpu_slower_beyond_noise;	/* RF_TRI */
};

/* The step's gain, predicted from the profile and measured by the A/B. */
struct apply_step {
	double predicted_gain, predicted_saving_ms, predicted_gain_cold, predicted_gain_warm;
	long warm_kernels;
	double difference_pp_cold, profile_step_ms, measured_gain;
	json_t *measured_gain_ci95;	/* [lo, hi], or NULL */
	double difference_pp;
	int within_1pp, conclusive;	/* RF_TRI */
	char *profile, *note;
	/* the same judged on the kernel windows' GPU time (null without windows) */
	double gpu_step_ms;		/* the default arm's median GPU ms/step */
	double gpu_predicted_gain;	/* gpu_step_ms / (gpu_step_ms - predicted_saving_ms) */
	double gpu_measured_gain;
	json_t *gpu_measured_gain_ci95;	/* [lo, hi], or NULL */
	double gpu_difference_pp;
	int gpu_within_1pp, gpu_conclusive;	/* RF_TRI */
	double gpu_busy;		/* gpu_step_ms / the default arm's median_ms */
	char *gpu_note;			/* the step is not bound by the GPU, or NULL */
};

/* ab.stopped: the signal that stopped the A/B, and what it left. */
struct apply_stopped {
	char *signal;			/* "SIGTERM" */
	long run;			/* the run it cut short (not in runs), or -1 (null): between runs */
	long complete_rounds;		/* measured rounds every arm ran */
};

struct apply_ab {
	long rounds, warmup;
	double loss_rtol;
	double loss_scale;		/* the reference run's largest |loss| (apply/loss.h) */
	struct apply_arm *arms;
	size_t narms;
	struct apply_vs *applied_vs;
	size_t napplied_vs;
	struct apply_step step;
	struct apply_stopped stopped;
	int has_stopped;
};

/* An arm the RUN's analysis recommends (apply/recommend.h). */
struct apply_recommended {
	char *arm, *rule, *op, *kernel;
	double share;			/* NAN: null */
	int in_ab;
	char *where;			/* a keep-off proposal's "FILE:LINE in FUNCTION" */
	int has_where;
	char *keep_off;			/* its --keep-off MODULE:QUALNAME, or NULL */
	int has_keep_off;
};

struct apply_recommended_list {
	struct apply_recommended *v;	/* capacity implied by nr (rf_grow) */
	size_t nr;
};
#define APPLY_RECOMMENDED_LIST_INIT { NULL, 0 }

struct apply_doc {
	char *run, *target, *backend, *out_dir;
	json_t *command;		/* the command's argv, or null (plan only) */
	char *plan, *artifact;
	json_t *inductor_settings;
	struct apply_summary summary;
	struct apply_row *kernels;
	size_t nkernels;
	struct apply_runs runs;
	struct apply_ab ab;
	int has_ab;
	struct apply_step step;
	int has_step;			/* without --ab; with it the step is ab.step */
	struct apply_recommended_list recommended_arms;
	int keep_slower;
	struct apply_judgements slower_in_step;
	struct apply_left_outs left_out;
};

extern const struct rf_struct apply_doc_desc;
extern const struct rf_struct apply_run_rec_desc;
extern const struct rf_struct apply_recommended_desc;

/* Appends an initialised element and returns it. */
struct apply_run_rec *apply_runs_add(struct apply_runs *r);
struct apply_row *apply_doc_add_row(struct apply_doc *d);
struct apply_arm *apply_doc_add_arm(struct apply_ab *ab);
struct apply_vs *apply_doc_add_vs(struct apply_ab *ab);
struct apply_region *apply_doc_add_region(struct apply_keep_off *k);
struct apply_recommended *apply_recommended_add(struct apply_recommended_list *l);
struct apply_region_proof *apply_region_proofs_add(struct apply_region_proofs *l);
void apply_region_proofs_release(struct apply_region_proofs *l);
void apply_recommended_release(struct apply_recommended_list *l);

void apply_runs_release(struct apply_runs *r);
/* Appends copies of src's runs to dst. */
void apply_runs_copy(struct apply_runs *dst, const struct apply_runs *src);
/* Reads a JSON list of runs (apply.json's "runs") into an empty r: 0, or -1 + err naming `what`. */
int apply_runs_read(struct apply_runs *r, const json_t *list, const char *what, struct buf *err);

/* The document as JSON text (schema_version and tool first). 0, or -1 when writing failed. */
int apply_doc_write(FILE *fp, const struct apply_doc *d);
/* The document at `path` ("-": standard output), atomically. 0, or -1 + err. */
int apply_doc_save(const char *path, const struct apply_doc *d, struct buf *err);
/* Read back from a JSON tree (`what` names it in messages): 0, or -1 + err. */
int apply_doc_read(struct apply_doc *d, const json_t *j, const char *what, struct buf *err);

#endif
