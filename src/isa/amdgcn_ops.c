/*
 * The AMDGCN mnemonic table (see amdgcn_ops.h). ROCm and DCU spellings
 * are rows: GFX9/DCU ds_read_* beside GFX11 ds_load_*, CDNA v_mfma_*
 * beside DCU v_mmac_*, DCU ds_read_m* matrix reads and MLS matrix_load_*.
 * Direct-to-LDS "buffer_load_* ... lds" is decided from the operands in
 * amdgcn.c (ISA_OPF_LDS_MOD).
 */
#include <string.h>

#include "isa/amdgcn_ops.h"
#include "isa/result.h"
#include "isa/tok.h"
#include "util/lines.h"
#include "banned.h"

enum amd_width {
	W_NONE,		/* no width (matrix, barrier) */
	W_SUFFIX,	/* from the type suffix: dwordx4, b128, ushort, ... */
	W_PAIR,		/* ds_read2/ds_write2: two accesses of the suffix width */
	W_ATOMIC,	/* atomics: x2/64-bit operands, else 32 */
	W_MATRIX,	/* ds_read_mMxN_bB: M*N*B bits over 64 lanes */
	W_COUNTERS,	/* s_waitcnt: the counters named in the operands */
};

struct amd_op {
	const char *prefix;	/* mnemonic prefix; the first matching row wins */
	unsigned char family;	/* enum isa_family, or ISA_FAM_NONE */
	unsigned char width;	/* enum amd_width */
	unsigned char flags;	/* ISA_OPF_* */
	unsigned char counters;	/* counters a mnemonic implies (s_waitcnt_vscnt) */
};

#define C(slot) (1u << ((slot) - ISA_C_VMCNT))

