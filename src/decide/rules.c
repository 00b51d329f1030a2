/*
 * The rules table and its limits (rules.h): which rules there are, in
 * which order, what each reads and says, and how a kernel, a whole-step
 * group and the step are decided from the rows that fire. The rules'
 * tests live in rules_kernel.c, rules_addr.c, rules_value.c and
 * steprules.c; tests/unit/test-rules.c asserts every outcome and checks
 * docs/rules.md against these tables.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decide/rules.h"
#include "decide/rules_addr.h"
#include "decide/rules_kernel.h"
#include "decide/rules_measured.h"
#include "decide/rules_value.h"
#include "decide/steprules.h"
#include "json/reflect.h"
#include "model/traffic.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

const struct rule_limits rule_limits_default = {
	.hot_share = 0.02,
	.near_peak = 0.80,
	.over_peak = TRAFFIC_OVER_COPY,
	.slow_fraction = 0.50,
	.tiny_ms = 0.010,
	.tiny_launches = 100,
	.narrow_share = 0.50,
	.narrow_min_ops = 4,
	.low_occupancy = 2,
	.few_configs = 1,
	.tune_gain = 1.02,
	.flat_spread = 0.05,
	.far_fraction = 0.25,
	.small_bytes = 1 << 20,
	.lib_share = 0.10,
	.library_bound = 0.50,
	.idle_fraction = 0.30,
	.row_multiple = 16,
	.row_pad = 64,
};

#define LIMIT(m, unit, doc) { #m, offsetof(struct rule_limits, m), unit, doc }
const struct rule_limit_info rule_limit_info[] = {
	LIMIT(hot_share, LIM_SHARE, "below this share of the measured kernel time a kernel is not hot"),
	LIMIT(near_peak, LIM_FRACTION,
	      "a rate at this fraction of the measured copy rate or more is near it"),
	LIMIT(over_peak, LIM_FRACTION, "above this fraction a rate is no fact: the bytes are"
	      " over-counted or the data stayed in cache (model/traffic.h, TRAFFIC_OVER_COPY)"),
	LIMIT(slow_fraction, LIM_FRACTION,
	      "a memory-bound kernel under this fraction of the peak is slow"),
	LIMIT(tiny_ms, LIM_MS, "a launch shorter than this is tiny ..."),
	LIMIT(tiny_launches, LIM_COUNT, "... when there are at least this many launches"),
	LIMIT(narrow_share, LIM_FRACTION,
	      "fewer 128-bit global/buffer accesses than this share is narrow ..."),
	LIMIT(narrow_min_ops, LIM_COUNT, "... among at least this many accesses"),
	LIMIT(low_occupancy, LIM_COUNT, "AMD waves per SIMD at or below this are low"),
	LIMIT(few_configs, LIM_COUNT, "the autotuner timed at most this many configs"),
	LIMIT(tune_gain, LIM_RATIO, "a tko tune winner at least this much faster is worth applying"),
	LIMIT(flat_spread, LIM_FRACTION, "timed configs within this fraction of each other are alike ..."),
	LIMIT(far_fraction, LIM_FRACTION,
	      "... and a fastest under this fraction of the measured peak is far below it"),
	LIMIT(small_bytes, LIM_BYTES, "a copy moving fewer bytes is small"),
	LIMIT(lib_share, LIM_SHARE, "a library group with less of the GPU busy time is left alone"),
	LIMIT(library_bound, LIM_SHARE,
	      "library groups holding this share of the busy time make the step library-bound"),
	LIMIT(idle_fraction, LIM_FRACTION,
	      "the GPU idle this fraction of the profiled span makes the step host-bound"),
	LIMIT(row_multiple, LIM_COUNT, "a reduction row whose length is not a multiple of this"
	      " (Triton specialises sizes divisible by 16) cannot be loaded aligned ..."),
	LIMIT(row_pad, LIM_COUNT, "... and the model code pads it to a multiple of this"),
};
#undef LIMIT
const size_t rule_nlimits = sizeof(rule_limit_info) / sizeof(rule_limit_info[0]);

/* The ISA findings (isa/facts.h) the ISA-scoped rows judge. */
static const char *const judges_width[] = { "vector_width", "narrow_lines", NULL };
static const char *const judges_spills[] = { "spills", NULL };
static const char *const judges_occupancy[] = { "occupancy", NULL };

