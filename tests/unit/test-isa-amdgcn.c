/*
 * Unit tests for the AMDGCN scanner (src/isa/amdgcn.c and its tables):
 * DCU spellings (direct-to-LDS loads with and without a comma, v_mmac,
 * ds_read_m*), comments, .if/.macro, atomics that return, s_waitcnt
 * counters, spill comments, .loc attribution, the three resource blocks,
 * offload bundles, llvm-objdump listings and truncated input. The texts
 * are small excerpts in the forms corpus/dcu and corpus/amd-xcompile show.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "isa-helpers.h"

#define HEAD ".amdgcn_target \"amdgcn-amd-amdhsa--gfx936\"\n.globl k\n.type k,@function\nk:\n"

static void test_direct_to_lds_with_and_without_comma(void **state)
{
	struct isa_file_result *f = scan_as(HEAD
		"buffer_load_dwordx4 v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0 lds\n"
		"buffer_load_dwordx2 v[vgprGlobalReadOffsetA+0], s[sgprSrdA:sgprSrdA+3], 0 offen offset:0, lds\n"
		"buffer_load_dwordx2 v[vgprGlobalReadOffsetB:vgprGlobalReadOffsetB+1], s[sgprSrdB:sgprSrdB+3], 0, idxen offen offset:0,  lds\n"
		"buffer_load_dword v1, v2, s[4:7], 0 offen // lds in a comment\n"
		"buffer_load_dword v[vgprLdsAddr], v2, s[4:7], 0 offen\n", ISA_AMDGCN);
	const struct isa_kernel *k;

	(void)state;
	assert_non_null(f);
	k = kernel_named(f, "k", "gfx936");
	assert_non_null(k);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_TO_LDS].count, 3);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_TO_LDS].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_TO_LDS].slot[ISA_W64], 2);
	assert_int_equal(k->fam[ISA_FAM_BUFFER_LOAD].count, 2);
	assert_int_equal(k->fam[ISA_FAM_BUFFER_LOAD].slot[ISA_W32], 2);
	assert_int_equal(op_count(f, k, "buffer_load_dwordx2 lds"), 2);
	assert_int_equal(k->instructions, 5);
	scan_free(f);
}

static void test_comments_and_dcu_matrix(void **state)
{
	struct isa_file_result *f = scan_as(HEAD
		"/* ds_read_b128 v[0:3], v4\n"
		"   global_load_dword v0, v[0:1], off */\n"
		"//ds_read_m32x16_b16 v[0:3], v4\n"
		"ds_read_m32x16_b16 v[20:23], v1 offset:0 /* inline */ ; trailing\n"
		"v_mmac_f32_16x16x16_f16 v[vgprValuC+0:vgprValuC+1:vgprValuC+2:vgprValuC+3] "
		"v[vgprA:vgprA+1] v[vgprB:vgprB+1] v[vgprValuC+0: vgprValuC+1: vgprValuC+2: vgprValuC+3]//\n"
		"/* one */ s_barrier /* two */\n"
		"v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\n", ISA_AMDGCN);
	const struct isa_kernel *k = kernel_named(f, "k", NULL);

	(void)state;
	assert_non_null(k);
	assert_int_equal(k->fam[ISA_FAM_LDS_MATRIX_READ].count, 1);
	assert_int_equal(k->fam[ISA_FAM_LDS_MATRIX_READ].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_MMAC].count, 1);
	assert_int_equal(k->fam[ISA_FAM_MFMA].count, 1);
	assert_int_equal(k->fam[ISA_FAM_BARRIER].count, 1);
	assert_int_equal(k->fam[ISA_FAM_LDS_READ].count, 0);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_LOAD].count, 0);
	assert_int_equal(k->instructions, 4);
	scan_free(f);
}

