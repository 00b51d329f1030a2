/* tko apply's document: its reflect tables (apply_doc.h). */
#include <stdlib.h>
#include <string.h>

#include "model/apply_doc.h"
#include "model/apply_plan.h"
#include "banned.h"

#define S struct apply_stats
static const struct rf_field stats_fields[] = {
	RF_F(S, "rounds", RF_LONG, rounds),
	RF_F(S, "median", RF_NUM, median),
	RF_F(S, "ci95", RF_JSON, ci95),
	RF_F(S, "level", RF_NUM, level),
	RF_FEND,
};
#undef S
static const struct rf_struct stats_desc = { "ratio", sizeof(struct apply_stats), stats_fields };

#define M struct apply_row_measured
static const struct rf_field measured_fields[] = {
	RF_F(M, "rounds", RF_LONG, rounds),
	RF_F(M, "default_us_per_step", RF_NUM, default_us_per_step),
	RF_F(M, "applied_us_per_step", RF_NUM, applied_us_per_step),
	RF_FEND,
};
#undef M
static const struct rf_struct measured_desc = {
	"measured", sizeof(struct apply_row_measured), measured_fields
};

#define R struct apply_row
static const struct rf_field row_fields[] = {
	RF_FX(R, "id", RF_STR, id, RF_NEED),
	RF_FX(R, "kernel", RF_STR, kernel, RF_NEED),
	RF_F(R, "planned", RF_BOOL, planned),
	RF_F(R, "tune", RF_STR, tune),
	RF_FX(R, "fallback", RF_STR, fallback, RF_OMIT_NULL),
	RF_F(R, "predicted_speedup", RF_NUM, predicted_speedup),
	RF_FX(R, "predicted_warm_speedup", RF_NUM, predicted_warm_speedup, RF_OMIT_NULL),
	RF_FX(R, "predicted_warm_ci95", RF_JSON, predicted_warm_ci95, RF_OMIT_NULL),
	RF_F(R, "ms_per_step", RF_NUM, ms_per_step),
	RF_F(R, "share", RF_NUM, share),
	RF_F(R, "predicted_saving_ms", RF_NUM, predicted_saving_ms),
	RF_F(R, "measured_speedup", RF_NUM, measured_speedup),
	RF_F(R, "measured_gain_ci95", RF_JSON, measured_gain_ci95),
	RF_F(R, "verdict", RF_STR, verdict),
	RF_PRS(R, "measured", measured, has_measured, &measured_desc, RF_ALL_UNKNOWN),
	RF_PR(R, "mechanism", RF_JSON, mechanism, has_proof, 0),
	RF_PR(R, "launches", RF_JSON, launches, has_proof, 0),
	RF_PR(R, "notes", RF_JSON, notes, has_proof, 0),
	RF_PR(R, "constructed", RF_JSON, constructed, has_proof, 0),
	RF_F(R, "status", RF_STR, status),
	RF_F(R, "reason", RF_STR, reason),
	RF_PR(R, "detail", RF_STR, detail, has_detail, 0),
	RF_FEND,
};
#undef R
static const struct rf_struct row_desc = { "kernel", sizeof(struct apply_row), row_fields };

#define S struct apply_summary
static const struct rf_field summary_fields[] = {
	RF_F(S, "planned", RF_LONG, planned),
	RF_F(S, "ran_winner", RF_LONG, ran_winner),
	RF_F(S, "not_planned", RF_LONG, not_planned),
	RF_F(S, "every_winner_ran", RF_BOOL, every_winner_ran),
	RF_FEND,
};
#undef S
static const struct rf_struct summary_desc = {
	"summary", sizeof(struct apply_summary), summary_fields
};

#define H struct apply_hook_steps
static const struct rf_field hook_fields[] = {
	RF_F(H, "source", RF_STR, source),
	RF_F(H, "clock", RF_STR, clock),
	RF_F(H, "steps", RF_LONG, steps),
	RF_F(H, "warmup", RF_LONG, warmup),
	RF_F(H, "timed", RF_LONG, timed),
	RF_FEND,
};
#undef H
static const struct rf_struct hook_desc = {
	"hook_steps", sizeof(struct apply_hook_steps), hook_fields
};

#define W struct apply_kwindow
static const struct rf_field window_fields[] = {
	RF_F(W, "steps", RF_I64, steps),
	RF_F(W, "trace", RF_STR, trace),
	RF_F(W, "note", RF_STR, note),
	RF_FX(W, "gpu_us_per_step", RF_NUM, gpu_us_per_step, RF_TIME),
	RF_FX(W, "tuned_us_per_step", RF_NUM, tuned_us_per_step, RF_TIME),
	RF_FX(W, "other_us_per_step", RF_NUM, other_us_per_step, RF_TIME),
	RF_FX(W, "kernels", RF_JSON, kernels, RF_OBJECT),
	RF_FEND,
};
#undef W
static const struct rf_struct window_desc = {
	"kernel_window", sizeof(struct apply_kwindow), window_fields
};

