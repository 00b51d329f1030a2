/*
 * The decision rules (rules.h), one function each, listed in one table
 * in precedence order. A rule reads only the kernel's model and the run's
 * totals, so each can be tested on a kernel analysed from the corpus
 * (tests/unit/test-rules.c) and documented with the numbers it uses
 * (docs/rules.md, same order, same names).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/reflect.h"
#include "analyse/rules.h"
#include "analyse/rules_addr.h"
#include "analyse/rules_value.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

const struct rule_limits rule_limits_default = {
	.hot_share = 0.02,
	.near_peak = 0.80,
	.over_peak = 1.25,
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
};

static void ev(struct rule_out *o, const char *key, double value)
{
	struct an_fired *f = o->f;

	f->ev = rf_grow(f->ev, f->nev, sizeof(*f->ev));
	f->ev[f->nev].key = xstrdup(key);
	f->ev[f->nev++].value = value;
}

__attribute__((format(printf, 2, 3)))
static void why(struct rule_out *o, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	o->f->why = buf_detach(&b, NULL);
}

static void knobs(struct rule_out *o, const char *text)
{
	o->f->knobs = xstrdup(text);
}

static int has_share(const struct an_kernel *k)
{
	return !isnan(k->share);
}

static int hot(const struct rule_ctx *c, const struct an_kernel *k)
{
	return !has_share(k) || k->share >= c->lim->hot_share;
}

static int has_aten(const struct an_kernel *k, const char *const *ops)
{
	size_t i, j;

	for (i = 0; i < k->naten; i++)
		for (j = 0; ops[j]; j++)
			if (!strcmp(k->aten[i], ops[j]))
				return 1;
	return 0;
}

static int memory_bound_kind(const struct an_kernel *k)
{
	return (kind_flags(k->kind) & KIND_MEMORY_BOUND) && k->src_dot <= 0;
}

static int r_not_hot(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (!has_share(k) || k->share >= c->lim->hot_share)
		return 0;
	why(o, "it takes %.2f%% of the measured kernel time, under the %.0f%% that makes a kernel hot",
	    100 * k->share, 100 * c->lim->hot_share);
	ev(o, "share", k->share);
	ev(o, "hot_share", c->lim->hot_share);
	return 1;
}

static int r_init_only(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)c;
	if (k->src_loads != 0 || k->src_stores <= 0 || k->src_atomics > 0)
		return 0;
	why(o, "its source stores (%ld tl.store) and never loads or updates: it only initialises"
	    " memory%s", k->src_stores,
	    k->naten ? " for the op it belongs to; removing it means changing that op" : "");
	ev(o, "tl.load", 0);
	ev(o, "tl.store", (double)k->src_stores);
	return 1;
}

static int r_near_peak(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (isnan(k->peak_fraction) || k->peak_fraction < c->lim->near_peak ||
	    k->peak_fraction > c->lim->over_peak)
		return 0;
	why(o, "its footprint rate is %.0f GB/s, %.0f%% of the measured %.0f GB/s copy rate:"
	    " little is left to gain", k->gbps, 100 * k->peak_fraction, c->run->peak_gbps);
	ev(o, "footprint_gbps", k->gbps);
	ev(o, "peak_gbps", c->run->peak_gbps);
	ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

static const char *const gemm_ops[] = {
	"aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm", "aten.matmul",
	"aten.linear", "aten.convolution", NULL,
};

static int r_scalarised_gemm(const struct rule_ctx *c, const struct an_kernel *k,
			     struct rule_out *o)
{
	int reduces = !!(kind_flags(k->kind) & KIND_REDUCES);

	(void)c;
	if (!has_aten(k, gemm_ops) || !k->isa.file || k->isa.matrix_ops != 0 ||
	    !(k->src_dot > 0 || reduces))
		return 0;
	why(o, "it computes a GEMM (%s) %s, and its %s has no matrix instructions: the fused"
	    " kernel replaced the library GEMM with scalar code", k->aten[0],
	    k->src_dot > 0 ? "with tl.dot" : "as a reduction", k->isa.isa);
	ev(o, "matrix_ops", 0);
	ev(o, "tl.dot", (double)(k->src_dot > 0 ? k->src_dot : 0));
	return 1;
}

static int r_atomic_scatter(const struct rule_ctx *c, const struct an_kernel *k,
			    struct rule_out *o)
{
	long isa_atomics = k->isa.file ? k->isa.atomics : -1;

	if (!hot(c, k) || (isa_atomics <= 0 && k->src_atomics <= 0))
		return 0;
	if (isa_atomics > 0)
		why(o, "its %s has %ld atomic instructions (%ld returning the old value) from %ld"
		    " tl.atomic_* calls: every element is a read-modify-write that conflicting"
		    " indices serialise", k->isa.isa, isa_atomics, k->isa.atomics_returning,
		    k->src_atomics > 0 ? k->src_atomics : 0);
	else
		why(o, "its source has %ld tl.atomic_* calls (no ISA was read)", k->src_atomics);
	ev(o, "atomics", (double)(isa_atomics > 0 ? isa_atomics : 0));
	ev(o, "tl.atomic", (double)(k->src_atomics > 0 ? k->src_atomics : 0));
	if (has_share(k))
		ev(o, "share", k->share);
	return 1;
}

static int r_tiny_launch(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (isnan(k->time_ms) || k->time_ms >= c->lim->tiny_ms || k->launches < c->lim->tiny_launches)
		return 0;
	why(o, "%ld launches of %.4f ms each: launch overhead, not the kernel, is the cost",
	    k->launches, k->time_ms);
	ev(o, "launches", (double)k->launches);
	ev(o, "time_ms", k->time_ms);
	return 1;
}

/* Other model kernels with the same name and first source line, in another graph. */
static long same_code_graphs(const struct an_run *r, const struct an_kernel *k)
{
	long n = 1;
	size_t i;

	if (!k->norigins)
		return 1;
	for (i = 0; i < r->nkernels; i++) {
		const struct an_kernel *o = &r->kernels[i];

		if (o == k || strcmp(o->name, k->name) || !o->norigins ||
		    o->origins[0].line != k->origins[0].line ||
		    strcmp(o->origins[0].file, k->origins[0].file))
			continue;
		if (!o->graph || !k->graph || strcmp(o->graph, k->graph))
			n++;
	}
	return n;
}