static void test_conditional_assembly_and_macros(void **state)
{
	struct isa_file_result *f = scan_as(HEAD
		".set debug_buffer, 0\n"
		".if debug_buffer\n"
		"flat_store_dword v[0:1], v2\n"
		".else\n"
		"s_barrier\n"
		".endif\n"
		".set dbg2, 1\n"
		".if dbg2 == 1\n"
		"flat_store_dword v[0:1], v2\n"
		".endif\n"
		".if unknown_symbol\n"
		"s_barrier\n"
		".endif\n"
		".macro LDS_LOAD off:req\n"
		"ds_read_b64 v[0:1], v2 offset:\\off\n"
		".endm\n"
		"LDS_LOAD 0\n"
		"LDS_LOAD 16\n", ISA_AMDGCN);
	const struct isa_kernel *k = kernel_named(f, "k", NULL);

	(void)state;
	assert_non_null(k);
	assert_int_equal(k->fam[ISA_FAM_FLAT_STORE].count, 1);
	assert_int_equal(k->fam[ISA_FAM_BARRIER].count, 2);
	assert_int_equal(k->fam[ISA_FAM_LDS_READ].slot[ISA_W64], 1);
	assert_int_equal(k->macro_instructions, 1);
	assert_int_equal(k->instructions, 4);
	assert_true(has_note(f->notes, f->notes_nr, "2 macro calls"));
	/* one .if names an unknown symbol */
	assert_true(has_note(f->notes, f->notes_nr,
			     "1 .if condition could not be evaluated; its first branch is counted"));
	scan_free(f);
}

static void test_atomics_and_waits(void **state)
{
	struct isa_file_result *f = scan_as(HEAD
		"global_atomic_add_f32 v[0:1], v4, off\n"
		"global_atomic_cmpswap v0, v[4:5], v[0:1], off glc\n"
		"global_atomic_add_f32 v0, v[0:1], v4, off sc0 sc1\n"
		"global_atomic_add_x2 v[0:1], v[2:3], off\n"
		"buffer_atomic_add_f32 v1, v2, s[4:7], 0 offen\n"
		"ds_add_rtn_u32 v1, v2, v3\n"
		"ds_add_u32 v2, v3\n"
		"s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		"s_waitcnt lgkmcnt(1)\n"
		"s_waitcnt_vscnt null, 0x0\n"
		"s_waitcnt expcnt(0)\n", ISA_AMDGCN);
	const struct isa_kernel *k = kernel_named(f, "k", NULL);
	const struct isa_family_count *g, *w;

	(void)state;
	assert_non_null(k);
	g = &k->fam[ISA_FAM_GLOBAL_ATOMIC];
	assert_int_equal(g->count, 4);
	assert_int_equal(g->returning, 2);
	assert_int_equal(g->slot[ISA_W32], 3);
	assert_int_equal(g->slot[ISA_W64], 1);
	assert_int_equal(k->fam[ISA_FAM_BUFFER_ATOMIC].count, 1);
	assert_int_equal(k->fam[ISA_FAM_LDS_ATOMIC].count, 2);
	assert_int_equal(k->fam[ISA_FAM_LDS_ATOMIC].returning, 1);
	w = &k->fam[ISA_FAM_WAITCNT];
	assert_int_equal(w->count, 4);
	assert_int_equal(w->slot[ISA_C_VMCNT], 1);
	assert_int_equal(w->slot[ISA_C_LGKMCNT], 2);
	assert_int_equal(w->slot[ISA_C_VSCNT], 1);
	assert_int_equal(w->slot[ISA_C_EXPCNT], 1);
	assert_non_null(finding_of(k, "atomics"));
	scan_free(f);
}

