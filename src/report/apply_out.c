/*
 * tko apply's document and text (apply_out.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/kwindow.h"
#include "apply/keepoff.h"
#include "report/apply_out.h"
#include "util/file.h"
#include "json/jsonio.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

static json_t *path_json(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	json_t *j = json_string(p);

	free(p);
	return j;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

double apply_loss_diff(const json_t *a, const json_t *b)
{
	double worst = 0;
	size_t i, n = json_array_size(a);

	if (!n || n != json_array_size(b))
		return NAN;
	for (i = 0; i < n; i++) {
		double x = json_number_value(json_array_get(a, i));
		double y = json_number_value(json_array_get(b, i));
		double d = fabs(x - y) / fmax(fabs(y), 1e-12);

		if (!isfinite(x) || !isfinite(y))
			return NAN;
		worst = fmax(worst, d);
	}
	return worst;
}

/* A planned kernel's status over every applied run: the first that is not ran_winner. */
static void merged_status(const struct apply_report *r, const char *id, json_t *row)
{
	const char *status = "not_run", *reason = NULL;
	size_t i;

	for (i = 0; i < r->nproofs; i++) {
		const char *why, *s = apply_proof_status(&r->proofs[i], id, &why);
		const json_t *o = json_object_get(r->proofs[i].outcomes, id);

		if (i == 0 || strcmp(s, "ran_winner")) {
			json_set_new(row, "mechanism", json_incref(json_object_get(o, "mechanism")));
			json_set_new(row, "launches", json_incref(json_object_get(o, "launches")));
			json_set_new(row, "notes", json_incref(json_object_get(o, "notes")));
			json_set_new(row, "constructed",
				     json_incref(json_object_get(r->proofs[i].constructed, id)));
		}
		if (i == 0 || !strcmp(status, "ran_winner")) {
			status = s;
			reason = why;
		}
	}
	json_set_str(row, "status", status);
	json_set_new(row, "reason", reason ? json_string(reason) : NULL);
}

/* Some measured run of the A/B profiled a kernel window. */
static int any_window(const json_t *runs)
{
	const json_t *run;
	size_t i;

	json_array_foreach(runs, i, run)
		if (json_is_true(json_object_get(run, "measured")) &&
		    json_is_object(json_object_get(run, "kernel_window")))
			return 1;
	return 0;
}

/*
 * The kernel's gain from the A/B's kernel windows (apply/kwindow.h), its
 * interval, and for a winner that ran the verdict (null without windows).
 */
static void measured_gain(const struct apply_report *r, const char *kernel, int planned, json_t *row)
{
	struct apply_kgain g;

	apply_kernel_gain(r->runs, kernel, r->rounds, &g);
	json_set_new(row, "measured_gain_ci95", isfinite(g.lo) ? json_pack("[f, f]", g.lo, g.hi) : NULL);
	json_set_new(row, "verdict", planned && any_window(r->runs) ?
		     json_string(apply_kgain_verdict(&g)) : NULL);
	if (!g.rounds) {
		json_set_new(row, "measured", NULL);
		return;
	}
	json_set_num(row, "measured_speedup", g.gain);
	json_set_new(row, "measured", json_pack("{s:i, s:f, s:f}", "rounds", (int)g.rounds,
						"default_us_per_step", g.default_us,
						"applied_us_per_step", g.applied_us));
}

/* Tune's warm figure for the winner (no L2 flush), where its confirmation has one. */
static void warm_row(const struct apply_item *it, json_t *row)
{
	json_set_new(row, "predicted_warm_speedup", json_real(it->warm));
	json_set_new(row, "predicted_warm_ci95", json_pack("[f, f]", it->warm_lo, it->warm_hi));
}

