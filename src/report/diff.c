/* Comparing two analyses kernel by kernel (diff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/analysis.h"
#include "analyse/isa_view.h"
#include "decide/decide.h"
#include "isa/isa.h"
#include "json/jsonio.h"
#include "model/analysis_desc.h"
#include "model/analysis_store.h"
#include "report/diff.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/jcheck.h"
#include "util/mem.h"
#include "banned.h"

/* Kernels from scanned assembly: one per symbol, id name (name@arch when repeated). */
static void run_from_isa(struct an_run *out, const struct isa_result *res, const char *path)
{
	size_t i, j;

	out->tool = xstrdup("tko isa");
	out->run = xstrdup(path);
	for (i = 0; i < res->files_nr; i++) {
		const struct isa_file_result *f = res->files[i];

		for (j = 0; j < f->kernels_nr; j++) {
			const struct isa_kernel *ik = f->kernels[j];
			struct an_kernel *k;

			if (!ik->is_kernel)
				continue;
			k = an_run_add_kernel(out);
			an_kernel_from_isa(k, f, ik, f->path);
		}
	}
	for (i = 0; i < out->nkernels; i++) {
		struct an_kernel *k = &out->kernels[i];
		size_t same = 0;

		for (j = 0; j < out->nkernels; j++)
			same += !strcmp(out->kernels[j].name, k->name);
		k->id = same > 1 ? xstrfmt("%s@%s#%zu", k->name, k->arch ? k->arch : "?", i + 1) :
			xstrdup(k->name);
	}
}

static long index_named(const char *name, const char *(*name_of)(size_t), size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name_of(i), name))
			return (long)i;
	return -1;
}

static const char *family_name(size_t i)
{
	return isa_families[i].name;
}

static const char *slot_name(size_t i)
{
	return isa_slots[i].name;
}

static const char *res_name(size_t i)
{
	return isa_res_info[i].name;
}

/* A `tko isa --json` kernel object back into the scanner's struct (docs/json.md "tko isa"). */
static struct isa_kernel *isa_kernel_from_json(const json_t *j)
{
	struct isa_kernel *k = xcalloc(1, sizeof(*k));
	const json_t *v, *w;
	const char *key, *wkey;
	long f, s;

	k->name = xstrdup(json_str(j, "name") ? json_str(j, "name") : "?");
	k->arch = json_str(j, "arch") ? xstrdup(json_str(j, "arch")) : NULL;
	k->is_kernel = !json_str(j, "kind") || !strcmp(json_str(j, "kind"), "kernel");
	k->instructions = (uint64_t)json_int(j, "instructions", 0);
	json_object_foreach(json_object_get(j, "families"), key, v) {
		if ((f = index_named(key, family_name, ISA_FAM_NR)) < 0)
			continue;
		k->fam[f].count = (uint64_t)json_int(v, "count", 0);
		k->fam[f].returning = (uint64_t)json_int(v, "returning", 0);
		json_object_foreach(json_object_get(v, "by_width"), wkey, w)
			if ((s = index_named(wkey, slot_name, ISA_SLOT_NR)) >= 0)
				k->fam[f].slot[s] = (uint64_t)json_integer_value(w);
	}
	json_object_foreach(json_object_get(j, "resources"), key, v) {
		if ((f = index_named(key, res_name, ISA_RES_NR)) < 0 || !json_is_integer(v))
			continue;
		k->res[f].value = json_integer_value(v);
		k->res[f].src = ISA_SRC_COMPUTED;
	}
	return k;
}

#define OPT(key, type) { key, type, JC_NULL, NULL }
static const struct jc_field isa_family_fields[] = {
	OPT("count", JC_COUNT),
	OPT("returning", JC_COUNT),
	OPT("by_width", JC_COUNTS),
	{ NULL, 0, 0, NULL },
};

