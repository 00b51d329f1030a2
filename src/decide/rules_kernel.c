/*
 * The kernel rules written first (rules.h): whether a kernel is hot, near
 * the peak, timed at all; what its ISA shows (no matrix instructions in a
 * GEMM, atomics, spills, narrow accesses, no buffer ops, low occupancy);
 * what tko tune found; how the autotuner covered it. rules.c lists them
 * in its table with the rules of rules_addr.c and rules_value.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decide/rules_kernel.h"
#include "decide/rules_kit.h"
#include "decide/rules_measured.h"
#include "decide/rules_value.h"
#include "util/plural.h"
#include "banned.h"

int rule_not_hot(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (isnan(k->share) || k->share >= c->lim->hot_share)
		return 0;
	rk_why(o, "it takes %.2f%% of the measured kernel time, under the %.0f%% that makes a kernel hot",
	       100 * k->share, 100 * c->lim->hot_share);
	rk_ev(o, "share", k->share);
	rk_ev(o, "hot_share", c->lim->hot_share);
	return 1;
}

int rule_init_only(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)c;
	if (k->src_loads != 0 || k->src_stores <= 0 || k->src_atomics > 0)
		return 0;
	rk_why(o, "its source stores (%ld tl.store) and never loads or updates: it only initialises"
	       " memory%s", k->src_stores,
	       k->naten ? " for the op it belongs to; removing it means changing that op" : "");
	rk_ev(o, "tl.load", 0);
	rk_ev(o, "tl.store", (double)k->src_stores);
	return 1;
}

int rule_near_peak(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (isnan(k->peak_fraction) || k->peak_fraction < c->lim->near_peak ||
	    k->peak_fraction > c->lim->over_peak)
		return 0;
	rk_why(o, "it moves its bytes at %.0f GB/s%s, %.0f%% of the measured %.0f GB/s copy rate:"
	       " little is left to gain", k->gbps, k->bytes_estimate ? " (an estimate)" : "",
	       100 * k->peak_fraction, c->run->peak_gbps);
	rk_ev(o, "gbps", k->gbps);
	rk_ev(o, "peak_gbps", c->run->peak_gbps);
	rk_ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

static const char *const gemm_ops[] = {
	"aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm", "aten.matmul",
	"aten.linear", "aten.convolution", NULL,
};

int rule_scalarised_gemm(const struct rule_ctx *c, const struct an_kernel *k,
			 struct rule_out *o)
{
	int reduces = !!(kind_flags(k->kind) & KIND_REDUCES);

	(void)c;
	if (!rk_has_aten(k, gemm_ops) || !k->isa.file || k->isa.matrix_ops != 0 ||
	    !(k->src_dot > 0 || reduces))
		return 0;
	rk_why(o, "it computes a GEMM (%s) %s, and its %s has no matrix instructions: the fused"
	       " kernel replaced the library GEMM with scalar code", k->aten[0],
	       k->src_dot > 0 ? "with tl.dot" : "as a reduction", k->isa.isa);
	rk_ev(o, "matrix_ops", 0);
	rk_ev(o, "tl.dot", (double)(k->src_dot > 0 ? k->src_dot : 0));
	return 1;
}

int rule_atomic_scatter(const struct rule_ctx *c, const struct an_kernel *k,
			struct rule_out *o)
{
	long isa_atomics = k->isa.file ? k->isa.atomics : -1;

	if (!rk_hot(c, k) || (isa_atomics <= 0 && k->src_atomics <= 0))
		return 0;
	if (isa_atomics > 0)
		rk_why(o, "its %s has %ld atomic instruction%s (%ld returning the old value) from %ld"
		       " tl.atomic_* call%s: every element is a read-modify-write that conflicting"
		       " indices serialise", k->isa.isa, isa_atomics, plural(isa_atomics),
		       k->isa.atomics_returning, k->src_atomics > 0 ? k->src_atomics : 0,
		       plural(k->src_atomics > 0 ? k->src_atomics : 0));
	else
		rk_why(o, "its source has %ld tl.atomic_* call%s (no ISA was read)", k->src_atomics,
		       plural(k->src_atomics));
	rk_ev(o, "atomics", (double)(isa_atomics > 0 ? isa_atomics : 0));
	rk_ev(o, "tl.atomic", (double)(k->src_atomics > 0 ? k->src_atomics : 0));
	if (!isnan(k->share))
		rk_ev(o, "share", k->share);
	return 1;
}

int rule_tiny_launch(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (isnan(k->time_ms) || k->time_ms >= c->lim->tiny_ms || k->launches < c->lim->tiny_launches)
		return 0;
	rk_why(o, "%ld launch%s of %.4f ms each: launch overhead, not the kernel, is the cost",
	       k->launches, plural_word(k->launches, "", "es"), k->time_ms);
	rk_ev(o, "launches", (double)k->launches);
	rk_ev(o, "time_ms", k->time_ms);
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

int rule_shape_specialised(const struct rule_ctx *c, const struct an_kernel *k,
			   struct rule_out *o)
{
	long graphs = same_code_graphs(c->run, k);

	if (!rk_hot(c, k) || (graphs < 2 && k->signatures < 2))
		return 0;
	if (graphs >= 2)
		rk_why(o, "the same code (%s:%ld) was compiled into %ld graphs: Dynamo specialised it"
		       " on shapes", k->origins[0].file, k->origins[0].line, graphs);
	else
		rk_why(o, "it was launched with %ld different argument signatures: one compiled"
		       " kernel serves several shapes", k->signatures);
	rk_ev(o, "graphs", (double)graphs);
	rk_ev(o, "signatures", (double)(k->signatures > 0 ? k->signatures : 0));
	return 1;
}

int rule_tuned(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	char how[200];

	if (!k->tune.file || isnan(k->tune.speedup) || k->tune.speedup < c->lim->tune_gain ||
	    !k->tune.winner)
		return 0;
	rk_why(o, "tko tune found %s %.2fx faster than the autotuned config (%ld variant%s, %ld"
	       " correct)", k->tune.winner, k->tune.speedup, k->tune.variants,
	       plural(k->tune.variants), k->tune.correct);
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
	rk_knobs(o, how);
	rk_ev(o, "speedup", k->tune.speedup);
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
int rule_online_softmax(const struct rule_ctx *c, const struct an_kernel *k,
			struct rule_out *o)
{
	static const char *const online[] = { "prims.prepare_softmax_online", NULL };

	(void)c;
	/* a tune result decides: its twopass variant won (tuned) or lost (twopass_slower) */
	if (k->kind != KIND_REDUCTION || !rk_has_aten(k, online) || k->tune.file ||
	    !isnan(k->tune.twopass_speedup))
		return 0;
	rk_why(o, "an online softmax over a looped row (prims.prepare_softmax_online) computes two exps"
	       " per element; the two-pass form computes one and reads the row twice");
	rk_knobs(o, "tko tune (its twopass variant), or torch._inductor.config.online_softmax = False");
	if (!isnan(k->peak_fraction))
		rk_ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