static json_t *kernel_rows(const struct apply_report *r)
{
	json_t *rows = json_array();
	size_t i;

	for (i = 0; i < r->plan->nr; i++) {
		const struct apply_item *it = &r->plan->v[i];
		const json_t *k = json_object_get(r->pred->kernels, it->id);
		double ms = json_num(k, "ms_per_step", NAN);
		json_t *row = json_pack("{s:s, s:s, s:b}", "id", it->id, "kernel", it->kernel,
					"planned", it->entry != NULL);

		json_set_str(row, "tune", it->tune_path);
		json_set_new(row, "predicted_speedup", it->speedup > 0 ? json_real(it->speedup) : NULL);
		if (apply_item_has_warm(it))
			warm_row(it, row);
		json_set_new(row, "ms_per_step", num_or_null(ms));
		json_set_new(row, "share", num_or_null(json_num(k, "share", NAN)));
		json_set_new(row, "predicted_saving_ms", it->entry && apply_item_predicted(it) > 0 ?
			     num_or_null(ms * (1 - 1 / apply_item_predicted(it))) : NULL);
		json_set_new(row, "measured_speedup", NULL);
		json_set_new(row, "measured_gain_ci95", NULL);
		json_set_new(row, "verdict", NULL);
		if (r->arms)
			measured_gain(r, it->kernel, it->entry != NULL, row);
		if (it->entry && r->cmd) {
			merged_status(r, it->id, row);
		} else {
			json_set_str(row, "status", it->entry ? "not_run" : "not_planned");
			json_set_str(row, "reason", it->skip);
			json_set_new(row, "detail", it->skip_detail ? json_string(it->skip_detail) : NULL);
		}
		json_array_append_new(rows, row);
	}
	return rows;
}

static json_t *stats_json(const struct ab_stats *s, int ok)
{
	if (!ok)
		return json_null();
	return json_pack("{s:i, s:f, s:[f, f], s:f}", "rounds", (int)s->n, "median", s->median,
			 "ci95", s->lo, s->hi, "level", s->level);
}

/* The measured step times of `arm`, by round (NAN where that round has none). */
static void arm_times(const json_t *runs, const char *arm, long rounds, double *ms)
{
	const json_t *run;
	size_t i;
	long k;

	for (k = 0; k < rounds; k++)
		ms[k] = NAN;
	json_array_foreach(runs, i, run) {
		long round = json_int(run, "round", -1);

		if (json_is_true(json_object_get(run, "measured")) && !strcmp(json_str(run, "arm"), arm) &&
		    round >= 0 && round < rounds)
			ms[round] = json_num(run, "ms_per_step", NAN);
	}
}

/* Ratio statistics of a / b over the rounds both have. */
static json_t *ratio(const double *a, const double *b, long rounds, struct ab_stats *s)
{
	double *v = xcalloc((size_t)rounds + 1, sizeof(*v));
	size_t n = 0;
	long k;
	int ok;

	for (k = 0; k < rounds; k++)
		if (isfinite(a[k]) && isfinite(b[k]) && b[k] > 0)
			v[n++] = a[k] / b[k];
	ok = ab_ratio_stats(v, n, s) == 0;
	free(v);
	return stats_json(s, ok);
}

static const json_t *ref_losses(const json_t *runs)
{
	const json_t *run;
	size_t i;

	json_array_foreach(runs, i, run)
		if (json_is_true(json_object_get(run, "measured")) && !strcmp(json_str(run, "arm"), "default"))
			return json_object_get(run, "losses");
	return NULL;
}

static double arm_loss(const json_t *runs, const char *arm, const json_t *ref)
{
	const json_t *run;
	double worst = -1;
	size_t i;

	json_array_foreach(runs, i, run) {
		double d;

		if (!json_is_true(json_object_get(run, "measured")) || strcmp(json_str(run, "arm"), arm))
			continue;
		d = apply_loss_diff(json_object_get(run, "losses"), ref);
		if (!isfinite(d))
			return NAN;
		worst = fmax(worst, d);
	}
	return worst < 0 ? NAN : worst;
}

