/*
 * The result model's construction and teardown (see result.h and
 * isa.h): kernels, interned ops, source files, per-line counts, notes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/facts.h"
#include "isa/result.h"
#include "target/target.h"
#include "util/mem.h"
#include "banned.h"

void isa_kernel_rules_release(struct isa_kernel *k)
{
	size_t i, j;

	for (i = 0; i < k->rules_nr; i++) {
		struct isa_rule *r = &k->rules[i];

		free(r->rule);
		free(r->why);
		free(r->knobs);
		for (j = 0; j < r->ev_nr; j++)
			free(r->ev[j].key);
		free(r->ev);
	}
	free(k->rules);
	k->rules = NULL;
	k->rules_nr = 0;
}

void isa_file_init(struct isa_file_result *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->format = "assembly";
	buf_init(&f->key);
}

void isa_kernel_free(struct isa_kernel *k)
{
	size_t i;

	free(k->name);
	free(k->arch);
	free(k->ops);
	free(k->lines);
	free(k->linemap.keys);
	free(k->linemap.counts);
	for (i = 0; i < k->findings_nr; i++)
		free(k->findings[i].message);
	free(k->findings);
	isa_kernel_rules_release(k);
	free(k);
}

static void free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void isa_file_release(struct isa_file_result *f)
{
	size_t i;

	for (i = 0; i < f->kernels_nr; i++)
		isa_kernel_free(f->kernels[i]);
	free(f->kernels);
	for (i = 0; i < f->ops_nr; i++)
		free(f->ops[i].name);
	free(f->ops);
	free_strings(f->srcfiles, f->srcfiles_nr);
	free_strings(f->notes, f->notes_nr);
	free_strings(f->warnings, f->warnings_nr);
	strmap_release(&f->op_map);
	strmap_release(&f->kernel_map);
	strmap_release(&f->srcfile_map);
	buf_release(&f->key);
	free(f->path);
	free(f->via);
	memset(f, 0, sizeof(*f));
}

static void kernel_key(struct isa_file_result *f, const char *name, size_t n,
		       const char *arch)
{
	buf_reset(&f->key);
	buf_add(&f->key, name, n);
	buf_addch(&f->key, '\x1f');
	buf_adds(&f->key, arch ? arch : "");
}

struct isa_kernel *isa_kernel_find(struct isa_file_result *f, const char *name,
				   size_t n, const char *arch)
{
	size_t v;

	kernel_key(f, name, n, arch);
	return strmap_get(&f->kernel_map, f->key.buf, f->key.len, &v) ?
	       f->kernels[v] : NULL;
}

struct isa_kernel *isa_kernel_get(struct isa_file_result *f, const char *name,
				  size_t n, const char *arch)
{
	size_t *slot;
	int added;
	struct isa_kernel *k;

	kernel_key(f, name, n, arch);
	slot = strmap_put(&f->kernel_map, f->key.buf, f->key.len, &added);
	if (!added)
		return f->kernels[*slot];
	*slot = f->kernels_nr;
	k = xcalloc(1, sizeof(*k));
	k->name = xstrndup(name, n);
	k->arch = arch && *arch ? xstrdup(arch) : NULL;
	ALLOC_GROW(f->kernels, f->kernels_nr + 1, f->kernels_alloc);
	f->kernels[f->kernels_nr++] = k;
	return k;
}

void isa_kernel_fill_arch(struct isa_kernel *k, const char *arch)
{
	if (!k->arch && arch && *arch)
		k->arch = xstrdup(arch);
}

int isa_op_find(const struct isa_file_result *f, const char *name, size_t n,
		uint32_t *id)
{
	size_t v;

	if (!strmap_get(&f->op_map, name, n, &v))
		return 0;
	*id = (uint32_t)v;
	return 1;
}

uint32_t isa_op_add(struct isa_file_result *f, const char *name, size_t n,
		    unsigned family, unsigned slot, unsigned flags,
		    unsigned counters)
{
	int added;
	size_t *v = strmap_put(&f->op_map, name, n, &added);
	struct isa_op *o;

	if (!added)
		return (uint32_t)*v;
	*v = f->ops_nr;
	ALLOC_GROW(f->ops, f->ops_nr + 1, f->ops_alloc);
	o = &f->ops[f->ops_nr];
	o->name = xstrndup(name, n);
	o->len = n;
	o->family = (uint8_t)family;
	o->slot = (uint8_t)slot;
	o->flags = (uint8_t)flags;
	o->counters = (uint8_t)counters;
	return (uint32_t)f->ops_nr++;
}

/* Packed line keys: bit 63 marks a used slot. */
#define LM_OP_BITS 16
#define LM_LINE_BITS 28
#define LM_FILE_BITS 19

