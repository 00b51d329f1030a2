/* Terminal and Markdown views of the autotune model (see autotune_text.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/autotune_launch.h"
#include "parse/tconfig.h"
#include "report/autotune_text.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

void at_config_brief(struct buf *out, const struct at_config *c)
{
	size_t start = out->len, i;
	long v;

#define SEP() do { if (out->len > start) buf_addch(out, ' '); } while (0)
	if (c->label)
		buf_adds(out, c->label);
	for (i = 0; i < c->nkw; i++) {
		if (span_long(c->kw[i].value, strlen(c->kw[i].value), &v) < 0)
			continue;
		SEP();
		buf_addf(out, "%s=%ld", c->kw[i].name, v);
	}
	if (c->num_warps >= 0) {
		SEP();
		buf_addf(out, "w%ld", c->num_warps);
	}
	if (c->num_stages >= 0) {
		SEP();
		buf_addf(out, "s%ld", c->num_stages);
	}
	if (c->maxnreg >= 0) {
		SEP();
		buf_addf(out, "r%ld", c->maxnreg);
	}
#undef SEP
	if (out->len == start && c->text)
		buf_adds(out, c->text);
}

static void cell_ms(struct table *t, double ms)
{
	if (isinf(ms))
		table_cell(t, "failed");
	else if (isnan(ms))
		table_cell(t, "-");
	else
		table_cell(t, ms < 1 ? "%.6f" : ms < 1000 ? "%.4f" : "%.1f", ms);
}

static void cell_long(struct table *t, long v)
{
	if (v < 0)
		table_cell(t, "-");
	else
		table_cell(t, "%ld", v);
}

static void cell_config(struct table *t, const struct at_config *c)
{
	struct buf b = BUF_INIT;

	at_config_brief(&b, c);
	table_cell(t, "%s", b.len ? b.buf : "-");
	buf_release(&b);
}

static void kernel_row(struct table *t, const struct at_kernel *k)
{
	enum at_method how = AT_BENCHMARK;
	const struct at_config *best = at_kernel_best(k, &how);
	char *id = at_kernel_id(k);

	table_row(t);
	table_cell(t, "%s", id);
	table_cell(t, "%s", k->kind ? k->kind : "-");
	cell_long(t, k->num_configs);
	table_cell(t, "%zu", at_kernel_timed(k));
	if (best) {
		cell_config(t, best);
		cell_ms(t, best->time_ms);
		cell_long(t, best->n_regs);
		cell_long(t, best->n_spills);
		cell_long(t, best->shared_bytes);
		table_cell(t, "%s", at_method_name(how));
	} else {
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
	}
	cell_long(t, k->launches);
	free(id);
}

static void print_table(FILE *fp, const struct table *t, int md)
{
	if (md)
		table_print_md(t, fp);
	else
		table_print(t, fp);
}

static void print_kernels(FILE *fp, const struct autotune_set *s, int md)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "kernel|kind|configs|timed|best config|best ms|regs|spills|shared|chosen by|launches",
		      "llrrlrrrrlr");
	for (i = 0; i < s->nr; i++)
		kernel_row(&t, s->kernels[i]);
	print_table(fp, &t, md);
	table_release(&t);
}

static const char *formats_text(const struct at_input *in, struct buf *b)
{
	size_t i;

	for (i = 1; i < AT_FMT_COUNT; i++)
		if (in->formats & (1u << i)) {
			if (b->len)
				buf_addch(b, '+');
			buf_adds(b, at_format_name((enum at_format)i));
		}
	return b->len ? b->buf : "unrecognised";
}

static void print_inputs(FILE *fp, const struct autotune_set *s, int md)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "input|format|lines|used|ignored|malformed|note", "llrrrrl");
	for (i = 0; i < s->ninputs; i++) {
		const struct at_input *in = &s->inputs[i];
		struct buf f = BUF_INIT, note = BUF_INIT;
		size_t j, keep = sizeof(in->bad_lines) / sizeof(in->bad_lines[0]);

		table_row(&t);
		table_cell(&t, "%s", in->path);
		table_cell(&t, "%s", formats_text(in, &f));
		table_cell(&t, "%zu", in->lines);
		table_cell(&t, "%zu", in->used);
		table_cell(&t, "%zu", in->ignored);
		table_cell(&t, "%zu", in->malformed);
		if (in->malformed) {
			buf_adds(&note, "malformed at line");
			for (j = 0; j < in->malformed && j < keep; j++)
				buf_addf(&note, "%s %zu", j ? "," : "", in->bad_lines[j]);
			if (in->malformed > keep)
				buf_adds(&note, ", ...");
		}
		if (in->truncated)
			buf_addf(&note, "%slast line cut off", note.len ? "; " : "");
		if (in->unknown_events || in->unknown_fields)
			buf_addf(&note, "%s%zu unknown event%s, %zu unknown field%s",
				 note.len ? "; " : "", in->unknown_events, plural(in->unknown_events),
				 in->unknown_fields, plural(in->unknown_fields));
		if (in->note)
			buf_addf(&note, "%s%s", note.len ? "; " : "", in->note);
		table_cell(&t, "%s", note.len ? note.buf : "");
		buf_release(&f);
		buf_release(&note);
	}
	print_table(fp, &t, md);
	table_release(&t);
}

static void print_tuning(FILE *fp, const struct autotune_set *s,
			 const struct at_tuning *tu, size_t n, int md)
{
	struct table t = TABLE_INIT;
	size_t i;

	fprintf(fp, "%stuning %zu: %s%s", md ? "### " : "", n, at_method_name(tu->method),
		tu->complete ? "" : " (incomplete)");
	if (!isnan(tu->elapsed_ms))
		fprintf(fp, ", %.1f ms to tune", tu->elapsed_ms);
	if (!isnan(tu->speedup))
		fprintf(fp, ", %.3fx over its baseline", tu->speedup);
	if (tu->num_choices >= 0)
		fprintf(fp, ", %ld choice%s", tu->num_choices, plural(tu->num_choices));
	fprintf(fp, " (%s:%zu", s->inputs[tu->src.file].path, tu->src.line);
	if (tu->twin_src.fmt != AT_FMT_NONE)
		fprintf(fp, "; also told by %s:%zu", s->inputs[tu->twin_src.file].path,
			tu->twin_src.line);
	fputs(")\n", fp);
	if (tu->key)
		fprintf(fp, "%skey: %s\n", md ? "\n" : "", tu->key);
	if (md)
		fputc('\n', fp);
	table_columns(&t, " |config|time ms|% of best|regs|spills|shared|line", "llrrrrrr");
	for (i = 0; i < tu->nr; i++) {
		const struct at_config *c = &tu->configs[i];

		table_row(&t);
		table_cell(&t, "%s", (long)i == tu->best ? "*" : "");
		cell_config(&t, c);
		cell_ms(&t, c->time_ms);
		if (isnan(c->pct_of_best))
			table_cell(&t, "-");
		else
			table_cell(&t, "%.1f", c->pct_of_best);
		cell_long(&t, c->n_regs);
		cell_long(&t, c->n_spills);
		cell_long(&t, c->shared_bytes);
		table_cell(&t, "%zu", c->src.line);
	}
	print_table(fp, &t, md);
	fputc('\n', fp);
	table_release(&t);
}

/* One estimate of the capture's, "-" when it printed nan. */
static void estimate(struct buf *b, const char *what, double v, const char *fmt_unit)
{
	buf_addf(b, "%s%s ", b->len ? ", " : "", what);
	if (isnan(v))
		buf_adds(b, "-");
	else
		buf_addf(b, fmt_unit, v);
}