#define K RULE_KERNEL
#define RUN (RULE_KERNEL | RULE_RUN)
#define ISA (RULE_KERNEL | RULE_ISA)
#define SEARCH RULE_SEARCH
#define REWRITE_AT "rewrite the model code at {where}: "

/* The precedence order; rules.h says how a decision is made from it. */
static const struct rule rules[] = {
	{ "not_hot", DECISION_LEAVE, K, rule_not_hot,
	  "under {hot_share} of the measured kernel time", NULL, NULL },
	{ "zero_init", DECISION_REWRITE, K, rule_zero_init,
	  "it only writes zeros: move the initialisation into the consumer",
	  "move the initialisation into its consumer{consumer}: let that kernel write every element"
	  " itself (an out-of-place op instead of torch.zeros followed by index_add_/scatter_add_,"
	  " or a reduction that starts from 0); this launch and a full write of the buffer go away"
	  " (model code at {where})", NULL },
	{ "init_only", DECISION_LEAVE, K, rule_init_only,
	  "the source only stores: it initialises memory", NULL, NULL },
	{ "small_copy", DECISION_LEAVE, K, rule_small_copy,
	  "a copy of under {small_bytes}: launch-bound", NULL, NULL },
	{ "near_peak", DECISION_LEAVE, RUN, rule_near_peak,
	  "a rate from {near_peak} to {over_peak} of the measured copy rate", NULL, NULL },
	{ "no_time", DECISION_MEASURE, K, rule_no_time,
	  "no time measured: hot or not is unknown", NULL, NULL },
	{ "scalarised_gemm", DECISION_KEEP_OFF, K, rule_scalarised_gemm,
	  "a GEMM fused into a kernel with no matrix instructions", NULL, NULL },
	{ "atomic_scatter", DECISION_REWRITE, K, rule_atomic_scatter,
	  "atomic read-modify-writes (scatter, index_add)",
	  REWRITE_AT "fewer conflicting atomics (sort the indices and reduce segments, or make"
	  " each output row one program's)", NULL },
	{ "tiny_launch", DECISION_REWRITE, K, rule_tiny_launch,
	  "{tiny_launches} or more launches under {tiny_ms} each",
	  REWRITE_AT "batch the small calls into one, or run the step under CUDA/HIP graphs"
	  " (mode=\"reduce-overhead\")", NULL },
	{ "shape_specialised", DECISION_REWRITE, RUN, rule_shape_specialised,
	  "the same code compiled for several graphs or launched with several signatures",
	  NULL, NULL },
	{ "element_gather", DECISION_REWRITE, K, rule_element_gather,
	  "loads through a loaded index, one element per lane",
	  REWRITE_AT "gather whole contiguous rows rather than single elements, and sort or group"
	  " the indices so neighbouring lanes read neighbouring memory", NULL },
	{ "scattered_store", DECISION_REWRITE, K, rule_scattered_store,
	  "plain stores through a loaded index",
	  REWRITE_AT "write the rows in order (sort the indices, or let the consumer gather instead"
	  " of this kernel scattering); keep index_put_/scatter_ to unique indices", NULL },
	{ "strided_lanes", DECISION_REWRITE, K, rule_strided_lanes,
	  "accesses with no stride-1 index term",
	  REWRITE_AT "produce the layout this kernel walks (or make it .contiguous() once,"
	  " upstream) so its innermost index has stride 1; a permute or transpose feeding it is the"
	  " usual cause", NULL },
	{ "flat_configs", DECISION_KEEP_OFF, RUN, rule_flat_configs,
	  "configs within {flat_spread} of each other, all under {far_fraction} of the peak",
	  "tuning will not help: A/B the whole step with TorchInductor kept off the smallest region"
	  " around {where} (that code in a function decorated with torch._dynamo.disable, or the"
	  " eager op called directly) against the compiled one (tko apply --keep-off MODULE:QUALNAME"
	  " runs that A/B and proves the region was kept off), or rewrite that code", NULL },
	{ "tuned", DECISION_TUNE, K, rule_tuned,
	  "tko tune found a correct variant at least {tune_gain} faster", NULL, NULL },
	{ "row_alignment", DECISION_REWRITE, K, rule_row_alignment,
	  "a reduction row not a multiple of {row_multiple} long, its accesses narrow",
	  REWRITE_AT "{rule_knobs}", NULL },
	{ "online_softmax", DECISION_TUNE, K, rule_online_softmax,
	  "an online softmax over a looped row: two exps per element", NULL, NULL },
	{ "tune_failure", DECISION_TUNE, K, rule_tune_failure,
	  "a tko tune variant failed with a known signature", NULL, NULL },
	{ "spills", DECISION_TUNE, ISA | SEARCH, rule_spills,
	  "registers spill to scratch / local memory", NULL, judges_spills },
	{ "divmod_offsets", DECISION_TUNE, K, rule_divmod_offsets,
	  "offsets built with // or %, and narrow accesses in the ISA", NULL, NULL },
	{ "narrow_access", DECISION_TUNE, ISA, rule_narrow_access,
	  "under {narrow_share} of {narrow_min_ops} or more global/buffer accesses are 128-bit",
	  NULL, judges_width },
	{ "no_buffer_ops", DECISION_TUNE, K, rule_no_buffer_ops,
	  "AMD: global instead of buffer ops, pointer range missing", NULL, NULL },
	{ "low_occupancy", DECISION_TUNE, ISA | SEARCH, rule_low_occupancy,
	  "AMD: {low_occupancy} or fewer waves per SIMD, no matrix instructions", NULL,
	  judges_occupancy },
	{ "slow_memory", DECISION_TUNE, RUN | SEARCH, rule_slow_memory,
	  "a memory-bound kernel under {slow_fraction} of the peak", NULL, NULL },
	{ "no_autotune", DECISION_TUNE, K | SEARCH, rule_no_autotune,
	  "no sweep ran: a cache hit or a single config, Inductor's path first",
	  "check Inductor's path before a sweep ({why}): try {rule_knobs}", NULL },
	{ "few_configs", DECISION_TUNE, K | SEARCH, rule_few_configs,
	  "a hot kernel the autotuner timed {few_configs} or fewer configs of", NULL, NULL },
	/*
	 * After every tune row: what tko tune does not try (a source change,
	 * a failure's explanation) still decides "tune", a rewrite or keep-off
	 * above decides as before, and only the config search is settled.
	 */
	{ "tune_found_nothing", DECISION_LEAVE, K, rule_tune_found_nothing,
	  "tko tune timed variants around the kernel's config and none beat it", NULL, NULL },
	{ "twopass_slower", DECISION_LEAVE, K, rule_twopass_slower,
	  "tko tune timed the two-pass softmax slower than the online one", NULL, NULL },
	{ "hot", DECISION_TUNE, K | RULE_FALLBACK | SEARCH, rule_hot,
	  "a hot kernel (at least {hot_share}) nothing else explains", NULL, NULL },
	{ "fp32_matmul", DECISION_REWRITE, RULE_GROUP, rule_fp32_matmul,
	  "a GEMM group of at least {lib_share} of the GPU busy time in fp32",
	  "change the model's settings: {rule_knobs}", NULL },
	{ "fp32_attention", DECISION_REWRITE, RULE_GROUP, rule_fp32_attention,
	  "an attention group of at least {lib_share} with fp32 inputs",
	  "change the model's settings: {rule_knobs}", NULL },
	{ "attention_backend", DECISION_TUNE, RULE_GROUP, rule_attention_backend,
	  "an attention group of at least {lib_share} on the memory-efficient or math backend",
	  "try: {rule_knobs}", NULL },
	{ "mm_max_autotune", DECISION_TUNE, RULE_GROUP, rule_mm_max_autotune,
	  "a GEMM group of at least {lib_share} and no Inductor mm template in the step",
	  "try: {rule_knobs}", NULL },
	{ "library_bound", DECISION_LEAVE, RULE_STEP, rule_library_bound,
	  "library groups hold at least {library_bound} of the GPU busy time", NULL, NULL },
	{ "idle_gpu", DECISION_REWRITE, RULE_STEP, rule_idle_gpu,
	  "the GPU is idle at least {idle_fraction} of the profiled span", NULL, NULL },
	{ "partial_profile", DECISION_MEASURE, RULE_STEP, rule_partial_profile,
	  "the profile ends early", NULL, NULL },
};