/* Where the arm's measured times came from: "hook", "stdout", "mixed", or null. */
static json_t *arm_source(const json_t *runs, const char *arm)
{
	const json_t *run;
	const char *seen = NULL;
	size_t i;

	json_array_foreach(runs, i, run) {
		const char *src = json_str(run, "step_source");

		if (!json_is_true(json_object_get(run, "measured")) || strcmp(json_str(run, "arm"), arm) || !src)
			continue;
		if (seen && strcmp(seen, src))
			return json_string("mixed");
		seen = src;
	}
	return seen ? json_string(seen) : json_null();
}

static json_t *arm_json(const struct apply_report *r, enum ab_arm a, double *ms, const double *def)
{
	const char *name = ab_arms[a].name;
	double *copy = xcalloc((size_t)r->rounds + 1, sizeof(*copy)), loss;
	struct ab_stats s;
	size_t n = 0;
	long k;
	const char *numerics = ab_arms[a].numerics;
	json_t *j = json_pack("{s:s, s:s?}", "arm", name, "numerics", numerics), *list = json_array();

	arm_times(r->runs, name, r->rounds, ms);
	for (k = 0; k < r->rounds; k++) {
		json_array_append_new(list, num_or_null(ms[k]));
		if (isfinite(ms[k]))
			copy[n++] = ms[k];
	}
	json_set_new(j, "ms_per_step", list);
	json_set_new(j, "step_source", arm_source(r->runs, name));
	json_set_new(j, "median_ms", num_or_null(ab_median(copy, n)));
	json_set_new(j, "vs_default", a == AB_DEFAULT ? json_null() : ratio(ms, def, r->rounds, &s));
	loss = arm_loss(r->runs, name, ref_losses(r->runs));
	json_set_new(j, "loss_max_rel_diff", num_or_null(loss));
	/* an arm that changes numerics is not held to the tolerance: the user weighs it */
	json_set_new(j, "loss_equal", isfinite(loss) && !numerics ?
		     json_boolean(loss <= r->loss_rtol) : json_null());
	free(copy);
	return j;
}

/* Per region of a keep-off arm: the calls of each measured run (the runs' proofs). */
static json_t *keep_off_regions(const json_t *runs, const char *arm)
{
	json_t *by = json_object(), *list = json_array(), *v;
	const json_t *run, *reg;
	const char *key;
	size_t i, j;

	json_array_foreach(runs, i, run) {
		if (!json_is_true(json_object_get(run, "measured")) || strcmp(json_str(run, "arm"), arm))
			continue;
		json_array_foreach(json_object_get(run, "keep_off"), j, reg) {
			const char *name = json_str(reg, "region");

			if (!name)
				continue;
			if (!json_object_get(by, name))
				json_object_set_new(by, name, json_pack("{s:s, s:[]}", "region", name, "calls"));
			json_array_append_new(json_object_get(json_object_get(by, name), "calls"),
					      json_integer(json_int(reg, "calls", 0)));
		}
	}
	json_object_foreach(by, key, v)
		json_array_append(list, v);
	json_decref(by);
	return list;
}

/*
 * A keep-off arm's regions and verdict: keep-off against default,
 * applied+keep-off against applied (what keeping off adds to the winners).
 */
static json_t *keep_off_json(const struct apply_report *r, enum ab_arm a, const double *ms)
{
	const char *ref = a == AB_APPLIED_KEEP_OFF ? "applied" : "default";
	double *ref_ms = xcalloc((size_t)r->rounds + 1, sizeof(*ref_ms));
	struct ab_stats s;
	json_t *st, *j;
	const char *verdict;

	arm_times(r->runs, ref, r->rounds, ref_ms);
	st = ratio(ms, ref_ms, r->rounds, &s);
	verdict = json_is_object(st) ? keepoff_verdict(s.lo, s.hi) : NULL;
	j = json_pack("{s:o, s:s, s:o, s:s?, s:s?}", "regions", keep_off_regions(r->runs, ab_arms[a].name),
		      "vs", ref, "ratio", st, "verdict", verdict, "proposal",
		      !verdict ? NULL : !strcmp(verdict, "faster") ? "confirmed" : "withdrawn");
	free(ref_ms);
	return j;
}