/* Longer prefixes first where one is a prefix of another. */
static const struct amd_op amd_ops[] = {
	{ "global_load_lds_", ISA_FAM_GLOBAL_TO_LDS, W_SUFFIX, 0, 0 },	/* gfx950 */
	{ "global_load_", ISA_FAM_GLOBAL_LOAD, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "global_store_", ISA_FAM_GLOBAL_STORE, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "global_atomic_", ISA_FAM_GLOBAL_ATOMIC, W_ATOMIC, ISA_OPF_ATOMIC, 0 },
	/* cache maintenance that atomics with acquire/release bring (gfx942) */
	{ "buffer_wbl2", ISA_FAM_FENCE, W_NONE, 0, 0 },
	{ "buffer_inv", ISA_FAM_FENCE, W_NONE, 0, 0 },
	{ "buffer_wbinvl1", ISA_FAM_FENCE, W_NONE, 0, 0 },
	{ "buffer_gl0_inv", ISA_FAM_FENCE, W_NONE, 0, 0 },
	{ "buffer_gl1_inv", ISA_FAM_FENCE, W_NONE, 0, 0 },
	{ "s_dcache_", ISA_FAM_FENCE, W_NONE, 0, 0 },
	{ "buffer_load_", ISA_FAM_BUFFER_LOAD, W_SUFFIX, ISA_OPF_LDS_MOD | ISA_OPF_SPILLABLE, 0 },
	{ "buffer_store_", ISA_FAM_BUFFER_STORE, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "buffer_atomic_", ISA_FAM_BUFFER_ATOMIC, W_ATOMIC, ISA_OPF_ATOMIC, 0 },
	{ "flat_load_", ISA_FAM_FLAT_LOAD, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "flat_store_", ISA_FAM_FLAT_STORE, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "flat_atomic_", ISA_FAM_FLAT_ATOMIC, W_ATOMIC, ISA_OPF_ATOMIC, 0 },
	{ "scratch_load_", ISA_FAM_SCRATCH_LOAD, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "scratch_store_", ISA_FAM_SCRATCH_STORE, W_SUFFIX, ISA_OPF_SPILLABLE, 0 },
	{ "s_load_", ISA_FAM_SCALAR_LOAD, W_SUFFIX, 0, 0 },
	{ "s_buffer_load_", ISA_FAM_SCALAR_LOAD, W_SUFFIX, 0, 0 },
	{ "s_store_", ISA_FAM_SCALAR_STORE, W_SUFFIX, 0, 0 },
	{ "s_buffer_store_", ISA_FAM_SCALAR_STORE, W_SUFFIX, 0, 0 },
	/* DCU matrix LDS reads and MLS (docs/dcu.md section 3) */
	{ "ds_read_matrix", ISA_FAM_LDS_MATRIX_READ, W_NONE, ISA_OPF_DCU, 0 },
	{ "ds_read_m", ISA_FAM_LDS_MATRIX_READ, W_MATRIX, ISA_OPF_DCU, 0 },
	{ "ds_write_matrix", ISA_FAM_LDS_MATRIX_WRITE, W_NONE, ISA_OPF_DCU, 0 },
	{ "matrix_load_", ISA_FAM_LDS_MATRIX_READ, W_NONE, ISA_OPF_DCU, 0 },
	{ "matrix_store_", ISA_FAM_LDS_MATRIX_WRITE, W_NONE, ISA_OPF_DCU, 0 },
	/* GFX9 (and DCU) spell LDS ds_read/ds_write, GFX11+ ds_load/ds_store */
	{ "ds_read2st64_", ISA_FAM_LDS_READ, W_PAIR, 0, 0 },
	{ "ds_read2_", ISA_FAM_LDS_READ, W_PAIR, 0, 0 },
	{ "ds_read_", ISA_FAM_LDS_READ, W_SUFFIX, 0, 0 },
	{ "ds_load_2addr_", ISA_FAM_LDS_READ, W_PAIR, 0, 0 },
	{ "ds_load_", ISA_FAM_LDS_READ, W_SUFFIX, 0, 0 },
	{ "ds_write2st64_", ISA_FAM_LDS_WRITE, W_PAIR, 0, 0 },
	{ "ds_write2_", ISA_FAM_LDS_WRITE, W_PAIR, 0, 0 },
	{ "ds_write_", ISA_FAM_LDS_WRITE, W_SUFFIX, 0, 0 },
	{ "ds_store_2addr_", ISA_FAM_LDS_WRITE, W_PAIR, 0, 0 },
	{ "ds_store_", ISA_FAM_LDS_WRITE, W_SUFFIX, 0, 0 },
	{ "ds_bpermute_", ISA_FAM_LDS_PERMUTE, W_NONE, 0, 0 },
	{ "ds_permute_", ISA_FAM_LDS_PERMUTE, W_NONE, 0, 0 },
	{ "ds_swizzle_", ISA_FAM_LDS_PERMUTE, W_NONE, 0, 0 },
	{ "ds_nop", ISA_FAM_NONE, W_NONE, 0, 0 },
	{ "ds_append", ISA_FAM_NONE, W_NONE, 0, 0 },
	{ "ds_consume", ISA_FAM_NONE, W_NONE, 0, 0 },
	{ "ds_gws_", ISA_FAM_NONE, W_NONE, 0, 0 },
	/*
	 * Hygon gfx946/gfx92a copies between LDS and the scale buffer of the
	 * scaled v_mmac (ds_scale_copy_ds2buf / _buf2ds, named in Hygon's
	 * TileLang sources; not in upstream LLVM): data movement, never an
	 * atomic, and of no width tko can tell.
	 */
	{ "ds_scale_copy", ISA_FAM_NONE, W_NONE, ISA_OPF_DCU, 0 },
	{ "ds_", ISA_FAM_LDS_ATOMIC, W_ATOMIC, ISA_OPF_ATOMIC, 0 },
	/* matrix cores: CDNA v_mfma (also the old ..._32x32x8f16 spelling), DCU v_mmac */
	{ "v_mfma_", ISA_FAM_MFMA, W_NONE, 0, 0 },
	{ "v_smfmac_", ISA_FAM_MFMA, W_NONE, 0, 0 },
	{ "v_mmac_", ISA_FAM_MMAC, W_NONE, ISA_OPF_DCU, 0 },
	{ "v_wmma_", ISA_FAM_WMMA, W_NONE, 0, 0 },
	{ "v_swmmac_", ISA_FAM_WMMA, W_NONE, 0, 0 },
	{ "v_accvgpr_", ISA_FAM_ACC_MOVE, W_NONE, 0, 0 },
	/* block-scaled conversions: gfx950 v_cvt_scalef32_*, gfx1250 v_cvt_scale_pk8_* */
	{ "v_cvt_scalef32_", ISA_FAM_SCALED_CVT, W_NONE, 0, 0 },
	{ "v_cvt_scale_", ISA_FAM_SCALED_CVT, W_NONE, 0, 0 },
	/* gfx1250's tensor data mover: a described tile between global memory and LDS */
	{ "tensor_load_to_lds", ISA_FAM_BULK_COPY, W_NONE, 0, 0 },
	{ "tensor_store_from_lds", ISA_FAM_BULK_COPY, W_NONE, 0, 0 },
	/* waits: gfx9 s_waitcnt, gfx10/11 s_waitcnt_<counter>, gfx12 s_wait_<counter> */
	/*
	 * Hygon gfx946/gfx92a's wait on its own counter (Hygon sources; not in
	 * upstream LLVM): not an s_waitcnt, whose encoded immediate it lacks.
	 */
	{ "s_waitcnt_vbcnt", ISA_FAM_NONE, W_NONE, ISA_OPF_DCU, 0 },
	{ "s_waitcnt_vscnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VSCNT) },
	{ "s_waitcnt_vmcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VMCNT) },
	{ "s_waitcnt_lgkmcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_LGKMCNT) },
	{ "s_waitcnt_expcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_EXPCNT) },
	{ "s_waitcnt", ISA_FAM_WAITCNT, W_COUNTERS, ISA_OPF_WAITCNT, 0 },
	{ "s_wait_loadcnt_dscnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VMCNT) | C(ISA_C_LGKMCNT) },
	{ "s_wait_storecnt_dscnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VSCNT) | C(ISA_C_LGKMCNT) },
	{ "s_wait_loadcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VMCNT) },
	{ "s_wait_samplecnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VMCNT) },
	{ "s_wait_bvhcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VMCNT) },
	{ "s_wait_storecnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_VSCNT) },
	{ "s_wait_dscnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_LGKMCNT) },
	{ "s_wait_kmcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_LGKMCNT) },
	{ "s_wait_expcnt", ISA_FAM_WAITCNT, W_NONE, 0, C(ISA_C_EXPCNT) },
	{ "s_barrier", ISA_FAM_BARRIER, W_NONE, 0, 0 },
};

/* Type suffixes and the bits per lane they move. */
static const struct {
	const char *suffix;	/* the type word after the family prefix */
	unsigned bits;		/* bits per lane it moves */
} amd_suffix_bits[] = {
	{ "dwordx16", 512 }, { "dwordx8", 256 }, { "dwordx4", 128 },
	{ "dwordx3", 96 }, { "dwordx2", 64 }, { "dword", 32 },
	{ "b512", 512 }, { "b256", 256 }, { "b128", 128 }, { "b96", 96 },
	{ "b64", 64 }, { "b32", 32 }, { "b16", 16 }, { "b8", 8 },
	{ "u16", 16 }, { "i16", 16 }, { "u8", 8 }, { "i8", 8 },
	{ "ushort", 16 }, { "sshort", 16 }, { "short", 16 },
	{ "ubyte", 8 }, { "sbyte", 8 }, { "byte", 8 },
	{ "format_xyzw", 128 }, { "format_xyz", 96 }, { "format_xy", 64 },
	{ "format_x", 32 }, { "format_d16_xyzw", 64 }, { "format_d16_xy", 32 },
	{ "format_d16_x", 16 },
};

/*
 * Bits of the first type word after the family prefix: "dwordx4",
 * "short_d16_hi" -> 16, "b64_tr_b16" -> 64 (the part before '_' counts).
 */
static unsigned suffix_bits(const char *s, size_t n)
{
	size_t i, k;

	for (i = 0; i < sizeof(amd_suffix_bits) / sizeof(amd_suffix_bits[0]); i++) {
		k = strlen(amd_suffix_bits[i].suffix);
		if (n >= k && !memcmp(s, amd_suffix_bits[i].suffix, k) &&
		    (n == k || s[k] == '_'))
			return amd_suffix_bits[i].bits;
	}
	return 0;
}

/* "m32x16_b16" -> 32*16*16/64 bits per lane. */
static unsigned matrix_bits(const char *s, const char *e)
{
	unsigned long long m, n, b;

	if (s < e && *s == 'm')
		s++;
	if (tok_uint(&s, e, &m) < 0 || s >= e || *s++ != 'x' ||
	    tok_uint(&s, e, &n) < 0 || e - s < 2 || s[0] != '_' || s[1] != 'b')
		return 0;
	s += 2;
	if (tok_uint(&s, e, &b) < 0 || m > 256 || n > 256 || b > 64)
		return 0;
	return (unsigned)(m * n * b / 64);
}

static unsigned atomic_bits(const char *s, size_t n)
{
	if (span_find(s, n, "x2") || span_find(s, n, "64"))
		return 64;
	return 32;
}

uint32_t amd_classify(struct isa_file_result *f, const char *m, size_t n)
{
	size_t i, k;
	unsigned slot = ISA_SLOT_NONE, bits = 0;

	for (i = 0; i < sizeof(amd_ops) / sizeof(amd_ops[0]); i++) {
		const struct amd_op *o = &amd_ops[i];
		const char *rest;

		k = strlen(o->prefix);
		if (n < k || memcmp(m, o->prefix, k))
			continue;
		rest = m + k;
		switch (o->width) {
		case W_SUFFIX:
			bits = suffix_bits(rest, n - k);
			break;
		case W_PAIR:
			bits = suffix_bits(rest, n - k);
			slot = bits == 32 ? ISA_W2X32 : bits == 64 ? ISA_W2X64 :
			       ISA_SLOT_NONE;
			bits = 0;
			break;
		case W_ATOMIC:
			bits = atomic_bits(rest, n - k);
			break;
		case W_MATRIX:
			bits = matrix_bits(rest, m + n);
			break;
		default:
			break;
		}
		if (bits)
			slot = isa_slot_of_bits(bits);
		return isa_op_add(f, m, n, o->family, slot,
				  o->flags | (span_find(m, n, "_rtn") ? ISA_OPF_RETURNS : 0),
				  o->counters);
	}
	return isa_op_add(f, m, n, ISA_FAM_NONE, ISA_SLOT_NONE, 0, 0);
}
