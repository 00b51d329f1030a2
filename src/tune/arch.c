/*
 * The target table (see arch.h). Shared-memory sizes are what one block
 * may use: 64 KiB LDS on CDNA2/CDNA3 and the Hygon DCUs, 160 KiB on
 * gfx950 (torch-triton-internals.md §5.1; anchors.md §11); NVIDIA's
 * opt-in maxima per block (sm_80 163 KiB, sm_90 227 KiB). AMD's stream
 * pipeliner gains little past three stages, hence the lower max_stages.
 * Hygon arches (gfx926/928/936/938) are unknown to upstream LLVM, so
 * Triton 3.6 fails on them with "PassManager::run failed"
 * (verified-facts.md): they need DTK and triton-das.
 */
#include <string.h>

#include "tune/arch.h"
#include "banned.h"

static const struct tune_arch arches[] = {
	{ "gfx90a", TUNE_HIP, 0, 64, 1024, 65536, 3, 0, 1 },
	{ "gfx942", TUNE_HIP, 0, 64, 1024, 65536, 3, 0, 1 },
	{ "gfx950", TUNE_HIP, 0, 64, 1024, 163840, 3, 0, 1 },
	{ "gfx926", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx928", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx936", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "gfx938", TUNE_HIP, 0, 64, 1024, 65536, 3, 1, 0 },
	{ "sm_80", TUNE_CUDA, 80, 32, 1024, 166912, 5, 0, 1 },
	{ "sm_86", TUNE_CUDA, 86, 32, 1024, 101376, 4, 0, 1 },
	{ "sm_89", TUNE_CUDA, 89, 32, 1024, 101376, 4, 0, 1 },
	{ "sm_90", TUNE_CUDA, 90, 32, 1024, 232448, 5, 0, 1 },
	{ "sm_100", TUNE_CUDA, 100, 32, 1024, 232448, 5, 0, 1 },
};

const struct tune_arch *tune_arch_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

void tune_arch_list(struct buf *out)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		buf_addf(out, "%s%s", i ? ", " : "", arches[i].name);
}

int tune_arch_check(const char *name, int das, struct buf *err)
{
	const struct tune_arch *a = tune_arch_find(name);

	if (!a) {
		buf_addf(err, "unknown target '%s' (known: ", name);
		tune_arch_list(err);
		buf_addch(err, ')');
		return -1;
	}
	if (!a->upstream && !das) {
		buf_addf(err, "upstream Triton cannot compile for Hygon '%s' "
			 "(LLVM does not know it); run on a machine with DTK and "
			 "triton-das, or use gfx942/gfx90a as a proxy", name);
		return -1;
	}
	return 0;
}
