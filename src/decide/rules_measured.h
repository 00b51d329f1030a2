/*
 * Rules that follow what was measured or compiled (docs/rules.md): advice
 * a tko tune result contradicts is not given, and a cause the kernel's
 * own numbers show is named. rules.c lists them in its table; the hints
 * advice of narrow_access and divmod_offsets asks rk_hints_useless().
 */
#ifndef TKO_DECIDE_RULES_MEASURED_H
#define TKO_DECIDE_RULES_MEASURED_H

#include "decide/rules.h"

/* A reduction row whose length defeats aligned wide loads, with narrow accesses (rewrite). */
int rule_row_alignment(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
/* tko tune timed the two-pass softmax and it lost: keep the online one (leave). */
int rule_twopass_slower(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);

/* The reduction row length: the captured r0_numel / rnumel, or -1. */
long rule_row_length(const struct an_kernel *k);
/* 1 when every tko tune variant with source hints compiled to the ISA of one without. */
int rule_hints_useless(const struct an_kernel *k);

#endif
