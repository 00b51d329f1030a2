/*
 * Unit tests for the SASS scanner (src/isa/sass.c) on excerpts of
 * `cuobjdump -sass`, `nvdisasm -g -c` and `cuobjdump -res-usage` output of
 * a corpus/h200-run1 cubin: widths from mnemonic parts, ATOM vs RED,
 * LDSM rows, line info and resources.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "isa-helpers.h"

static void test_cuobjdump_and_res_usage(void **state)
{
	struct isa_file_result *f = scan_as(
		"\n\tcode for sm_90\n\t.target\tsm_90\n\n"
		"\t\tFunction : kern\n"
		"\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
		"        /*0000*/                   LDC R1, c[0x0][0x28] ;          /* 0x00000a00ff017b82 */\n"
		"                                                                  /* 0x000e220000000800 */\n"
		"        /*0010*/              @!P0 LDG.E.EL.64 R2, desc[UR10][R10.64] ;\n"
		"        /*0020*/               @P1 LDG.E.EL.128 R24, desc[UR10][R6.64] ;\n"
		"        /*0030*/                   LDG.E.U16 R3, desc[UR4][R2.64] ;\n"
		"        /*0040*/                   STG.E desc[UR4][R2.64], R5 ;\n"
		"        /*0050*/                   REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R24 ;\n"
		"        /*0060*/                   ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R4, desc[UR4][R2.64], R5 ;\n"
		"        /*0070*/                   LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR6][R4.64] ;\n"
		"        /*0080*/                   LDSM.16.M88.4 R8, [R9] ;\n"
		"        /*0090*/                   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
		"        /*00a0*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;\n"
		"        /*00b0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
		"        /*00c0*/                   STL [R1], R2 ;\n"
		"        /*00d0*/                   EXIT ;\n"
		"\nResource usage:\n Common:\n  GLOBAL:127 CONSTANT[4]:32\n"
		" Function kern:\n"
		"  REG:30 STACK:8 SHARED:0 LOCAL:4 CONSTANT[0]:576 TEXTURE:0 SURFACE:0 SAMPLER:0\n",
		ISA_SASS);
	const struct isa_kernel *k;

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->kernels_nr, 1);
	k = kernel_named(f, "kern", "sm_90");
	assert_non_null(k);
	assert_int_equal(k->instructions, 14);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W64], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_LOAD].slot[ISA_W16], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_STORE].slot[ISA_W32], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_ATOMIC].count, 2);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_ATOMIC].returning, 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_ATOMIC].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_GLOBAL_TO_LDS].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_LDS_MATRIX_READ].slot[ISA_W128], 1);
	assert_int_equal(k->fam[ISA_FAM_MMA].count, 1);
	assert_int_equal(k->fam[ISA_FAM_WGMMA].count, 1);
	assert_int_equal(k->fam[ISA_FAM_BARRIER].count, 1);
	assert_int_equal(k->fam[ISA_FAM_SCRATCH_STORE].count, 1);
	assert_int_equal(k->res[ISA_RES_REGISTERS].value, 30);
	assert_int_equal(k->res[ISA_RES_STACK_BYTES].value, 8);
	assert_int_equal(k->res[ISA_RES_LOCAL_BYTES].value, 4);
	assert_non_null(strstr(finding_of(k, "spills")->message, "spills or scratch in use"));
	assert_null(finding_of(k, "spills")->severity);	/* judged by decide/isa_scope */
	assert_int_equal(k->unattributed, 11);	/* no line info: all but BAR */
	scan_free(f);
}

static void test_nvdisasm_line_info(void **state)
{
	struct isa_file_result *f = scan_as(
		"\t.target\tsm_90\n\n"
		"\t.section\t.text.kern,\"ax\",@progbits\n"
		"kern:\n.text.kern:\n"
		"\t//## File \"/tmp/w/k.py\", line 33\n"
		"        /*01c0*/              @!P0 LDG.E.EL.64 R2, desc[UR10][R10.64] ;\n"
		"\t//## File \"/tmp/w/k.py\", line 34 inlined at \"/tmp/w/k.py\", line 50\n"
		"        /*0380*/               @P1 LDG.E.EL.128 R24, desc[UR10][R6.64] ;\n"
		"        /*0390*/               @P1 LDG.E.EL.128 R16, desc[UR4][R8.64] ;\n",
		ISA_SASS);
	const struct isa_kernel *k;

	(void)state;
	assert_non_null(f);
	k = kernel_named(f, "kern", "sm_90");
	assert_non_null(k);
	assert_int_equal(k->lines_nr, 2);
	assert_int_equal(k->lines[0].line, 33);
	assert_int_equal(k->lines[1].line, 34);
	assert_int_equal(k->lines[1].count, 2);
	assert_string_equal(isa_srcfile(f, k->lines[1].file), "/tmp/w/k.py");
	scan_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuobjdump_and_res_usage),
		cmocka_unit_test(test_nvdisasm_line_info),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
