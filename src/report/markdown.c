/*
 * The Markdown report (writer.h): a ranked kernel table, then one section
 * per kernel in rank order (decision and rules first, then the evidence),
 * then autotuning candidates, library calls and what is missing. GitHub
 * flavoured; table cells are escaped with md_escape().
 */
#include <math.h>
#include <string.h>

#include "report/rtext.h"
#include "report/stepview.h"
#include "report/writer.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

static void cell_text(struct table *t, struct buf *b)
{
	table_cell(t, "%s", b->buf);
	buf_reset(b);
}

static void md_begin(FILE *fp, const struct an_run *r)
{
	struct buf b = BUF_INIT;

	fprintf(fp, "# tko report: %s\n\n", r->run);
	fprintf(fp, "- device: %s%s%s%s\n", r->device ? r->device : "unknown",
		r->arch ? " (" : "", r->arch ? r->arch : "", r->arch ? ")" : "");
	rt_peak(&b, r);
	fprintf(fp, "- %s\n", b.buf);
	if (r->command)
		fprintf(fp, "- command: `%s`\n", r->command);
	fprintf(fp, "- evidence read: %ld log%s, %ld kernel module%s, %ld wrapper module%s, %ld ISA"
		" file%s, %ld capture %s, %ld replay result%s, %ld tune result%s\n",
		r->logs, plural(r->logs), r->modules, plural(r->modules), r->wrappers,
		plural(r->wrappers), r->isa_files, plural(r->isa_files), r->capture_dirs,
		plural_word(r->capture_dirs, "directory", "directories"), r->replays, plural(r->replays),
		r->tunes, plural(r->tunes));
	fprintf(fp, "- how shares were computed: %s\n\n", r->share_method);
	buf_release(&b);
}

static void md_table(FILE *fp, const struct an_run *r)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	fputs("## Kernels by share of GPU time\n\n", fp);
	table_columns(&t, "rank|kernel|kind|share|launches|ms/launch|time from|GB/s|"
		      "of copy|decision", "rllrrrlrrl");
	for (i = 0; i < r->nkernels; i++) {
		const struct an_kernel *k = &r->kernels[i];

		table_row(&t);
		rt_long(&b, k->rank);
		cell_text(&t, &b);
		table_cell(&t, "[%s](#%s)", k->id, k->id);
		table_cell(&t, "%s", k->kind != KIND_NONE ? kind_names[k->kind] : "-");
		rt_pct(&b, k->share);
		cell_text(&t, &b);
		table_cell(&t, "%ld", k->launches);
		rt_ms(&b, k->time_ms);
		cell_text(&t, &b);
		table_cell(&t, "%s", k->time_basis != TIME_NONE ? time_basis_names[k->time_basis] : "-");
		rt_rate(&b, k);
		cell_text(&t, &b);
		rt_rate_fraction(&b, k);
		cell_text(&t, &b);
		table_cell(&t, "%s", rt_decision_title(k->decision));
	}
	table_print_md(&t, fp);
	fprintf(fp, "\n%s\n\n", RT_RATE_NOTE);
	table_release(&t);
	buf_release(&b);
}

static void md_rules(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	fputs("Rules that fired (the first decides):\n\n", fp);
	for (i = 0; i < k->nfired; i++) {
		const struct an_fired *f = &k->fired[i];

		rt_evidence(&b, f);
		fprintf(fp, "- `%s` (%s): %s%s%s%s\n", f->rule, decision_name(f->decision), f->why ? f->why : "",
			b.len ? " [" : "", b.buf, b.len ? "]" : "");
		buf_reset(&b);
	}
	fputc('\n', fp);
	buf_release(&b);
}

static void md_origin(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	fputs("**Where it came from.** ", fp);
	if (k->naten) {
		fputs("ATen: ", fp);
		for (i = 0; i < k->naten; i++)
			fprintf(fp, "%s`%s`", i ? ", " : "", k->aten[i]);
		fputs(". ", fp);
	}
	if (k->nnodes) {
		fputs("FX nodes: ", fp);
		for (i = 0; i < k->nnodes; i++)
			fprintf(fp, "%s`%s`", i ? ", " : "", k->nodes[i]);
		fputs(". ", fp);
	}
	fprintf(fp, "Module `%s`", k->module ? k->module : "?");
	if (k->wrapper)
		fprintf(fp, ", launched by `%s`", k->wrapper);
	if (k->graph)
		fprintf(fp, " (graph %s)", k->graph);
	fputs(".\n\n", fp);
	for (i = 0; i < k->norigins; i++) {
		rt_origin(&b, &k->origins[i]);
		fprintf(fp, "- `%s`%s%s%s\n", b.buf, k->origins[i].code ? ": `" : "",
			k->origins[i].code ? k->origins[i].code : "", k->origins[i].code ? "`" : "");
		buf_reset(&b);
	}
	if (k->norigins)
		fputc('\n', fp);
	buf_release(&b);
}