/* The arguments and estimates a seed-skill log printed for the kernel. */
static void print_launch(FILE *fp, const struct autotune_set *s,
			 const struct at_launch *l, int md)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	fprintf(fp, "%sarguments (%s:%zu):\n%s", md ? "### " : "",
		s->inputs[l->src.file].path, l->src.line, md ? "\n" : "");
	table_columns(&t, "argument|shape|dtype|stride|value", "lllll");
	for (i = 0; i < l->nargs; i++) {
		const struct at_arg *a = &l->args[i];

		table_row(&t);
		table_cell(&t, "%s", a->name);
		table_cell(&t, "%s", a->shape ? a->shape : "-");
		table_cell(&t, "%s", a->dtype ? a->dtype : "-");
		table_cell(&t, "%s", a->stride ? a->stride : "-");
		table_cell(&t, "%s", a->value ? a->value : "-");
	}
	print_table(fp, &t, md);
	table_release(&t);
	estimate(&b, "tensor bytes", l->total_bytes / 1e6, "%.2f MB");
	estimate(&b, "best", l->best_ms, "%.4f ms");
	estimate(&b, "footprint rate", l->rate_gbps, "%.2f GB/s");
	estimate(&b, "hardware peak (triton.testing.get_dram_gbps)", l->peak_gbps, "%.2f GB/s");
	estimate(&b, "ratio (not HBM utilization)", l->peak_pct, "%.1f%%");
	fprintf(fp, "%scapture's estimates: %s\n", md ? "\n" : "", b.buf);
	if (l->inputs_saved)
		fprintf(fp, "%sinputs saved: %s\n", md ? "- " : "", l->inputs_saved);
	if (l->run_standalone)
		fprintf(fp, "%srun standalone: %s\n", md ? "- " : "", l->run_standalone);
	fputc('\n', fp);
	buf_release(&b);
}