/* What isa_kernel_from_json() reads of a `tko isa --json` kernel. */
static const struct jc_field isa_kernel_fields[] = {
	{ "name", JC_STR, JC_NEED, NULL },
	OPT("arch", JC_STR),
	OPT("kind", JC_STR),
	OPT("isa", JC_STR),
	OPT("file", JC_STR),
	OPT("instructions", JC_COUNT),
	{ "families", JC_MAP, JC_NULL, isa_family_fields },
	OPT("resources", JC_COUNTS),
	{ NULL, 0, 0, NULL },
};

static const struct jc_field isa_doc_fields[] = {
	{ "kernels", JC_LIST, JC_NEED, isa_kernel_fields },
	{ NULL, 0, 0, NULL },
};
#undef OPT

static int run_from_isa_json(struct an_run *out, const json_t *doc, const char *path,
			     struct buf *err)
{
	struct isa_result res = ISA_RESULT_INIT;
	const json_t *kj;
	size_t i;

	if (jc_check(doc, isa_doc_fields, path, err) < 0)
		return -1;
	json_array_foreach(json_object_get(doc, "kernels"), i, kj) {
		struct isa_file_result *f = xcalloc(1, sizeof(*f));
		const char *isa = json_str(kj, "isa");

		isa_file_init(f, json_str(kj, "file") ? json_str(kj, "file") : path);
		f->isa = !isa ? ISA_NONE : !strcmp(isa, "amdgcn") ? ISA_AMDGCN :
			 !strcmp(isa, "ptx") ? ISA_PTX : ISA_SASS;
		ALLOC_GROW(f->kernels, 1, f->kernels_alloc);
		f->kernels[f->kernels_nr++] = isa_kernel_from_json(kj);
		ALLOC_GROW(res.files, res.files_nr + 1, res.files_alloc);
		res.files[res.files_nr++] = f;
	}
	run_from_isa(out, &res, path);
	isa_result_release(&res);
	return 0;
}

static int load_isa(const char *path, struct an_run *out, struct buf *err)
{
	struct isa_result res = ISA_RESULT_INIT;
	struct isa_options o = ISA_OPTIONS_INIT;
	int ret;

	o.no_tools = 1;
	ret = isa_scan_path(path, &o, &res, err);
	if (ret == 0 && !res.files_nr) {
		buf_addf(err, "'%s' has no assembly tko can read", path);
		ret = -1;
	}
	if (ret == 0)
		run_from_isa(out, &res, path);
	isa_result_release(&res);
	return ret < 0 ? -1 : 0;
}

static int load_dir(const char *path, const struct rd_need *run, struct an_run *out,
		    struct buf *err)
{
	struct an_opts o = AN_OPTS_INIT;
	char *store = rd_path_in(path, RD_KERNELS_JSON);
	int ret;

	if (is_file(store))
		ret = an_store_load(out, store, err);
	else if (rd_meets(rd_probe(path), run))
		ret = decide_run(path, &o, out, err);
	else
		ret = load_isa(path, out, err);
	free(store);
	return ret;
}

int diff_load(const char *path, const struct rd_need *run, struct an_run *out, struct buf *err)
{
	struct mapped_file m = MAPPED_FILE_INIT;
	json_t *doc;
	int ret;

	if (is_dir(path))
		return load_dir(path, run, out, err);
	if (file_map(path, 0, &m, err) < 0)
		return -1;
	if (m.len && m.data[0] == '{') {
		doc = json_load_span(path, m.data, m.len, err);
		file_unmap(&m);
		if (!doc)
			return -1;
		if (json_str(doc, "tool") && !strcmp(json_str(doc, "tool"), "tko isa")) {
			ret = run_from_isa_json(out, doc, path, err);
		} else {
			ret = an_run_from_json(out, doc, path, err);
		}
		json_decref(doc);
		return ret;
	}
	file_unmap(&m);
	return load_isa(path, out, err);
}

static const struct an_kernel *find_kernel(const struct an_run *r, const struct an_kernel *k)
{
	const struct an_kernel *byname = NULL;
	size_t i, n = 0;

	for (i = 0; i < r->nkernels; i++) {
		if (!strcmp(r->kernels[i].id, k->id))
			return &r->kernels[i];
		if (!strcmp(r->kernels[i].name, k->name)) {
			byname = &r->kernels[i];
			n++;
		}
	}
	return n == 1 ? byname : NULL;
}

