/*
 * tko tune's text: a kernel's table of variants with its notes, for the
 * terminal and for --md (see tune_text.h).
 */
#include <stdlib.h>

#include "report/tune_text.h"
#include "model/errsig.h"
#include "tune/output.h"
#include "tune/winner.h"
#include "util/file.h"
#include "banned.h"

static const char *correct_text(const struct tune_result *r, int compile_only)
{
	if (compile_only || r->status == TUNE_ST_COMPILED)
		return "n/a";
	if (r->status == TUNE_ST_OK)
		return "yes";
	if (r->status == TUNE_ST_WRONG)
		return "no";
	return "-";
}

static void cell_ms(struct table *t, double v, const char *fmt)
{
	if (v >= 0)
		table_cell(t, fmt, v);
	else
		table_cell(t, "-");
}

void tune_text_table(const struct tune_sweep *s, struct table *t)
{
	struct buf cell = BUF_INIT;
	size_t i;
	double b = tune_output_base_ms(s);

	table_columns(t, "id|variant|status|time ms|GB/s|peak|vs base|compile ms|shared B|correct|ISA vs base",
		      "lllrrrrrrll");
	for (i = 0; i < s->plan.nr; i++) {
		const struct tune_variant *v = &s->plan.v[i];
		const struct tune_result *r = (i < s->res.nr ? &s->res.r[i] : NULL);
		int ok = r && tune_result_usable(r);
		double g = ok ? tune_output_gbps(s, r->time_ms) : -1;
		char *why = tune_output_doubt(s, g);

		if (!v->done || !r)
			continue;
		table_row(t);
		table_cell(t, "v%03zu%s", i, (long)i == s->winner ? "*" : "");
		table_cell(t, "%s", v->label);
		table_cell(t, "%s", tune_status_name(r->status));
		cell_ms(t, r->time_ms, "%.4f");
		cell_ms(t, g, why ? "(%.0f)" : s->traffic.note && !s->traffic.estimate ? "%.0f" : "%.0f est.");
		if (why)
			table_cell(t, "over copy");
		else
			cell_ms(t, g > 0 && s->peak_gbps > 0 ? 100 * g / s->peak_gbps : -1, "%.0f%%");
		free(why);
		cell_ms(t, ok && b > 0 ? b / r->time_ms : -1, "%.2fx");
		cell_ms(t, r->compile_ms, "%.0f");
		if (r->shared_bytes >= 0)
			table_cell(t, "%ld", r->shared_bytes);
		else
			table_cell(t, "-");
		table_cell(t, "%s", correct_text(r, s->o->compile_only));
		buf_reset(&cell);
		tune_output_isa_cell(s, r, &cell);
		table_cell(t, "%s", cell.len ? cell.buf : "-");
	}
	buf_release(&cell);
}

void tune_text_notes(const struct tune_sweep *s, struct buf *out)
{
	size_t i;
	int doubted = 0;

	for (i = 0; i < s->plan.nr && i < s->res.nr; i++) {
		const struct tune_result *r = &s->res.r[i];

		if (!s->plan.v[i].done)
			continue;
		if (r->error) {
			const struct errsig *sig = errsig_find(r->error, r->traceback);

			buf_addf(out, "v%03zu %s: %s\n", i, tune_status_name(r->status), r->error);
			if (sig)
				buf_addf(out, "     known failure: %s\n", sig->why);
		}
		else if (r->same_as)
			buf_addf(out, "v%03zu compiled to the same ISA as %s (line info aside)%s\n",
				 i, r->same_as, r->status == TUNE_ST_DUPLICATE ? ": not timed" : "");
		if (!doubted && tune_result_usable(r)) {
			char *why = tune_output_doubt(s, tune_output_gbps(s, r->time_ms));

			if (why)
				buf_addf(out, "GB/s in brackets is over 105%% of the copy rate, not a fact: %s\n",
					 why);
			doubted = why != NULL;
			free(why);
		}
	}
}

void tune_text_kernel(FILE *fp, const struct tune_sweep *s, int md)
{
	struct table t = TABLE_INIT;
	struct buf notes = BUF_INIT;
	const struct tune_variant *w = s->winner >= 0 ? &s->plan.v[s->winner] : NULL;
	int split = tune_winner_split(s, s->winner);

	if (s->refused) {
		fprintf(fp, "%s%s (%s) on %s: not tuned: %s\n\n", md ? "## " : "", s->k.name,
			tune_kind_name(s->k.kind), s->arch->name, s->refused);
		return;
	}
	fprintf(fp, "%s%s (%s) on %s: base from %s%s\n", md ? "## " : "", s->k.name,
		tune_kind_name(s->k.kind), s->arch->name, s->base_note, md ? "\n" : "");
	tune_text_table(s, &t);
	if (md)
		table_print_md(&t, fp);
	else
		table_print(&t, fp);
	tune_text_notes(s, &notes);
	if (notes.len)
		fprintf(fp, "%s%s", md ? "\n" : "", notes.buf);
	if (s->plan.stop_reason)
		fprintf(fp, "%sstopped at the %s limit with variants left to try\n",
			md ? "\n" : "", s->plan.stop_reason);
	if (s->o->compile_only)
		fprintf(fp, "%scompile-only: no timings; each variant's source and ISA are in %s/variants/\n",
			md ? "\n" : "", s->out_dir);
	else if (w)
		fprintf(fp, "%swinner: v%03ld %s; files in %s/winner/\n", md ? "\n" : "",
			s->winner, w->label, s->out_dir);
	else
		fprintf(fp, "%sno variant could be timed\n", md ? "\n" : "");
	buf_reset(&notes);
	tune_confirm_text(s, &notes);
	if (notes.len)
		fprintf(fp, "%s%s", md ? "\n" : "", notes.buf);
	if (s->plan_note)
		fprintf(fp, "%splan: %s\n", md ? "\n" : "", s->plan_note);
	if (split)
		fprintf(fp, "%sRSPLIT_SIZE is Inductor's codegen choice: apply it with "
			"torch._inductor.config.triton.mix_order_reduction_split_size = %d "
			"(every mix-order reduction of the graph)\n", md ? "\n" : "", split);
	if (tune_winner_two_pass(s, s->winner))
		fprintf(fp, "%stwopass is the softmax Inductor emits with "
			"torch._inductor.config.online_softmax = False (TORCHINDUCTOR_ONLINE_SOFTMAX=0): "
			"apply that, or the winner's kernel.py\n", md ? "\n" : "");
	fputc('\n', fp);
	table_release(&t);
	buf_release(&notes);
}

int tune_text_write_md(const char *path, const struct tune_sweep *s, const int *ran, size_t n,
		       struct buf *err)
{
	struct atomic_file af = ATOMIC_FILE_INIT;
	size_t i;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	fputs("# tko tune\n\n", af.fp);
	for (i = 0; i < n; i++)
		if (ran[i])
			tune_text_kernel(af.fp, &s[i], 1);
	return atomic_commit(&af, err);
}