static void print_detail(FILE *fp, const struct autotune_set *s,
			 const struct at_kernel *k, int md)
{
	char *id = at_kernel_id(k);
	const char *bullet = md ? "- " : "";
	size_t i;

	fprintf(fp, "%s%s\n%s", md ? "## " : "kernel: ", id, md ? "\n" : "");
	fprintf(fp, "%skind: %s\n", bullet, k->kind ? k->kind : "unknown");
	if (k->source_file)
		fprintf(fp, "%ssource: %s%s%s%s\n", bullet, k->source_file,
			k->source_local ? " (here: " : "",
			k->source_local ? k->source_local : "",
			k->source_local ? ")" : "");
	if (k->num_configs >= 0)
		fprintf(fp, "%sconfigs declared: %ld\n", bullet, k->num_configs);
	if (k->launches >= 0)
		fprintf(fp, "%slaunches: %ld\n", bullet, k->launches);
	for (i = 0; i < k->nerrors; i++)
		fprintf(fp, "%snote: %s\n", bullet, k->errors[i].text);
	fputc('\n', fp);
	if (k->launch)
		print_launch(fp, s, k->launch, md);
	for (i = 0; i < k->ntunings; i++)
		print_tuning(fp, s, k->tunings[i], i + 1, md);
	free(id);
}

void autotune_text_print(FILE *fp, const struct autotune_set *s,
			 const struct at_kernel *only, int md)
{
	size_t i;

	if (md)
		fputs("# tko summarize\n\n## Kernels\n\n", fp);
	if (only) {
		print_detail(fp, s, only, md);
	} else {
		print_kernels(fp, s, md);
		if (md) {
			fputc('\n', fp);
			for (i = 0; i < s->nr; i++)
				if (s->kernels[i]->ntunings)
					print_detail(fp, s, s->kernels[i], md);
		}
	}
	fputs(md ? "## Inputs\n\n" : "\n", fp);
	print_inputs(fp, s, md);
	for (i = 0; i < s->nerrors; i++)
		fprintf(fp, "%snote: %s\n", md ? "- " : "", s->errors[i].text);
}