#undef K
#undef RUN
#undef ISA
#undef SEARCH
#undef REWRITE_AT

#define NRULES (sizeof(rules) / sizeof(rules[0]))

const struct rule *rules_table(size_t *n)
{
	*n = NRULES;
	return rules;
}

const struct rule *rule_find(const char *name)
{
	size_t i;

	for (i = 0; i < NRULES; i++)
		if (!strcmp(rules[i].name, name))
			return &rules[i];
	return NULL;
}

double rule_limit_value(const struct rule_limits *lim, const struct rule_limit_info *li)
{
	const char *p = (const char *)lim + li->off;

	if (li->unit == LIM_COUNT)
		return (double)*(const long *)(const void *)p;
	return *(const double *)(const void *)p;
}

char *rule_limit_text(const struct rule_limits *lim, const struct rule_limit_info *li)
{
	double v = rule_limit_value(lim, li);

	switch (li->unit) {
	case LIM_SHARE:
	case LIM_FRACTION:
		return xstrfmt("%.4g%%", 100 * v);
	case LIM_MS:
		return xstrfmt("%.4g us", 1000 * v);
	case LIM_RATIO:
		return xstrfmt("%.4gx", v);
	case LIM_BYTES:
		if (v >= 1 << 20 && fmod(v, 1 << 20) == 0)
			return xstrfmt("%.0f MiB", v / (1 << 20));
		if (v >= 1 << 10 && fmod(v, 1 << 10) == 0)
			return xstrfmt("%.0f KiB", v / (1 << 10));
		return xstrfmt("%.0f bytes", v);
	default:
		return xstrfmt("%.0f", v);
	}
}