#define G struct apply_region_proof
static const struct rf_field region_proof_fields[] = {
	RF_FX(G, "region", RF_STR, region, RF_NEED),
	RF_FX(G, "status", RF_STR, status, RF_NEED),
	RF_FX(G, "calls", RF_I64, calls, RF_COUNT),
	RF_F(G, "message", RF_JSON, message),
	RF_FEND,
};
#undef G
static const struct rf_struct region_proof_desc = {
	"keep_off", sizeof(struct apply_region_proof), region_proof_fields
};

#define R struct apply_run_rec
static const struct rf_field run_fields[] = {
	RF_F(R, "n", RF_LONG, n),
	RF_FX(R, "arm", RF_STR, arm, RF_NEED),
	RF_F(R, "round", RF_I64, round),
	RF_F(R, "measured", RF_BOOL, measured),
	RF_F(R, "exit_status", RF_I64, exit_status),
	RF_F(R, "ms_per_step", RF_NUM, ms_per_step),
	RF_F(R, "step_source", RF_STR, step_source),
	RF_SS(R, "hook_steps", hook_steps, has_hook_steps, &hook_desc, 0),
	RF_SS(R, "kernel_window", kernel_window, has_kernel_window, &window_desc, 0),
	RF_F(R, "wall_s", RF_NUM, wall_s),
	RF_F(R, "losses", RF_JSON, losses),
	RF_F(R, "dir", RF_STR, dir),
	RF_F(R, "ran_planned_config", RF_JSON, ran_planned_config),
	/* only a keep-off arm's run has the key, with at least one region: */
	RF_AX(R, "keep_off", keep_off.v, keep_off.nr, &region_proof_desc, RF_OMIT_NULL),
	RF_FEND,
};
#undef R
const struct rf_struct apply_run_rec_desc = { "run", sizeof(struct apply_run_rec), run_fields };

static const struct rf_field runs_fields[] = {
	RF_A(struct apply_runs, "runs", v, nr, &apply_run_rec_desc),
	RF_FEND,
};
static const struct rf_struct runs_desc = { "runs", sizeof(struct apply_runs), runs_fields };

#define G struct apply_region
static const struct rf_field region_fields[] = {
	RF_FX(G, "region", RF_STR, region, RF_NEED),
	RF_F(G, "calls", RF_JSON, calls),
	RF_FEND,
};
#undef G
static const struct rf_struct region_desc = { "region", sizeof(struct apply_region), region_fields };

#define K struct apply_keep_off
static const struct rf_field keep_off_fields[] = {
	RF_A(K, "regions", regions, nregions, &region_desc),
	RF_F(K, "vs", RF_STR, vs),
	RF_SS(K, "ratio", ratio, has_ratio, &stats_desc, 0),
	RF_F(K, "verdict", RF_STR, verdict),
	RF_F(K, "proposal", RF_STR, proposal),
	RF_FEND,
};
#undef K
static const struct rf_struct keep_off_desc = {
	"keep_off", sizeof(struct apply_keep_off), keep_off_fields
};

#define A struct apply_arm
static const struct rf_field arm_fields[] = {
	RF_FX(A, "arm", RF_STR, arm, RF_NEED),
	RF_F(A, "numerics", RF_STR, numerics),
	RF_F(A, "ms_per_step", RF_JSON, ms_per_step),
	RF_F(A, "step_source", RF_STR, step_source),
	RF_F(A, "median_ms", RF_NUM, median_ms),
	RF_SS(A, "vs_default", vs_default, has_vs_default, &stats_desc, 0),
	RF_F(A, "gpu_ms_per_step", RF_JSON, gpu_ms_per_step),
	RF_FX(A, "gpu_median_ms", RF_NUM, gpu_median_ms, RF_TIME),
	RF_SS(A, "gpu_vs_default", gpu_vs_default, has_gpu_vs_default, &stats_desc, 0),
	RF_F(A, "loss_max_rel_diff", RF_NUM, loss_max_rel_diff),
	RF_F(A, "loss_equal", RF_TRI, loss_equal),
	RF_PRS(A, "keep_off", keep_off, has_keep_off, &keep_off_desc, 0),
	RF_FEND,
};
#undef A
static const struct rf_struct arm_desc = { "arm", sizeof(struct apply_arm), arm_fields };

