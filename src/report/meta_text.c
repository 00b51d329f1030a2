/* Terminal tables for `tko meta` (see meta_text.h). */
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "parse/pylit_json.h"
#include "report/meta_text.h"
#include "util/buf.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

/* The summary's tl.* columns: header, then the ops counted under it. */
static const struct {
	const char *head;
	const char *ops[3];
} op_columns[] = {
	{ "atomic", { "tl.atomic_", NULL } },
	{ "assume", { "tl.assume", NULL } },
	{ "mult_of", { "tl.multiple_of", NULL } },
	{ "max_contig", { "tl.max_contiguous", NULL } },
	{ "where", { "tl.where", NULL } },
	{ "dot", { "tl.dot", "tl.dot_scaled", NULL } },
};

/* "d6/cd6tammrytol….py" for a long Inductor cache path: enough to tell files apart. */
static void short_path(struct buf *out, const char *path)
{
	size_t n = strlen(path), base = n, dir, stem;

	while (base > 0 && path[base - 1] != '/')
		base--;
	dir = base ? base - 1 : 0;
	while (dir > 0 && path[dir - 1] != '/')
		dir--;
	buf_add(out, path + dir, base - dir);
	stem = n - base;
	if (stem > 24 && !strcmp(path + n - 3, ".py")) {
		buf_add(out, path + base, 12);
		buf_adds(out, "\xe2\x80\xa6.py");
	} else {
		buf_adds(out, path + base);
	}
}

/* A spec ending in '_' ("tl.atomic_") matches every op it starts; others match exactly. */
static int op_matches(const char *op, const char *spec)
{
	size_t n = strlen(spec);

	return spec[n - 1] == '_' ? !strncmp(op, spec, n) : !strcmp(op, spec);
}

static size_t count_ops(const struct meta_kernel *k, const char *const *ops)
{
	const char *const *op;
	size_t i, n = 0;

	for (i = 0; i < k->nuses; i++)
		for (op = ops; *op; op++)
			n += op_matches(k->uses[i].op, *op);
	return n;
}

/* "2/3": pointers carrying hint `name` out of all pointers; "?" when hints are unknown. */
static void hint_cell(struct table *t, const struct meta_kernel *k, const char *name)
{
	size_t i, ptrs = 0, with = 0;

	for (i = 0; i < k->nargs; i++)
		if (k->args[i].pointer == 1) {
			ptrs++;
			with += meta_arg_hint(&k->args[i], name) != 0;
		}
	if (!k->hints_known)
		table_cell(t, "?");
	else
		table_cell(t, "%zu/%zu", with, ptrs);
}

static void device_text(struct buf *out, const struct meta_kernel *k)
{
	const struct meta_device *d = &k->device;

	if (!d->backend && !d->arch) {
		buf_adds(out, "-");
		return;
	}
	buf_addf(out, "%s %s", d->backend ? d->backend : "?", d->arch ? d->arch : "?");
}

static void memory_cell(struct table *t, const struct meta_kernel *k)
{
	size_t i, loads = 0, stores = 0, masked = 0;

	for (i = 0; i < k->nuses; i++) {
		const struct meta_use *u = &k->uses[i];
		int ld = !strcmp(u->op, "tl.load"), st = !strcmp(u->op, "tl.store");

		loads += ld;
		stores += st;
		masked += (ld || st) && u->mask;
	}
	table_cell(t, "%zu/%zu (%zu)", loads, stores, masked);
}

static void gb_cell(struct table *t, const struct meta_kernel *k)
{
	double gb;

	if (pylit_number(pylit_get(k->inductor_meta, "kernel_num_gb"), &gb) < 0)
		table_cell(t, "-");
	else
		table_cell(t, "%.4g", gb);
}

void meta_print_summary(FILE *fp, const struct meta_kernel *const *ks, size_t n)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i, c;

	table_columns(&t, "kernel|kind|file:line|args|ptrs|divisible|ptr_range|device|GB|"
		      "ld/st (masked)|atomic|assume|mult_of|max_contig|where|dot",
		      "lllrrrrlrrrrrrrr");
	for (i = 0; i < n; i++) {
		const struct meta_kernel *k = ks[i];
		size_t ptrs = 0, a;

		for (a = 0; a < k->nargs; a++)
			ptrs += k->args[a].pointer == 1;
		table_row(&t);
		table_cell(&t, "%s", k->name);
		table_cell(&t, "%s", k->kind);
		buf_reset(&b);
		short_path(&b, k->file);
		table_cell(&t, "%s:%zu", b.buf, k->line);
		table_cell(&t, "%zu", k->nargs);
		table_cell(&t, "%zu", ptrs);
		hint_cell(&t, k, "tt.divisibility");
		hint_cell(&t, k, "tt.pointer_range");
		buf_reset(&b);
		device_text(&b, k);
		table_cell(&t, "%s", b.buf);
		gb_cell(&t, k);
		memory_cell(&t, k);
		for (c = 0; c < sizeof(op_columns) / sizeof(op_columns[0]); c++)
			table_cell(&t, "%zu", count_ops(k, op_columns[c].ops));
	}
	table_print(&t, fp);
	fprintf(fp, "%zu kernel%s\n", n, plural(n));
	table_release(&t);
	buf_release(&b);
}

/* A pylit value as one line of text, or "-". */
static void value_text(struct buf *out, const struct pylit *v)
{
	if (!v)
		buf_adds(out, "-");
	else if (v->kind == PYLIT_STR)
		buf_add(out, v->s, v->slen);
	else
		pylit_repr(out, v);
}

static void field(FILE *fp, const char *name, const struct pylit *v)
{
	struct buf b = BUF_INIT;

	if (!v)
		return;
	value_text(&b, v);
	fprintf(fp, "  %-18s %s\n", name, b.buf);
	buf_release(&b);
}

