/*
 * tko tune's text: a kernel's table of variants with its notes, for the
 * terminal and for --md (see tune_text.h), from the entry tune.json holds
 * (model/tune.h), so that the text and the JSON show the same figures.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/tune_text.h"
#include "util/file.h"
#include "util/plural.h"
#include "banned.h"

static const char *correct_text(const struct tune_doc_variant *v, int compile_only)
{
	if (compile_only || v->status == TUNE_ST_COMPILED)
		return "n/a";
	if (v->status == TUNE_ST_OK)
		return "yes";
	if (v->status == TUNE_ST_WRONG)
		return "no";
	return "-";
}

/* A figure, or "-" when unknown (NAN) or negative. */
static void cell_ms(struct table *t, double v, const char *fmt)
{
	if (v >= 0)
		table_cell(t, fmt, v);
	else
		table_cell(t, "-");
}

static const char *status_name(const struct tune_doc_variant *v)
{
	return v->status >= 0 && v->status < TUNE_ST_NR ? tune_status_names[v->status] : "error";
}

static int is_winner(const struct tune_doc_kernel *k, const struct tune_doc_variant *v)
{
	return k->has_winner && k->winner.id && v->id && !strcmp(k->winner.id, v->id);
}

/* GB/s: in brackets when over the copy rate (rate_doubt), "est." when the bytes are an estimate. */
static void cell_gbps(struct table *t, const struct tune_doc_kernel *k,
		      const struct tune_doc_variant *v)
{
	cell_ms(t, v->gbps, v->rate_doubt ? "(%.0f)" : !k->bytes_estimate ? "%.0f" : "%.0f est.");
	if (v->rate_doubt)
		table_cell(t, "over copy");
	else
		cell_ms(t, v->gbps > 0 && k->peak_gbps > 0 ? 100 * v->gbps / k->peak_gbps : -1,
			"%.0f%%");
}

void tune_text_table(const struct tune_doc_kernel *k, int compile_only, struct table *t)
{
	size_t i;

	table_columns(t, "id|variant|status|time ms|GB/s|peak|vs base|compile ms|shared B|correct|ISA vs base",
		      "lllrrrrrrll");
	for (i = 0; i < k->nvariants; i++) {
		const struct tune_doc_variant *v = &k->variants[i];

		table_row(t);
		table_cell(t, "%s%s", v->id, is_winner(k, v) ? "*" : "");
		table_cell(t, "%s", v->label);
		table_cell(t, "%s", status_name(v));
		cell_ms(t, v->time_ms, "%.4f");
		cell_gbps(t, k, v);
		cell_ms(t, v->speedup, "%.2fx");
		cell_ms(t, v->compile_ms, "%.0f");
		if (v->shared_bytes >= 0)
			table_cell(t, "%ld", v->shared_bytes);
		else
			table_cell(t, "-");
		table_cell(t, "%s", correct_text(v, compile_only));
		table_cell(t, "%s", v->isa_text && *v->isa_text ? v->isa_text : "-");
	}
}

void tune_text_notes(const struct tune_doc_kernel *k, struct buf *out)
{
	size_t i;
	int doubted = 0;

	for (i = 0; i < k->nvariants; i++) {
		const struct tune_doc_variant *v = &k->variants[i];

		if (v->error) {
			buf_addf(out, "%s %s: %s\n", v->id, status_name(v), v->error);
			if (v->error_explained)
				buf_addf(out, "     known failure: %s\n", v->error_explained);
		}
		else if (v->same_as)
			buf_addf(out, "%s compiled to the same ISA as %s (line info aside)%s\n",
				 v->id, v->same_as, v->status == TUNE_ST_DUPLICATE ? ": not timed" : "");
		/* a doubt is only written for a rate, which only a usable time has */
		if (!doubted && v->rate_doubt) {
			buf_addf(out, "GB/s in brackets is over 105%% of the copy rate, not a fact: %s\n",
				 v->rate_doubt);
			doubted = 1;
		}
	}
}

/*
 * A winner slower than the base with its inputs in L2, beyond the noise:
 * inside a step, where the kernel before it often just wrote its inputs,
 * it may lose, and tko apply leaves it out (docs/apply.md).
 */
static void warm_warning(const struct tune_doc_confirm *c, struct buf *out)
{
	double lo, hi;

	if (!c->has_warm)
		return;
	tune_doc_ci(c->warm.ci95, &lo, &hi);
	if (!(hi < 1))
		return;
	buf_addf(out, "warning: %s is slower than the base when its inputs are in L2 (warm %.3fx "
		 "[%.3f, %.3f] over %ld round%s): inside a step it may lose; tko apply leaves it "
		 "out unless --keep-slower\n", c->warm.variant, c->warm.ratio, lo, hi, c->warm.rounds,
		 plural(c->warm.rounds));
}