static int r_shape_specialised(const struct rule_ctx *c, const struct an_kernel *k,
			       struct rule_out *o)
{
	long graphs = same_code_graphs(c->run, k);

	if (!hot(c, k) || (graphs < 2 && k->signatures < 2))
		return 0;
	if (graphs >= 2)
		why(o, "the same code (%s:%ld) was compiled into %ld graphs: Dynamo specialised it"
		    " on shapes", k->origins[0].file, k->origins[0].line, graphs);
	else
		why(o, "it was launched with %ld different argument signatures: one compiled"
		    " kernel serves several shapes", k->signatures);
	ev(o, "graphs", (double)graphs);
	ev(o, "signatures", (double)(k->signatures > 0 ? k->signatures : 0));
	return 1;
}

static int r_tuned(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	char how[200];

	if (!k->tune.file || isnan(k->tune.speedup) || k->tune.speedup < c->lim->tune_gain ||
	    !k->tune.winner)
		return 0;
	why(o, "tko tune found %s %.2fx faster than the autotuned config (%ld variants, %ld"
	    " correct)", k->tune.winner, k->tune.speedup, k->tune.variants, k->tune.correct);
	/* a mix-order reduction's split is Inductor codegen, not a triton.Config */
	if (k->tune.split_size > 0)
		snprintf(how, sizeof(how), "apply tko tune's winner, its split with "
			 "torch._inductor.config.triton.mix_order_reduction_split_size = %ld",
			 k->tune.split_size);
	else if (k->tune.online_softmax_off)
		snprintf(how, sizeof(how), "apply tko tune's winner: its two-pass softmax is "
			 "torch._inductor.config.online_softmax = False");
	else
		snprintf(how, sizeof(how), "apply tko tune's winner");
	knobs(o, how);
	ev(o, "speedup", k->tune.speedup);
	return 1;
}

/*
 * Inductor's online softmax over a looped row (prepare_softmax_online in a
 * non-persistent reduction) rescales its running sum at every step: two
 * exps per element where the two-pass form needs one. On the H200 the
 * two-pass form ran a 32000-wide cross-entropy 1.58x faster
 * (bench/online_softmax.py); tko tune's twopass variant times both on the
 * kernel's own inputs. Once tune has run, its result decides instead.
 */
static int r_online_softmax(const struct rule_ctx *c, const struct an_kernel *k,
			    struct rule_out *o)
{
	static const char *const online[] = { "prims.prepare_softmax_online", NULL };

