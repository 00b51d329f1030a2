/*
 * A kernel's ISA in the model (evidence.h): which Triton cache entry it
 * ran with (rundir/cachematch.h's rd_cache_pick: by the chosen config's
 * cache hash, else by its module, num_warps and num_stages), and that entry's scan turned into
 * families with widths, the memory summary the rules use, resources, and
 * the source lines of memory, atomic and matrix instructions with their
 * code read from the kernel's module.
 *
 * PTX names its files at the end (`.file 1 "..."` after the code), so a
 * line entry may come without a file; such lines are taken to be the
 * kernel module's, where Triton puts every load, store and atomic.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/evidence.h"
#include "analyse/isa_view.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

/* At most this many source lines per kernel in the model. */
#define MAX_LINES 200

static const enum isa_family matrix_fams[] = {
	ISA_FAM_MFMA, ISA_FAM_MMAC, ISA_FAM_WMMA, ISA_FAM_MMA, ISA_FAM_WGMMA,
};

static long fam(const struct isa_kernel *k, enum isa_family f)
{
	return (long)k->fam[f].count;
}

static void add_family(struct an_isa *a, const struct isa_kernel *k, unsigned f)
{
	const struct isa_family_count *c = &k->fam[f];
	struct an_family *af;
	unsigned s;

	a->families = rf_grow(a->families, a->nfamilies, sizeof(*a->families));
	af = &a->families[a->nfamilies++];
	memset(af, 0, sizeof(*af));
	af->name = xstrdup(isa_families[f].name);
	af->group = xstrdup(isa_group_name(isa_families[f].group));
	af->count = (long)c->count;
	af->returning = isa_families[f].group == ISA_GROUP_ATOMIC ? (long)c->returning : -1;
	for (s = ISA_SLOT_NR; s-- > 0;) {
		if (!c->slot[s] || isa_slots[s].counter)
			continue;
		af->widths = rf_grow(af->widths, af->nwidths, sizeof(*af->widths));
		af->widths[af->nwidths].bits = isa_slots[s].bits;
		af->widths[af->nwidths++].count = (long)c->slot[s];
	}
}

static void summarise(struct an_isa *a, const struct isa_kernel *k)
{
	uint64_t wide = 0, narrow = 0;
	unsigned f;
	size_t i;

	a->instructions = (long)k->instructions;
	a->mem_ops = (long)isa_global_ops(k, &wide, &narrow);
	a->mem_wide = (long)wide;
	a->mem_narrow = (long)narrow;
	a->vector_share = a->mem_ops ? (double)wide / (double)a->mem_ops : NAN;
	a->global_ops = fam(k, ISA_FAM_GLOBAL_LOAD) + fam(k, ISA_FAM_GLOBAL_STORE);
	a->buffer_ops = fam(k, ISA_FAM_BUFFER_LOAD) + fam(k, ISA_FAM_BUFFER_STORE);
	a->flat_ops = fam(k, ISA_FAM_FLAT_LOAD) + fam(k, ISA_FAM_FLAT_STORE);
	a->atomics = a->atomics_returning = a->lds_ops = a->matrix_ops = 0;
	for (f = 0; f < ISA_FAM_NR; f++) {
		if (!k->fam[f].count)
			continue;
		add_family(a, k, f);
		if (isa_families[f].group == ISA_GROUP_ATOMIC) {
			a->atomics += fam(k, f);
			a->atomics_returning += (long)k->fam[f].returning;
		}
		if (isa_families[f].group == ISA_GROUP_LDS)
			a->lds_ops += fam(k, f);
	}
	for (i = 0; i < sizeof(matrix_fams) / sizeof(matrix_fams[0]); i++)
		a->matrix_ops += fam(k, matrix_fams[i]);
}

static long res(const struct isa_kernel *k, enum isa_res r)
{
	return k->res[r].src == ISA_SRC_NONE ? -1 : (long)k->res[r].value;
}

static long sum_known(long a, long b)
{
	if (a < 0)
		return b;
	return b < 0 ? a : a + b;
}

