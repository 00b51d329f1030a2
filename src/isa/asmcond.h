/*
 * Conditional assembly for hand-written AMDGCN (.if / .elseif / .else /
 * .endif, .ifdef / .ifndef): a stack of branch states and an evaluator
 * for the conditions seen in Tensile-style kernels ("debug_buffer",
 * "X == 2", "!Y"), over integer .set symbols. A condition it cannot
 * evaluate is reported as unknown, and the caller decides (amdgcn.c
 * counts such a branch as taken).
 */
#ifndef TKO_ISA_ASMCOND_H
#define TKO_ISA_ASMCOND_H

#include "util/strmap.h"

#define ASM_COND_MAX 64

struct asm_cond {
	unsigned char level[ASM_COND_MAX];	/* per open .if: ASM_COND_* bits */
	int depth;				/* open .if levels (may exceed ASM_COND_MAX) */
};
#define ASM_COND_INIT { { 0 }, 0 }

/* 1 when the current line is assembled (every enclosing branch is taken). */
int asm_cond_active(const struct asm_cond *c);
void asm_cond_if(struct asm_cond *c, int value);
void asm_cond_elseif(struct asm_cond *c, int value);
void asm_cond_else(struct asm_cond *c);
void asm_cond_endif(struct asm_cond *c);

/*
 * Evaluates "TERM" or "TERM OP TERM" (OP one of == != <= >= && || < >;
 * TERM an integer, a symbol of `syms` stored as (size_t)value, or either
 * after '!') in [p, e). 0 with *v, or -1 when unknown.
 */
int asm_cond_eval(const struct strmap *syms, const char *p, const char *e,
		  long long *v);

#endif
