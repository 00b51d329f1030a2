/*
 * The shared tables of the ISA scanner: instruction families (the rows
 * every ISA's mnemonics map onto), width/counter slots, resource names and
 * the names of the places a resource is read from. The per-ISA mnemonic
 * tables live in amdgcn.c, ptx.c and sass.c; docs/json.md lists these
 * names for users.
 */
#include <stddef.h>

#include "isa/isa.h"
#include "banned.h"

const struct isa_family_info isa_families[ISA_FAM_NR] = {
	[ISA_FAM_GLOBAL_LOAD] = { "global_load", ISA_GROUP_MEMORY,
		"AMD global_load_*; PTX ld.global; SASS LDG" },
	[ISA_FAM_GLOBAL_STORE] = { "global_store", ISA_GROUP_MEMORY,
		"AMD global_store_*; PTX st.global; SASS STG" },
	[ISA_FAM_BUFFER_LOAD] = { "buffer_load", ISA_GROUP_MEMORY,
		"AMD buffer_load_* into registers" },
	[ISA_FAM_BUFFER_STORE] = { "buffer_store", ISA_GROUP_MEMORY,
		"AMD buffer_store_*" },
	[ISA_FAM_FLAT_LOAD] = { "flat_load", ISA_GROUP_MEMORY,
		"AMD flat_load_*; PTX generic ld; SASS LD" },
	[ISA_FAM_FLAT_STORE] = { "flat_store", ISA_GROUP_MEMORY,
		"AMD flat_store_*; PTX generic st; SASS ST" },
	[ISA_FAM_SCRATCH_LOAD] = { "scratch_load", ISA_GROUP_MEMORY,
		"private memory: AMD scratch_load_*; PTX ld.local; SASS LDL" },
	[ISA_FAM_SCRATCH_STORE] = { "scratch_store", ISA_GROUP_MEMORY,
		"private memory: AMD scratch_store_*; PTX st.local; SASS STL" },
	[ISA_FAM_SCALAR_LOAD] = { "scalar_load", ISA_GROUP_MEMORY,
		"AMD s_load_*, s_buffer_load_*" },
	[ISA_FAM_SCALAR_STORE] = { "scalar_store", ISA_GROUP_MEMORY,
		"AMD s_store_*, s_buffer_store_*" },
	[ISA_FAM_LDS_READ] = { "lds_read", ISA_GROUP_LDS,
		"AMD ds_read_*/ds_load_*; PTX ld.shared; SASS LDS" },
	[ISA_FAM_LDS_WRITE] = { "lds_write", ISA_GROUP_LDS,
		"AMD ds_write_*/ds_store_*; PTX st.shared; SASS STS" },
	[ISA_FAM_LDS_MATRIX_READ] = { "lds_matrix_read", ISA_GROUP_LDS,
		"DCU ds_read_m* and MLS matrix_load_*; PTX ldmatrix; SASS LDSM" },
	[ISA_FAM_LDS_MATRIX_WRITE] = { "lds_matrix_write", ISA_GROUP_LDS,
		"DCU ds_write_matrix*, matrix_store_*; PTX stmatrix; SASS STSM" },
	[ISA_FAM_LDS_PERMUTE] = { "lds_permute", ISA_GROUP_LDS,
		"AMD ds_bpermute/ds_permute/ds_swizzle (cross-lane through LDS hardware)" },
	[ISA_FAM_GLOBAL_TO_LDS] = { "global_to_lds", ISA_GROUP_MEMORY,
		"global memory straight into LDS: AMD buffer_load_* ... lds, "
		"global_load_lds_*; PTX cp.async; SASS LDGSTS" },
	[ISA_FAM_BULK_COPY] = { "bulk_copy", ISA_GROUP_MEMORY,
		"tensor-memory copies: AMD gfx1250 tensor_load_to_lds, tensor_store_from_lds; "
		"PTX cp.async.bulk*; SASS UTMALDG/UTMASTG/UBLKCP" },
	[ISA_FAM_GLOBAL_ATOMIC] = { "global_atomic", ISA_GROUP_ATOMIC,
		"AMD global_atomic_*; PTX atom/red.global; SASS ATOMG/REDG" },
	[ISA_FAM_BUFFER_ATOMIC] = { "buffer_atomic", ISA_GROUP_ATOMIC,
		"AMD buffer_atomic_*" },
	[ISA_FAM_FLAT_ATOMIC] = { "flat_atomic", ISA_GROUP_ATOMIC,
		"AMD flat_atomic_*; PTX generic atom/red; SASS ATOM/RED" },
	[ISA_FAM_LDS_ATOMIC] = { "lds_atomic", ISA_GROUP_ATOMIC,
		"AMD ds_add_* and other LDS atomics; PTX atom.shared; SASS ATOMS" },
	[ISA_FAM_MFMA] = { "mfma", ISA_GROUP_MATRIX,
		"AMD v_mfma_*, v_smfmac_* (CDNA matrix cores)" },
	[ISA_FAM_MMAC] = { "mmac", ISA_GROUP_MATRIX,
		"Hygon DCU v_mmac_* (DCU matrix cores)" },
	[ISA_FAM_WMMA] = { "wmma", ISA_GROUP_MATRIX,
		"AMD v_wmma_*, v_swmmac_* (RDNA)" },
	[ISA_FAM_MMA] = { "mma", ISA_GROUP_MATRIX,
		"PTX mma.sync; SASS HMMA/IMMA/DMMA" },
	[ISA_FAM_WGMMA] = { "wgmma", ISA_GROUP_MATRIX,
		"PTX wgmma.mma_async, tcgen05.mma; SASS HGMMA/IGMMA/QGMMA" },
	[ISA_FAM_ACC_MOVE] = { "acc_move", ISA_GROUP_MATRIX,
		"AMD v_accvgpr_read/write/mov (AGPR traffic)" },
	[ISA_FAM_SCALED_CVT] = { "scaled_cvt", ISA_GROUP_MATRIX,
		"block-scaled low-precision conversions that feed scaled matrix ops: "
		"AMD gfx950 v_cvt_scalef32_*, gfx1250 v_cvt_scale_*" },
	[ISA_FAM_WAITCNT] = { "waitcnt", ISA_GROUP_SYNC,
		"AMD s_waitcnt* (vmcnt, lgkmcnt, expcnt, vscnt), gfx12 s_wait_*" },
	[ISA_FAM_ASYNC_WAIT] = { "async_wait", ISA_GROUP_SYNC,
		"PTX cp.async.commit/wait_group, wgmma fence/commit/wait, "
		"mbarrier; SASS DEPBAR, LDGDEPBAR, WARPGROUP" },
	[ISA_FAM_BARRIER] = { "barrier", ISA_GROUP_SYNC,
		"AMD s_barrier*; PTX bar/barrier; SASS BAR" },
	[ISA_FAM_FENCE] = { "fence", ISA_GROUP_SYNC,
		"memory fences and cache write-back/invalidate: AMD buffer_wbl2, "
		"buffer_inv, buffer_wbinvl1*, buffer_gl*_inv, s_dcache_*; PTX "
		"fence, membar; SASS MEMBAR, CCTL, ERRBAR" },
};