/* The measured gain's interval, the inverse of applied/default's; half its width in pp. */
static json_t *gain_interval(const json_t *applied_vs_default, double *half_pp)
{
	const json_t *ci = json_object_get(applied_vs_default, "ci95");
	double lo = json_real_value(json_array_get(ci, 0)), hi = json_real_value(json_array_get(ci, 1));

	*half_pp = NAN;
	if (!(lo > 0 && hi > 0))
		return json_null();
	*half_pp = (1 / lo - 1 / hi) * 100 / 2;
	return json_pack("[f, f]", 1 / hi, 1 / lo);
}

static json_t *step_json(const struct apply_report *r, const json_t *applied_vs_default)
{
	double median = json_num(applied_vs_default, "median", NAN), half_pp;
	double measured = median > 0 ? 1 / median : NAN, predicted = r->pred->gain;
	double pp = (measured - predicted) * 100;
	json_t *j = json_object();

	json_set_new(j, "predicted_gain", num_or_null(predicted));
	json_set_new(j, "predicted_saving_ms", num_or_null(r->pred->saved_ms));
	/* both predictions, so a GPU run shows which one the measured step follows */
	json_set_new(j, "predicted_gain_cold", num_or_null(r->pred->gain_cold));
	json_set_new(j, "predicted_gain_warm", num_or_null(predicted));
	json_set_new(j, "warm_kernels", json_integer(r->pred->warm_kernels));
	json_set_new(j, "difference_pp_cold", num_or_null((measured - r->pred->gain_cold) * 100));
	json_set_new(j, "profile_step_ms", num_or_null(r->pred->step_ms));
	json_set_new(j, "measured_gain", num_or_null(measured));
	json_set_new(j, "measured_gain_ci95", gain_interval(applied_vs_default, &half_pp));
	json_set_new(j, "difference_pp", num_or_null(pp));
	json_set_new(j, "within_1pp", isfinite(pp) ? json_boolean(fabs(pp) <= 1) : json_null());
	/* an interval wider than +-1 pp cannot judge the 1 pp target either way */
	json_set_new(j, "conclusive", isfinite(half_pp) ? json_boolean(half_pp <= 1) : json_null());
	json_set_new(j, "profile", r->pred->profile ? json_string(r->pred->profile) : NULL);
	json_set_new(j, "note", r->pred->note ? json_string(r->pred->note) : NULL);
	return j;
}

static json_t *ab_json(const struct apply_report *r)
{
	size_t nr = (size_t)r->rounds + 1, i;
	double *ms = xcalloc(AB_NARMS * nr, sizeof(*ms));
	json_t *arms = json_array(), *vs = json_array(), *ab, *applied_vs_default = NULL;
	struct ab_stats s;

	arm_times(r->runs, "default", r->rounds, ms);
	for (i = 0; i < r->narms; i++) {
		json_t *a = arm_json(r, r->arms[i], ms + r->arms[i] * nr, ms);

		if (r->arms[i] == AB_APPLIED)
			applied_vs_default = json_object_get(a, "vs_default");
		if (ab_keeps_off(r->arms[i]))
			json_set_new(a, "keep_off", keep_off_json(r, r->arms[i], ms + r->arms[i] * nr));
		json_array_append_new(arms, a);
	}
	for (i = 0; i < r->narms; i++) {
		json_t *st;

		if (r->arms[i] == AB_APPLIED)
			continue;
		st = ratio(ms + AB_APPLIED * nr, ms + r->arms[i] * nr, r->rounds, &s);
		json_array_append_new(vs, json_pack("{s:s, s:s?, s:o, s:o?}", "arm", ab_arms[r->arms[i]].name,
						    "numerics", ab_arms[r->arms[i]].numerics,
						    "ratio", st, "slower_beyond_noise",
						    json_is_object(st) ? json_boolean(s.lo > 1) : NULL));
	}
	ab = json_pack("{s:i, s:i, s:f, s:o, s:o}", "rounds", (int)r->rounds, "warmup", (int)r->warmup,
		       "loss_rtol", r->loss_rtol, "arms", arms, "applied_vs", vs);
	json_set_new(ab, "step", step_json(r, applied_vs_default));
	free(ms);
	return ab;
}

