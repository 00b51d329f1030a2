/*
 * The address-pattern rules (docs/rules.md, "Address patterns"): what the
 * kernel's loads and stores do to memory, read from its source
 * (parse/tl_addr.h, an_kernel.addr), and what to do about each. rules.c
 * lists them in its table, with their action sentences.
 */
#ifndef TKO_DECIDE_RULES_ADDR_H
#define TKO_DECIDE_RULES_ADDR_H

#include "decide/rules.h"

/* Offsets built with // or % where the ISA shows narrow accesses (tune). */
int rule_divmod_offsets(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
/* Loads through a loaded index, one element per lane (rewrite). */
int rule_element_gather(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
/* Plain stores through a loaded index (rewrite). */
int rule_scattered_store(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
/* Accesses with no stride-1 index term (rewrite). */
int rule_strided_lanes(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);

#endif