static uint64_t lm_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	return k ^ (k >> 29);
}

static void lm_grow(struct isa_linemap *m)
{
	struct isa_linemap old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->counts = xcalloc(m->cap, sizeof(*m->counts));
	for (i = 0; i < old.cap; i++) {
		size_t j;

		if (!old.keys[i])
			continue;
		for (j = lm_hash(old.keys[i]) & (m->cap - 1); m->keys[j];
		     j = (j + 1) & (m->cap - 1))
			;
		m->keys[j] = old.keys[i];
		m->counts[j] = old.counts[i];
	}
	free(old.keys);
	free(old.counts);
}

static int lm_add(struct isa_linemap *m, uint32_t file, uint32_t line,
		  uint32_t op)
{
	uint64_t key;
	size_t j;

	if (op >> LM_OP_BITS || line >> LM_LINE_BITS || file >> LM_FILE_BITS)
		return -1;
	key = (1ull << 63) | ((uint64_t)file << (LM_OP_BITS + LM_LINE_BITS)) |
	      ((uint64_t)line << LM_OP_BITS) | op;
	if ((m->nr + 1) * 2 > m->cap)
		lm_grow(m);
	for (j = lm_hash(key) & (m->cap - 1); m->keys[j] && m->keys[j] != key;
	     j = (j + 1) & (m->cap - 1))
		;
	if (!m->keys[j]) {
		m->keys[j] = key;
		m->nr++;
	}
	m->counts[j]++;
	return 0;
}

void isa_count(struct isa_file_result *f, struct isa_kernel *k, uint32_t op,
	       unsigned slots, int returning, uint32_t file, uint32_t line,
	       int have_loc)
{
	const struct isa_op *o = &f->ops[op];
	struct isa_family_count *c;
	unsigned s;

	if (o->family >= ISA_FAM_NR)
		return;
	c = &k->fam[o->family];
	c->count++;
	c->returning += returning != 0;
	for (s = 0; slots; s++, slots >>= 1)
		if (slots & 1)
			c->slot[s]++;
	if (op >= k->ops_alloc) {
		size_t n = f->ops_nr > op + 1 ? f->ops_nr : op + 1;

		n = n < 16 ? 16 : n * 2;
		k->ops = xrealloc(k->ops, n * sizeof(*k->ops));
		memset(k->ops + k->ops_alloc, 0,
		       (n - k->ops_alloc) * sizeof(*k->ops));
		k->ops_alloc = n;
	}
	k->ops[op]++;
	if (isa_families[o->family].group == ISA_GROUP_SYNC)
		return;
	if (!have_loc || lm_add(&k->linemap, file, line, op) < 0)
		k->unattributed++;
}

uint32_t isa_srcfile_add(struct isa_file_result *f, const char *path, size_t n)
{
	int added;
	size_t *v = strmap_put(&f->srcfile_map, path, n, &added);

	if (added) {
		ALLOC_GROW(f->srcfiles, f->srcfiles_nr + 1, f->srcfiles_alloc);
		f->srcfiles[f->srcfiles_nr++] = xstrndup(path, n);
		*v = f->srcfiles_nr;
	}
	return (uint32_t)*v;
}

const char *isa_srcfile(const struct isa_file_result *f, uint32_t id)
{
	return id && id <= f->srcfiles_nr ? f->srcfiles[id - 1] : NULL;
}

