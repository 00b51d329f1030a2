/*
 * Address-pattern rules (rules_addr.h). Each reads an_kernel.addr, the
 * reading of the kernel's source by parse/tl_addr.c, and says which line
 * shows the pattern; the brief's optimisation notes list these as the
 * reasons wide loads are unlikely (offsets from // and %, data-dependent
 * gathers, scattered stores, non-contiguous lanes).
 */
#include <stdio.h>

#include "decide/rules_addr.h"
#include "decide/rules_kit.h"
#include "decide/rules_measured.h"
#include "util/plural.h"
#include "banned.h"

int rule_divmod_offsets(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (k->addr.divmod <= 0 || !rk_narrow(c, k))
		return 0;
	rk_why(o, "%ld of its %ld loads and stores build their offset with // or %% (first at line"
	       " %ld) and %.0f%% of its %ld global/buffer accesses are 128-bit: the compiler cannot"
	       " prove those offsets contiguous and aligned", k->addr.divmod,
	       k->addr.loads + k->addr.stores, k->addr.divmod_line, 100 * k->isa.vector_share,
	       k->isa.mem_ops);
	rk_knobs(o, rule_hints_useless(k) ?
		 "one flat offset instead of // and % where the tensor is contiguous (a view or"
		 " reshape in the model); not tl.multiple_of hints: tko tune's hints variants compiled"
		 " to the same ISA as without them" :
		 "one flat offset instead of // and % where the tensor is contiguous (a view or"
		 " reshape in the model), or tl.multiple_of / tl.max_contiguous on the inner offset"
		 " with sizes that are multiples of 16 (tko tune's hints variant)");
	rk_ev(o, "divmod_accesses", (double)k->addr.divmod);
	rk_ev(o, "vector_share", k->isa.vector_share);
	return 1;
}

/*
 * Only element gathers: a gather of whole rows (an embedding lookup,
 * r0_1 + 1024*tmp4) has its stride-1 term and vectorises along the row.
 */
int rule_element_gather(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (!rk_hot(c, k) || k->addr.gather_elems <= 0)
		return 0;
	rk_why(o, "%ld load%s read%s through a loaded index one element per lane (line %ld): a"
	       " gather that no access width can help", k->addr.gather_elems,
	       plural(k->addr.gather_elems), plural_word(k->addr.gather_elems, "s", ""),
	       k->addr.gather_line);
	rk_ev(o, "element_gathers", (double)k->addr.gather_elems);
	rk_ev(o, "gathers", (double)k->addr.gathers);
	rk_ev(o, "line", (double)k->addr.gather_line);
	return 1;
}

int rule_scattered_store(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	if (!rk_hot(c, k) || k->addr.scatters <= 0)
		return 0;
	rk_why(o, "%ld plain tl.store%s write%s through a loaded index (line %ld): a scatter without"
	       " atomics, whose lanes write far apart and whose repeated indices race (the last"
	       " writer wins, in no set order)", k->addr.scatters, plural(k->addr.scatters),
	       plural_word(k->addr.scatters, "s", ""), k->addr.scatter_line);
	rk_ev(o, "scatters", (double)k->addr.scatters);
	rk_ev(o, "line", (double)k->addr.scatter_line);
	return 1;
}

int rule_strided_lanes(const struct rule_ctx *c, const struct an_kernel *k, struct rule_out *o)
{
	char stride[32];

	if (!rk_hot(c, k) || k->addr.strided <= 0)
		return 0;
	if (k->addr.strided_stride == -2)
		snprintf(stride, sizeof(stride), "a size only known at run time");
	else
		snprintf(stride, sizeof(stride), "%ld elements", k->addr.strided_stride);
	rk_why(o, "%ld access%s (first at line %ld) ha%s no index term of stride 1: neighbouring lanes"
	       " touch elements %s apart, so each access moves one element per lane",
	       k->addr.strided, plural_word(k->addr.strided, "", "es"), k->addr.strided_line,
	       plural_word(k->addr.strided, "s", "ve"), stride);
	rk_ev(o, "strided_accesses", (double)k->addr.strided);
	rk_ev(o, "stride", (double)k->addr.strided_stride);
	rk_ev(o, "line", (double)k->addr.strided_line);
	return 1;
}