static void resources(struct an_res *r, const struct isa_kernel *k)
{
	r->vgprs = res(k, ISA_RES_VGPRS);
	r->agprs = res(k, ISA_RES_AGPRS);
	r->sgprs = res(k, ISA_RES_SGPRS);
	r->spills = sum_known(res(k, ISA_RES_VGPR_SPILLS), res(k, ISA_RES_SGPR_SPILLS));
	r->scratch_bytes = res(k, ISA_RES_SCRATCH_BYTES);
	r->lds_bytes = res(k, ISA_RES_LDS_BYTES) >= 0 ? res(k, ISA_RES_LDS_BYTES) :
		res(k, ISA_RES_SHARED_BYTES);
	r->occupancy = res(k, ISA_RES_OCCUPANCY);
	r->registers = res(k, ISA_RES_REGISTERS);
	r->local_bytes = res(k, ISA_RES_LOCAL_BYTES);
	r->num_warps = res(k, ISA_RES_NUM_WARPS);
	r->num_stages = res(k, ISA_RES_NUM_STAGES);
	r->workgroup = res(k, ISA_RES_WORKGROUP);
}

/* The lines of the kernel's module, for quoting source lines. */
struct module_text {
	struct mapped_file m;	/* the module, or empty */
	const char **line;	/* start of each line (1-based: line[1]) */
	size_t *len;		/* its length */
	size_t nr;		/* lines */
};

static void module_text_load(struct module_text *t, const char *path)
{
	struct buf err = BUF_INIT;
	struct lines it;
	const char *s;
	size_t n, cap = 0;

	memset(t, 0, sizeof(*t));
	t->m = (struct mapped_file)MAPPED_FILE_INIT;
	if (!path || file_map(path, META_MAX_FILE, &t->m, &err) < 0) {
		buf_release(&err);
		return;
	}
	it = (struct lines)LINES_INIT(t->m.data, t->m.len);
	while (lines_next(&it, &s, &n)) {
		if (it.lineno + 1 > cap) {
			cap = cap ? cap * 2 : 256;
			t->line = xrealloc(t->line, cap * sizeof(*t->line));
			t->len = xrealloc(t->len, cap * sizeof(*t->len));
		}
		t->line[it.lineno] = s;
		t->len[it.lineno] = n;
		t->nr = it.lineno;
	}
}

static void module_text_release(struct module_text *t)
{
	file_unmap(&t->m);
	free(t->line);
	free(t->len);
}

static char *code_at(const struct module_text *t, long line)
{
	const char *s;
	size_t n;

	if (line < 1 || (size_t)line > t->nr)
		return NULL;
	s = t->line[line];
	n = t->len[line];
	span_trim(&s, &n);
	return xstrndup(s, n);
}

static int is_narrow(const struct isa_op *op)
{
	static const enum isa_family mem[] = {
		ISA_FAM_GLOBAL_LOAD, ISA_FAM_GLOBAL_STORE, ISA_FAM_BUFFER_LOAD,
		ISA_FAM_BUFFER_STORE, ISA_FAM_FLAT_LOAD, ISA_FAM_FLAT_STORE,
	};
	size_t i;

	for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
		if (op->family == mem[i])
			return op->slot != ISA_SLOT_NONE && isa_slots[op->slot].bits <= 32;
	return 0;
}

static int is_atomic(const struct isa_op *op)
{
	return op->family != ISA_FAM_NONE && isa_families[op->family].group == ISA_GROUP_ATOMIC;
}

/* Groups the scanner's (file, line, op) counts into one entry per source line. */
static void source_lines(struct an_isa *a, const struct isa_file_result *f,
			 const struct isa_kernel *k, const char *module_path,
			 const char *module_shown)
{
	struct module_text t;
	struct buf ops = BUF_INIT;
	size_t i = 0;

	module_text_load(&t, module_path);
	while (i < k->lines_nr && a->nlines < MAX_LINES) {
		const struct isa_srcline *first = &k->lines[i];
		const char *file = isa_srcfile(f, first->file);
		int mine = !file || !strcmp(path_base(file), path_base(module_shown));
		struct an_srcline *l;

		a->lines = rf_grow(a->lines, a->nlines, sizeof(*a->lines));
		l = &a->lines[a->nlines++];
		memset(l, 0, sizeof(*l));
		l->file = xstrdup(mine ? module_shown : file);
		l->line = first->line;
		l->code = mine ? code_at(&t, first->line) : NULL;
		buf_reset(&ops);
		for (; i < k->lines_nr && k->lines[i].file == first->file &&
		       k->lines[i].line == first->line; i++) {
			const struct isa_op *op = &f->ops[k->lines[i].op];

			buf_addf(&ops, "%s%s x%llu", ops.len ? ", " : "", op->name,
				 (unsigned long long)k->lines[i].count);
			l->count += (long)k->lines[i].count;
			l->narrow |= is_narrow(op);
			l->atomic |= is_atomic(op);
		}
		l->ops = xstrdup(ops.buf);
	}
	buf_release(&ops);
	module_text_release(&t);
}

