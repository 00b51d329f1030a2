/* Whole-step decisions from the profile (steprules.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyse/steprules.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

const struct step_limits step_limits_default = {
	.lib_share = 0.10,
	.library_bound = 0.50,
	.idle_fraction = 0.30,
};

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

static struct an_fired *add(struct an_fired **v, size_t *n, const char *rule,
			    enum decision decision)
{
	struct an_fired *f;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	f = &(*v)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->rule = xstrdup(rule);
	f->decision = decision;
	return f;
}

static void ev(struct an_fired *f, const char *key, double value)
{
	f->ev = xrealloc(f->ev, (f->nev + 1) * sizeof(*f->ev));
	f->ev[f->nev].key = xstrdup(key);
	f->ev[f->nev++].value = value;
}

__attribute__((format(printf, 2, 3)))
static void why(struct an_fired *f, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	f->why = buf_detach(&b, NULL);
}

struct ctx {
	const struct an_run *run;
	const struct step_limits *lim;
	int have_template;	/* an Inductor mm template (triton_tem_) ran in the step */
};

static const char *op_of(const struct an_step_group *g)
{
	return g->op ? g->op : g->kernel ? g->kernel : "?";
}

static int fp32_matmul(const struct ctx *c, const struct an_step_group *g, struct an_fired *f)
{
	if (strcmp(g->cls, "gemm") || g->share < c->lim->lib_share || !is_fp32(g))
		return 0;
	why(f, "%s's GEMMs (%s) take %.1f%% of the GPU busy time in fp32 (%s): TF32 tensor"
	    " cores or bf16 run them several times faster; check the loss stays the same",
	    op_of(g), g->kernel ? g->kernel : "?", 100 * g->share,
	    g->dtype ? "input type float" : "an fp32 GEMM kernel name");
	f->knobs = xstrdup("torch.set_float32_matmul_precision('high') (TF32 on NVIDIA; XF32 on"
			   " MI300 where the ROCm build has it), or torch.autocast(device_type="
			   "'cuda', dtype=torch.bfloat16) around the forward");
	ev(f, "share", g->share);
	ev(f, "calls", (double)g->calls);
	ev(f, "fp32", 1);
	return 1;
}

static int fp32_attention(const struct ctx *c, const struct an_step_group *g, struct an_fired *f)
{
	if (strcmp(g->cls, "attention") || g->share < c->lim->lib_share || !g->dtype ||
	    strcmp(g->dtype, "float"))
		return 0;
	why(f, "%s takes %.1f%% of the GPU busy time with fp32 inputs (kernel %s): flash and"
	    " cuDNN attention take only fp16/bf16, so SDPA fell back to a slower backend",
	    op_of(g), 100 * g->share, g->kernel ? g->kernel : "?");
	f->knobs = xstrdup("torch.autocast(device_type='cuda', dtype=torch.bfloat16) around the"
			   " attention (or the forward), then check the backend and the loss");
	ev(f, "share", g->share);
	ev(f, "fp32", 1);
	return 1;
}

static int attention_backend(const struct ctx *c, const struct an_step_group *g,
			     struct an_fired *f)
{
	if (strcmp(g->cls, "attention") || g->share < c->lim->lib_share || !g->kernel ||
	    !(steprules_slow_attention_name(g->kernel) || (g->op && has_ci(g->op, "_math"))))
		return 0;
	why(f, "%s takes %.1f%% of the GPU busy time on the memory-efficient or math backend"
	    " (kernel %s); the flash or cuDNN backend is usually faster where it applies",
	    op_of(g), 100 * g->share, g->kernel);
	f->knobs = xstrdup("with torch.nn.attention.sdpa_kernel([SDPBackend.FLASH_ATTENTION,"
			   " SDPBackend.CUDNN_ATTENTION]): time the step, check the loss");
	ev(f, "share", g->share);
	return 1;
}

static int mm_max_autotune(const struct ctx *c, const struct an_step_group *g, struct an_fired *f)
{
	if (strcmp(g->cls, "gemm") || g->share < c->lim->lib_share || c->have_template)
		return 0;
	why(f, "%s's library GEMMs take %.1f%% of the GPU busy time and no Inductor mm template"
	    " ran: max-autotune benchmarks Triton templates against the library and keeps the"
	    " faster", op_of(g), 100 * g->share);
	f->knobs = xstrdup("torch.compile(mode='max-autotune') or"
			   " torch._inductor.config.max_autotune_gemm = True");
	ev(f, "share", g->share);
	return 1;
}