#define V struct apply_vs
static const struct rf_field vs_fields[] = {
	RF_FX(V, "arm", RF_STR, arm, RF_NEED),
	RF_F(V, "numerics", RF_STR, numerics),
	RF_SS(V, "ratio", ratio, has_ratio, &stats_desc, 0),
	RF_F(V, "slower_beyond_noise", RF_TRI, slower_beyond_noise),
	RF_SS(V, "gpu_ratio", gpu_ratio, has_gpu_ratio, &stats_desc, 0),
	RF_F(V, "gpu_slower_beyond_noise", RF_TRI, gpu_slower_beyond_noise),
	RF_FEND,
};
#undef V
static const struct rf_struct vs_desc = { "applied_vs", sizeof(struct apply_vs), vs_fields };

#define S struct apply_step
static const struct rf_field step_fields[] = {
	RF_F(S, "predicted_gain", RF_NUM, predicted_gain),
	RF_F(S, "predicted_saving_ms", RF_NUM, predicted_saving_ms),
	RF_F(S, "predicted_gain_cold", RF_NUM, predicted_gain_cold),
	RF_F(S, "predicted_gain_warm", RF_NUM, predicted_gain_warm),
	RF_F(S, "warm_kernels", RF_LONG, warm_kernels),
	RF_F(S, "difference_pp_cold", RF_NUM, difference_pp_cold),
	RF_F(S, "profile_step_ms", RF_NUM, profile_step_ms),
	RF_F(S, "measured_gain", RF_NUM, measured_gain),
	RF_F(S, "measured_gain_ci95", RF_JSON, measured_gain_ci95),
	RF_F(S, "difference_pp", RF_NUM, difference_pp),
	RF_F(S, "within_1pp", RF_TRI, within_1pp),
	RF_F(S, "conclusive", RF_TRI, conclusive),
	RF_F(S, "profile", RF_STR, profile),
	RF_F(S, "note", RF_STR, note),
	RF_FX(S, "gpu_step_ms", RF_NUM, gpu_step_ms, RF_TIME),
	RF_F(S, "gpu_predicted_gain", RF_NUM, gpu_predicted_gain),
	RF_F(S, "gpu_measured_gain", RF_NUM, gpu_measured_gain),
	RF_F(S, "gpu_measured_gain_ci95", RF_JSON, gpu_measured_gain_ci95),
	RF_F(S, "gpu_difference_pp", RF_NUM, gpu_difference_pp),
	RF_F(S, "gpu_within_1pp", RF_TRI, gpu_within_1pp),
	RF_F(S, "gpu_conclusive", RF_TRI, gpu_conclusive),
	RF_FX(S, "gpu_busy", RF_NUM, gpu_busy, RF_RATE),
	RF_F(S, "gpu_note", RF_STR, gpu_note),
	RF_FEND,
};
#undef S
static const struct rf_struct step_desc = { "step", sizeof(struct apply_step), step_fields };

#define T struct apply_stopped
static const struct rf_field stopped_fields[] = {
	RF_F(T, "signal", RF_STR, signal),
	RF_F(T, "run", RF_LONG, run),
	RF_F(T, "complete_rounds", RF_LONG, complete_rounds),
	RF_FEND,
};
#undef T
static const struct rf_struct stopped_desc = { "stopped", sizeof(struct apply_stopped), stopped_fields };

#define B struct apply_ab
static const struct rf_field ab_fields[] = {
	RF_F(B, "rounds", RF_LONG, rounds),
	RF_F(B, "warmup", RF_LONG, warmup),
	RF_F(B, "loss_rtol", RF_NUM, loss_rtol),
	RF_FX(B, "loss_scale", RF_NUM, loss_scale, RF_RATE),
	RF_A(B, "arms", arms, narms, &arm_desc),
	RF_A(B, "applied_vs", applied_vs, napplied_vs, &vs_desc),
	RF_S(B, "step", step, &step_desc, 0),
	RF_SS(B, "stopped", stopped, has_stopped, &stopped_desc, 0),
	RF_FEND,
};
#undef B
static const struct rf_struct ab_desc = { "ab", sizeof(struct apply_ab), ab_fields };

#define R struct apply_recommended
static const struct rf_field recommended_fields[] = {
	RF_FX(R, "arm", RF_STR, arm, RF_NEED),
	RF_F(R, "rule", RF_STR, rule),
	RF_F(R, "op", RF_STR, op),
	RF_F(R, "kernel", RF_STR, kernel),
	RF_F(R, "share", RF_NUM, share),
	RF_F(R, "in_ab", RF_BOOL, in_ab),
	RF_PR(R, "where", RF_STR, where, has_where, 0),
	RF_PR(R, "keep_off", RF_STR, keep_off, has_keep_off, 0),
	RF_FEND,
};
#undef R
const struct rf_struct apply_recommended_desc = {
	"recommended_arms", sizeof(struct apply_recommended), recommended_fields
};

