/*
 * Building an isa_file_result while scanning: what amdgcn.c, ptx.c and
 * sass.c call. Kernels are found by (name, arch-at-creation); op names are
 * interned once with their family, so the per-line work is one lookup
 * and a few increments; source lines are counted in a per-kernel hash and
 * sorted by isa_file_finish(), which also derives the resources the text
 * did not state and computes the findings.
 */
#ifndef TKO_ISA_RESULT_H
#define TKO_ISA_RESULT_H

#include <string.h>

#include "isa/isa.h"
#include "isa/tok.h"

/* Finds or creates the symbol `name` of processor `arch` ("" unknown). */
struct isa_kernel *isa_kernel_get(struct isa_file_result *f, const char *name,
				  size_t n, const char *arch);
/* The symbol `name` of `arch` if it exists, else NULL. */
struct isa_kernel *isa_kernel_find(struct isa_file_result *f, const char *name,
				   size_t n, const char *arch);
/* Frees a kernel and everything it owns. */
void isa_kernel_free(struct isa_kernel *k);
/* Sets the arch of a kernel that had none (the key stays as created). */
void isa_kernel_fill_arch(struct isa_kernel *k, const char *arch);

/*
 * The last mnemonic a scanner looked up and its op: consecutive lines
 * often repeat one (v_mfma chains, s_waitcnt runs), and this saves the
 * hash lookup. The name is copied, so a line buffer may be reused.
 */
struct isa_op_cache {
	char name[128];		/* the mnemonic as written */
	size_t len;		/* its length; 0: empty */
	uint32_t op;		/* its op */
};

static inline int isa_op_cache_get(const struct isa_op_cache *c, const char *m,
				   size_t n, uint32_t *op)
{
	if (n != c->len || !tok_same(m, c->name, n))
		return 0;
	*op = c->op;
	return 1;
}

static inline void isa_op_cache_put(struct isa_op_cache *c, const char *m,
				    size_t n, uint32_t op)
{
	if (n < sizeof(c->name)) {
		memcpy(c->name, m, n);
		c->len = n;
		c->op = op;
	}
}

/* 1 and *id when `name` is interned. */
int isa_op_find(const struct isa_file_result *f, const char *name, size_t n,
		uint32_t *id);
/* Interns `name` with its classification; returns its index. */
uint32_t isa_op_add(struct isa_file_result *f, const char *name, size_t n,
		    unsigned family, unsigned slot, unsigned flags,
		    unsigned counters);

/*
 * Counts one instruction of op `op` in kernel k: its family, the slots in
 * the bit mask `slots` (1u << enum isa_slot), whether it returns, and its
 * source line (file 0 and line 0: no .loc seen, so it is unattributed).
 */
void isa_count(struct isa_file_result *f, struct isa_kernel *k, uint32_t op,
	       unsigned slots, int returning, uint32_t file, uint32_t line,
	       int have_loc);

/* The 1-based index of a source file path, adding it when new. */
uint32_t isa_srcfile_add(struct isa_file_result *f, const char *path,
			 size_t n);

/* Sets a resource unless a more trusted source already set it. */
void isa_res_set(struct isa_kernel *k, enum isa_res r, long long v,
		 enum isa_src src);
static inline int isa_res_known(const struct isa_kernel *k, enum isa_res r)
{
	return k->res[r].src != ISA_SRC_NONE;
}

void isa_note(struct isa_file_result *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void isa_warn(struct isa_file_result *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Sorts line counts, derives resources, computes findings. */
void isa_file_finish(struct isa_file_result *f);

#endif