static json_t *summary_json(const json_t *rows)
{
	const json_t *row;
	size_t i;
	long planned = 0, ran = 0, not_planned = 0;

	json_array_foreach(rows, i, row) {
		if (!json_is_true(json_object_get(row, "planned")))
			not_planned++;
		else
			planned++;
		ran += !strcmp(json_str(row, "status"), "ran_winner");
	}
	return json_pack("{s:i, s:i, s:i, s:b}", "planned", (int)planned, "ran_winner", (int)ran,
			 "not_planned", (int)not_planned, "every_winner_ran", planned && ran == planned);
}

json_t *apply_report_json(const struct apply_report *r)
{
	json_t *doc = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s}", "schema_version", 1, "tool", "tko apply",
				"run", r->run, "target", r->plan->target, "backend", r->plan->backend,
				"out_dir", r->out);
	json_t *cmd = json_array(), *rows = kernel_rows(r);
	size_t i;

	for (i = 0; r->cmd && r->cmd[i]; i++)
		json_array_append_new(cmd, json_string(r->cmd[i]));
	json_set_new(doc, "command", r->cmd ? cmd : (json_decref(cmd), json_null()));
	json_set_new(doc, "plan", path_json(r->out, "plan.json"));
	json_set_new(doc, "artifact", r->artifact ? json_string(r->artifact) : NULL);
	json_object_set(doc, "inductor_settings", r->plan->settings);
	json_set_new(doc, "summary", summary_json(rows));
	json_set_new(doc, "kernels", rows);
	json_set_new(doc, "runs", r->runs ? json_deep_copy(r->runs) : json_array());
	json_set_new(doc, "ab", r->arms ? ab_json(r) : NULL);
	if (!r->arms)
		json_set_new(doc, "step", step_json(r, NULL));
	json_set_new(doc, "recommended_arms", r->recommended ? json_deep_copy(r->recommended) : json_array());
	json_set_bool(doc, "keep_slower", r->keep_slower);
	json_set_new(doc, "slower_in_step", r->slower ? json_deep_copy(r->slower) : json_array());
	json_set_new(doc, "left_out", r->left_out ? json_deep_copy(r->left_out) : json_array());
	return doc;
}

/* "1.234" or "-" for a missing number, into b. */
static const char *fmt_num(char *b, size_t n, const char *fmt, const json_t *v, double scale)
{
	if (!json_is_number(v))
		return "-";
	snprintf(b, n, fmt, json_number_value(v) * scale);
	return b;
}

static void kernels_text(FILE *fp, const json_t *rows)
{
	struct table t = TABLE_INIT;
	const json_t *row;
	char b1[32], b2[32], b3[32];
	size_t i;

	table_columns(&t, "kernel|predicted|measured|share of step|status|reason", "lrrrll");
	json_array_foreach(rows, i, row) {
		const char *reason = json_str(row, "reason");

		table_row(&t);
		table_cell(&t, "%s", json_str(row, "kernel"));
		fmt_num(b1, sizeof(b1), "%.3fx", json_object_get(row, "predicted_speedup"), 1);
		if (json_is_number(json_object_get(row, "predicted_warm_speedup")))
			table_cell(&t, "%s (%.3fx warm)", b1, json_num(row, "predicted_warm_speedup", NAN));
		else
			table_cell(&t, "%s", b1);
		table_cell(&t, "%s", fmt_num(b3, sizeof(b3), "%.3fx", json_object_get(row, "measured_speedup"), 1));
		table_cell(&t, "%s", fmt_num(b2, sizeof(b2), "%.1f%%", json_object_get(row, "share"), 100));
		table_cell(&t, "%s", json_str(row, "status"));
		table_cell(&t, "%s%s%s", reason ? reason : "", json_str(row, "detail") ? ": " : "",
			   json_str(row, "detail") ? json_str(row, "detail") : "");
	}
	table_print(&t, fp);
	table_release(&t);
}

