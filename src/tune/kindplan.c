/*
 * The plan of each kernel kind (see kindplan.h).
 */
#include "tune/kindplan.h"
#include "util/mem.h"
#include "banned.h"

char *tune_kind_refusal(const struct tune_kernel *k)
{
	if (k->kind != TUNE_KIND_OTHER)
		return NULL;
	return xstrfmt("tko does not know Inductor's '%s' heuristic: how its block sizes "
		       "shape its launch grid and its buffers is unknown, so no variant of it "
		       "is launched", k->heuristic ? k->heuristic : "?");
}

/* Keeps every constexpr parameter (the block sizes) at its base value. */
static void keep_blocks(struct tune_space *sp)
{
	size_t i;

	for (i = 0; i < sp->n; i++)
		if (sp->p[i].at == TUNE_AT_CONSTEXPR)
			sp->p[i].tuned = 0;
}

const char *tune_kind_restrict(const struct tune_kernel *k, struct tune_space *sp)
{
	switch (k->kind) {
	case TUNE_KIND_FOREACH:
		return "a foreach kernel fixes XBLOCK in its body and its grid from it: no block "
		       "size to tune; every num_warps value (and on AMD waves_per_eu) is timed; "
		       "num_stages stays 1 (no loop to pipeline)";
	case TUNE_KIND_SPLIT_SCAN:
		keep_blocks(sp);
		return "a split scan's workspace is laid out by its block sizes and sized for "
		       "R0_BLOCK >= min_split_scan_rblock: block sizes kept at the base's, "
		       "launch options timed";
	case TUNE_KIND_FIXED:
		keep_blocks(sp);
		return "a fixed_config kernel's body was generated for its one config: block "
		       "sizes kept at the base's, launch options timed";
	default:
		return NULL;
	}
}