const struct isa_slot_info isa_slots[ISA_SLOT_NR] = {
	[ISA_W8] = { "8", 8, 0 },
	[ISA_W16] = { "16", 16, 0 },
	[ISA_W32] = { "32", 32, 0 },
	[ISA_W64] = { "64", 64, 0 },
	[ISA_W96] = { "96", 96, 0 },
	[ISA_W128] = { "128", 128, 0 },
	[ISA_W256] = { "256", 256, 0 },
	[ISA_W512] = { "512", 512, 0 },
	[ISA_W2X32] = { "2x32", 64, 0 },
	[ISA_W2X64] = { "2x64", 128, 0 },
	[ISA_C_VMCNT] = { "vmcnt", 0, 1 },
	[ISA_C_LGKMCNT] = { "lgkmcnt", 0, 1 },
	[ISA_C_EXPCNT] = { "expcnt", 0, 1 },
	[ISA_C_VSCNT] = { "vscnt", 0, 1 },
};

unsigned isa_slot_of_bits(unsigned bits)
{
	switch (bits) {
	case 8: return ISA_W8;
	case 16: return ISA_W16;
	case 32: return ISA_W32;
	case 64: return ISA_W64;
	case 96: return ISA_W96;
	case 128: return ISA_W128;
	case 256: return ISA_W256;
	case 512: return ISA_W512;
	default: return ISA_SLOT_NONE;
	}
}

