/*
 * The architecture table (see arch.h).
 *
 * gfx90a/gfx94x/gfx95x: 512 unified VGPRs (arch + AGPR), granule 8, 8
 * waves per SIMD. Checked against every Kernel info block in
 * corpus/amd-xcompile and corpus/dcu (e.g. 94 VGPRs -> Occupancy 5, 216 ->
 * 2, 512 -> 1). gfx906/gfx908: 256 VGPRs, granule 4, 10 waves (the gfx906
 * part of the hipcc bundle: 6 VGPRs -> 10).
 *
 * DCU: triton-das compiles gfx936/gfx938 with -support-768-vgprs and
 * gfx928/gfx92a/gfx946 with -support-512-vgprs (docs/dcu.md section 10),
 * so those are the per-wave budgets. corpus/dcu's gfx936 Triton file has
 * NumVgprs 65 and Occupancy 10, which a 768-register file with the GFX9
 * granule of 4 reproduces (768 / 68 = 11, capped at 10); gfx928's 512 is
 * taken from the same flags and not checked against a file. gfx926 has
 * no such flag: its occupancy is not computed. gfx948 is only a name in
 * the brief's HCU table (triton-das does not list it): its row judges no
 * VGPR budget. src/tune/arch.c lists the same HCUs. RDNA (gfx11/12) rows only
 * carry the wave size; their occupancy comes from the compiler.
 */
#include <string.h>

#include "isa/arch.h"
#include "banned.h"

static const struct isa_arch arches[] = {
	/* name     dcu wave vmax  file gran waves agpr lds */
	{ "gfx906",  0, 64, 256,  256, 4, 10, 0, 65536 },
	{ "gfx908",  0, 64, 256,  256, 4, 10, 2, 65536 },
	{ "gfx90a",  0, 64, 512,  512, 8,  8, 1, 65536 },
	{ "gfx940",  0, 64, 512,  512, 8,  8, 1, 65536 },
	{ "gfx941",  0, 64, 512,  512, 8,  8, 1, 65536 },
	{ "gfx942",  0, 64, 512,  512, 8,  8, 1, 65536 },
	{ "gfx950",  0, 64, 512,  512, 8,  8, 1, 163840 },
	{ "gfx926",  1, 64, 256,    0, 4, 10, 0, 65536 },
	{ "gfx928",  1, 64, 512,  512, 4, 10, 0, 65536 },
	{ "gfx92a",  1, 64, 512,  512, 4, 10, 0, 65536 },
	{ "gfx936",  1, 64, 768,  768, 4, 10, 0, 65536 },
	{ "gfx938",  1, 64, 768,  768, 4, 10, 0, 65536 },
	{ "gfx946",  1, 64, 512,  512, 4, 10, 0, 131072 },
	/* only the name is known (the brief's HCU table): wave64 and 64 KiB LDS assumed, no budget */
	{ "gfx948",  1, 64,   0,    0, 4, 10, 0, 65536 },
	{ "gfx1100", 0, 32,   0,    0, 0,  0, 0, 65536 },
	{ "gfx1101", 0, 32,   0,    0, 0,  0, 0, 65536 },
	{ "gfx1102", 0, 32,   0,    0, 0,  0, 0, 65536 },
	{ "gfx1200", 0, 32,   0,    0, 0,  0, 0, 65536 },
	{ "gfx1201", 0, 32,   0,    0, 0,  0, 0, 65536 },
};

const struct isa_arch *isa_arch_find(const char *name, size_t n)
{
	const char *colon = memchr(name, ':', n);
	size_t i;

	if (colon)
		n = (size_t)(colon - name);
	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (strlen(arches[i].name) == n && !memcmp(arches[i].name, name, n))
			return &arches[i];
	return NULL;
}

int isa_arch_vgpr_waves(const struct isa_arch *a, long long vgprs)
{
	long long alloc;
	long long waves;

	if (!a || !a->vgpr_file || vgprs <= 0 || vgprs > a->vgpr_max)
		return 0;
	alloc = (vgprs + a->granule - 1) / a->granule * a->granule;
	waves = a->vgpr_file / alloc;
	return (int)(waves > a->max_waves ? a->max_waves : waves);
}