static void print_header(FILE *fp, const struct meta_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	fprintf(fp, "kernel     %s\nkind       %s\nfile       %s line %zu", k->name, k->kind, k->file, k->line);
	if (k->embed_line)
		fprintf(fp, " (embedded source at line %zu)", k->embed_line);
	fputs("\ndecorators", fp);
	for (i = 0; i < k->ndecorators; i++)
		fprintf(fp, " @%s (line %zu)", k->decorators[i].name, k->decorators[i].line);
	device_text(&b, k);
	fprintf(fp, "\ndevice     %s", b.buf);
	if (k->device.warp_size >= 0)
		fprintf(fp, ", warp size %lld", k->device.warp_size);
	if (k->device.multi_processor_count >= 0)
		fprintf(fp, ", %lld multiprocessor%s", k->device.multi_processor_count,
			plural(k->device.multi_processor_count));
	fputc('\n', fp);
	buf_release(&b);
}

static const char *const inductor_fields[] = {
	"kernel_name", "grid_type", "mutated_arg_names", "kernel_num_gb", "kernel_flop",
	"num_load", "num_store", "num_reduction", "atomic_add_found", "origins", NULL,
};

static void print_inductor(FILE *fp, const struct meta_kernel *k)
{
	const char *const *f;
	const char *key;
	json_t *v;

	if (k->inductor_meta) {
		fputs("inductor\n", fp);
		for (f = inductor_fields; *f; f++)
			field(fp, *f, pylit_get(k->inductor_meta, *f));
		field(fp, "size_hints", pylit_kwarg(k->heuristic, "size_hints"));
		field(fp, "reduction_hint", pylit_kwarg(k->heuristic, "reduction_hint"));
	}
	if (!k->aten)
		return;
	fprintf(fp, "aten       from %s line %lld\n", json_string_value(json_object_get(k->aten, "wrapper")),
		(long long)json_integer_value(json_object_get(k->aten, "line")));
	json_object_foreach(k->aten, key, v) {
		char *s;

		if (!json_is_array(v) || !json_array_size(v))
			continue;
		s = jsonw_compact_string(v);
		fprintf(fp, "  %-18s %s\n", key, s);
		free(s);
	}
}

static void missing_hint(FILE *fp, const struct meta_kernel *k, const char *hint)
{
	size_t i, n = 0;

	for (i = 0; i < k->nargs; i++) {
		if (k->args[i].pointer != 1 || meta_arg_hint(&k->args[i], hint))
			continue;
		if (!n++)
			fprintf(fp, "pointers without %s:", hint);
		fprintf(fp, " %s", k->args[i].name);
	}
	if (n)
		fputc('\n', fp);
}

static void print_args(FILE *fp, const struct meta_kernel *k)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "#|arg|type|pointer|constexpr|divisibility|pointer_range|equal_to_1|"
		      "loads|stores|atomics", "rllllrrrrrr");
	for (i = 0; i < k->nargs; i++) {
		const struct meta_arg *a = &k->args[i];
		const char *hints[] = { "tt.divisibility", "tt.pointer_range", "tt.equal_to_1" };
		size_t h;

		table_row(&t);
		table_cell(&t, "%zu", i);
		table_cell(&t, "%s", a->name);
		table_cell(&t, "%s", a->type ? a->type : a->annotation ? a->annotation : "?");
		table_cell(&t, "%s", a->pointer == 1 ? "yes" : a->pointer == 0 ? "no" : "?");
		table_cell(&t, "%s", a->is_constexpr ? "yes" : "");
		for (h = 0; h < 3; h++) {
			long long v = meta_arg_hint(a, hints[h]);

			if (v)
				table_cell(&t, "%lld", v);
			else
				table_cell(&t, "%s", k->hints_known ? "-" : "?");
		}
		table_cell(&t, "%u", a->loads);
		table_cell(&t, "%u", a->stores);
		table_cell(&t, "%u", a->atomics);
	}
	fputs("\n", fp);
	table_print(&t, fp);
	table_release(&t);
	if (!k->hints_known) {
		fputs("hints: unknown (no triton_meta in the source; Triton specialises at launch)\n", fp);
		return;
	}
	for (i = 0; i < 2; i++)
		missing_hint(fp, k, i ? "tt.pointer_range" : "tt.divisibility");
}

static void print_uses(FILE *fp, const struct meta_kernel *k)
{
	struct table t = TABLE_INIT;
	struct buf b = BUF_INIT;
	size_t i, a;

	table_columns(&t, "line|op|base|mask|arguments", "rllll");
	for (i = 0; i < k->nuses; i++) {
		const struct meta_use *u = &k->uses[i];

		buf_reset(&b);
		for (a = 0; a < u->nargs; a++)
			buf_addf(&b, "%s%s%s%s", a ? ", " : "", u->kw[a] ? u->kw[a] : "",
				 u->kw[a] ? "=" : "", u->text[a]);
		table_row(&t);
		table_cell(&t, "%zu", u->line);
		table_cell(&t, "%s", u->op);
		table_cell(&t, "%s", u->base ? u->base : "-");
		table_cell(&t, "%s", u->mask ? u->mask : "-");
		table_cell(&t, "%s", b.buf);
	}
	fputs("\n", fp);
	if (k->nuses)
		table_print(&t, fp);
	else
		fputs("no tracked tl.* calls\n", fp);
	table_release(&t);
	buf_release(&b);
}

void meta_print_kernel(FILE *fp, const struct meta_kernel *k)
{
	print_header(fp, k);
	print_inductor(fp, k);
	print_args(fp, k);
	print_uses(fp, k);
}
