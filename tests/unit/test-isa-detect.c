/*
 * Unit tests for content detection (src/isa/detect.c): each kind the
 * scanner meets in a Triton cache, told from its first bytes whatever
 * the file is called.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "isa/detect.h"

static struct isa_sniff sniff(const char *p, size_t n)
{
	struct isa_sniff s;

	isa_sniff(p, n, &s);
	return s;
}

#define SNIFF(lit) sniff((lit), sizeof(lit) - 1)

static void test_text_kinds(void **state)
{
	struct isa_sniff s;

	(void)state;
	s = SNIFF("\t.text\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n");
	assert_int_equal(s.input, ISA_IN_TEXT);
	assert_int_equal(s.kind, ISA_AMDGCN);
	s = SNIFF("//\n.version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k(\n");
	assert_int_equal(s.kind, ISA_PTX);
	s = SNIFF("\n\tcode for sm_90\n\t\tFunction : k\n        /*0000*/  LDC R1, c[0x0][0x28] ;\n");
	assert_int_equal(s.kind, ISA_SASS);
	s = SNIFF("; ModuleID = 'LLVMDialectModule'\nsource_filename = \"x\"\n"
		  "target triple = \"amdgcn-amd-amdhsa\"\n");
	assert_int_equal(s.input, ISA_IN_SKIP);
	assert_string_equal(s.skip_kind, "llvm-ir");
	s = SNIFF("#loc = loc(\"/k.py\":10:0)\nmodule {\n  tt.func public @k() {\n");
	assert_string_equal(s.skip_kind, "mlir");
	s = SNIFF("#blocked = #ttg.blocked<{sizePerThread = [4]}>\n");
	assert_string_equal(s.skip_kind, "mlir");
	s = SNIFF("\nimport triton\nimport triton.language as tl\n");
	assert_string_equal(s.skip_kind, "python");
	s = SNIFF("{\"hash\": \"ae5c\", \"target\": {\"backend\": \"cuda\"}}");
	assert_string_equal(s.skip_kind, "json");
	s = SNIFF("# notes\n\nsome prose\n");
	assert_string_equal(s.skip_kind, "markdown");
	s = SNIFF("hello world\nthis is text\n");
	assert_int_equal(s.input, ISA_IN_UNKNOWN);
}

static void test_binary_kinds(void **state)
{
	unsigned char elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	struct isa_sniff s;

	(void)state;
	elf[18] = 224;		/* EM_AMDGPU */
	elf[48] = 0x4c;		/* EF_AMDGPU_MACH_AMDGCN_GFX942 */
	s = sniff((const char *)elf, sizeof(elf));
	assert_int_equal(s.input, ISA_IN_AMDGPU);
	assert_string_equal(s.arch, "gfx942");
	elf[48] = 0x7a;		/* not in the table: a DTK-only processor, say */
	s = sniff((const char *)elf, sizeof(elf));
	assert_string_equal(s.arch, "");
	elf[18] = 190;		/* EM_CUDA */
	s = sniff((const char *)elf, sizeof(elf));
	assert_int_equal(s.input, ISA_IN_CUBIN);
	elf[18] = 62;		/* x86-64 */
	s = sniff((const char *)elf, sizeof(elf));
	assert_int_equal(s.input, ISA_IN_ELF);
	s = SNIFF("abc\0def");
	assert_int_equal(s.input, ISA_IN_BINARY);
	assert_int_equal(s.nul_at, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_kinds),
		cmocka_unit_test(test_binary_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