static void md_args(FILE *fp, const struct an_kernel *k)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	if (!k->nargs)
		return;
	table_columns(&t, "argument|type|captured|hints", "llll");
	for (i = 0; i < k->nargs; i++) {
		const struct an_arg *a = &k->args[i];

		table_row(&t);
		table_cell(&t, "%s", a->name);
		table_cell(&t, "%s", a->type ? a->type : "-");
		rt_arg(&b, a);
		cell_text(&t, &b);
		table_cell(&t, "%s", a->hints ? a->hints : "-");
	}
	table_print_md(&t, fp);
	fputc('\n', fp);
	table_release(&t);
	buf_release(&b);
}

static void md_configs(FILE *fp, const struct an_kernel *k)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	if (!k->nconfigs)
		return;
	fprintf(fp, "**Configs** (chosen by %s, %ld timed):\n\n",
		k->chosen_by != AT_METHOD_NONE ? at_method_names[k->chosen_by] : "-",
		k->configs_timed);
	table_columns(&t, "|config|timed by|autotune ms|replay ms|regs|spills|shared B", "lllrrrrr");
	for (i = 0; i < k->nconfigs; i++) {
		const struct an_config *c = &k->configs[i];

		table_row(&t);
		table_cell(&t, "%s", c->chosen ? "**chosen**" : c->failed ? "failed" : "");
		table_cell(&t, "%s%s%s", c->label ? c->label : "", c->label ? ": " : "", c->text);
		table_cell(&t, "%s", NAME_OF(at_method_names, c->method));
		rt_ms(&b, c->time_ms);
		cell_text(&t, &b);
		rt_ms(&b, c->replay_ms);
		cell_text(&t, &b);
		rt_long(&b, c->n_regs);
		cell_text(&t, &b);
		rt_long(&b, c->n_spills);
		cell_text(&t, &b);
		rt_long(&b, c->shared_bytes);
		cell_text(&t, &b);
	}
	table_print_md(&t, fp);
	fputc('\n', fp);
	table_release(&t);
	buf_release(&b);
}

static void md_families(FILE *fp, const struct an_isa *a)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	table_columns(&t, "family|group|count|widths|returning", "llrlr");
	for (i = 0; i < a->nfamilies; i++) {
		const struct an_family *f = &a->families[i];

		table_row(&t);
		table_cell(&t, "%s", f->name);
		table_cell(&t, "%s", f->group);
		table_cell(&t, "%ld", f->count);
		rt_widths(&b, f);
		cell_text(&t, &b);
		rt_long(&b, f->returning);
		cell_text(&t, &b);
	}
	table_print_md(&t, fp);
	fputc('\n', fp);
	table_release(&t);
	buf_release(&b);
}

static void md_lines(FILE *fp, const struct an_isa *a)
{
	struct table t = TABLE_INIT;
	size_t i;

	if (!a->nlines)
		return;
	fputs("Source lines and the memory instructions they became:\n\n", fp);
	table_columns(&t, "line|code|instructions|note", "rlll");
	for (i = 0; i < a->nlines; i++) {
		const struct an_srcline *l = &a->lines[i];

		table_row(&t);
		table_cell(&t, "%ld", l->line);
		table_cell(&t, "%s%s%s", l->code ? "`" : "", l->code ? l->code : "-", l->code ? "`" : "");
		table_cell(&t, "%s", l->ops);
		table_cell(&t, "%s%s%s", l->atomic ? "atomic" : "", l->atomic && l->narrow ? ", " : "",
			   l->narrow ? "narrow (32-bit or less)" : "");
	}
	table_print_md(&t, fp);
	fputc('\n', fp);
	table_release(&t);
}

static void md_isa(FILE *fp, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	rt_isa(&b, k);
	fprintf(fp, "**ISA.** %s.\n\n", b.buf);
	buf_reset(&b);
	rt_resources(&b, k);
	fprintf(fp, "**Resources.** %s.\n\n", b.buf);
	buf_release(&b);
	if (!k->isa.file)
		return;
	md_families(fp, &k->isa);
	md_lines(fp, &k->isa);
	for (i = 0; i < k->isa.nfindings; i++)
		fprintf(fp, "- %s\n", k->isa.findings[i]);
	if (k->isa.nfindings)
		fputc('\n', fp);
}