int rule_spills(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	long spills = k->isa.res.spills, scratch = k->isa.res.scratch_bytes;

	(void)c;
	/*
	 * A device function's scratch is its own call frame (DTK links
	 * compiler-rt's __softfloat_* helpers into a code object whether a
	 * kernel calls them or not); a kernel that calls it counts that frame
	 * in its own scratch size, so the entry alone is judged.
	 */
	if (k->isa.device_function)
		return 0;
	if (!(spills > 0 || scratch > 0))
		return 0;
	rk_why(o, "registers spill (%ld spilled, %ld scratch byte%s per lane)", spills > 0 ? spills : 0,
	       scratch > 0 ? scratch : 0, plural(scratch > 0 ? scratch : 0));
	rk_knobs(o, "smaller block sizes, more num_warps, fewer num_stages");
	rk_ev(o, "spills", (double)(spills > 0 ? spills : 0));
	rk_ev(o, "scratch_bytes", (double)(scratch > 0 ? scratch : 0));
	return 1;
}

int rule_narrow_access(const struct rule_ctx *c, const struct an_kernel *k,
		       struct rule_out *o)
{
	if (!k->isa.file || k->isa.mem_ops < c->lim->narrow_min_ops ||
	    isnan(k->isa.vector_share) || k->isa.vector_share >= c->lim->narrow_share)
		return 0;
	rk_why(o, "%ld of %ld global/buffer accesses move 128 bits per lane (%.0f%%), %ld move 32"
	       " bits or fewer", k->isa.mem_wide, k->isa.mem_ops, 100 * k->isa.vector_share,
	       k->isa.mem_narrow);
	if (rule_hints_useless(k))
		rk_knobs(o, "a larger XBLOCK per thread (not tl.multiple_of / tl.max_contiguous: tko"
			 " tune's hints variants compiled to the same ISA as without them)");
	else
		rk_knobs(o, "a larger XBLOCK per thread, tl.multiple_of / tl.max_contiguous on offsets"
			 " (tko tune's hints variant)");
	rk_ev(o, "mem_ops", (double)k->isa.mem_ops);
	rk_ev(o, "mem_wide", (double)k->isa.mem_wide);
	rk_ev(o, "vector_share", k->isa.vector_share);
	return 1;
}

/*
 * Buffer ops only for a memory-bound kernel not already near the peak, and
 * never once tko tune saw them fail to compile on this stack: the brief's
 * gfx938 stack failed to lower them, so the knob says to compile-probe first.
 */
