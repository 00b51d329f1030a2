/*
 * A variant's ISA in a few numbers, and its delta from the base (see
 * isasum.h). The families are those a memory-bound kernel's speed hangs
 * on: the width of its global accesses (one 128-bit access per lane where
 * the base had four 32-bit ones), buffer instead of global addressing on
 * AMD, atomics, LDS traffic, spills to scratch; plus matrix instructions
 * for templates.
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/isasum.h"
#include "util/mem.h"
#include "banned.h"

static const struct {
	enum isa_family fam;	/* the isa library's family */
	const char *label;	/* short name in table cells */
} fams[TUNE_ISA_NFAM] = {
	{ ISA_FAM_GLOBAL_LOAD, "gld" }, { ISA_FAM_GLOBAL_STORE, "gst" },
	{ ISA_FAM_BUFFER_LOAD, "bld" }, { ISA_FAM_BUFFER_STORE, "bst" },
	{ ISA_FAM_FLAT_LOAD, "fld" }, { ISA_FAM_FLAT_STORE, "fst" },
	{ ISA_FAM_GLOBAL_TO_LDS, "g2lds" }, { ISA_FAM_BULK_COPY, "bulk" },
	{ ISA_FAM_GLOBAL_ATOMIC, "gatom" }, { ISA_FAM_BUFFER_ATOMIC, "batom" },
	{ ISA_FAM_LDS_READ, "ldsr" }, { ISA_FAM_LDS_WRITE, "ldsw" },
	{ ISA_FAM_SCRATCH_LOAD, "scrld" }, { ISA_FAM_SCRATCH_STORE, "scrst" },
	{ ISA_FAM_MFMA, "mfma" }, { ISA_FAM_MMAC, "mmac" }, { ISA_FAM_WMMA, "wmma" },
	{ ISA_FAM_MMA, "mma" }, { ISA_FAM_WGMMA, "wgmma" },
};

enum { R_VGPRS, R_AGPRS, R_SGPRS, R_REGS, R_SPILLS, R_SCRATCH, R_LOCAL, R_OCC, R_LDS, R_SMEM };

static const struct {
	enum isa_res res;	/* the isa library's resource */
	const char *label;	/* short name in table cells */
} ress[TUNE_ISA_NRES] = {
	[R_VGPRS] = { ISA_RES_VGPRS, "vgprs" }, [R_AGPRS] = { ISA_RES_AGPRS, "agprs" },
	[R_SGPRS] = { ISA_RES_SGPRS, "sgprs" }, [R_REGS] = { ISA_RES_REGISTERS, "regs" },
	[R_SPILLS] = { ISA_RES_VGPR_SPILLS, "spills" },
	[R_SCRATCH] = { ISA_RES_SCRATCH_BYTES, "scratch" },
	[R_LOCAL] = { ISA_RES_LOCAL_BYTES, "local" }, [R_OCC] = { ISA_RES_OCCUPANCY, "occ" },
	[R_LDS] = { ISA_RES_LDS_BYTES, "lds" }, [R_SMEM] = { ISA_RES_SHARED_BYTES, "smem" },
};

void tune_isa_init(struct tune_isa *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < TUNE_ISA_NRES; i++)
		a->res[i] = -1;
}

void tune_isa_release(struct tune_isa *a)
{
	free(a->isa);
	tune_isa_init(a);
}

static const struct isa_kernel *pick(const struct isa_result *res, const char *kernel,
				     const struct isa_file_result **file)
{
	const struct isa_kernel *first = NULL;
	size_t i, j;

	for (i = 0; i < res->files_nr; i++)
		for (j = 0; j < res->files[i]->kernels_nr; j++) {
			const struct isa_kernel *k = res->files[i]->kernels[j];

			if (!k->is_kernel)
				continue;
			if (kernel && !strcmp(k->name, kernel)) {
				*file = res->files[i];
				return k;
			}
			if (!first) {
				first = k;
				*file = res->files[i];
			}
		}
	return first;
}

static void keep(struct tune_isa *a, const struct isa_file_result *f,
		 const struct isa_kernel *k)
{
	size_t i;

	for (i = 0; i < TUNE_ISA_NFAM; i++)
		a->fam[i] = k->fam[fams[i].fam];
	for (i = 0; i < TUNE_ISA_NRES; i++)
		if (k->res[ress[i].res].src != ISA_SRC_NONE)
			a->res[i] = k->res[ress[i].res].value;
	a->global_ops = isa_global_ops(k, &a->wide_ops, NULL);
	a->isa = xstrdup(isa_kind_name(f->isa));
}

int tune_isa_scan(const char *path, const char *kernel, struct tune_isa *a,
		  struct buf *err)
{
	struct isa_result res = ISA_RESULT_INIT;
	struct isa_options opts = ISA_OPTIONS_INIT;
	const struct isa_file_result *f = NULL;
	const struct isa_kernel *k;
	int ret = -1;

	tune_isa_release(a);
	opts.tool_timeout_s = 30;
	if (isa_scan_path(path, &opts, &res, err) < 0)
		goto out;
	k = pick(&res, kernel, &f);
	if (!k) {
		buf_addf(err, "'%s' has no kernel entry point", path);
		goto out;
	}
	keep(a, f, k);
	ret = 0;
out:
	isa_result_release(&res);
	return ret;
}

void tune_isa_add_driver(struct tune_isa *a, long n_regs, long n_spills)
{
	if (!a->isa || strcmp(a->isa, "ptx"))
		return;
	if (a->res[R_REGS] < 0 && n_regs >= 0)
		a->res[R_REGS] = n_regs;
	/* CUDA's n_spills is the local memory per thread / 4 */
	if (a->res[R_LOCAL] < 0 && n_spills >= 0)
		a->res[R_LOCAL] = 4LL * n_spills;
}