/* same_source for rd_cache_pick: the other module equals ours but for whitespace. */
struct same_ctx {
	const struct an_inputs *in;
	const char *mine;	/* our module's path, or NULL */
};

static int same_source(void *data, const char *other_key)
{
	const struct same_ctx *c = data;
	const char *other = strmap_get_ptr(&c->in->module_files, other_key, strlen(other_key));

	return c->mine && other && rd_same_source_files(c->mine, other);
}

/* num_warps=N in a config's text, or -1. */
static long config_long(const struct an_config *c, const char *key)
{
	const char *p = c ? strstr(c->text, key) : NULL;
	long v = -1;

	if (p && (p == c->text || p[-1] == ' ') && p[strlen(key)] == '=')
		v = strtol(p + strlen(key) + 1, NULL, 10);
	return v;
}

static const char *autotune_hash(const struct join_ref *ref)
{
	const struct at_config *best = ref->ak ? at_kernel_best(ref->ak, NULL) : NULL;

	return best ? best->cache_hash : NULL;
}

void an_isa_fill(struct an_isa *a, const struct isa_file_result *f, const struct isa_kernel *k,
		 const char *shown_path, const char *module_path, const char *module_shown)
{
	size_t i;

	a->file = xstrdup(shown_path);
	a->isa = xstrdup(isa_kind_name(f->isa));
	a->arch = k->arch ? xstrdup(k->arch) : NULL;
	summarise(a, k);
	resources(&a->res, k);
	source_lines(a, f, k, module_path, module_shown);
	for (i = 0; i < k->findings_nr; i++)
		an_add_str(&a->findings, &a->nfindings, k->findings[i].message);
}

void an_kernel_from_isa(struct an_kernel *k, const struct isa_file_result *f,
			const struct isa_kernel *ik, const char *shown_path)
{
	k->name = xstrdup(ik->name);
	k->arch = ik->arch ? xstrdup(ik->arch) : NULL;
	an_isa_fill(&k->isa, f, ik, shown_path, NULL, "?");
	k->isa.device_function = !ik->is_kernel;
}

static void fill_from_entry(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref,
			    const struct tc_entry *e)
{
	const struct an_config *c = an_kernel_chosen(k);
	const char *mod = ref->mk ? ref->mk->file : NULL;
	char *shown = inputs_relative(in, e->file->path);

	an_isa_fill(&k->isa, e->file, e->kernel, shown, mod, k->module ? k->module : rd_kparts[RD_K_KERNEL_PY]);
	free(shown);
	k->isa.cache_dir = xstrdup(e->cache_dir);
	if (k->isa.res.registers < 0 && c && c->n_regs >= 0 && e->file->isa != ISA_AMDGCN) {
		char *why = xstrfmt("registers per thread (%ld) come from the autotuner's record (nreg):"
				    " the binary was not disassembled", c->n_regs);

		k->isa.res.registers = c->n_regs;
		an_add_str(&k->isa.findings, &k->isa.nfindings, why);
		free(why);
	}
	if (k->isa.res.spills < 0 && c && c->n_spills >= 0)
		k->isa.res.spills = c->n_spills;
}

void isa_view_fill(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref,
		   const char *cache_hash)
{
	const struct an_config *c = an_kernel_chosen(k);
	struct same_ctx sc = { in, ref->mk ? ref->mk->file : NULL };
	struct rd_cquery q = { k->name, k->arch, cache_hash ? cache_hash : autotune_hash(ref),
			       ref->block && !ref->block->resolved ? NULL : k->module_key, NULL,
			       config_long(c, "num_warps"), config_long(c, "num_stages"),
			       same_source, &sc };
	struct rd_cmatch m;

	rd_cache_pick(in->tc.c, in->tc.nr, &q, &m);
	k->isa.match = xstrdup(rd_how_names[m.how]);
	k->isa.candidates = (long)m.candidates;
	if (m.entry)
		fill_from_entry(in, k, ref, m.entry->data);
}