static const char *const verdict_words[][2] = {
	{ "faster", "faster beyond noise: the proposal to keep TorchInductor off is confirmed" },
	{ "not_faster", "not faster (within noise): the proposal to keep TorchInductor off is withdrawn" },
	{ "slower", "slower beyond noise: the proposal to keep TorchInductor off is withdrawn" },
};

/* "keep-off vs default: 0.9512 [0.9400, 0.9630], faster beyond noise: ... (calls a run: r 525)" */
static void keep_off_text(FILE *fp, const json_t *arm)
{
	const json_t *k = json_object_get(arm, "keep_off"), *st = json_object_get(k, "ratio"), *reg;
	const char *verdict = json_str(k, "verdict"), *words = "no verdict: no round timed both arms";
	size_t i;

	for (i = 0; verdict && i < sizeof(verdict_words) / sizeof(verdict_words[0]); i++)
		if (!strcmp(verdict, verdict_words[i][0]))
			words = verdict_words[i][1];
	fprintf(fp, "%s vs %s: ", json_str(arm, "arm"), json_str(k, "vs"));
	if (json_is_object(st))
		fprintf(fp, "%.4f [%.4f, %.4f], ", json_num(st, "median", NAN),
			json_number_value(json_array_get(json_object_get(st, "ci95"), 0)),
			json_number_value(json_array_get(json_object_get(st, "ci95"), 1)));
	fprintf(fp, "%s (calls a run:", words);
	json_array_foreach(json_object_get(k, "regions"), i, reg)
		fprintf(fp, " %s %lld", json_str(reg, "region"),
			json_integer_value(json_array_get(json_object_get(reg, "calls"), 0)));
	fprintf(fp, ")\n");
}

static void ab_text(FILE *fp, const json_t *ab)
{
	struct table t = TABLE_INIT;
	const json_t *a, *vs;
	char b1[32], b2[32], b3[32], b4[32];
	size_t i, numerics = 0;
	long long rounds = json_int(ab, "rounds", 0);

	fprintf(fp, "\nA/B: %lld measured round%s after %lld warm-up (order reversed every other round)\n",
		rounds, plural(rounds), json_int(ab, "warmup", 0));
	table_columns(&t, "arm|median ms/step|vs default|95% interval|loss max rel diff|numerics|time from", "lrrrrll");
	json_array_foreach(json_object_get(ab, "arms"), i, a) {
		vs = json_object_get(a, "vs_default");
		table_row(&t);
		table_cell(&t, "%s", json_str(a, "arm"));
		table_cell(&t, "%s", fmt_num(b1, sizeof(b1), "%.3f", json_object_get(a, "median_ms"), 1));
		table_cell(&t, "%s", fmt_num(b2, sizeof(b2), "%.4f", json_object_get(vs, "median"), 1));
		if (json_is_object(vs))
			table_cell(&t, "[%.4f, %.4f]", json_number_value(json_array_get(json_object_get(vs, "ci95"), 0)),
				   json_number_value(json_array_get(json_object_get(vs, "ci95"), 1)));
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", fmt_num(b3, sizeof(b3), "%.2e", json_object_get(a, "loss_max_rel_diff"), 1));
		table_cell(&t, "%s", json_str(a, "numerics") ? json_str(a, "numerics") : "-");
		table_cell(&t, "%s", json_str(a, "step_source") ? json_str(a, "step_source") : "-");
		numerics += json_str(a, "numerics") != NULL;
	}
	table_print(&t, fp);
	table_release(&t);
	if (numerics)
		fprintf(fp, "arms with numerics changed (TF32 matmuls) are not held to --loss-rtol: weigh"
			" their loss difference against their time\n");
	json_array_foreach(json_object_get(ab, "applied_vs"), i, a)
		fprintf(fp, "applied vs %s: %s%s%s\n", json_str(a, "arm"),
			fmt_num(b4, sizeof(b4), "%.4f", json_object_get(json_object_get(a, "ratio"), "median"), 1),
			json_is_true(json_object_get(a, "slower_beyond_noise")) ? ", slower beyond noise" : "",
			json_str(a, "numerics") ? " (that arm changes numerics)" : "");
	json_array_foreach(json_object_get(ab, "arms"), i, a)
		if (json_object_get(a, "keep_off"))
			keep_off_text(fp, a);
}

