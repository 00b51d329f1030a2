/*
 * Human-readable output of an isa_result: an aligned terminal view and
 * a Markdown document, built from the same tables (util/table.h). Several
 * kernels get a summary table; one kernel (or --details) gets its
 * resources, families with widths, source lines and findings.
 */
#include <string.h>

#include "report/isa_text.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

struct out {
	FILE *fp;	/* where to write */
	int md;		/* Markdown instead of terminal text */
};

static void print_table(const struct out *o, struct table *t)
{
	if (o->md)
		table_print_md(t, o->fp);
	else
		table_print(t, o->fp);
	table_release(t);
}

static void heading(const struct out *o, int level, const char *text)
{
	if (o->md)
		fprintf(o->fp, "\n%.*s %s\n\n", level, "####", text);
	else
		fprintf(o->fp, "\n%s\n", text);
}

static void resources(const struct out *o, const struct isa_kernel *k)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "resource|value|from", "lrl");
	for (i = 0; i < ISA_RES_NR; i++) {
		if (k->res[i].src == ISA_SRC_NONE)
			continue;
		table_row(&t);
		table_cell(&t, "%s", isa_res_info[i].label);
		table_cell(&t, "%lld", k->res[i].value);
		table_cell(&t, "%s", isa_src_name(k->res[i].src));
	}
	if (table_rows(&t)) {
		heading(o, 3, "Resources");
		print_table(o, &t);
	} else {
		table_release(&t);
	}
}

static void family_widths(struct buf *b, unsigned fam, const struct isa_family_count *c)
{
	unsigned s;

	for (s = 0; s < ISA_SLOT_NR; s++)
		if (c->slot[s])
			buf_addf(b, "%s%s%s: %llu", b->len ? ", " : "", isa_slots[s].name,
				 isa_slots[s].counter ? "" : "-bit",
				 (unsigned long long)c->slot[s]);
	if (isa_families[fam].group == ISA_GROUP_ATOMIC)
		buf_addf(b, "%s%llu return a value", b->len ? "; " : "",
			 (unsigned long long)c->returning);
}

static void families(const struct out *o, const struct isa_kernel *k)
{
	struct table t = TABLE_INIT;
	unsigned fam;

	table_columns(&t, "family|count|widths / counters", "lrl");
	for (fam = 0; fam < ISA_FAM_NR; fam++) {
		struct buf b = BUF_INIT;

		if (!k->fam[fam].count)
			continue;
		family_widths(&b, fam, &k->fam[fam]);
		table_row(&t);
		table_cell(&t, "%s", isa_families[fam].name);
		table_cell(&t, "%llu", (unsigned long long)k->fam[fam].count);
		table_cell(&t, "%s", b.buf);
		buf_release(&b);
	}
	heading(o, 3, "Instruction families");
	if (table_rows(&t))
		print_table(o, &t);
	else {
		table_release(&t);
		fprintf(o->fp, "%sno memory, atomic, matrix or sync instructions\n",
			o->md ? "" : "  ");
	}
}

static void source_lines(const struct out *o, const struct isa_file_result *f,
			 const struct isa_kernel *k)
{
	size_t i;
	int several = f->srcfiles_nr > 1;

	heading(o, 3, "Source lines");
	if (!k->lines_nr) {
		fprintf(o->fp, "%sno line information (no .loc / line info in the input)\n",
			o->md ? "" : "  ");
		return;
	}
	if (!several && f->srcfiles_nr)
		fprintf(o->fp, "%s%s\n", o->md ? "File: " : "  ", f->srcfiles[0]);
	for (i = 0; i < k->lines_nr; i++) {
		const struct isa_srcline *l = &k->lines[i];
		int first = !i || l->file != k->lines[i - 1].file ||
			    l->line != k->lines[i - 1].line;

		if (first) {
			const char *path = isa_srcfile(f, l->file);

			fputs(i ? "\n" : "", o->fp);
			fputs(o->md ? "- " : "  ", o->fp);
			if (several && path)
				fprintf(o->fp, "%s:", path_base(path));
			fprintf(o->fp, l->line ? "line %u:" : "line %u (compiler-generated):",
				l->line);
		}
		fprintf(o->fp, "%s %llu %s", first ? "" : ",",
			(unsigned long long)l->count, f->ops[l->op].name);
	}
	fputc('\n', o->fp);
	if (k->unattributed)
		fprintf(o->fp, "%s%llu without a source line\n", o->md ? "\n" : "  ",
			(unsigned long long)k->unattributed);
}

static void findings(const struct out *o, const struct isa_kernel *k)
{
	size_t i;

	heading(o, 3, "Findings");
	for (i = 0; i < k->findings_nr; i++)
		fprintf(o->fp, "%s%s %s: %s\n", o->md ? "- " : "  ",
			k->findings[i].severity ? k->findings[i].severity : "-",
			k->findings[i].id, k->findings[i].message);
	if (!k->findings_nr)
		fprintf(o->fp, "%snone\n", o->md ? "" : "  ");
}

/* The rules that fired on the kernel alone (docs/rules.md), when any did. */
static void rules(const struct out *o, const struct isa_kernel *k)
{
	size_t i;

	if (!k->rules_nr)
		return;
	heading(o, 3, "Rules");
	for (i = 0; i < k->rules_nr; i++)
		fprintf(o->fp, "%s%s (%s): %s%s%s\n", o->md ? "- " : "  ", k->rules[i].rule,
			k->rules[i].decision, k->rules[i].why, k->rules[i].knobs ? "; try " : "",
			k->rules[i].knobs ? k->rules[i].knobs : "");
}