void isa_res_set(struct isa_kernel *k, enum isa_res r, long long v,
		 enum isa_src src)
{
	if (src >= k->res[r].src) {
		k->res[r].value = v;
		k->res[r].src = src;
	}
}

static void add_line(char ***v, size_t *nr, size_t *alloc, const char *fmt,
		     va_list ap)
{
	struct buf b = BUF_INIT;

	buf_vaddf(&b, fmt, ap);
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[(*nr)++] = buf_detach(&b, NULL);
}

void isa_note(struct isa_file_result *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&f->notes, &f->notes_nr, &f->notes_alloc, fmt, ap);
	va_end(ap);
}

void isa_warn(struct isa_file_result *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&f->warnings, &f->warnings_nr, &f->warnings_alloc, fmt, ap);
	va_end(ap);
}

static int cmp_line(const void *a, const void *b)
{
	const struct isa_srcline *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

static void finish_lines(struct isa_kernel *k)
{
	struct isa_linemap *m = &k->linemap;
	size_t i, n = 0;
	uint64_t mask_op = (1ull << LM_OP_BITS) - 1;
	uint64_t mask_line = (1ull << LM_LINE_BITS) - 1;
	uint64_t mask_file = (1ull << LM_FILE_BITS) - 1;

	k->lines = xcalloc(m->nr ? m->nr : 1, sizeof(*k->lines));
	for (i = 0; i < m->cap; i++) {
		uint64_t key = m->keys[i];

		if (!key)
			continue;
		k->lines[n].op = (uint32_t)(key & mask_op);
		k->lines[n].line = (uint32_t)((key >> LM_OP_BITS) & mask_line);
		k->lines[n].file = (uint32_t)((key >> (LM_OP_BITS + LM_LINE_BITS)) &
					      mask_file);
		k->lines[n].count = m->counts[i];
		n++;
	}
	k->lines_nr = n;
	qsort(k->lines, n, sizeof(*k->lines), cmp_line);
	free(m->keys);
	free(m->counts);
	memset(m, 0, sizeof(*m));
}

/* Numbers the text did not state but the architecture or others imply. */
static void derive_resources(struct isa_kernel *k)
{
	const struct target *a = k->arch ? target_isa_find(k->arch, strlen(k->arch)) : NULL;
	struct isa_value *r = k->res;
	int waves;

	if (!a)
		return;
	if (a->agprs == 0 && !isa_res_known(k, ISA_RES_AGPRS))
		isa_res_set(k, ISA_RES_AGPRS, 0, ISA_SRC_ARCH);
	if (a->agprs != 1 && isa_res_known(k, ISA_RES_ARCH_VGPRS))
		isa_res_set(k, ISA_RES_VGPRS, r[ISA_RES_ARCH_VGPRS].value,
			    r[ISA_RES_ARCH_VGPRS].src);
	if (a->agprs != 1 && isa_res_known(k, ISA_RES_VGPRS))
		isa_res_set(k, ISA_RES_ARCH_VGPRS, r[ISA_RES_VGPRS].value,
			    r[ISA_RES_VGPRS].src);
	if (!isa_res_known(k, ISA_RES_WAVEFRONT))
		isa_res_set(k, ISA_RES_WAVEFRONT, a->wave, ISA_SRC_ARCH);
	if (!isa_res_known(k, ISA_RES_OCCUPANCY) &&
	    isa_res_known(k, ISA_RES_VGPRS) &&
	    (waves = target_vgpr_waves(a, r[ISA_RES_VGPRS].value)) > 0)
		isa_res_set(k, ISA_RES_OCCUPANCY, waves, ISA_SRC_COMPUTED);
}

void isa_file_finish(struct isa_file_result *f)
{
	size_t i;

	for (i = 0; i < f->kernels_nr; i++) {
		struct isa_kernel *k = f->kernels[i];

		finish_lines(k);
		if (f->isa == ISA_AMDGCN)
			derive_resources(k);
		isa_facts(f, k);
	}
}
