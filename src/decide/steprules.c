/*
 * The whole-step rules (steprules.h): the library groups of a profile and
 * the step itself. rules.c lists them in its table after the kernel rules.
 */
#include <string.h>
#include <strings.h>

#include "decide/rules_kit.h"
#include "decide/steprules.h"
#include "banned.h"

static int has_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; s && *s; s++)
		if (!strncasecmp(s, needle, n))
			return 1;
	return 0;
}

/*
 * Kernel names that say fp32 in, fp32 math: cuBLAS "sgemm" and CUTLASS
 * "simt_sgemm", cuBLAS xmma "gemm_f32f32_f32f32" (TF32 ones say "tf32"),
 * Tensile (rocBLAS/hipBLASLt) "Cijk_..._S_"/"_SB_" data types (XF32 ones
 * say "XF32"). A "f32" alone is no evidence: bf16 GEMMs accumulate in f32.
 */
int steprules_fp32_gemm_name(const char *k)
{
	if (has_ci(k, "tf32") || has_ci(k, "xf32"))
		return 0;
	return has_ci(k, "sgemm") || has_ci(k, "f32f32_f32f32") ||
	       (!strncmp(k, "Cijk_", 5) && (strstr(k, "_SB_") || strstr(k, "_S_B") ||
					    strstr(k, "_SS_")));
}

/* Memory-efficient (CUTLASS fmha, "efficient_attention") and math-backend kernels. */
int steprules_slow_attention_name(const char *k)
{
	return has_ci(k, "fmha_cutlass") || has_ci(k, "efficient_attention") ||
	       has_ci(k, "mem_eff") || has_ci(k, "gemm") || has_ci(k, "softmax");
}

static int is_fp32(const struct an_step_group *g)
{
	if (g->dtype)
		return !strcmp(g->dtype, "float");
	return g->kernel && steprules_fp32_gemm_name(g->kernel);
}

static const char *op_of(const struct an_step_group *g)
{
	return g->op ? g->op : g->kernel ? g->kernel : "?";
}

int rule_fp32_matmul(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_step_group *g = c->group;

	(void)k;
	if (g->cls != PROF_CLASS_GEMM || g->share < c->lim->lib_share || !is_fp32(g))
		return 0;
	rk_why(o, "%s's GEMMs (%s) take %.1f%% of the GPU busy time in fp32 (%s): TF32 tensor"
	       " cores or bf16 run them several times faster; check the loss stays the same",
	       op_of(g), g->kernel ? g->kernel : "?", 100 * g->share,
	       g->dtype ? "input type float" : "an fp32 GEMM kernel name");
	rk_knobs(o, "torch.set_float32_matmul_precision('high') (TF32 on NVIDIA; XF32 on"
		 " MI300 where the ROCm build has it), or torch.autocast(device_type="
		 "'cuda', dtype=torch.bfloat16) around the forward");
	rk_ev(o, "share", g->share);
	rk_ev(o, "calls", (double)g->calls);
	rk_ev(o, "fp32", 1);
	return 1;
}

int rule_fp32_attention(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_step_group *g = c->group;

	(void)k;
	if (g->cls != PROF_CLASS_ATTENTION || g->share < c->lim->lib_share || !g->dtype ||
	    strcmp(g->dtype, "float"))
		return 0;
	rk_why(o, "%s takes %.1f%% of the GPU busy time with fp32 inputs (kernel %s): flash and"
	       " cuDNN attention take only fp16/bf16, so SDPA fell back to a slower backend",
	       op_of(g), 100 * g->share, g->kernel ? g->kernel : "?");
	rk_knobs(o, "torch.autocast(device_type='cuda', dtype=torch.bfloat16) around the"
		 " attention (or the forward), then check the backend and the loss");
	rk_ev(o, "share", g->share);
	rk_ev(o, "fp32", 1);
	return 1;
}

int rule_attention_backend(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_step_group *g = c->group;

	(void)k;
	if (g->cls != PROF_CLASS_ATTENTION || g->share < c->lim->lib_share || !g->kernel ||
	    !(steprules_slow_attention_name(g->kernel) || (g->op && has_ci(g->op, "_math"))))
		return 0;
	rk_why(o, "%s takes %.1f%% of the GPU busy time on the memory-efficient or math backend"
	       " (kernel %s); the flash or cuDNN backend is usually faster where it applies",
	       op_of(g), 100 * g->share, g->kernel);
	rk_knobs(o, "with torch.nn.attention.sdpa_kernel([SDPBackend.FLASH_ATTENTION,"
		 " SDPBackend.CUDNN_ATTENTION]): time the step, check the loss");
	rk_ev(o, "share", g->share);
	return 1;
}

int rule_mm_max_autotune(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_step_group *g = c->group;

	(void)k;
	if (g->cls != PROF_CLASS_GEMM || g->share < c->lim->lib_share || c->have_template)
		return 0;
	rk_why(o, "%s's library GEMMs take %.1f%% of the GPU busy time and no Inductor mm template"
	       " ran: max-autotune benchmarks Triton templates against the library and keeps the"
	       " faster", op_of(g), 100 * g->share);
	rk_knobs(o, "torch.compile(mode='max-autotune') or"
		 " torch._inductor.config.max_autotune_gemm = True");
	rk_ev(o, "share", g->share);
	return 1;
}

int rule_library_bound(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	double lib = 0, triton = 0;
	size_t i;

	(void)k;
	for (i = 0; i < c->run->nstep_groups; i++) {
		const struct an_step_group *g = &c->run->step_groups[i];

		if (g->cls == PROF_CLASS_TRITON)
			triton += g->share;
		else if (g->cls != PROF_CLASS_MEMCPY && g->cls != PROF_CLASS_MEMSET)
			lib += g->share;
	}
	if (!(lib >= c->lim->library_bound))
		return 0;
	rk_why(o, "library kernels take %.1f%% of the GPU busy time and Triton kernels %.1f%%:"
	       " tuning Triton kernels can win at most %.1f%% of it; the library groups'"
	       " decisions come first", 100 * lib, 100 * triton, 100 * triton);
	rk_ev(o, "library_share", lib);
	rk_ev(o, "triton_share", triton);
	return 1;
}

int rule_idle_gpu(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_profile *p = &c->run->profile;

	(void)k;
	if (!p->timeline || !(p->span_ms > 0) || !(p->idle_ms / p->span_ms >= c->lim->idle_fraction))
		return 0;
	rk_why(o, "the GPU was idle %.1f%% of the profiled %.3f ms: the step waits on the host"
	       " (Python, launches, data loading, synchronisation) more than on kernels",
	       100 * p->idle_ms / p->span_ms, p->span_ms);
	rk_knobs(o, "torch.compile(mode='reduce-overhead') (CUDA/HIP graphs), a larger batch, or"
		 " fewer host synchronisations (.item(), .cpu())");
	rk_ev(o, "idle_fraction", p->idle_ms / p->span_ms);
	return 1;
}

int rule_partial_profile(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)k;
	if (!c->run->profile.partial)
		return 0;
	rk_why(o, "the profile %s ends early: its shares cover the part it holds",
	       c->run->profile.file);
	return 1;
}