static const struct an_family *family(const struct an_isa *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nfamilies; i++)
		if (!strcmp(a->families[i].name, name))
			return &a->families[i];
	return NULL;
}

static char *widths_text(const struct an_family *f)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!f)
		return xstrdup("-");
	buf_addf(&b, "%ld", f->count);
	for (i = 0; i < f->nwidths; i++)
		buf_addf(&b, "%s%ld-bit x%ld", i ? ", " : " (", f->widths[i].bits, f->widths[i].count);
	if (f->nwidths)
		buf_addch(&b, ')');
	return buf_detach(&b, NULL);
}

static void diff_family(struct rf_changes *c, const char *name, const struct an_isa *a,
			const struct an_isa *b)
{
	char *ta = widths_text(family(a, name)), *tb = widths_text(family(b, name));

	if (strcmp(ta, tb)) {
		char *path = xstrfmt("isa.families.%s", name);

		rf_changes_add(c, path, ta, tb);
		free(path);
	}
	free(ta);
	free(tb);
}

static void diff_families(struct rf_changes *c, const struct an_isa *a, const struct an_isa *b)
{
	size_t i;

	for (i = 0; i < a->nfamilies; i++)
		diff_family(c, a->families[i].name, a, b);
	for (i = 0; i < b->nfamilies; i++)
		if (!family(a, b->families[i].name))
			diff_family(c, b->families[i].name, a, b);
}

static char *rules_text(const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < k->nfired; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", k->fired[i].rule);
	if (!k->nfired)
		buf_adds(&b, "-");
	return buf_detach(&b, NULL);
}

static void diff_kernel(struct an_diff *d, const struct an_kernel *a, const struct an_kernel *b)
{
	struct kdiff *kd = diff_doc_add(d, a->id, DIFF_SAME);
	char *ra = rules_text(a), *rb = rules_text(b);

	rf_diff(&an_kernel_desc, a, b, "", DIFF_REL_TOL, &kd->changes);
	diff_families(&kd->changes, &a->isa, &b->isa);
	if (strcmp(ra, rb))
		rf_changes_add(&kd->changes, "rules", ra, rb);
	free(ra);
	free(rb);
	diff_doc_status(kd, kd->changes.nr ? DIFF_CHANGED : DIFF_SAME);
	if (kd->changes.nr)
		d->summary.changed++;
	else
		d->summary.same++;
}

/*
 * k's partner in other, when each finds the other: a name unique on one side
 * only (one kernel in A, two of that name in B) pairs none of them, so every
 * kernel is either in a pair or listed once as only_a / only_b.
 */
static const struct an_kernel *partner(const struct an_run *other, const struct an_run *own,
				       const struct an_kernel *k)
{
	const struct an_kernel *p = find_kernel(other, k);

	return p && find_kernel(own, p) == k ? p : NULL;
}

void diff_runs(const struct an_run *a, const struct an_run *b, struct an_diff *d)
{
	size_t i;

	d->a = xstrdup(a->run ? a->run : "A");
	d->b = xstrdup(b->run ? b->run : "B");
	rf_diff(&an_run_desc, a, b, "", DIFF_REL_TOL, &d->run);
	for (i = 0; i < a->nkernels; i++) {
		const struct an_kernel *kb = partner(b, a, &a->kernels[i]);

		if (kb) {
			diff_kernel(d, &a->kernels[i], kb);
		} else {
			diff_doc_add(d, a->kernels[i].id, DIFF_ONLY_A);
			d->summary.only_a++;
		}
	}
	for (i = 0; i < b->nkernels; i++) {
		if (!partner(a, b, &b->kernels[i])) {
			diff_doc_add(d, b->kernels[i].id, DIFF_ONLY_B);
			d->summary.only_b++;
		}
	}
}
