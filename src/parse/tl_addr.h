/*
 * tl_addr: the address patterns of a Triton kernel's loads and stores,
 * read from its source, the way the brief's optimisation notes name the
 * reasons a kernel cannot use wide (128-bit) accesses:
 *
 *   divmod    an offset built with // or % (Inductor's multi-dimensional
 *             indexing: x0 = xindex % 256, x1 = xindex // 256)
 *   gather    a load through a loaded value (tmp4 = tl.load(idx); tl.load(w + 1024*tmp4))
 *   element   ... whose address has no index term of stride 1 (each lane its own row)
 *   scatter   a plain tl.store through a loaded value (atomics are counted by tl_uses)
 *   strided   an access whose index terms all have a stride other than 1:
 *             neighbouring lanes never touch neighbouring elements
 *   zero      a tl.store of a constant zero (tl.full(..., 0.0, ...)): an initialisation
 *
 * An index is a value built from tl.arange (xindex, r0_index and what is
 * derived from them); a term's stride is the integer it is multiplied by
 * in the address expression (1 when none; a symbolic size counts as not 1).
 * The body is read statement by statement, following plain assignments,
 * so this is a reading of Inductor's straight-line kernels and of simple
 * hand-written ones, not a compiler's analysis: Triton's own axis analysis
 * may still prove more contiguity than the text shows.
 *
 * Entry point: tl_addr_scan(), called by triton_meta.c for every kernel.
 */
#ifndef TKO_PARSE_TL_ADDR_H
#define TKO_PARSE_TL_ADDR_H

#include <stddef.h>

struct pysrc;
struct pysrc_func;
struct tl_aliases;

/* A pointer parameter that some access reaches through a loaded value. */
struct tl_addr_indirect {
	char *param;		/* the kernel parameter the pointer operand starts from (owned) */
	long gathers;		/* tl.load sites through a loaded value */
	long scatters;		/* tl.store sites through a loaded value */
	long atomics;		/* tl.atomic_* sites through a loaded value (an embedding's grad) */
};

/* Counts are of access sites in the source; lines are file lines, 0 when there is none. */
struct tl_addr {
	int read;		/* the body was read (0: counts unknown) */
	long loads, stores;	/* tl.load / tl.store sites */
	long divmod;		/* accesses whose offset uses // or % */
	size_t divmod_line;
	long gathers;		/* loads through a loaded value */
	long gather_elems;	/* ... of which no index term has stride 1 */
	size_t gather_line;	/* the first element gather's line, else the first gather's */
	long scatters;		/* tl.store (not atomic) through a loaded value */
	size_t scatter_line;
	long strided;		/* accesses whose index terms all have a stride other than 1 */
	size_t strided_line;
	long strided_stride;	/* that access's smallest stride; -2 when symbolic */
	long zero_stores;	/* tl.store of a constant zero */
	char *zero_param;	/* the pointer argument the first of them starts from, or NULL (owned) */
	struct tl_addr_indirect *indirect;	/* per parameter, the gathers and scatters from it */
	size_t nindirect, indirect_alloc;
};

/* The indirect-access counts of parameter `param`, or NULL when it has none. */
const struct tl_addr_indirect *tl_addr_indirect_of(const struct tl_addr *a, const char *param);

/*
 * Reads the body of def `f` of `src` into *out (which it first clears);
 * `params` are the kernel's parameter names (pointer bases are not index
 * variables), `line_base` is added to lines.
 */
void tl_addr_scan(struct tl_addr *out, const struct pysrc *src, const struct pysrc_func *f,
		  const struct tl_aliases *a, const char *const *params, size_t nparams,
		  size_t line_base);
void tl_addr_release(struct tl_addr *a);

#endif
