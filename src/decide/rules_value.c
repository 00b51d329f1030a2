/*
 * Rules about whether tuning is worth it (rules_value.h). The brief's
 * notes: do not tune a kernel that only initialises memory (move the
 * initialisation into the consumer), a small copy, or one whose configs
 * are nearly identical and all far below the roofline for structural
 * reasons; "no autotune where one was expected" may be a cache hit or a
 * single config, so look at Inductor's path before sweeping; compile-probe
 * buffer ops, whose failures have known signatures.
 */
#include <math.h>

#include "decide/rules_kit.h"
#include "decide/rules_value.h"
#include "util/plural.h"
#include "banned.h"

int rule_zero_init(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_addr *a = &k->addr;

	(void)c;
	if (a->zero_stores <= 0 || a->zero_stores != a->stores || k->src_loads != 0 ||
	    k->src_atomics > 0)
		return 0;
	rk_why(o, "it only writes zeros (%ld tl.store of a constant 0%s%s)%s%s: an initialisation"
	       " the buffer's consumer could do itself", a->zero_stores, a->zero_param ? " to " : "",
	       a->zero_param ? a->zero_param : "",
	       a->zero_consumer ? "; the wrapper hands that buffer next to " : "",
	       a->zero_consumer ? a->zero_consumer : "");
	rk_ev(o, "zero_stores", (double)a->zero_stores);
	rk_ev(o, "tl.load", 0);
	if (!isnan(k->bytes))
		rk_ev(o, "bytes", k->bytes);
	return 1;
}

static int listed(const char *op, const char *const *set)
{
	size_t i;

	for (i = 0; set[i]; i++)
		if (!strcmp(op, set[i]))
			return 1;
	return 0;
}

/* ATen ops that copy, and the views around them (Inductor fuses a permute into a clone). */
static const char *const copy_ops[] = {
	"aten.clone", "aten.copy_", "aten.copy", "aten._to_copy", "aten.cat", NULL,
};
static const char *const view_ops[] = {
	"aten.view", "aten._unsafe_view", "aten.reshape", "aten.permute", "aten.transpose",
	"aten.t", "aten.expand", "aten.slice", "aten.select", "aten.unsqueeze", "aten.squeeze",
	"aten.as_strided", "aten.alias", NULL,
};

/* The first copy op, when every ATen op of the kernel is a copy or a view; else NULL. */
static const char *copy_only(const struct an_kernel *k)
{
	const char *copy = NULL;
	size_t i;

	for (i = 0; i < k->naten; i++) {
		if (listed(k->aten[i], copy_ops))
			copy = copy ? copy : k->aten[i];
		else if (!listed(k->aten[i], view_ops))
			return NULL;
	}
	return copy;
}

int rule_small_copy(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const char *copy = copy_only(k);

	if (!copy || k->src_loads <= 0 || k->src_stores <= 0 || k->src_atomics > 0 ||
	    k->src_dot > 0 || isnan(k->bytes) || k->bytes >= c->lim->small_bytes)
		return 0;
	rk_why(o, "it only copies (%s) %.0f KiB: a copy this small costs its launch, not its"
	       " bandwidth, and there is nothing to tune; if it shows up, remove the copy in the"
	       " model code (a view instead of clone or .contiguous(), or the layout its consumer"
	       " reads)", copy, k->bytes / 1024);
	rk_ev(o, "bytes", k->bytes);
	rk_ev(o, "small_bytes", c->lim->small_bytes);
	return 1;
}

int rule_flat_configs(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	const struct an_config *best = an_kernel_chosen(k);
	double lo = INFINITY, hi = 0;
	long n = 0;
	size_t i;

	if (!best || isnan(k->peak_fraction) || k->peak_fraction >= c->lim->far_fraction)
		return 0;
	for (i = 0; i < k->nconfigs; i++) {
		const struct an_config *x = &k->configs[i];

		if (x->failed || isnan(x->time_ms) || x->time_ms <= 0 || x->method != best->method)
			continue;
		lo = x->time_ms < lo ? x->time_ms : lo;
		hi = x->time_ms > hi ? x->time_ms : hi;
		n++;
	}
	if (n < 2 || hi / lo - 1 > c->lim->flat_spread)
		return 0;
	rk_why(o, "its %ld timed configs are within %.1f%% of each other (%.4f to %.4f ms) and the"
	       " fastest runs at %.0f%% of the measured %.0f GB/s: the config does not matter, the"
	       " kernel's structure does", n, 100 * (hi / lo - 1), lo, hi, 100 * k->peak_fraction,
	       c->run->peak_gbps);
	rk_ev(o, "configs_timed", (double)n);
	rk_ev(o, "spread", hi / lo - 1);
	rk_ev(o, "peak_fraction", k->peak_fraction);
	return 1;
}

int rules_autotune_path_explains(const struct an_kernel *k)
{
	return k->chosen_by == AT_CACHE_HIT || k->chosen_by == AT_SINGLE_CONFIG;
}

int rule_no_autotune(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	int cache;

	if (!rk_hot(c, k) || k->configs_timed > c->lim->few_configs ||
	    !rules_autotune_path_explains(k))
		return 0;
	cache = k->chosen_by == AT_CACHE_HIT;
	if (cache) {
		rk_why(o, "its config came from Inductor's autotune cache, so this run timed none:"
		       " the sweep ran in an earlier process, on that process's inputs");
		rk_knobs(o, "an empty TORCHINDUCTOR_CACHE_DIR (or TORCHINDUCTOR_FORCE_DISABLE_CACHES=1)"
			 " to see Inductor's own sweep, before tko tune");
	} else {
		rk_why(o, "Inductor built it with %ld config%s, so nothing was timed: pointwise"
		       " kernels get more with max_autotune_pointwise, reductions with max_autotune,"
		       " and coordinate_descent_tuning searches around the one", (long)k->nconfigs,
		       plural(k->nconfigs));
		rk_knobs(o, "torch._inductor.config.max_autotune_pointwise = True (reductions:"
			 " max_autotune) or coordinate_descent_tuning = True, before tko tune");
	}
	rk_ev(o, "configs_timed", (double)(k->configs_timed > 0 ? k->configs_timed : 0));
	rk_ev(o, "cache_hit", cache);
	return 1;
}

int rule_tune_failure(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)c;
	if (!k->tune.failure)
		return 0;
	rk_why(o, "tko tune's variant %s", k->tune.failure);
	rk_knobs(o, k->tune.buffer_ops_failed ?
		 "keep AMDGCN_USE_BUFFER_OPS off on this stack (its buffer-op variant did not compile)" :
		 "leave out the hint that failing variant added");
	rk_ev(o, "buffer_ops_failed", k->tune.buffer_ops_failed);
	return 1;
}