/*
 * Appends `tmpl` to b with each "{name}" replaced by fill(data, name),
 * a new string; fill returns NULL for a name it does not know, which
 * stays as written (test-rules.c fails on it).
 */
static void expand(struct buf *b, const char *tmpl, char *(*fill)(const void *, const char *),
		   const void *data)
{
	const char *p = tmpl, *open, *close;

	while ((open = strchr(p, '{')) && (close = strchr(open, '}'))) {
		char *name = xstrndup(open + 1, (size_t)(close - open - 1));
		char *v = fill(data, name);

		buf_add(b, p, (size_t)(open - p));
		if (v)
			buf_adds(b, v);
		else
			buf_add(b, open, (size_t)(close + 1 - open));
		free(v);
		free(name);
		p = close + 1;
	}
	buf_adds(b, p);
}

static char *fill_limit(const void *data, const char *name)
{
	size_t i;

	for (i = 0; i < rule_nlimits; i++)
		if (!strcmp(rule_limit_info[i].name, name))
			return rule_limit_text(data, &rule_limit_info[i]);
	return NULL;
}

char *rule_summary(const struct rule *r, const struct rule_limits *lim)
{
	struct buf b = BUF_INIT;

	expand(&b, r->summary, fill_limit, lim);
	return buf_detach(&b, NULL);
}

/* "tests/gpu/model.py:37 in scatter", or the module, for action sentences. */
static char *where(const struct an_kernel *k)
{
	const struct an_origin *o = k->norigins ? &k->origins[0] : NULL;

	if (o)
		return xstrfmt("%s:%ld%s%s", o->file, o->line, o->function ? " in " : "",
			       o->function ? o->function : "");
	return xstrdup(k->module ? k->module : k->name);
}

/* The tune knobs of every tune rule that fired, "; " separated. */
static char *all_knobs(const struct an_kernel *k)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < k->nfired; i++)
		if (k->fired[i].knobs && k->fired[i].decision == DECISION_TUNE)
			buf_addf(&b, "%s%s", b.len ? "; " : "", k->fired[i].knobs);
	if (!b.len)
		buf_adds(&b, rules_tune_knobs(k));
	return buf_detach(&b, NULL);
}

struct action_ctx {
	const struct an_kernel *k;	/* NULL for a group */
	const struct an_fired *d;	/* the deciding rule */
};

static char *fill_action(const void *data, const char *name)
{
	const struct action_ctx *a = data;

	if (!strcmp(name, "why"))
		return xstrdup(a->d->why ? a->d->why : "");
	if (!strcmp(name, "rule_knobs"))
		return xstrdup(a->d->knobs ? a->d->knobs : "");
	if (!a->k)
		return NULL;
	if (!strcmp(name, "where"))
		return where(a->k);
	if (!strcmp(name, "knobs"))
		return all_knobs(a->k);
	if (!strcmp(name, "consumer"))
		return a->k->addr.zero_consumer ? xstrfmt(", %s", a->k->addr.zero_consumer) :
		       xstrdup("");
	return NULL;
}

char *rule_action(const struct rule *r, const struct an_kernel *k, const struct an_fired *d)
{
	struct action_ctx a = { k, d };
	struct buf b = BUF_INIT;

	expand(&b, r && r->action ? r->action : decision_info[d->decision].action, fill_action, &a);
	return buf_detach(&b, NULL);
}