int rule_no_buffer_ops(const struct rule_ctx *c, const struct an_kernel *k,
		       struct rule_out *o)
{
	if (!k->isa.isa || strcmp(k->isa.isa, "amdgcn") || k->isa.global_ops <= 0 ||
	    k->isa.buffer_ops != 0 || !k->nno_pointer_range || !rk_memory_bound(k) ||
	    (!isnan(k->peak_fraction) && k->peak_fraction >= c->lim->near_peak) ||
	    k->tune.buffer_ops_failed)
		return 0;
	rk_why(o, "a memory-bound kernel whose AMDGCN uses %ld global and no buffer loads/stores, and"
	       " %zu pointer argument%s %s tt.pointer_range=32, which buffer ops need",
	       k->isa.global_ops, k->nno_pointer_range, plural((long long)k->nno_pointer_range),
	       plural_word((long long)k->nno_pointer_range, "lacks", "lack"));
	rk_knobs(o, "compile-probe buffer ops first (tko tune --compile-only on the target: its bufops"
		 " variant shows whether this stack lowers them), then tt.pointer_range=32 on the"
		 " pointer arguments with AMDGCN_USE_BUFFER_OPS=1 (tko tune's ptr32 and bufops"
		 " variants)");
	rk_ev(o, "global_ops", (double)k->isa.global_ops);
	rk_ev(o, "buffer_ops", 0);
	rk_ev(o, "pointers_without_range", (double)k->nno_pointer_range);
	return 1;
}

int rule_low_occupancy(const struct rule_ctx *c, const struct an_kernel *k,
		       struct rule_out *o)
{
	long occ = k->isa.res.occupancy;

	if (occ < 0 || occ > c->lim->low_occupancy || k->isa.matrix_ops > 0)
		return 0;
	rk_why(o, "only %ld wave%s per SIMD %s (VGPRs %ld, LDS %ld byte%s)", occ, plural(occ),
	       plural_word(occ, "fits", "fit"), k->isa.res.vgprs, k->isa.res.lds_bytes,
	       plural(k->isa.res.lds_bytes));
	rk_knobs(o, "num_warps, waves_per_eu, smaller blocks");
	rk_ev(o, "occupancy", (double)occ);
	rk_ev(o, "vgprs", (double)k->isa.res.vgprs);
	return 1;
}

int rule_slow_memory(const struct rule_ctx *c, const struct an_kernel *k,
		     struct rule_out *o)
{
	if (!rk_memory_bound(k) || isnan(k->peak_fraction) ||
	    k->peak_fraction >= c->lim->slow_fraction)
		return 0;
	rk_why(o, "a memory-bound %s kernel at %.0f GB/s%s, %.0f%% of the measured %.0f GB/s copy rate",
	       kind_names[k->kind], k->gbps, k->bytes_estimate ? " (an estimate)" : "",
	       100 * k->peak_fraction, c->run->peak_gbps);
	rk_knobs(o, k->kind == KIND_POINTWISE ? "XBLOCK, num_warps" : "R0_BLOCK, XBLOCK, num_warps");
	rk_ev(o, "gbps", k->gbps);
	rk_ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

/* Inductor fixes these kernels' block in the body: tko tune sweeps the launch only. */
static int fixed_block(const struct an_kernel *k)
{
	return k->kind == KIND_FOREACH || k->kind == KIND_SPLIT_SCAN ||
	       k->kind == KIND_FIXED_CONFIG;
}

const char *rules_tune_knobs(const struct an_kernel *k)
{
	if (k->kind == KIND_TEMPLATE)
		return "BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps";
	if (fixed_block(k))
		return "num_warps (the block size is fixed in the kernel's body)";
	return "block sizes and num_warps";
}

int rule_few_configs(const struct rule_ctx *c, const struct an_kernel *k,
		     struct rule_out *o)
{
	if (isnan(k->share) || k->share < c->lim->hot_share || k->configs_timed < 0 ||
	    k->configs_timed > c->lim->few_configs || rules_autotune_path_explains(k))
		return 0;
	rk_why(o, "the autotuner timed %ld config%s (%s) for a kernel taking %.1f%% of the time",
	       k->configs_timed, plural(k->configs_timed),
	       k->chosen_by != AT_METHOD_NONE ? at_method_names[k->chosen_by] : "no choice recorded",
	       100 * k->share);
	rk_knobs(o, k->kind == KIND_TEMPLATE || fixed_block(k) ? rules_tune_knobs(k) :
		 "block sizes and num_warps around the chosen config (coordinate descent)");
	rk_ev(o, "configs_timed", (double)k->configs_timed);
	rk_ev(o, "share", k->share);
	return 1;
}

int rule_no_time(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)c;
	if (!isnan(k->time_ms))
		return 0;
	rk_why(o, "no time was measured for it (%s): its share of the run is unknown",
	       k->chosen_by == AT_SINGLE_CONFIG ?
	       "it had a single config, so the autotuner never timed it" : "no timed config");
	rk_ev(o, "configs_timed", (double)(k->configs_timed > 0 ? k->configs_timed : 0));
	return 1;
}

int rule_hot(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (isnan(k->share) || k->share < c->lim->hot_share)
		return 0;
	rk_why(o, "it takes %.1f%% of the measured kernel time and no other rule found a cause",
	       100 * k->share);
	rk_knobs(o, rules_tune_knobs(k));
	rk_ev(o, "share", k->share);
	return 1;
}