static void step_text(FILE *fp, const json_t *st)
{
	char b1[32], b2[32], b3[32];

	if (!st)
		return;
	fprintf(fp, "step gain: predicted %s (from the profile), measured %s, difference %s pp\n",
		fmt_num(b1, sizeof(b1), "%.4fx", json_object_get(st, "predicted_gain"), 1),
		fmt_num(b2, sizeof(b2), "%.4fx", json_object_get(st, "measured_gain"), 1),
		fmt_num(b3, sizeof(b3), "%+.2f", json_object_get(st, "difference_pp"), 1));
	if (json_int(st, "warm_kernels", 0) > 0)
		fprintf(fp, "  predicted from tune's warm timings (no L2 flush) where it has them (%lld of "
			"the winners), cold elsewhere; from the cold ones alone %s, difference %s pp\n",
			json_int(st, "warm_kernels", 0),
			fmt_num(b1, sizeof(b1), "%.4fx", json_object_get(st, "predicted_gain_cold"), 1),
			fmt_num(b3, sizeof(b3), "%+.2f", json_object_get(st, "difference_pp_cold"), 1));
	if (json_is_false(json_object_get(st, "conclusive")))
		fprintf(fp, "  the measured gain's 95%% interval is wider than +-1 pp: more rounds to judge it\n");
	if (json_str(st, "note"))
		fprintf(fp, "note: %s\n", json_str(st, "note"));
}

/* " a, b": the rows whose verdict is `verdict` (fp NULL: only counts them). */
static int rows_with(FILE *fp, const json_t *rows, const char *verdict)
{
	const json_t *row;
	size_t i;
	int n = 0;

	json_array_foreach(rows, i, row) {
		const char *v = json_str(row, "verdict");

		if (!v || strcmp(v, verdict))
			continue;
		if (fp)
			fprintf(fp, "%s%s", n ? ", " : " ", json_str(row, "kernel"));
		n++;
	}
	return n;
}

/* The winners the kernel window judged slower inside the step: drop them, plainly. */
static void verdicts_text(FILE *fp, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "kernels"), *row;
	int keep = json_is_true(json_object_get(doc, "keep_slower"));
	char b1[32];
	size_t i;

	json_array_foreach(rows, i, row) {
		const json_t *ci = json_object_get(row, "measured_gain_ci95");
		long long rounds = json_int(json_object_get(row, "measured"), "rounds", 0);

		if (!json_str(row, "verdict") || strcmp(json_str(row, "verdict"), "slower"))
			continue;
		fprintf(fp, "drop %s: slower inside the step than Inductor's own choice, %.3fx [%.3f, %.3f]"
			" over %lld round%s (tune predicted %s)%s\n", json_str(row, "kernel"),
			json_num(row, "measured_speedup", NAN), json_number_value(json_array_get(ci, 0)),
			json_number_value(json_array_get(ci, 1)), rounds, plural(rounds),
			fmt_num(b1, sizeof(b1), "%.3fx", json_object_get(row, "predicted_speedup"), 1),
			keep ? "; kept by --keep-slower" : "; left out of the artifact and of the next plan");
	}
	if (rows_with(NULL, rows, "inconclusive") > 0) {
		fprintf(fp, "inconclusive inside the step (the 95%% interval holds 1; more rounds to judge):");
		rows_with(fp, rows, "inconclusive");
		fprintf(fp, "\n");
	}
}