	(void)c;
	if (k->kind != KIND_REDUCTION || !has_aten(k, online) || k->tune.file)
		return 0;
	why(o, "an online softmax over a looped row (prims.prepare_softmax_online) computes two exps"
	    " per element; the two-pass form computes one and reads the row twice");
	knobs(o, "tko tune (its twopass variant), or torch._inductor.config.online_softmax = False");
	if (!isnan(k->peak_fraction))
		ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

static int r_spills(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	long spills = k->isa.res.spills, scratch = k->isa.res.scratch_bytes;

	(void)c;
	if (!(spills > 0 || scratch > 0))
		return 0;
	why(o, "registers spill (%ld spilled, %ld scratch bytes per lane)", spills > 0 ? spills : 0,
	    scratch > 0 ? scratch : 0);
	knobs(o, "smaller block sizes, more num_warps, fewer num_stages");
	ev(o, "spills", (double)(spills > 0 ? spills : 0));
	ev(o, "scratch_bytes", (double)(scratch > 0 ? scratch : 0));
	return 1;
}

static int r_narrow_access(const struct rule_ctx *c, const struct an_kernel *k,
			   struct rule_out *o)
{
	if (!k->isa.file || k->isa.mem_ops < c->lim->narrow_min_ops ||
	    isnan(k->isa.vector_share) || k->isa.vector_share >= c->lim->narrow_share)
		return 0;
	why(o, "%ld of %ld global/buffer accesses move 128 bits per lane (%.0f%%), %ld move 32"
	    " bits or fewer", k->isa.mem_wide, k->isa.mem_ops, 100 * k->isa.vector_share,
	    k->isa.mem_narrow);
	knobs(o, "a larger XBLOCK per thread, tl.multiple_of / tl.max_contiguous on offsets"
	      " (tko tune's hints variant)");
	ev(o, "mem_ops", (double)k->isa.mem_ops);
	ev(o, "mem_wide", (double)k->isa.mem_wide);
	ev(o, "vector_share", k->isa.vector_share);
	return 1;
}

/*
 * Buffer ops only for a memory-bound kernel not already near the peak, and
 * never once tko tune saw them fail to compile on this stack: the brief's
 * gfx938 stack failed to lower them, so the knob says to compile-probe first.
 */
static int r_no_buffer_ops(const struct rule_ctx *c, const struct an_kernel *k,
			   struct rule_out *o)
{
	if (!k->isa.isa || strcmp(k->isa.isa, "amdgcn") || k->isa.global_ops <= 0 ||
	    k->isa.buffer_ops != 0 || !k->nno_pointer_range || !memory_bound_kind(k) ||
	    (!isnan(k->peak_fraction) && k->peak_fraction >= c->lim->near_peak) ||
	    k->tune.buffer_ops_failed)
		return 0;
	why(o, "a memory-bound kernel whose AMDGCN uses %ld global and no buffer loads/stores, and"
	    " %zu pointer arguments lack tt.pointer_range=32, which buffer ops need",
	    k->isa.global_ops, k->nno_pointer_range);
	knobs(o, "compile-probe buffer ops first (tko tune --compile-only on the target: its bufops"
	      " variant shows whether this stack lowers them), then tt.pointer_range=32 on the"
	      " pointer arguments with AMDGCN_USE_BUFFER_OPS=1 (tko tune's ptr32 and bufops"
	      " variants)");
	ev(o, "global_ops", (double)k->isa.global_ops);
	ev(o, "buffer_ops", 0);
	ev(o, "pointers_without_range", (double)k->nno_pointer_range);
	return 1;
}

static int r_low_occupancy(const struct rule_ctx *c, const struct an_kernel *k,
			   struct rule_out *o)
{
	long occ = k->isa.res.occupancy;

