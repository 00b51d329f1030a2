/*
 * steprules: decisions about the whole step, from its profile
 * (run->step_groups, run->profile; stepprof.h fills them). The kernel
 * rules (rules.h) decide each Triton kernel; these decide the library
 * groups (a GEMM op, an attention op) and the step itself, each rule
 * naming the numbers it used (docs/rules.md, "Whole-step rules").
 *
 * Group rules, in precedence order (the first that fires decides):
 *   fp32_matmul       rewrite  a GEMM group of at least lib_share of the busy
 *                              time in fp32: TF32 / set_float32_matmul_precision
 *                              ('high') or bf16 autocast
 *   fp32_attention    rewrite  an attention group of at least lib_share in
 *                              fp32: flash attention needs fp16/bf16
 *   attention_backend tune     an attention group of at least lib_share on the
 *                              memory-efficient or math backend: try flash/cuDNN
 *   mm_max_autotune   tune     a GEMM group of at least lib_share and no Inductor
 *                              mm template in the step: max-autotune
 * Step rules (all that fire are listed):
 *   library_bound     leave    library groups hold at least library_bound of
 *                              the busy time: Triton tuning can win little
 *   idle_gpu          rewrite  the GPU is idle at least idle_fraction of the
 *                              profiled span: host-bound, CUDA graphs
 *   partial_profile   measure  the profile ends early
 */
#ifndef TKO_ANALYSE_STEPRULES_H
#define TKO_ANALYSE_STEPRULES_H

#include "analyse/model.h"

struct step_limits {
	double lib_share;	/* a library group with less of the busy time is left alone */
	double library_bound;	/* library share of the busy time that makes the step library-bound */
	double idle_fraction;	/* idle share of the profiled span that makes it host-bound */
};

extern const struct step_limits step_limits_default;

/* Decides every step group and the step (no profile: nothing). */
void steprules_apply(struct an_run *r);

/* Kernel-name evidence, exposed for tests: an fp32 GEMM (not TF32) / a non-flash attention kernel. */
int steprules_fp32_gemm_name(const char *kernel);
int steprules_slow_attention_name(const char *kernel);

#endif