static void notes(const struct out *o, const struct isa_file_result *f)
{
	size_t i;

	for (i = 0; i < f->warnings_nr; i++)
		fprintf(o->fp, "%swarning: %s\n", o->md ? "- " : "  ", f->warnings[i]);
	for (i = 0; i < f->notes_nr; i++)
		fprintf(o->fp, "%snote: %s\n", o->md ? "- " : "  ", f->notes[i]);
}

static void details(const struct out *o, const struct isa_file_result *f,
		    const struct isa_kernel *k)
{
	struct buf h = BUF_INIT;

	buf_addf(&h, "%s (%s, %s, %s)", k->name, k->is_kernel ? "kernel" : "function",
		 isa_kind_name(f->isa), k->arch ? k->arch : "arch unknown");
	if (o->md)
		fprintf(o->fp, "\n## %s\n\n", h.buf);
	else
		fprintf(o->fp, "%s\n", h.buf);
	fprintf(o->fp, "%s%s (%s%s%s), %llu instruction%s\n", o->md ? "" : "  ", f->path,
		f->format, f->via ? ", via " : "", f->via ? f->via : "",
		(unsigned long long)k->instructions, plural((long long)k->instructions));
	if (o->md && (f->notes_nr || f->warnings_nr))
		fputc('\n', o->fp);
	notes(o, f);
	resources(o, k);
	families(o, k);
	source_lines(o, f, k);
	findings(o, k);
	rules(o, k);
	buf_release(&h);
}

static uint64_t group_count(const struct isa_kernel *k, enum isa_group g)
{
	uint64_t n = 0;
	unsigned fam;

	for (fam = 0; fam < ISA_FAM_NR; fam++)
		if (isa_families[fam].group == g)
			n += k->fam[fam].count;
	return n;
}

static void summary_row(struct table *t, const struct isa_file_result *f,
			const struct isa_kernel *k)
{
	uint64_t wide, total = isa_global_ops(k, &wide, NULL);
	const struct isa_value *regs = f->isa == ISA_AMDGCN ? &k->res[ISA_RES_VGPRS] :
				       &k->res[ISA_RES_REGISTERS];
	const struct isa_value *sp = &k->res[f->isa == ISA_AMDGCN ? ISA_RES_VGPR_SPILLS :
					      ISA_RES_LOCAL_BYTES];
	const struct isa_value *occ = &k->res[ISA_RES_OCCUPANCY];

	table_row(t);
	table_cell(t, "%s", k->name);
	table_cell(t, "%s", k->is_kernel ? "kernel" : "function");
	table_cell(t, "%s", isa_kind_name(f->isa));
	table_cell(t, "%s", k->arch ? k->arch : "?");
	table_cell(t, "%llu", (unsigned long long)k->instructions);
	table_cell(t, "%llu", (unsigned long long)total);
	if (total)
		table_cell(t, "%llu%%", (unsigned long long)((wide * 100 + total / 2) / total));
	else
		table_cell(t, "-");
	table_cell(t, "%llu", (unsigned long long)group_count(k, ISA_GROUP_ATOMIC));
	table_cell(t, "%llu", (unsigned long long)group_count(k, ISA_GROUP_MATRIX));
	if (regs->src != ISA_SRC_NONE)
		table_cell(t, "%lld", regs->value);
	else
		table_cell(t, "?");
	if (sp->src != ISA_SRC_NONE)
		table_cell(t, "%lld", sp->value);
	else
		table_cell(t, "?");
	if (occ->src != ISA_SRC_NONE)
		table_cell(t, "%lld", occ->value);
	else
		table_cell(t, "?");
	table_cell(t, "%s", path_base(f->path));
}

static size_t kernel_total(const struct isa_result *res)
{
	size_t i, n = 0;

	for (i = 0; i < res->files_nr; i++)
		n += res->files[i]->kernels_nr;
	return n;
}

static void render(const struct out *o, const struct isa_result *res, int all)
{
	size_t i, j, n = kernel_total(res);
	struct table t = TABLE_INIT;

	if (o->md)
		fputs("# tko isa\n", o->fp);
	if (n > 1) {
		if (o->md)
			fputs("\n", o->fp);
		table_columns(&t, "symbol|kind|isa|arch|instr|global ld/st|128-bit|atomics|"
			      "matrix|VGPRs/regs|spills|occupancy|file", "lllllrrrrrrrl");
		for (i = 0; i < res->files_nr; i++)
			for (j = 0; j < res->files[i]->kernels_nr; j++)
				summary_row(&t, res->files[i], res->files[i]->kernels[j]);
		print_table(o, &t);
	}
	if (n > 1 && !all)
		return;
	for (i = 0; i < res->files_nr; i++)
		for (j = 0; j < res->files[i]->kernels_nr; j++) {
			if (!o->md && (n > 1 || i || j))
				fputc('\n', o->fp);
			details(o, res->files[i], res->files[i]->kernels[j]);
		}
}

void isa_render_text(FILE *fp, const struct isa_result *res, int details_all)
{
	struct out o = { fp, 0 };

	render(&o, res, details_all);
}

void isa_render_md(FILE *fp, const struct isa_result *res)
{
	struct out o = { fp, 1 };

	render(&o, res, 1);
}
