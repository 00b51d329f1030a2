/*
 * Per-architecture facts the scanner judges resources against: wave size,
 * the VGPR budget of one wave, the VGPR file that the waves of a SIMD
 * share, its allocation granule and the wave limit, which together give a
 * VGPR-limited occupancy when the compiler did not print one. DCU rows
 * (gfx928/936/938) differ from the AMD ones; see arch.c for where each
 * number comes from.
 */
#ifndef TKO_ISA_ARCH_H
#define TKO_ISA_ARCH_H

#include <stddef.h>

struct isa_arch {
	const char *name;	/* processor, "gfx942" */
	int dcu;		/* 1 for Hygon DCU */
	int wave;		/* default wavefront size */
	int vgpr_max;		/* most VGPRs one wave may use; 0: not judged */
	int vgpr_file;		/* VGPRs per lane shared by a SIMD's waves; 0: occupancy not computed */
	int granule;		/* VGPR allocation granule */
	int max_waves;		/* waves per SIMD */
	int agprs;		/* 0: none; 1: in the unified VGPR budget; 2: a separate file */
	long lds_bytes;		/* LDS a workgroup may allocate */
};

/* The row for a processor name (features after ':' ignored), or NULL. */
const struct isa_arch *isa_arch_find(const char *name, size_t n);
/* Waves per SIMD that `vgprs` VGPRs allow, or 0 when not computable. */
int isa_arch_vgpr_waves(const struct isa_arch *a, long long vgprs);

#endif