const struct isa_res_info isa_res_info[ISA_RES_NR] = {
	[ISA_RES_VGPRS] = { "vgprs", "VGPRs" },
	[ISA_RES_ARCH_VGPRS] = { "arch_vgprs", "arch VGPRs" },
	[ISA_RES_AGPRS] = { "agprs", "AGPRs" },
	[ISA_RES_SGPRS] = { "sgprs", "SGPRs" },
	[ISA_RES_VGPR_SPILLS] = { "vgpr_spills", "VGPR spills" },
	[ISA_RES_SGPR_SPILLS] = { "sgpr_spills", "SGPR spills" },
	[ISA_RES_SCRATCH_BYTES] = { "scratch_bytes", "scratch bytes/lane" },
	[ISA_RES_LDS_BYTES] = { "lds_bytes", "LDS bytes" },
	[ISA_RES_OCCUPANCY] = { "occupancy", "occupancy (waves/SIMD)" },
	[ISA_RES_WAVEFRONT] = { "wavefront_size", "wavefront size" },
	[ISA_RES_WORKGROUP] = { "workgroup_size", "max workgroup size" },
	[ISA_RES_CODE_BYTES] = { "code_bytes", "code bytes" },
	[ISA_RES_NEXT_FREE_VGPR] = { "next_free_vgpr", ".amdhsa_next_free_vgpr" },
	[ISA_RES_NEXT_FREE_SGPR] = { "next_free_sgpr", ".amdhsa_next_free_sgpr" },
	[ISA_RES_ACCUM_OFFSET] = { "accum_offset", ".amdhsa_accum_offset" },
	[ISA_RES_REGISTERS] = { "registers", "registers/thread" },
	[ISA_RES_SHARED_BYTES] = { "shared_bytes", "shared bytes" },
	[ISA_RES_LOCAL_BYTES] = { "local_bytes", "local bytes/thread" },
	[ISA_RES_STACK_BYTES] = { "stack_bytes", "stack bytes/thread" },
	[ISA_RES_NUM_WARPS] = { "num_warps", "num_warps" },
	[ISA_RES_NUM_STAGES] = { "num_stages", "num_stages" },
};

const char *isa_src_name(enum isa_src src)
{
	static const char *const names[] = {
		[ISA_SRC_NONE] = "none",
		[ISA_SRC_ARCH] = "arch",
		[ISA_SRC_COMPUTED] = "computed",
		[ISA_SRC_PTX] = "ptx",
		[ISA_SRC_RES_USAGE] = "res_usage",
		[ISA_SRC_TRITON_JSON] = "triton_json",
		[ISA_SRC_AMDHSA] = "amdhsa",
		[ISA_SRC_SYMBOL] = "symbol",
		[ISA_SRC_KERNEL_INFO] = "kernel_info",
		[ISA_SRC_METADATA] = "amdgpu_metadata",
	};

	return (unsigned)src < sizeof(names) / sizeof(names[0]) ? names[src] : "none";
}

const char *isa_kind_name(enum isa_kind kind)
{
	switch (kind) {
	case ISA_AMDGCN: return "amdgcn";
	case ISA_PTX: return "ptx";
	case ISA_SASS: return "sass";
	default: return "none";
	}
}

const char *isa_group_name(enum isa_group group)
{
	static const char *const names[] = {
		[ISA_GROUP_MEMORY] = "memory",
		[ISA_GROUP_LDS] = "lds",
		[ISA_GROUP_ATOMIC] = "atomic",
		[ISA_GROUP_MATRIX] = "matrix",
		[ISA_GROUP_SYNC] = "sync",
	};

	return (unsigned)group < sizeof(names) / sizeof(names[0]) ? names[group] : "none";
}
