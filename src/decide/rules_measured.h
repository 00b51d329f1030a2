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
/* tko tune timed variants of the kernel's config and the base stayed the winner (leave). */
int rule_tune_found_nothing(const struct rule_ctx *c, const struct an_kernel *k,
			    struct rule_out *o);

/* The reduction row length: the captured r0_numel / rnumel, or -1. */
long rule_row_length(const struct an_kernel *k);
/* 1 when every tko tune variant with source hints compiled to the ISA of one without. */
int rule_hints_useless(const struct an_kernel *k);
/*
 * 1 when k's tko tune result timed at least one correct variant besides
 * the base and the base stayed the winner (tune.json's winner.is_base:
 * no variant was faster beyond the noise): the config search the
 * RULE_SEARCH rows advise has been made. 0 for a NULL k.
 */
int rule_tune_searched(const struct an_kernel *k);

#endif