static void test_spills_and_source_lines(void **state)
{
	struct isa_file_result *f = scan_as(
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
		"\t.globl\tk\n\t.type\tk,@function\nk:\n"
		"\t.file\t1 \"/w\" \"k.py\"\n"
		"\t.file\t2 \"/t/standard.py\"\n"
		"\tglobal_load_dword v0, v[0:1], off\n"
		"\t.loc\t1 34 10 prologue_end ; k.py:34:10\n"
		"\tglobal_load_dwordx4 v[0:3], v[4:5], off\n"
		"\tglobal_load_dwordx4 v[0:3], v[4:5], off offset:16\n"
		"\t.loc\t2 7 3\n"
		"\tglobal_store_short v[0:1], v2, off\n"
		"\t.loc\t1 0 3 is_stmt 0\n"
		"\tscratch_store_dword off, v67, off offset:136 ; 4-byte Folded Spill\n"
		"\tbuffer_store_dword v4, off, s[0:3], s32 ; 4-byte Folded Spill\n"
		"\tbuffer_load_dword v4, off, s[0:3], s32 ; 4-byte Folded Reload\n"
		"\ts_endpgm\n", ISA_AMDGCN);
	const struct isa_kernel *k = kernel_named(f, "k", "gfx942");
	const struct isa_finding *fd;

	(void)state;
	assert_non_null(k);
	assert_int_equal(k->spill_stores, 2);
	assert_int_equal(k->spill_reloads, 1);
	assert_int_equal(k->unattributed, 1);
	assert_int_equal(f->srcfiles_nr, 2);
	assert_string_equal(f->srcfiles[0], "/w/k.py");
	assert_string_equal(f->srcfiles[1], "/t/standard.py");
	/* lines sorted by file, line: k.py:0 (3 ops), k.py:34, standard.py:7 */
	assert_int_equal(k->lines_nr, 5);
	assert_int_equal(k->lines[0].line, 0);
	assert_int_equal(k->lines[3].line, 34);
	assert_int_equal(k->lines[3].count, 2);
	assert_string_equal(f->ops[k->lines[3].op].name, "global_load_dwordx4");
	assert_int_equal(k->lines[4].file, 2);
	assert_int_equal(k->lines[4].line, 7);
	fd = finding_of(k, "narrow_lines");
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "standard.py:7 (1 global_store_short)"));
	fd = finding_of(k, "vector_width");
	assert_non_null(fd);
	assert_null(fd->severity);	/* the rules judge it (test-decide-isa.c), not the scanner */
	assert_non_null(strstr(fd->message, "2 of 6 global/buffer memory instructions"));
	scan_free(f);
}

static void test_resource_blocks(void **state)
{
	struct isa_file_result *f = scan_as(
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx936:xnack-\"\n"
		"\t.globl\tk\n\t.type\tk,@function\nk:\n\ts_endpgm\n"
		"\t.amdhsa_kernel k\n"
		"\t\t.amdhsa_next_free_vgpr 94 // vgprs\n"
		"\t\t.amdhsa_group_segment_fixed_size 65536 // lds bytes\n"
		"\t.end_amdhsa_kernel\n"
		"\t.set k.num_vgpr, 88\n"
		"; Kernel info:\n"
		"; codeLenInByte = 892\n"
		"; NumSgprs: 14\n"
		"; NumVgprs: 65\n"
		"; ScratchSize: 0\n"
		"; Occupancy: 10\n"
		"\t.amdgpu_metadata\n"
		"---\n"
		"amdhsa.kernels:\n"
		"  - .args:\n"
		"      - .name:            Gemm info\n"
		"        .size:            4\n"
		"    .name:           k\n"
		"    .vgpr_count:     90\n"
		"    .vgpr_spill_count: 3\n"
		"    .wavefront_size: 64\n"
		"amdhsa.target:   'amdgcn-amd-amdhsa--gfx936:xnack-'\n"
		"...\n"
		"\t.end_amdgpu_metadata\n", ISA_AMDGCN);
	const struct isa_kernel *k = kernel_named(f, "k", "gfx936");

	(void)state;
	assert_non_null(k);
	assert_true(k->is_kernel);
	assert_int_equal(k->res[ISA_RES_VGPRS].value, 90);
	assert_int_equal(k->res[ISA_RES_VGPRS].src, ISA_SRC_METADATA);
	assert_int_equal(k->res[ISA_RES_NEXT_FREE_VGPR].value, 94);
	assert_int_equal(k->res[ISA_RES_VGPR_SPILLS].value, 3);
	assert_int_equal(k->res[ISA_RES_SGPRS].value, 14);
	assert_int_equal(k->res[ISA_RES_SGPRS].src, ISA_SRC_KERNEL_INFO);
	assert_int_equal(k->res[ISA_RES_LDS_BYTES].value, 65536);
	assert_int_equal(k->res[ISA_RES_OCCUPANCY].value, 10);
	assert_int_equal(k->res[ISA_RES_CODE_BYTES].value, 892);
	assert_int_equal(k->res[ISA_RES_AGPRS].src, ISA_SRC_ARCH);
	assert_true(has_note(f->notes, f->notes_nr, ".amdhsa_next_free_vgpr 94"));
	assert_non_null(finding_of(k, "spills"));
	assert_null(finding_of(k, "spills")->severity);	/* judged by decide/isa_scope */
	scan_free(f);
}