static void md_gap_list(FILE *fp, const struct an_gap *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(fp, "- %s%s%s%s\n", g[i].what, g[i].command ? ": `" : "",
			g[i].command ? g[i].command : "", g[i].command ? "`" : "");
	if (n)
		fputc('\n', fp);
}

static void md_kernel(FILE *fp, const struct an_run *r, const struct an_kernel *k)
{
	struct buf b = BUF_INIT;

	if (k->rank > 0)
		fprintf(fp, "## <a id=\"%s\"></a>%ld. %s\n\n", k->id, k->rank, k->id);
	else
		fprintf(fp, "## <a id=\"%s\"></a>unranked: %s\n\n", k->id, k->id);
	fprintf(fp, "**Decision: %s.** %s.\n\n", rt_decision_title(k->decision), k->action);
	md_rules(fp, k);
	md_origin(fp, k);
	rt_time(&b, k);
	fprintf(fp, "**Time.** %s.\n\n", b.buf);
	buf_reset(&b);
	rt_bytes(&b, k, r);
	fprintf(fp, "**Bytes.** %s.\n\n", b.buf);
	buf_reset(&b);
	rt_hints(&b, k);
	fprintf(fp, "**Hints.** %s.\n\n", b.buf);
	buf_reset(&b);
	md_args(fp, k);
	md_configs(fp, k);
	md_isa(fp, k);
	if (k->tune.file) {
		const char *mode = NAME_OF(tune_mode_names, k->tune.mode);

		fprintf(fp, "**tko tune** (%s, %s): winner %s", mode ? mode : "-",
			k->tune.target ? k->tune.target : "-", k->tune.winner ? k->tune.winner : "none");
		if (!isnan(k->tune.speedup))
			fprintf(fp, ", %.2fx", k->tune.speedup);
		fprintf(fp, " (%ld variant%s, %ld correct; `%s`).\n\n", k->tune.variants,
			plural(k->tune.variants), k->tune.correct, k->tune.file);
	}
	if (k->ngaps) {
		fputs("**Missing evidence:**\n\n", fp);
		md_gap_list(fp, k->gaps, k->ngaps);
	}
	buf_release(&b);
}

static void md_others(FILE *fp, const struct an_run *r)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i;

	stepview_markdown(fp, r);
	if (r->ncandidates) {
		fputs("## Autotuning candidates (never launched by the model)\n\n", fp);
		table_columns(&t, "name|what|instances|configs timed|fastest ms", "llrrr");
		for (i = 0; i < r->ncandidates; i++) {
			const struct an_candidate *c = &r->candidates[i];

			table_row(&t);
			table_cell(&t, "%s", c->name);
			table_cell(&t, "%s", c->why);
			table_cell(&t, "%ld", c->count);
			table_cell(&t, "%ld", c->timed);
			rt_ms(&b, c->best_ms);
			cell_text(&t, &b);
		}
		table_print_md(&t, fp);
		fputc('\n', fp);
		table_release(&t);
	}
	if (r->nlibcalls) {
		t = (struct table)TABLE_INIT;
		fputs("## Library calls (not Triton kernels, not timed)\n\n", fp);
		table_columns(&t, "call|graph|wrapper|first line|call sites", "lllrr");
		for (i = 0; i < r->nlibcalls; i++) {
			const struct an_libcall *c = &r->libcalls[i];

			table_row(&t);
			table_cell(&t, "%s", c->op);
			table_cell(&t, "%s", c->graph ? c->graph : "-");
			table_cell(&t, "%s", c->wrapper);
			table_cell(&t, "%ld", c->line);
			table_cell(&t, "%ld", c->calls);
		}
		table_print_md(&t, fp);
		fputc('\n', fp);
		table_release(&t);
	}
	buf_release(&b);
}

static void md_gaps(FILE *fp, const struct an_run *r)
{
	size_t i;

	if (r->ngaps) {
		fputs("## Missing evidence (whole run)\n\n", fp);
		md_gap_list(fp, r->gaps, r->ngaps);
	}
	if (r->nnotes) {
		fputs("## Notes\n\n", fp);
		for (i = 0; i < r->nnotes; i++)
			fprintf(fp, "- %s\n", r->notes[i]);
		fputc('\n', fp);
	}
	fprintf(fp, "_Written by tko %s. Rules: docs/rules.md._\n", r->tko_version);
}

const struct report_writer report_markdown = {
	"markdown", "md", md_begin, md_table, NULL, md_kernel, md_others, md_gaps, NULL,
};