typedef int (*group_rule_fn)(const struct ctx *, const struct an_step_group *, struct an_fired *);

static const struct {
	const char *name;
	enum decision decision;
	group_rule_fn fires;
} group_rules[] = {
	{ "fp32_matmul", DECISION_REWRITE, fp32_matmul },
	{ "fp32_attention", DECISION_REWRITE, fp32_attention },
	{ "attention_backend", DECISION_TUNE, attention_backend },
	{ "mm_max_autotune", DECISION_TUNE, mm_max_autotune },
};

static void drop_last(struct an_fired **v, size_t *n)
{
	struct an_fired *f = &(*v)[--(*n)];

	free(f->rule);
	free(f->why);
	free(f->knobs);
	free(f->ev);
}

static void decide_group(const struct ctx *c, struct an_step_group *g)
{
	size_t i;

	for (i = 0; i < sizeof(group_rules) / sizeof(group_rules[0]); i++) {
		struct an_fired *f = add(&g->fired, &g->nfired, group_rules[i].name,
					 group_rules[i].decision);

		if (!group_rules[i].fires(c, g, f))
			drop_last(&g->fired, &g->nfired);
	}
	if (!g->nfired)
		return;
	g->decision = g->fired[0].decision;
	g->action = xstrfmt("%s: %s", g->decision == DECISION_REWRITE ? "change the model's"
			    " settings" : "try", g->fired[0].knobs);
}

static void step_rules(const struct ctx *c, struct an_run *r)
{
	const struct an_profile *p = &r->profile;
	double lib = 0, triton = 0;
	size_t i;

	for (i = 0; i < r->nstep_groups; i++) {
		const struct an_step_group *g = &r->step_groups[i];

		if (!strcmp(g->cls, "triton"))
			triton += g->share;
		else if (strcmp(g->cls, "memcpy") && strcmp(g->cls, "memset"))
			lib += g->share;
	}
	if (lib >= c->lim->library_bound) {
		struct an_fired *f = add(&r->step_rules, &r->nstep_rules, "library_bound",
					 DECISION_LEAVE);

		why(f, "library kernels take %.1f%% of the GPU busy time and Triton kernels %.1f%%:"
		    " tuning Triton kernels can win at most %.1f%% of it; the library groups'"
		    " decisions come first", 100 * lib, 100 * triton, 100 * triton);
		ev(f, "library_share", lib);
		ev(f, "triton_share", triton);
	}
	if (p->timeline && p->span_ms > 0 && p->idle_ms / p->span_ms >= c->lim->idle_fraction) {
		struct an_fired *f = add(&r->step_rules, &r->nstep_rules, "idle_gpu",
					 DECISION_REWRITE);

		why(f, "the GPU was idle %.1f%% of the profiled %.3f ms: the step waits on the host"
		    " (Python, launches, data loading, synchronisation) more than on kernels",
		    100 * p->idle_ms / p->span_ms, p->span_ms);
		f->knobs = xstrdup("torch.compile(mode='reduce-overhead') (CUDA/HIP graphs), a larger"
				   " batch, or fewer host synchronisations (.item(), .cpu())");
		ev(f, "idle_fraction", p->idle_ms / p->span_ms);
	}
	if (p->partial) {
		struct an_fired *f = add(&r->step_rules, &r->nstep_rules, "partial_profile",
					 DECISION_MEASURE);

		why(f, "the profile %s ends early: its shares cover the part it holds", p->file);
	}
}

void steprules_apply(struct an_run *r)
{
	struct ctx c = { r, &step_limits_default, 0 };
	size_t i;

	if (!r->profile.file)
		return;
	for (i = 0; i < r->nstep_groups; i++)
		if (r->step_groups[i].kernel && !strncmp(r->step_groups[i].kernel, "triton_tem_", 11))
			c.have_template = 1;
	for (i = 0; i < r->nstep_groups; i++)
		decide_group(&c, &r->step_groups[i]);
	step_rules(&c, r);
}
