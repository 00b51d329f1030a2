/*
 * tko apply's text, rendered from its document (apply_out.h,
 * model/apply_doc.h), so the two never disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apply/kwindow.h"
#include "apply/loss.h"
#include "report/apply_out.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

/* "1.234" or "-" for an unknown number, into b. */
static const char *fmt_num(char *b, size_t n, const char *fmt, double v, double scale)
{
	if (isnan(v))
		return "-";
	snprintf(b, n, fmt, v * scale);
	return b;
}

/* A [lo, hi] member's bound (0 where it has none, as jansson reads a missing one). */
static double bound(const json_t *ci95, size_t i)
{
	return json_number_value(json_array_get(ci95, i));
}

/*
 * Not tune's winner: its config-only variant (source variants left out), or
 * the base or another candidate pinned where Inductor would choose among
 * its configs.
 */
static const char *fallback_word(const char *fallback)
{
	if (!fallback)
		return "";
	if (!strcmp(fallback, APPLY_FALLBACK_PINNED_BASE))
		return " (pinned base)";
	if (!strcmp(fallback, APPLY_FALLBACK_PINNED_CANDIDATE))
		return " (pinned candidate)";
	return " (config-only)";
}

static void kernels_text(FILE *fp, const struct apply_doc *d)
{
	struct table t = TABLE_INIT;
	char b1[32], b2[32], b3[32];
	size_t i;

	table_columns(&t, "kernel|predicted|measured|share of step|status|reason", "lrrrll");
	for (i = 0; i < d->nkernels; i++) {
		const struct apply_row *row = &d->kernels[i];

		table_row(&t);
		table_cell(&t, "%s", row->kernel);
		fmt_num(b1, sizeof(b1), "%.3fx", row->predicted_speedup, 1);
		if (!isnan(row->predicted_warm_speedup))
			table_cell(&t, "%s (%.3fx warm)", b1, row->predicted_warm_speedup);
		else
			table_cell(&t, "%s", b1);
		table_cell(&t, "%s", fmt_num(b3, sizeof(b3), "%.3fx", row->measured_speedup, 1));
		table_cell(&t, "%s", fmt_num(b2, sizeof(b2), "%.1f%%", row->share, 100));
		table_cell(&t, "%s%s", row->status, fallback_word(row->fallback));
		table_cell(&t, "%s%s%s", row->reason ? row->reason : "", row->detail ? ": " : "",
			   row->detail ? row->detail : "");
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
static void keep_off_text(FILE *fp, const struct apply_arm *arm)
{
	const struct apply_keep_off *k = &arm->keep_off;
	const char *words = "no verdict: no round timed both arms";
	size_t i;

	for (i = 0; k->verdict && i < sizeof(verdict_words) / sizeof(verdict_words[0]); i++)
		if (!strcmp(k->verdict, verdict_words[i][0]))
			words = verdict_words[i][1];
	fprintf(fp, "%s vs %s: ", arm->arm, k->vs);
	if (k->has_ratio)
		fprintf(fp, "%.4f [%.4f, %.4f], ", k->ratio.median, bound(k->ratio.ci95, 0),
			bound(k->ratio.ci95, 1));
	fprintf(fp, "%s (calls a run:", words);
	for (i = 0; i < k->nregions; i++)
		fprintf(fp, " %s %lld", k->regions[i].region,
			json_integer_value(json_array_get(k->regions[i].calls, 0)));
	fprintf(fp, ")\n");
}

/* Some arm has a GPU time from its kernel windows: the table shows them. */
static int any_gpu(const struct apply_ab *ab)
{
	size_t i;

	for (i = 0; i < ab->narms; i++)
		if (!isnan(ab->arms[i].gpu_median_ms))
			return 1;
	return 0;
}

/*
 * The ratio's interval is the median's binomial interval over the rounds: with
 * fewer than 6 rounds it is [min, max] and covers less than 95%, so the text
 * says how much rather than let the column promise 95%.
 */
static void interval_note(FILE *fp, const struct apply_ab *ab)
{
	size_t i;

	for (i = 0; i < ab->narms; i++) {
		const struct apply_stats *r = &ab->arms[i].vs_default;

		if (!ab->arms[i].has_vs_default || isnan(r->level))
			continue;
		fprintf(fp, "interval: of the median ratio over %ld round%s, %.0f%% coverage%s\n",
			r->rounds, plural(r->rounds), 100 * r->level,
			r->level < 0.95 ? " (95% needs 6 rounds or more)" : "");
		return;
	}
}

/* How the loss column is computed, so a reader can redo it by hand. */
static void loss_note(FILE *fp, const struct apply_ab *ab)
{
	if (isnan(ab->loss_scale))
		return;
	fprintf(fp, "loss max rel diff: |loss - default's| / max(|default's|, %.3g), the floor %g of"
		" the default run's largest |loss| %.4g; equal up to --loss-rtol %g\n",
		APPLY_LOSS_FLOOR * ab->loss_scale, APPLY_LOSS_FLOOR, ab->loss_scale, ab->loss_rtol);
}

static void arms_table(FILE *fp, const struct apply_ab *ab)
{
	struct table t = TABLE_INIT;
	char b1[32], b2[32], b3[32];
	size_t i, numerics = 0;
	int gpu = any_gpu(ab);

	if (gpu)
		table_columns(&t, "arm|median ms/step|GPU ms/step|vs default|interval|loss max rel diff|numerics|time from", "lrrrrrll");
	else
		table_columns(&t, "arm|median ms/step|vs default|interval|loss max rel diff|numerics|time from", "lrrrrll");
	for (i = 0; i < ab->narms; i++) {
		const struct apply_arm *a = &ab->arms[i];

		table_row(&t);
		table_cell(&t, "%s", a->arm);
		table_cell(&t, "%s", fmt_num(b1, sizeof(b1), "%.3f", a->median_ms, 1));
		if (gpu)
			table_cell(&t, "%s", fmt_num(b1, sizeof(b1), "%.3f", a->gpu_median_ms, 1));
		table_cell(&t, "%s", fmt_num(b2, sizeof(b2), "%.4f",
					     a->has_vs_default ? a->vs_default.median : NAN, 1));
		if (a->has_vs_default)
			table_cell(&t, "[%.4f, %.4f]", bound(a->vs_default.ci95, 0),
				   bound(a->vs_default.ci95, 1));
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", fmt_num(b3, sizeof(b3), "%.2e", a->loss_max_rel_diff, 1));
		table_cell(&t, "%s", a->numerics ? a->numerics : "-");
		table_cell(&t, "%s", a->step_source ? a->step_source : "-");
		numerics += a->numerics != NULL;
	}
	table_print(&t, fp);
	table_release(&t);
	interval_note(fp, ab);
	loss_note(fp, ab);
	if (numerics)
		fprintf(fp, "arms with numerics changed (TF32 matmuls) are not held to --loss-rtol: weigh"
			" their loss difference against their time\n");
}

/* max / min of a list's positive numbers (*lo, *hi their bounds), NAN with fewer than two. */
static double spread(const json_t *list, double *lo, double *hi)
{
	const json_t *v;
	size_t i, n = 0;

	*lo = INFINITY;
	*hi = 0;
	json_array_foreach(list, i, v) {
		double x = json_number_value(v);

		if (!json_is_number(v) || !(x > 0))
			continue;
		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
		n++;
	}
	return n < 2 ? NAN : *hi / *lo;
}

/*
 * Some arm's wall clock moved between rounds beyond WALL_NOISY while every
 * arm's GPU time stayed within GPU_STEADY: the CPU side's noise, so the
 * GPU-time ratios are the ones to read. On the H100 (2026-12-05) the own
 * model's arms moved 8-29% on the wall clock and at most 0.8% on the GPU's;
 * the benchmark models' runs on both GPUs moved at most 3.6% and 0.8%.
 */
#define WALL_NOISY 1.05
#define GPU_STEADY 1.02

static void wall_noise_text(FILE *fp, const struct apply_ab *ab)
{
	const struct apply_arm *worst = NULL;
	double wmax = 0, gmax = 0, lo, hi, wlo = 0, whi = 0;
	size_t i;

	for (i = 0; i < ab->narms; i++) {
		const struct apply_arm *a = &ab->arms[i];
		double w, g = spread(a->gpu_ms_per_step, &lo, &hi);

		if (isnan(g))
			return;		/* an arm without GPU time: nothing steadier to point at */
		gmax = g > gmax ? g : gmax;
		w = spread(a->ms_per_step, &lo, &hi);
		if (w > wmax) {
			wmax = w;
			worst = a;
			wlo = lo;
			whi = hi;
		}
	}
	if (!worst || !(wmax > WALL_NOISY) || !(gmax < GPU_STEADY))
		return;
	fprintf(fp, "note: the wall clock moved %.1f%% between rounds of one arm (%s: %.3f-%.3f ms a "
		"step) while GPU time moved %.1f%% at most: the CPU side is noisy; read the GPU-time "
		"ratios\n", 100 * (wmax - 1), worst->arm, wlo, whi, 100 * (gmax - 1));
}

/* "stopped by SIGTERM in run 5 (not counted): 2 of 3 measured rounds complete; ..." */
static void stopped_text(FILE *fp, const struct apply_stopped *st, long rounds)
{
	char run[48] = "between runs";

	if (st->run > 0)
		snprintf(run, sizeof(run), "in run %ld (not counted)", st->run);
	fprintf(fp, "stopped by %s %s: %ld of %ld measured round%s complete; the figures below"
		" are those of the runs before it (none from a single round)\n",
		st->signal ? st->signal : "a signal", run, st->complete_rounds < 0 ? 0 : st->complete_rounds,
		rounds, plural(rounds));
}

static void ab_text(FILE *fp, const struct apply_ab *ab)
{
	long rounds = ab->rounds < 0 ? 0 : ab->rounds;
	char b4[32];
	size_t i;

	fprintf(fp, "\nA/B: %ld measured round%s after %ld warm-up (order reversed every other round)\n",
		rounds, plural(rounds), ab->warmup < 0 ? 0 : ab->warmup);
	if (ab->has_stopped)
		stopped_text(fp, &ab->stopped, rounds);
	arms_table(fp, ab);
	for (i = 0; i < ab->napplied_vs; i++) {
		const struct apply_vs *a = &ab->applied_vs[i];

		fprintf(fp, "applied vs %s: %s%s", a->arm,
			fmt_num(b4, sizeof(b4), "%.4f", a->has_ratio ? a->ratio.median : NAN, 1),
			a->slower_beyond_noise == 1 ? ", slower beyond noise" : "");
		if (a->has_gpu_ratio)
			fprintf(fp, "; GPU time %.4f%s", a->gpu_ratio.median,
				a->gpu_slower_beyond_noise == 1 ? ", slower beyond noise" : "");
		fprintf(fp, "%s\n", a->numerics ? " (that arm changes numerics)" : "");
	}
	wall_noise_text(fp, ab);
	for (i = 0; i < ab->narms; i++)
		if (ab->arms[i].has_keep_off)
			keep_off_text(fp, &ab->arms[i]);
}

/* The step's gain on the kernel windows' GPU time; nothing without windows. */
static void gpu_step_text(FILE *fp, const struct apply_step *st)
{
	char b1[32], b2[32], b3[32];

	if (isnan(st->gpu_step_ms))
		return;
	fprintf(fp, "GPU-time step gain: predicted %s (the profile's saving over the default arm's"
		" %.3f GPU ms/step), measured %s", fmt_num(b1, sizeof(b1), "%.4fx", st->gpu_predicted_gain, 1),
		st->gpu_step_ms, fmt_num(b2, sizeof(b2), "%.4fx", st->gpu_measured_gain, 1));
	if (st->gpu_measured_gain_ci95)
		fprintf(fp, " [%.4f, %.4f]", bound(st->gpu_measured_gain_ci95, 0),
			bound(st->gpu_measured_gain_ci95, 1));
	fprintf(fp, ", difference %s pp\n", fmt_num(b3, sizeof(b3), "%+.2f", st->gpu_difference_pp, 1));
	if (st->gpu_conclusive == 0)
		fprintf(fp, "  the GPU-time gain's interval is wider than +-1 pp: more rounds to judge it\n");
	if (st->gpu_note)
		fprintf(fp, "note: %s\n", st->gpu_note);
	else if (!isnan(st->gpu_busy))
		fprintf(fp, "  the GPU is busy %.0f%% of the default arm's step (GPU ms/step over wall ms/step)\n",
			100 * st->gpu_busy);
}

static void step_text(FILE *fp, const struct apply_step *st)
{
	char b1[32], b2[32], b3[32];

	if (!st)
		return;
	fprintf(fp, "step gain: predicted %s (from the profile), measured %s, difference %s pp\n",
		fmt_num(b1, sizeof(b1), "%.4fx", st->predicted_gain, 1),
		fmt_num(b2, sizeof(b2), "%.4fx", st->measured_gain, 1),
		fmt_num(b3, sizeof(b3), "%+.2f", st->difference_pp, 1));
	if (st->warm_kernels > 0)
		fprintf(fp, "  predicted from tune's warm timings (no L2 flush) where it has them (%ld of "
			"the winners), cold elsewhere; from the cold ones alone %s, difference %s pp\n",
			st->warm_kernels,
			fmt_num(b1, sizeof(b1), "%.4fx", st->predicted_gain_cold, 1),
			fmt_num(b3, sizeof(b3), "%+.2f", st->difference_pp_cold, 1));
	if (st->conclusive == 0)
		fprintf(fp, "  the measured gain's interval is wider than +-1 pp: more rounds to judge it\n");
	if (st->note)
		fprintf(fp, "note: %s\n", st->note);
	gpu_step_text(fp, st);
}

/* " a, b": the rows whose verdict is `verdict` (fp NULL: only counts them). */
static int rows_with(FILE *fp, const struct apply_doc *d, const char *verdict)
{
	size_t i;
	int n = 0;

	for (i = 0; i < d->nkernels; i++) {
		const char *v = d->kernels[i].verdict;

		if (!v || strcmp(v, verdict))
			continue;
		if (fp)
			fprintf(fp, "%s%s", n ? ", " : " ", d->kernels[i].kernel);
		n++;
	}
	return n;
}

/* The winners the kernel window judged slower inside the step: drop them, plainly. */
static void verdicts_text(FILE *fp, const struct apply_doc *d)
{
	char b1[32];
	size_t i;

	for (i = 0; i < d->nkernels; i++) {
		const struct apply_row *row = &d->kernels[i];
		long rounds = row->measured.rounds < 0 ? 0 : row->measured.rounds;

		if (!row->verdict || strcmp(row->verdict, "slower"))
			continue;
		fprintf(fp, "drop %s: slower inside the step than Inductor's own choice, %.3fx [%.3f, %.3f]"
			" over %ld round%s (tune predicted %s)%s\n", row->kernel, row->measured_speedup,
			bound(row->measured_gain_ci95, 0), bound(row->measured_gain_ci95, 1),
			rounds, plural(rounds),
			fmt_num(b1, sizeof(b1), "%.3fx", row->predicted_speedup, 1),
			d->keep_slower ? "; kept by --keep-slower" :
			"; left out of the artifact and of the next plan");
	}
	if (rows_with(NULL, d, "inconclusive") > 0) {
		fprintf(fp, "inconclusive inside the step (the 95%% interval holds 1; more rounds to judge):");
		rows_with(fp, d, "inconclusive");
		fprintf(fp, "\n");
	}
	if (rows_with(NULL, d, "same_config") > 0) {
		fprintf(fp, "not judged: the default arm launched the plan's config too (Inductor's own "
			"pick), so the arms ran alike:");
		rows_with(fp, d, "same_config");
		fprintf(fp, "\n");
	}
}

/*
 * Kernels tko left as they were, yet measured apart inside the step beyond
 * the noise (the 95% interval wholly off 1): the arms' compiles launched
 * them differently, Inductor picking among its configs afresh in each.
 * Such a kernel moves the step's ratio without any winner of tko's.
 */
static void unplanned_apart_text(FILE *fp, const struct apply_doc *d)
{
	size_t i;
	int n = 0;

	for (i = 0; i < d->nkernels; i++) {
		const struct apply_row *row = &d->kernels[i];
		double lo = bound(row->measured_gain_ci95, 0), hi = bound(row->measured_gain_ci95, 1);

		if (row->planned || !row->measured_gain_ci95 || !apply_interval_side(lo, hi))
			continue;
		fprintf(fp, "%s %s %.3fx [%.3f, %.3f] (%+.1f us a step)", n ? "," :
			"not planned, yet apart inside the step (applied against default):",
			row->kernel, row->measured_speedup, lo, hi,
			row->measured.applied_us_per_step - row->measured.default_us_per_step);
		n++;
	}
	if (n)
		fprintf(fp, "\n  tko did not change %s: Inductor picks among its configs afresh in each "
			"compile, and the arms' picks differed (docs/apply.md, \"Pinned base configs\")\n",
			n > 1 ? "them" : "it");
}

/* What this run left out of its plan, and why (the artifact's own: the "drop" lines). */
static void left_out_text(FILE *fp, const struct apply_left_outs *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		const struct apply_left_out *e = &list->v[i];

		if (!strcmp(e->of, "plan"))
			fprintf(fp, "left out of the plan, its runs and the artifact: %s (%s: %s)\n",
				e->kernel, e->reason, e->detail ? e->detail : "");
	}
}

/* A share of the time in percent; an unknown one reads 0, as the JSON null it is written as. */
static double percent(double share)
{
	return isnan(share) ? 0 : 100 * share;
}

/* The RUN proposes keeping TorchInductor off a region: the keep-off arm measures it. */
static void keep_off_recommended_text(FILE *fp, const struct apply_recommended *a)
{
	fprintf(fp, "the RUN's analysis proposes keeping TorchInductor off %s (%s on %s, %.1f%% of the"
		" kernel time): ", a->where, a->rule ? a->rule : "?", a->kernel ? a->kernel : "?",
		percent(a->share));
	if (a->in_ab)
		fprintf(fp, "the keep-off verdict above confirms or withdraws it\n");
	else if (a->keep_off)
		fprintf(fp, "try --ab N --keep-off %s (arm keep-off)\n", a->keep_off);
	else
		fprintf(fp, "try --ab N --keep-off MODULE:QUALNAME naming the function or method"
			" around that line (arm keep-off)\n");
}

/* Where the RUN's analysis recommends an arm that changes numerics: the user asks for it. */
static void recommended_text(FILE *fp, const struct apply_doc *d)
{
	size_t i;

	for (i = 0; i < d->recommended_arms.nr; i++) {
		const struct apply_recommended *a = &d->recommended_arms.v[i];

		if (a->where) {
			keep_off_recommended_text(fp, a);
			continue;
		}
		fprintf(fp, "the RUN's analysis fired %s on %s (%.1f%% of the GPU busy time): ",
			a->rule, a->op ? a->op : "?", percent(a->share));
		if (a->in_ab)
			fprintf(fp, "arm %s above (it changes numerics: weigh its loss difference)\n", a->arm);
		else
			fprintf(fp, "try --ab N --arms default,applied,%s,applied+%s (it changes numerics)\n",
				a->arm, a->arm);
	}
}

void apply_report_text(FILE *fp, const struct apply_doc *d)
{
	const struct apply_summary *s = &d->summary;

	fprintf(fp, "%s (%s): %ld winner%s planned, %ld ran as planned, %ld kernel%s not planned\n",
		d->run, d->target, s->planned, plural(s->planned), s->ran_winner, s->not_planned,
		plural(s->not_planned));
	kernels_text(fp, d);
	if (d->has_ab) {
		ab_text(fp, &d->ab);
		step_text(fp, &d->ab.step);
	} else {
		step_text(fp, d->has_step ? &d->step : NULL);
	}
	verdicts_text(fp, d);
	unplanned_apart_text(fp, d);
	left_out_text(fp, &d->left_out);
	recommended_text(fp, d);
	fprintf(fp, "plan: %s\n", d->plan);
	if (d->artifact)
		fprintf(fp, "plain artifact: %s (tko_winners.json, tko_winners.py, sitecustomize.py)\n",
			d->artifact);
}