static void test_offload_bundle(void **state)
{
	struct isa_file_result *f = scan_as(
		"# __CLANG_OFFLOAD_BUNDLE____START__ hip-amdgcn-amd-amdhsa-gfx906\n"
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx906:sramecc+\"\n"
		"\t.globl\t_Z1kv\n\t.type\t_Z1kv,@function\n_Z1kv:\n"
		"\tglobal_load_dword v1, v[0:1], off\n"
		"# __CLANG_OFFLOAD_BUNDLE____END__ hip-amdgcn-amd-amdhsa-gfx906\n"
		"# __CLANG_OFFLOAD_BUNDLE____START__ hip-amdgcn-amd-amdhsa-gfx928\n"
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx928:sramecc+\"\n"
		"\t.globl\t_Z1kv\n\t.type\t_Z1kv,@function\n_Z1kv:\n"
		"\tglobal_load_dwordx2 v[1:2], v[0:1], off\n"
		"# __CLANG_OFFLOAD_BUNDLE____END__ hip-amdgcn-amd-amdhsa-gfx928\n"
		"# __CLANG_OFFLOAD_BUNDLE____START__ host-x86_64-unknown-linux-gnu\n"
		"_Z1kv:\n\tbuffer_load_dword v1, v2, s[4:7], 0\n\tmovq %rsp, %rbp\n"
		"# __CLANG_OFFLOAD_BUNDLE____END__ host-x86_64-unknown-linux-gnu\n",
		ISA_AMDGCN);
	const struct isa_kernel *a, *b;

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->kernels_nr, 2);
	a = kernel_named(f, "_Z1kv", "gfx906");
	b = kernel_named(f, "_Z1kv", "gfx928");
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W32], 1);
	assert_int_equal(b->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W64], 1);
	assert_int_equal(b->fam[ISA_FAM_BUFFER_LOAD].count, 0);
	assert_string_equal(f->format, "offload bundle");
	assert_true(has_note(f->notes, f->notes_nr, "2 device parts scanned, 1 host part skipped"));
	scan_free(f);
}

static void test_objdump_listing_with_notes(void **state)
{
	struct isa_file_result *f = scan_as(
		"\nadd_scale.hsaco:\tfile format elf64-amdgpu\n\n"
		"Disassembly of section .text:\n\n"
		"0000000000001700 <add_scale>:\n"
		"\ts_load_dwordx2 s[6:7], s[4:5], 0x0 // 000000001700: C0060182 00000000\n"
		"\tglobal_load_dwordx4 v[2:5], v0, s[6:7] // 000000001708: DC5C8000 02060000\n"
		"\ts_endpgm // 000000001710: BF810000\n"
		"\nDisplaying notes found in: .note\n"
		"    AMDGPU Metadata:\n"
		"        ---\n"
		"amdhsa.kernels:\n"
		"  - .agpr_count:     0\n"
		"    .name:           add_scale\n"
		"    .vgpr_count:     10\n"
		"amdhsa.target:   amdgcn-amd-amdhsa--gfx90a\n"
		"...\n", ISA_AMDGCN);
	const struct isa_kernel *k;

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->kernels_nr, 1);
	k = f->kernels[0];
	assert_string_equal(k->name, "add_scale");
	assert_string_equal(k->arch, "gfx90a");
	assert_true(k->is_kernel);
	assert_int_equal(k->instructions, 3);
	assert_int_equal(k->fam[ISA_FAM_SCALAR_LOAD].slot[ISA_W64], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W128], 1);
	assert_int_equal(k->res[ISA_RES_VGPRS].value, 10);
	assert_int_equal(k->res[ISA_RES_OCCUPANCY].src, ISA_SRC_COMPUTED);
	assert_int_equal(k->res[ISA_RES_OCCUPANCY].value, 8);
	assert_string_equal(f->format, "disassembly");
	scan_free(f);
}