/* The confirmation's line (tune/confirm.h), when one ran. */
static void confirm_text(const struct tune_doc_winner *w, struct buf *out)
{
	const struct tune_doc_confirm *c = &w->confirmation;
	const struct tune_doc_config_only *cfg = &c->vs_config_only;
	double lo, hi, blo, bhi;

	if (!w->has_confirmation)
		return;
	buf_addf(out, "confirmation of %s (%s, sweep %.2fx): ", c->candidate, c->candidate_label,
		 c->sweep_speedup);
	tune_doc_ci(c->ci95, &lo, &hi);
	if (c->rounds > 0)
		buf_addf(out, "%.3fx [%.3f, %.3f] over the base in %ld round%s", c->ratio, lo, hi,
			 c->rounds, plural(c->rounds));
	if (c->rounds > 0 && c->has_vs_config_only) {
		tune_doc_ci(cfg->ci95, &lo, &hi);
		tune_doc_ci(cfg->vs_base.ci95, &blo, &bhi);
		buf_addf(out, ", %.3fx [%.3f, %.3f] over the config-only %s (%.3fx [%.3f, %.3f] "
			 "over the base)", cfg->ratio, lo, hi, cfg->id, cfg->vs_base.ratio, blo, bhi);
	}
	if (c->rounds > 0 && c->has_warm) {
		tune_doc_ci(c->warm.ci95, &lo, &hi);
		buf_addf(out, "; warm (no L2 flush) %.3fx [%.3f, %.3f]", c->warm.ratio, lo, hi);
	}
	buf_addf(out, "%s%s: %s\n", c->rounds > 0 ? "" : "not timed",
		 c->accepted == 1 ? "; accepted" : "; not accepted", c->reason);
	warm_warning(c, out);
}

/* What applying the winner takes besides its files, a line each. */
static void apply_text(FILE *fp, const struct tune_doc_winner *w, int md)
{
	long split = tune_doc_split_size(w);

	if (split)
		fprintf(fp, "%sRSPLIT_SIZE is Inductor's codegen choice: apply it with "
			"torch._inductor.config.triton.mix_order_reduction_split_size = %ld "
			"(every mix-order reduction of the graph)\n", md ? "\n" : "", split);
	if (tune_doc_two_pass(w))
		fprintf(fp, "%stwopass is the softmax Inductor emits with "
			"torch._inductor.config.online_softmax = False (TORCHINDUCTOR_ONLINE_SOFTMAX=0): "
			"apply that, or the winner's kernel.py\n", md ? "\n" : "");
}

void tune_text_kernel(FILE *fp, const struct tune_doc_kernel *k, int compile_only, int md)
{
	struct table t = TABLE_INIT;
	struct buf notes = BUF_INIT;

	if (k->plan && !strcmp(k->plan, "refused")) {
		fprintf(fp, "%s%s (%s) on %s: not tuned: %s\n\n", md ? "## " : "", k->kernel,
			k->kind, k->target, k->plan_note);
		return;
	}
	fprintf(fp, "%s%s (%s) on %s: base from %s%s\n", md ? "## " : "", k->kernel,
		k->kind, k->target, k->base_from, md ? "\n" : "");
	tune_text_table(k, compile_only, &t);
	if (md)
		table_print_md(&t, fp);
	else
		table_print(&t, fp);
	tune_text_notes(k, &notes);
	if (notes.len)
		fprintf(fp, "%s%s", md ? "\n" : "", notes.buf);
	if (k->stopped)
		fprintf(fp, "%sstopped at the %s limit with variants left to try\n",
			md ? "\n" : "", k->stopped);
	if (compile_only)
		fprintf(fp, "%scompile-only: no timings; each variant's source and ISA are in %s/variants/\n",
			md ? "\n" : "", k->out_dir);
	else if (k->has_winner)
		fprintf(fp, "%swinner: %s %s; files in %s/winner/\n", md ? "\n" : "",
			k->winner.id, k->winner.label, k->out_dir);
	else
		fprintf(fp, "%sno variant could be timed\n", md ? "\n" : "");
	buf_reset(&notes);
	confirm_text(&k->winner, &notes);
	if (notes.len)
		fprintf(fp, "%s%s", md ? "\n" : "", notes.buf);
	if (k->plan_note)
		fprintf(fp, "%splan: %s\n", md ? "\n" : "", k->plan_note);
	apply_text(fp, &k->winner, md);
	fputc('\n', fp);
	table_release(&t);
	buf_release(&notes);
}

int tune_text_write_md(const char *path, const struct tune_doc *d, struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;
	size_t i;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	fputs("# tko tune\n\n", af.fp);
	for (i = 0; i < d->nkernels; i++)
		tune_text_kernel(af.fp, &d->kernels[i], tune_doc_compile_only(d), 1);
	return atomic_commit(&af, err);
}
