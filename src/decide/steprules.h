/*
 * steprules: the rules about the whole step, from its profile
 * (run->step_groups, run->profile; stepprof.h fills them). The kernel
 * rules decide each Triton kernel; these decide the library groups (a
 * GEMM op, an attention op) and say what holds for the step itself, each
 * naming the numbers it used (docs/rules.md, "Whole-step rules"). They
 * are rows of rules.c's table, after the kernel rules:
 *
 *   group rules (RULE_GROUP, ctx->group; the first that fires decides)
 *   fp32_matmul       a GEMM group of at least lib_share of the busy time
 *                     in fp32: TF32 or bf16 autocast
 *   fp32_attention    an attention group of at least lib_share in fp32:
 *                     flash attention needs fp16/bf16
 *   attention_backend an attention group of at least lib_share on the
 *                     memory-efficient or math backend: try flash/cuDNN
 *   mm_max_autotune   a GEMM group of at least lib_share and no Inductor mm
 *                     template in the step (ctx->have_template): max-autotune
 *   step rules (RULE_STEP, ctx->run; all that fire are listed)
 *   library_bound     library groups hold at least library_bound of the
 *                     busy time: Triton tuning can win little
 *   idle_gpu          the GPU is idle at least idle_fraction of the
 *                     profiled span: host-bound, CUDA graphs
 *   partial_profile   the profile ends early
 *
 * They read other model objects than a kernel (`k` is NULL), so their
 * tests take the group or the run from the context; the row type, the
 * limits and the way they are recorded are the kernel rules'.
 */
#ifndef TKO_DECIDE_STEPRULES_H
#define TKO_DECIDE_STEPRULES_H

#include "decide/rules.h"

int rule_fp32_matmul(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_fp32_attention(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_attention_backend(const struct rule_ctx *c, const struct an_kernel *k,
			   struct rule_out *o);
int rule_mm_max_autotune(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_library_bound(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_idle_gpu(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);
int rule_partial_profile(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o);

/* Kernel-name evidence, exposed for tests: an fp32 GEMM (not TF32) / a non-flash attention kernel. */
int steprules_fp32_gemm_name(const char *kernel);
int steprules_slow_attention_name(const char *kernel);

#endif