/* What this run left out of its plan, and why (the artifact's own: the "drop" lines). */
static void left_out_text(FILE *fp, const json_t *list)
{
	const json_t *e;
	size_t i;

	json_array_foreach(list, i, e)
		if (!strcmp(json_str(e, "of"), "plan"))
			fprintf(fp, "left out of the plan, its runs and the artifact: %s (%s: %s)\n",
				json_str(e, "kernel"), json_str(e, "reason"),
				json_str(e, "detail") ? json_str(e, "detail") : "");
}

/* The RUN proposes keeping TorchInductor off a region: the keep-off arm measures it. */
static void keep_off_recommended_text(FILE *fp, const json_t *a)
{
	const char *spec = json_str(a, "keep_off");

	fprintf(fp, "the RUN's analysis proposes keeping TorchInductor off %s (%s on %s, %.1f%% of the"
		" kernel time): ", json_str(a, "where"), json_str(a, "rule") ? json_str(a, "rule") : "?",
		json_str(a, "kernel") ? json_str(a, "kernel") : "?",
		100 * json_number_value(json_object_get(a, "share")));
	if (json_is_true(json_object_get(a, "in_ab")))
		fprintf(fp, "the keep-off verdict above confirms or withdraws it\n");
	else if (spec)
		fprintf(fp, "try --ab N --keep-off %s (arm keep-off)\n", spec);
	else
		fprintf(fp, "try --ab N --keep-off MODULE:QUALNAME naming the function or method"
			" around that line (arm keep-off)\n");
}

/* Where the RUN's analysis recommends an arm that changes numerics: the user asks for it. */
static void recommended_text(FILE *fp, const json_t *list)
{
	const json_t *a;
	size_t i;

	json_array_foreach(list, i, a) {
		const char *arm = json_str(a, "arm");

		if (json_str(a, "where")) {
			keep_off_recommended_text(fp, a);
			continue;
		}
		fprintf(fp, "the RUN's analysis fired %s on %s (%.1f%% of the GPU busy time): ",
			json_str(a, "rule"), json_str(a, "op") ? json_str(a, "op") : "?",
			100 * json_number_value(json_object_get(a, "share")));
		if (json_is_true(json_object_get(a, "in_ab")))
			fprintf(fp, "arm %s above (it changes numerics: weigh its loss difference)\n", arm);
		else
			fprintf(fp, "try --ab N --arms default,applied,%s,applied+%s (it changes numerics)\n",
				arm, arm);
	}
}

void apply_report_text(FILE *fp, const json_t *doc)
{
	const json_t *s = json_object_get(doc, "summary"), *ab = json_object_get(doc, "ab");
	long long planned = json_int(s, "planned", 0), not_planned = json_int(s, "not_planned", 0);

	fprintf(fp, "%s (%s): %lld winner%s planned, %lld ran as planned, %lld kernel%s not planned\n",
		json_str(doc, "run"), json_str(doc, "target"), planned, plural(planned),
		json_int(s, "ran_winner", 0), not_planned, plural(not_planned));
	kernels_text(fp, json_object_get(doc, "kernels"));
	if (json_is_object(ab)) {
		ab_text(fp, ab);
		step_text(fp, json_object_get(ab, "step"));
	} else {
		step_text(fp, json_object_get(doc, "step"));
	}
	verdicts_text(fp, doc);
	left_out_text(fp, json_object_get(doc, "left_out"));
	recommended_text(fp, json_object_get(doc, "recommended_arms"));
	fprintf(fp, "plan: %s\n", json_str(doc, "plan"));
	if (json_str(doc, "artifact"))
		fprintf(fp, "plain artifact: %s (tko_winners.json, tko_winners.py, sitecustomize.py)\n",
			json_str(doc, "artifact"));
}