#define D struct apply_doc
static const struct rf_field doc_fields[] = {
	RF_F(D, "run", RF_STR, run),
	RF_F(D, "target", RF_STR, target),
	RF_F(D, "backend", RF_STR, backend),
	RF_F(D, "out_dir", RF_STR, out_dir),
	RF_F(D, "command", RF_JSON, command),
	RF_F(D, "plan", RF_STR, plan),
	RF_F(D, "artifact", RF_STR, artifact),
	RF_FX(D, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT),
	RF_S(D, "summary", summary, &summary_desc, 0),
	RF_A(D, "kernels", kernels, nkernels, &row_desc),
	RF_A(D, "runs", runs.v, runs.nr, &apply_run_rec_desc),
	RF_SS(D, "ab", ab, has_ab, &ab_desc, 0),
	RF_SS(D, "step", step, has_step, &step_desc, RF_OMIT_NULL),
	RF_A(D, "recommended_arms", recommended_arms.v, recommended_arms.nr, &apply_recommended_desc),
	RF_F(D, "keep_slower", RF_BOOL, keep_slower),
	RF_A(D, "slower_in_step", slower_in_step.v, slower_in_step.nr, &apply_judgement_desc),
	RF_A(D, "left_out", left_out.v, left_out.nr, &apply_left_out_desc),
	RF_FEND,
};
#undef D
const struct rf_struct apply_doc_desc = { "apply.json", sizeof(struct apply_doc), doc_fields };

/* Appends an element of `size` to the list at *v (count *nr), initialised by `d`. */
static void *add(const struct rf_struct *d, void *v, size_t *nr, void **out)
{
	char *grown = rf_grow(v, *nr, d->size);

	*out = grown + (*nr)++ * d->size;
	rf_init(d, *out);
	return grown;
}

struct apply_run_rec *apply_runs_add(struct apply_runs *r)
{
	void *e;

	r->v = add(&apply_run_rec_desc, r->v, &r->nr, &e);
	return e;
}

void apply_runs_release(struct apply_runs *r)
{
	rf_release(&runs_desc, r);
}

/* Through JSON: the table says what a run holds, so the copy cannot miss a member. */
void apply_runs_copy(struct apply_runs *dst, const struct apply_runs *src)
{
	json_t *j = rf_to_json(&runs_desc, src);
	struct apply_runs more = APPLY_RUNS_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	rf_read(&runs_desc, &more, j, "runs", &err);	/* written by the same table: it reads */
	for (i = 0; i < more.nr; i++)
		*apply_runs_add(dst) = more.v[i];
	free(more.v);
	buf_release(&err);
	json_decref(j);
}

int apply_runs_read(struct apply_runs *r, const json_t *list, const char *what, struct buf *err)
{
	json_t *j = json_pack("{s:O}", "runs", (json_t *)list);
	int ret = rf_read(&runs_desc, r, j, what, err);

	json_decref(j);
	return ret;
}

struct apply_row *apply_doc_add_row(struct apply_doc *d)
{
	void *e;

	d->kernels = add(&row_desc, d->kernels, &d->nkernels, &e);
	return e;
}

struct apply_arm *apply_doc_add_arm(struct apply_ab *ab)
{
	void *e;

	ab->arms = add(&arm_desc, ab->arms, &ab->narms, &e);
	return e;
}

struct apply_vs *apply_doc_add_vs(struct apply_ab *ab)
{
	void *e;

	ab->applied_vs = add(&vs_desc, ab->applied_vs, &ab->napplied_vs, &e);
	return e;
}

struct apply_region *apply_doc_add_region(struct apply_keep_off *k)
{
	void *e;

	k->regions = add(&region_desc, k->regions, &k->nregions, &e);
	return e;
}

struct apply_recommended *apply_recommended_add(struct apply_recommended_list *l)
{
	void *e;

	l->v = add(&apply_recommended_desc, l->v, &l->nr, &e);
	return e;
}

void apply_recommended_release(struct apply_recommended_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		rf_release(&apply_recommended_desc, &l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

struct apply_region_proof *apply_region_proofs_add(struct apply_region_proofs *l)
{
	void *e;

	l->v = add(&region_proof_desc, l->v, &l->nr, &e);
	return e;
}

void apply_region_proofs_release(struct apply_region_proofs *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		rf_release(&region_proof_desc, &l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

int apply_doc_write(FILE *fp, const struct apply_doc *d)
{
	return rf_write_doc(fp, &apply_doc_desc, d, APPLY_DOC_SCHEMA, APPLY_DOC_TOOL);
}

int apply_doc_save(const char *path, const struct apply_doc *d, struct buf *err)
{
	return rf_save_doc(path, &apply_doc_desc, d, APPLY_DOC_SCHEMA, APPLY_DOC_TOOL, err);
}

int apply_doc_read(struct apply_doc *d, const json_t *j, const char *what, struct buf *err)
{
	return rf_read(&apply_doc_desc, d, j, what, err);
}