void rules_fired_release(struct an_fired *f)
{
	size_t j;

	free(f->rule);
	free(f->why);
	free(f->knobs);
	for (j = 0; j < f->nev; j++)
		free(f->ev[j].key);
	free(f->ev);
	memset(f, 0, sizeof(*f));
}

static struct an_fired *fired_add(struct an_fired **v, size_t *n, const char *rule,
				  enum decision decision)
{
	struct an_fired *f;

	*v = rf_grow(*v, *n, sizeof(**v));
	f = &(*v)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->rule = xstrdup(rule);
	f->decision = decision;
	return f;
}

/* Tests row r on k (or the context's group or step), keeping what it found when it fires. */
static int try_row(const struct rule_ctx *c, const struct an_kernel *k, const struct rule *r,
		   struct an_fired **v, size_t *n)
{
	struct rule_out o = { fired_add(v, n, r->name, r->decision) };

	if (r->fires(c, k, &o))
		return 1;
	rules_fired_release(&(*v)[--(*n)]);
	return 0;
}

/*
 * Whether row r is one of those `scope` asks for (rules_fire). A config
 * search tko tune has already made without finding anything is no reason
 * to tune: its row is not tried (rules.h, RULE_SEARCH).
 */
static int in_scope(const struct rule *r, unsigned scope, const struct an_kernel *k)
{
	return (r->scope & scope) == scope &&
	       (!(r->scope & RULE_FALLBACK) || (scope & RULE_FALLBACK)) &&
	       !((r->scope & RULE_SEARCH) && rule_tune_searched(k));
}

size_t rules_fire(const struct rule_ctx *c, struct an_kernel *k, unsigned scope)
{
	size_t i, n = 0;

	for (i = 0; i < NRULES; i++)
		if (in_scope(&rules[i], scope, k))
			n += (size_t)try_row(c, k, &rules[i], &k->fired, &k->nfired);
	return n;
}

static void clear_decision(struct an_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nfired; i++)
		rules_fired_release(&k->fired[i]);
	free(k->fired);
	k->fired = NULL;
	k->nfired = 0;
	free(k->action);
	k->decision = DECISION_NONE;
	k->action = NULL;
}

void rules_apply_kernel(const struct an_run *r, struct an_kernel *k,
			const struct rule_limits *lim)
{
	struct rule_ctx c = { r, lim, NULL, 0 };

	clear_decision(k);
	rules_fire(&c, k, RULE_KERNEL);
	if (!k->nfired && !rules_fire(&c, k, RULE_KERNEL | RULE_FALLBACK)) {
		struct an_fired *f = fired_add(&k->fired, &k->nfired, "no_finding", DECISION_LEAVE);

		f->why = xstrdup("no rule found a reason to act");
	}
	k->decision = k->fired[0].decision;
	k->action = rule_action(rule_find(k->fired[0].rule), k, &k->fired[0]);
}

static void decide_group(struct rule_ctx *c, struct an_step_group *g)
{
	size_t i;

	c->group = g;
	for (i = 0; i < NRULES; i++)
		if (rules[i].scope & RULE_GROUP)
			try_row(c, NULL, &rules[i], &g->fired, &g->nfired);
	c->group = NULL;
	if (!g->nfired)
		return;
	g->decision = g->fired[0].decision;
	g->action = rule_action(rule_find(g->fired[0].rule), NULL, &g->fired[0]);
}

void rules_apply_step(struct an_run *r, const struct rule_limits *lim)
{
	struct rule_ctx c = { r, lim, NULL, 0 };
	size_t i;

	if (!r->profile.file)
		return;
	for (i = 0; i < r->nstep_groups; i++)
		if (r->step_groups[i].kernel && !strncmp(r->step_groups[i].kernel, "triton_tem_", 11))
			c.have_template = 1;
	for (i = 0; i < r->nstep_groups; i++)
		decide_group(&c, &r->step_groups[i]);
	for (i = 0; i < NRULES; i++)
		if (rules[i].scope & RULE_STEP)
			try_row(&c, NULL, &rules[i], &r->step_rules, &r->nstep_rules);
}

void rules_apply(struct an_run *r)
{
	size_t i;

	for (i = 0; i < r->nkernels; i++)
		rules_apply_kernel(r, &r->kernels[i], &rule_limits_default);
	rules_apply_step(r, &rule_limits_default);
}
