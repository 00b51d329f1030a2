/*
 * Rules that follow measurements (rules_measured.h). Issue 17's H200 run:
 * the cross-entropy forward over a 50257-word vocabulary was told to try
 * the two-pass softmax, which tko tune had timed at 0.87x, and tl.multiple_of
 * hints, whose variants compiled to the same ISA as the ones without; the
 * row length itself, 50257, is what keeps the row mask from being 4-aligned
 * (Inductor pads the row stride to 50272, the mask still ends at 50257).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/rules_kit.h"
#include "decide/rules_measured.h"
#include "util/plural.h"
#include "banned.h"

long rule_row_length(const struct an_kernel *k)
{
	static const char *const names[] = { "r0_numel", "rnumel", NULL };
	size_t i, j;

	for (j = 0; names[j]; j++)
		for (i = 0; i < k->nargs; i++) {
			const struct an_arg *a = &k->args[i];
			char *end;
			long v;

			if (!a->name || strcmp(a->name, names[j]) || !a->value)
				continue;
			v = strtol(a->value, &end, 10);
			if (end != a->value && !*end && v > 0)
				return v;
		}
	return -1;
}

int rule_hints_useless(const struct an_kernel *k)
{
	return k->tune.file && k->tune.hints_variants > 0 &&
	       k->tune.hints_same_isa == k->tune.hints_variants;
}

int rule_row_alignment(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	long n = rule_row_length(k), pad = c->lim->row_pad;
	long padded = n > 0 && pad > 0 ? (n + pad - 1) / pad * pad : -1;

	if (!(kind_flags(k->kind) & KIND_REDUCES) || !rk_hot(c, k) || n <= 0 ||
	    n % c->lim->row_multiple == 0 || (!rk_narrow(c, k) && !rule_hints_useless(k)))
		return 0;
	rk_why(o, "its rows are %ld element%s long, not a multiple of %ld: the row mask (r0_index <"
	       " %ld) cannot be proven aligned, so loads stay narrow%s", n, plural(n),
	       c->lim->row_multiple, n,
	       rule_hints_useless(k) ? " and tl.multiple_of hints change no instruction (tko tune)" :
	       " (the ISA's accesses are mostly under 128 bits)");
	{
		char knobs[320];

		snprintf(knobs, sizeof(knobs), "pad the reduced dimension from %ld to %ld (a multiple"
			 " of %ld), e.g. a vocabulary of %ld padded to %ld with the extra logits masked"
			 " out of the loss", n, padded, pad, n, padded);
		rk_knobs(o, knobs);
	}
	rk_ev(o, "row_length", (double)n);
	rk_ev(o, "padded", (double)padded);
	if (!isnan(k->isa.vector_share))
		rk_ev(o, "vector_share", k->isa.vector_share);
	return 1;
}

int rule_twopass_slower(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	(void)c;
	if (isnan(k->tune.twopass_speedup) || k->tune.twopass_speedup >= 1.0)
		return 0;
	rk_why(o, "tko tune timed the two-pass softmax on this kernel's inputs at %.2fx of the online"
	       " one: keep torch._inductor.config.online_softmax as it is", k->tune.twopass_speedup);
	rk_ev(o, "twopass_speedup", k->tune.twopass_speedup);
	return 1;
}

int rule_tune_searched(const struct an_kernel *k)
{
	/* the base is one of the correct ones: with it alone nothing was compared */
	return k && k->tune.file && k->tune.winner_is_base && k->tune.correct >= 2;
}

/*
 * The H200 run of 2026-12-05 (tests/corpus/h200-invtune): tko tune timed
 * 12 variants of a max-autotune mm template, all correct, none faster
 * than Inductor's choice, and the report still said to try
 * BLOCK_M/BLOCK_N/BLOCK_K, num_stages, num_warps. The config-search rows
 * are not tried then (rules.h); this row says why.
 */
int rule_tune_found_nothing(const struct rule_ctx *c, const struct an_kernel *k,
			    struct rule_out *o)
{
	char took[48] = "";

	(void)c;
	if (!rule_tune_searched(k))
		return 0;
	if (!isnan(k->tune.wall_s))
		snprintf(took, sizeof(took), " in %.1f s", k->tune.wall_s);
	rk_why(o, "tko tune timed %ld variant%s (%ld correct)%s; none was faster than the config"
	       " Inductor chose (the winner is the base): its launch config needs no more search",
	       k->tune.variants, plural(k->tune.variants),
	       k->tune.correct, took);
	rk_ev(o, "variants", (double)k->tune.variants);
	rk_ev(o, "correct", (double)k->tune.correct);
	if (!isnan(k->tune.wall_s))
		rk_ev(o, "wall_s", k->tune.wall_s);
	return 1;
}