static void test_gfx11_spellings_and_truncation(void **state)
{
	struct isa_file_result *f = scan_as(
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
		"add_scale:\n"
		"\ts_load_b128 s[4:7], s[0:1], 0x0\n"
		"\tglobal_load_b128 v[4:7], v[8:9], off\n"
		"\tds_load_b64 v[0:1], v2\n"
		"\tds_store_2addr_b32 v1, v2, v3 offset1:4\n"
		"\tv_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n"
		"\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: add_scale\n    .vgpr_c",
		ISA_AMDGCN);
	const struct isa_kernel *k;

	(void)state;
	assert_non_null(f);
	k = kernel_named(f, "add_scale", "gfx1100");
	assert_non_null(k);
	assert_int_equal(k->fam[ISA_FAM_SCALAR_LOAD].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_LDS_READ].slot[ISA_W64], 1);
	assert_int_equal(k->fam[ISA_FAM_LDS_WRITE].slot[ISA_W2X32], 1);
	assert_int_equal(k->fam[ISA_FAM_WMMA].count, 1);
	assert_true(has_note(f->warnings, f->warnings_nr, "truncated"));
	scan_free(f);
}

/* Texts that end right after a short word: an exactly-sized copy lets ASan see any read past it. */
static void test_short_endings(void **state)
{
	static const char *const ends[] = {
		".", "v", "s_", "#", ";", "/", "/*", "x:", "\t.loc", "\t.loc 1", "\t.file 1 \"a",
		".amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .vgpr_count:",
		".if", ".set a,", "buffer_load_dword v1, v2, s[4:7], 0 offen l", "s_waitcnt vmc",
		"global_atomic_add_f32 v[0:1], v4, off gl", "0000 <k", "# __CLANG_OFFLOAD_BUNDLE____START__ hip-",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		struct buf text = BUF_INIT;
		struct isa_file_result *f;

		buf_adds(&text, HEAD);
		buf_adds(&text, ends[i]);
		f = scan_as(text.buf, ISA_AMDGCN);
		assert_non_null(f);
		scan_free(f);
		f = scan_as(ends[i], ISA_AMDGCN);
		assert_non_null(f);
		scan_free(f);
		f = scan_as(ends[i], ISA_PTX);
		assert_non_null(f);
		scan_free(f);
		f = scan_as(ends[i], ISA_SASS);
		assert_non_null(f);
		scan_free(f);
		buf_release(&text);
	}
}

static void test_detect(void **state)
{
	(void)state;
	assert_int_equal(isa_scanner_for(ISA_AMDGCN)->detect(
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n", 44), 100);
	assert_true(isa_scanner_for(ISA_AMDGCN)->detect(
		"s_load_dword s0, s[0:1], 0x0\nv_add_f32 v0, v1, v2\ns_endpgm\n", 58) >= 50);
	assert_int_equal(isa_scanner_for(ISA_AMDGCN)->detect(
		"{\n  \"amdhsa.kernels\": [\n", 24), 0);
	assert_int_equal(isa_scanner_for(ISA_AMDGCN)->detect(
		"# notes\nsome prose about global_load\n", 37), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_to_lds_with_and_without_comma),
		cmocka_unit_test(test_comments_and_dcu_matrix),
		cmocka_unit_test(test_conditional_assembly_and_macros),
		cmocka_unit_test(test_atomics_and_waits),
		cmocka_unit_test(test_spills_and_source_lines),
		cmocka_unit_test(test_resource_blocks),
		cmocka_unit_test(test_offload_bundle),
		cmocka_unit_test(test_objdump_listing_with_notes),
		cmocka_unit_test(test_gfx11_spellings_and_truncation),
		cmocka_unit_test(test_short_endings),
		cmocka_unit_test(test_detect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
