/*
 * The kernel rules written first (docs/rules.md): rules.c lists them in
 * its table, in precedence order, with those of rules_addr.h and
 * rules_value.h. Each is a row's `fires` (rules.h): 1 when it fires,
 * after filling the sentence, knobs and numbers.
 */
#ifndef TKO_DECIDE_RULES_KERNEL_H
#define TKO_DECIDE_RULES_KERNEL_H

#include "decide/rules.h"

/* Leave it alone, or measure first. */
/* What tko tune sweeps for this kind of kernel, for a rule's knobs. */
const char *rules_tune_knobs(const struct an_kernel *k);

int rule_not_hot(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_init_only(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_near_peak(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_no_time(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
/* Keep TorchInductor off, rewrite the model code. */
int rule_scalarised_gemm(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_atomic_scatter(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_tiny_launch(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_shape_specialised(const struct rule_ctx *c, const struct an_kernel *k,
			   struct rule_out *o);
/* Tune. */
int rule_tuned(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_online_softmax(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_spills(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_narrow_access(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_no_buffer_ops(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_low_occupancy(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_slow_memory(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_few_configs(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_hot(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);

#endif