	if (occ < 0 || occ > c->lim->low_occupancy || k->isa.matrix_ops > 0)
		return 0;
	why(o, "only %ld waves per SIMD fit (VGPRs %ld, LDS %ld bytes)", occ, k->isa.res.vgprs,
	    k->isa.res.lds_bytes);
	knobs(o, "num_warps, waves_per_eu, smaller blocks");
	ev(o, "occupancy", (double)occ);
	ev(o, "vgprs", (double)k->isa.res.vgprs);
	return 1;
}

static int r_slow_memory(const struct rule_ctx *c, const struct an_kernel *k,
			 struct rule_out *o)
{
	if (!memory_bound_kind(k) || isnan(k->peak_fraction) ||
	    k->peak_fraction >= c->lim->slow_fraction)
		return 0;
	why(o, "a memory-bound %s kernel at %.0f GB/s, %.0f%% of the measured %.0f GB/s",
	    kind_names[k->kind], k->gbps, 100 * k->peak_fraction, c->run->peak_gbps);
	knobs(o, k->kind == KIND_POINTWISE ? "XBLOCK, num_warps" : "R0_BLOCK, XBLOCK, num_warps");
	ev(o, "footprint_gbps", k->gbps);
	ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

static int r_few_configs(const struct rule_ctx *c, const struct an_kernel *k,
			 struct rule_out *o)
{
	if (!has_share(k) || k->share < c->lim->hot_share || k->configs_timed < 0 ||
	    k->configs_timed > c->lim->few_configs || rules_autotune_path_explains(k))
		return 0;
	why(o, "the autotuner timed %ld config%s (%s) for a kernel taking %.1f%% of the time",
	    k->configs_timed, k->configs_timed == 1 ? "" : "s",
	    k->chosen_by != AT_METHOD_NONE ? at_method_names[k->chosen_by] : "no choice recorded",
	    100 * k->share);
	knobs(o, k->kind == KIND_TEMPLATE ? "BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps" :
	      "block sizes and num_warps around the chosen config (coordinate descent)");
	ev(o, "configs_timed", (double)k->configs_timed);
	ev(o, "share", k->share);
	return 1;
}

static int r_no_time(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)c;
	if (!isnan(k->time_ms))
		return 0;
	why(o, "no time was measured for it (%s): its share of the run is unknown",
	    k->chosen_by == AT_SINGLE_CONFIG ?
	    "it had a single config, so the autotuner never timed it" : "no timed config");
	ev(o, "configs_timed", (double)(k->configs_timed > 0 ? k->configs_timed : 0));
	return 1;
}

static int r_hot(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (!has_share(k) || k->share < c->lim->hot_share)
		return 0;
	why(o, "it takes %.1f%% of the measured kernel time and no other rule found a cause",
	    100 * k->share);
	knobs(o, k->kind == KIND_TEMPLATE ? "BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps" :
	      "block sizes and num_warps");
	ev(o, "share", k->share);
	return 1;
}

/* The precedence order; rules.h says how a decision is made from it. */
static const struct rule rules[] = {
	{ "not_hot", DECISION_LEAVE, r_not_hot, "under 2% of the measured kernel time" },
	{ "zero_init", DECISION_REWRITE, rule_zero_init,
	  "it only writes zeros: move the initialisation into the consumer" },
	{ "init_only", DECISION_LEAVE, r_init_only, "the source only stores: it initialises memory" },
	{ "small_copy", DECISION_LEAVE, rule_small_copy, "a copy of under 1 MiB: launch-bound" },
	{ "near_peak", DECISION_LEAVE, r_near_peak, "footprint rate at 80% or more of the measured peak" },
	{ "no_time", DECISION_MEASURE, r_no_time, "no time measured: hot or not is unknown" },
	{ "scalarised_gemm", DECISION_KEEP_OFF, r_scalarised_gemm,
	  "a GEMM fused into a kernel with no matrix instructions" },
	{ "atomic_scatter", DECISION_REWRITE, r_atomic_scatter, "atomic read-modify-writes (scatter, index_add)" },
	{ "tiny_launch", DECISION_REWRITE, r_tiny_launch, "many launches under 10 us each" },
	{ "shape_specialised", DECISION_REWRITE, r_shape_specialised,
	  "the same code compiled for several graphs or launched with several signatures" },
	{ "element_gather", DECISION_REWRITE, rule_element_gather,
	  "loads through a loaded index, one element per lane" },
	{ "scattered_store", DECISION_REWRITE, rule_scattered_store, "plain stores through a loaded index" },
	{ "strided_lanes", DECISION_REWRITE, rule_strided_lanes, "accesses with no stride-1 index term" },
	{ "flat_configs", DECISION_KEEP_OFF, rule_flat_configs,
	  "configs within 5% of each other, all under 25% of the peak" },
	{ "tuned", DECISION_TUNE, r_tuned, "tko tune found a faster correct variant" },
	{ "online_softmax", DECISION_TUNE, r_online_softmax,
	  "an online softmax over a looped row: two exps per element" },
	{ "tune_failure", DECISION_TUNE, rule_tune_failure, "a tko tune variant failed with a known signature" },
	{ "spills", DECISION_TUNE, r_spills, "registers spill to scratch / local memory" },
	{ "divmod_offsets", DECISION_TUNE, rule_divmod_offsets,
	  "offsets built with // or %, and narrow accesses in the ISA" },
	{ "narrow_access", DECISION_TUNE, r_narrow_access, "under half the global accesses are 128-bit" },
	{ "no_buffer_ops", DECISION_TUNE, r_no_buffer_ops, "AMD: global instead of buffer ops, pointer range missing" },
	{ "low_occupancy", DECISION_TUNE, r_low_occupancy, "AMD: 2 or fewer waves per SIMD" },
	{ "slow_memory", DECISION_TUNE, r_slow_memory, "a memory-bound kernel under 50% of the peak" },
	{ "no_autotune", DECISION_TUNE, rule_no_autotune,
	  "no sweep ran: a cache hit or a single config, Inductor's path first" },
	{ "few_configs", DECISION_TUNE, r_few_configs, "a hot kernel the autotuner timed one config of" },
	/* the fallback: tried only when no rule above fired */
	{ "hot", DECISION_TUNE, r_hot, "a hot kernel nothing else explains" },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

const struct rule *rules_table(size_t *n)
{
	*n = NRULES;
	return rules;
}

static struct an_fired *fired_add(struct an_kernel *k, const char *rule, enum decision decision)
{
	struct an_fired *f;

	k->fired = rf_grow(k->fired, k->nfired, sizeof(*k->fired));
	f = &k->fired[k->nfired++];
	memset(f, 0, sizeof(*f));
	f->rule = xstrdup(rule);
	f->decision = decision;
	return f;
}

/* Drops the last fired entry, which its rule left empty. */
static void fired_drop(struct an_kernel *k)
{
	struct an_fired *f = &k->fired[--k->nfired];

	free(f->rule);
}

static void clear_decision(struct an_kernel *k)
{
	size_t i, j;

	for (i = 0; i < k->nfired; i++) {
		free(k->fired[i].rule);
		free(k->fired[i].why);
		free(k->fired[i].knobs);
		for (j = 0; j < k->fired[i].nev; j++)
			free(k->fired[i].ev[j].key);
		free(k->fired[i].ev);
	}
	free(k->fired);
	k->fired = NULL;
	k->nfired = 0;
	free(k->action);
	k->decision = DECISION_NONE;
	k->action = NULL;
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
	return buf_detach(&b, NULL);
}

static char *core_action(const struct an_kernel *k, const struct an_fired *d, const char *at)
{
	char *kn = all_knobs(k), *s;

	if (d->decision == DECISION_LEAVE)
		s = xstrfmt("leave it alone: %s", d->why);
	else if (d->decision == DECISION_KEEP_OFF)
		s = xstrfmt("keep TorchInductor off this region: put the code at %s in a function"
			    " decorated with torch._dynamo.disable (or end the torch.compile region"
			    " before it) so the library GEMM runs", at);
	else if (!strcmp(d->rule, "atomic_scatter"))
		s = xstrfmt("rewrite the model code at %s: fewer conflicting atomics (sort the"
			    " indices and reduce segments, or make each output row one program's)", at);
	else if (!strcmp(d->rule, "tiny_launch"))
		s = xstrfmt("rewrite the model code at %s: batch the small calls into one, or run"
			    " the step under CUDA/HIP graphs (mode=\"reduce-overhead\")", at);
	else if (d->decision == DECISION_REWRITE)
		s = xstrfmt("rewrite the model code at %s: fix the shapes (pad to a few sizes) or"
			    " mark the varying dimension dynamic (torch._dynamo.mark_dynamic)", at);
	else if (d->decision == DECISION_TUNE)
		s = xstrfmt("tune it: try %s first", *kn ? kn : "block sizes and num_warps");
	else
		s = xstrfmt("measure it first (see the gaps), then decide");
	free(kn);
	return s;
}

/* The sentence saying what to do: the deciding rule's own, else its decision's. */
static char *action_for(const struct an_kernel *k, const struct an_fired *d)
{
	char *at = where(k), *s = rules_addr_action(d, at);

	if (!s)
		s = rules_value_action(k, d, at);
	if (!s)
		s = core_action(k, d, at);
	free(at);
	return s;
}

static int try_rule(const struct rule_ctx *c, struct an_kernel *k, const struct rule *r)
{
	struct rule_out o = { fired_add(k, r->name, r->decision) };

	if (r->fires(c, k, &o))
		return 1;
	fired_drop(k);
	return 0;
}

void rules_apply_kernel(const struct an_run *r, struct an_kernel *k,
			const struct rule_limits *lim)
{
	struct rule_ctx c = { r, lim };
	size_t i;

	clear_decision(k);
	for (i = 0; i + 1 < NRULES; i++)
		try_rule(&c, k, &rules[i]);
	if (!k->nfired && !try_rule(&c, k, &rules[NRULES - 1])) {
		struct an_fired *f = fired_add(k, "no_finding", DECISION_LEAVE);

		f->why = xstrdup("no rule found a reason to act");
	}
	k->decision = k->fired[0].decision;
	k->action = action_for(k, &k->fired[0]);
}

void rules_apply(struct an_run *r)
{
	size_t i;

	for (i = 0; i < r->nkernels; i++)
		rules_apply_kernel(r, &r->kernels[i], &rule_limits_default);
}