static int vector_pct(const struct tune_isa *a)
{
	return a->global_ops ? (int)(100 * a->wide_ops / a->global_ops) : -1;
}

/* "2x128 1x32", widest first; "" for a family without widths. */
static void widths(const struct isa_family_count *c, struct buf *out)
{
	int s, first = 1;

	for (s = ISA_SLOT_NR - 1; s >= 0; s--) {
		if (isa_slots[s].counter || !c->slot[s])
			continue;
		buf_addf(out, "%s%llux%s", first ? "" : " ",
			 (unsigned long long)c->slot[s], isa_slots[s].name);
		first = 0;
	}
	if (first)
		buf_addf(out, "%llu", (unsigned long long)c->count);
}

static int same_family(const struct isa_family_count *a, const struct isa_family_count *b)
{
	return a->count == b->count && !memcmp(a->slot, b->slot, sizeof(a->slot));
}

static json_t *family_json(const struct isa_family_count *c)
{
	json_t *w = json_object();
	int s;

	for (s = 0; s < ISA_SLOT_NR; s++)
		if (!isa_slots[s].counter && c->slot[s])
			json_object_set_new(w, isa_slots[s].name, json_integer((json_int_t)c->slot[s]));
	return json_pack("{s:I, s:o}", "count", (json_int_t)c->count, "by_width", w);
}

static json_t *res_value(long long v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

json_t *tune_isa_json(const struct tune_isa *a)
{
	json_t *j = json_object(), *f = json_object(), *r = json_object();
	size_t i;

	for (i = 0; i < TUNE_ISA_NFAM; i++)
		if (a->fam[i].count)
			json_object_set_new(f, isa_families[fams[i].fam].name, family_json(&a->fam[i]));
	for (i = 0; i < TUNE_ISA_NRES; i++)
		json_object_set_new(r, isa_res_info[ress[i].res].name, res_value(a->res[i]));
	json_set_str(j, "isa", a->isa);
	json_set_new(j, "families", f);
	json_set_int(j, "global_ops", (long long)a->global_ops);
	json_set_new(j, "vector_pct", vector_pct(a) >= 0 ? json_integer(vector_pct(a)) : json_null());
	json_set_new(j, "resources", r);
	return j;
}

void tune_isa_text(const struct tune_isa *a, struct buf *out)
{
	size_t i, start = out->len;

	for (i = 0; i < TUNE_ISA_NFAM; i++)
		if (a->fam[i].count) {
			buf_addf(out, "%s%s ", out->len > start ? ", " : "", fams[i].label);
			widths(&a->fam[i], out);
		}
	if (vector_pct(a) >= 0)
		buf_addf(out, "%svec %d%%", out->len > start ? ", " : "", vector_pct(a));
	for (i = 0; i < TUNE_ISA_NRES; i++)
		if (a->res[i] >= 0 && (i == R_REGS || i == R_VGPRS || a->res[i] > 0) &&
		    i != R_OCC && i != R_LDS && i != R_SMEM && i != R_SGPRS)
			buf_addf(out, "%s%s %lld", out->len > start ? ", " : "", ress[i].label,
				 a->res[i]);
}

static void delta_sep(struct buf *text, size_t start)
{
	if (text->len > start)
		buf_adds(text, "; ");
}

static int delta_families(const struct tune_isa *b, const struct tune_isa *v,
			  struct buf *text, size_t start, json_t *jf)
{
	size_t i;
	int n = 0;

	for (i = 0; i < TUNE_ISA_NFAM; i++) {
		if (same_family(&b->fam[i], &v->fam[i]))
			continue;
		delta_sep(text, start);
		buf_addf(text, "%s ", fams[i].label);
		if (b->fam[i].count)
			widths(&b->fam[i], text);
		else
			buf_adds(text, "none");
		buf_adds(text, "->");
		if (v->fam[i].count)
			widths(&v->fam[i], text);
		else
			buf_adds(text, "none");
		json_object_set_new(jf, isa_families[fams[i].fam].name,
				    json_pack("[o, o]", family_json(&b->fam[i]),
					      family_json(&v->fam[i])));
		n++;
	}
	return n;
}

int tune_isa_delta(const struct tune_isa *base, const struct tune_isa *v,
		   struct buf *text, json_t **json)
{
	json_t *jf = json_object(), *jr = json_object(), *j = json_object();
	size_t i, start = text->len;
	int n = delta_families(base, v, text, start, jf);

	if (vector_pct(base) != vector_pct(v)) {
		delta_sep(text, start);
		buf_addf(text, "vec %d->%d%%", vector_pct(base), vector_pct(v));
		json_set_new(j, "vector_pct", json_pack("[o, o]", res_value(vector_pct(base)),
							res_value(vector_pct(v))));
		n++;
	}
	for (i = 0; i < TUNE_ISA_NRES; i++) {
		if (base->res[i] == v->res[i])
			continue;
		delta_sep(text, start);
		buf_addf(text, "%s ", ress[i].label);
		if (base->res[i] >= 0)
			buf_addf(text, "%lld", base->res[i]);
		else
			buf_adds(text, "?");
		if (v->res[i] >= 0)
			buf_addf(text, "->%lld", v->res[i]);
		else
			buf_adds(text, "->?");
		json_object_set_new(jr, isa_res_info[ress[i].res].name,
				    json_pack("[o, o]", res_value(base->res[i]), res_value(v->res[i])));
		n++;
	}
	json_set_new(j, "families", jf);
	json_set_new(j, "resources", jr);
	if (json)
		*json = j;
	else
		json_decref(j);
	return n;
}
