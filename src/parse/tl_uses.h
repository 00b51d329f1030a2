/*
 * tl_uses: the triton.language calls in a kernel's body that matter for
 * tuning, each with its file line: tl.load / tl.store / tl.atomic_* (with
 * the mask argument and the kernel argument the pointer starts from),
 * tl.assume, tl.multiple_of, tl.max_contiguous, tl.max_constancy,
 * tl.where, tl.dot, tl.dot_scaled, tl.make_block_ptr and
 * tl.make_tensor_descriptor (the table `ops` in tl_uses.c). Also the
 * constexprs a body declares (`RBLOCK: tl.constexpr = R0_BLOCK`).
 *
 * The module prefix is `tl` or `triton.language`, plus any alias the module
 * imports (`import triton.language as lang`).
 *
 * Pointer bases: the pointer operand's first name, followed through plain
 * assignments in the body (`a_ptrs = a_ptr + offs` then `tl.load(a_ptrs)`,
 * or Inductor templates' `A = arg_A`), when it ends at a kernel argument.
 */
#ifndef TKO_TL_USES_H
#define TKO_TL_USES_H

#include <stddef.h>

#include "parse/pysrc.h"
#include "parse/triton_meta.h"

/* The prefixes under which a module reaches triton.language. */
struct tl_aliases {
	char *v[8];	/* "tl", "triton.language", and imported aliases (owned) */
	size_t len[8];	/* their lengths: every name of every body is tried against them */
	size_t n;	/* how many */
};

/* Finds the aliases a module's import statements define. */
void tl_aliases_find(struct tl_aliases *a, const struct pysrc *src);
void tl_aliases_release(struct tl_aliases *a);

/* 1 when s[0..n) names triton.language.constexpr under one of the aliases (or bare `constexpr`). */
int tl_is_constexpr(const struct tl_aliases *a, const char *s, size_t n);

/* The ops tracked, NULL-terminated ("tl.load", ...), in the order counts use. */
extern const char *const tl_op_names[];

/*
 * Scans the body of def `f` of `src` into k->uses, k->body_constexprs and
 * the load/store/atomic counts of k->args; `line_base` is added to lines.
 */
void tl_uses_scan(struct meta_kernel *k, const struct pysrc *src,
		  const struct pysrc_func *f, const struct tl_aliases *a,
		  size_t line_base);

#endif
