/*
 * Rules about whether tuning a kernel is worth it (docs/rules.md, "Worth
 * tuning?"): a zero-initialisation to move into its consumer, a small
 * copy, configs that all run alike far below the peak (keep TorchInductor
 * off the region, or rewrite it), no autotuning where one was expected
 * (check Inductor's path first), and tko tune's compile failures it knows.
 * rules.c lists them in its table, with their action sentences.
 */
#ifndef TKO_DECIDE_RULES_VALUE_H
#define TKO_DECIDE_RULES_VALUE_H

#include "decide/rules.h"

int rule_zero_init(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_small_copy(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_flat_configs(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_no_autotune(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_tune_failure(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);

/* 1 when Inductor's own path explains a kernel timed with at most one config. */
int rules_autotune_path_explains(const struct an_kernel *k);

#endif
