/*
 * Unit tests for target/target: architecture names as compilers spell
 * them, the GPU facts a Python side reports and the arch C decides from
 * them, the tune targets, the ISA columns (VGPR-limited occupancy checked
 * against Kernel info blocks in the corpus), ELF machine numbers, and the
 * Hygon rows against the brief's HCU table.
 *
 * Expected values come from outside the table: the "known:" list is
 * tests/golden/tune/bad-target's recorded message, the occupancies are
 * Kernel info blocks of corpus/amd-xcompile and corpus/dcu, the ELF
 * numbers llvm/BinaryFormat/ELF.h's EF_AMDGPU_MACH_AMDGCN_*, the Hygon
 * names docs/seed-scripts.md section 1 and the VGPR files triton-das's
 * clang flags (docs/dcu.md section 10). The first GPU case is what the
 * H200 run sent before the fix: torch's gcnArchName on CUDA is the
 * marketing name, "NVIDIA H200", which names no target.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "target/target.h"

static void want_norm(const char *in, const char *want)
{
	struct buf out = BUF_INIT;

	if (!want) {
		assert_int_equal(target_norm(in, &out), -1);
	} else {
		assert_int_equal(target_norm(in, &out), 0);
		assert_string_equal(out.buf, want);
	}
	buf_release(&out);
}

static void test_norm(void **state)
{
	(void)state;
	want_norm("gfx942:sramecc+:xnack-", "gfx942");
	want_norm("gfx936:sramecc-", "gfx936");
	want_norm("gfx90a", "gfx90a");
	want_norm("gfx1100", "gfx1100");
	want_norm("sm_90a", "sm_90");
	want_norm("sm_100f", "sm_100");
	want_norm("sm_90", "sm_90");
	want_norm("SM90", "sm_90");
	want_norm("9.0", "sm_90");
	want_norm("12.0", "sm_120");
	want_norm("90", "sm_90");
	want_norm("NVIDIA H200", NULL);
	want_norm("sm_", NULL);
	want_norm("sm_90ab", NULL);
	want_norm("gfx", NULL);
	want_norm("gfx9-4", NULL);
	want_norm("9..0", NULL);
	want_norm("", NULL);
}

static void want_dup(const char *in, const char *want)
{
	char *got = target_norm_dup(in, strlen(in));

	if (!want) {
		assert_null(got);
	} else {
		assert_non_null(got);
		assert_string_equal(got, want);
	}
	free(got);
}

static void test_norm_dup(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	want_dup("sm_90a", "sm_90");
	want_dup("gfx942:sramecc+:xnack-", "gfx942");
	/* a name tko has no spelling for stays as written, up to its features */
	want_dup("NVIDIA H200", "NVIDIA H200");
	want_dup("gfx9-4:xnack-", "gfx9-4");
	want_dup(":xnack-", NULL);
	want_dup("", NULL);
	target_cuda_arch(90, &b);
	assert_string_equal(b.buf, "sm_90");
	buf_release(&b);
}

static const struct target *of(const char *json, struct buf *err)
{
	struct target_gpu_facts f;
	json_error_t e;
	json_t *gpu = json_loads(json, 0, &e);
	const struct target *t;

	assert_non_null(gpu);
	target_gpu_facts_read(gpu, &f);
	t = target_of_gpu(&f, err);
	json_decref(gpu);
	return t;
}

static void test_of_gpu(void **state)
{
	struct buf err = BUF_INIT;
	const struct target *t;

	(void)state;
	/* the failing H200 run: only the marketing name */
	assert_null(of("{\"name\": \"NVIDIA H200\", \"arch\": \"NVIDIA H200\"}", &err));
	assert_non_null(strstr(err.buf, "'NVIDIA H200'"));
	assert_non_null(strstr(err.buf, "sm_90"));
	assert_null(strchr(err.buf, '\n'));
	buf_reset(&err);
	/* python/tko/gpu.py's facts on CUDA: gcnArchName is the marketing name there */
	t = of("{\"name\": \"NVIDIA H200\", \"backend\": \"cuda\", \"gcn_arch_name\": "
	       "\"NVIDIA H200\", \"capability\": [9, 0], \"warp_size\": 32}", &err);
	assert_non_null(t);
	assert_string_equal(t->name, "sm_90");
	assert_int_equal(t->cc, 90);
	/* an older worker's hello: arch and cc */
	t = of("{\"name\": \"NVIDIA H200\", \"backend\": \"cuda\", \"arch\": \"sm_90\", "
	       "\"cc\": [9, 0]}", &err);
	assert_non_null(t);
	assert_string_equal(t->name, "sm_90");
	/* an old worker's marketing name, but the capability is there */
	t = of("{\"name\": \"NVIDIA H200\", \"arch\": \"NVIDIA H200\", \"cc\": [9, 0]}", &err);
	assert_non_null(t);
	assert_string_equal(t->name, "sm_90");
	/* ROCm: gcnArchName with feature suffixes, as facts and as an older arch_name */
	t = of("{\"name\": \"AMD Instinct MI300X\", \"backend\": \"hip\", "
	       "\"gcn_arch_name\": \"gfx942:sramecc+:xnack-\", \"capability\": [9, 4]}", &err);
	assert_non_null(t);
	assert_string_equal(t->name, "gfx942");
	t = of("{\"name\": \"AMD Instinct MI300X\", \"backend\": \"hip\", \"arch\": null, "
	       "\"arch_name\": \"gfx942:sramecc+:xnack-\", \"cc\": [9, 4]}", &err);
	assert_non_null(t);
	assert_string_equal(t->name, "gfx942");
	/* a HIP device's capability (9, 4) is not an sm_ arch */
	assert_null(of("{\"name\": \"x\", \"backend\": \"hip\", \"capability\": [9, 4]}", &err));
	buf_reset(&err);
	/* DTK on a BW DCU */
	t = of("{\"name\": \"BW\", \"backend\": \"hip\", \"gcn_arch_name\": \"gfx936:sramecc-\"}",
	       &err);
	assert_non_null(t);
	assert_true(t->hcu && !t->upstream);
	/* known to the compiler and to the ISA scanner, not a tune target */
	assert_null(of("{\"name\": \"MI50\", \"backend\": \"hip\", \"gcn_arch_name\": \"gfx906\"}",
		       &err));
	buf_reset(&err);
	assert_null(of("{\"name\": \"Jetson\", \"backend\": \"cuda\", \"capability\": [8, 7]}",
		       &err));
	assert_non_null(strstr(err.buf, "'sm_87'"));
	assert_non_null(strstr(err.buf, "--target"));
	buf_release(&err);
}

static void want_arch(const char *json, const char *want)
{
	struct target_gpu_facts f;
	struct buf out = BUF_INIT;
	json_t *gpu = json_loads(json, 0, NULL);

	assert_non_null(gpu);
	target_gpu_facts_read(gpu, &f);
	if (!want) {
		assert_int_equal(target_gpu_arch(&f, &out), -1);
	} else {
		assert_int_equal(target_gpu_arch(&f, &out), 0);
		assert_string_equal(out.buf, want);
	}
	json_decref(gpu);
	buf_release(&out);
}

/* What tko.probe, capture and the tune worker wrote before C decided it. */
static void test_gpu_arch(void **state)
{
	(void)state;
	want_arch("{\"backend\": \"cuda\", \"gcn_arch_name\": \"NVIDIA H200\", "
		  "\"capability\": [9, 0]}", "sm_90");
	want_arch("{\"backend\": \"cuda\", \"capability\": [12, 0]}", "sm_120");
	want_arch("{\"backend\": \"cuda\", \"capability\": [8, 7]}", "sm_87");
	want_arch("{\"backend\": \"hip\", \"gcn_arch_name\": \"gfx942:sramecc+:xnack-\"}", "gfx942");
	/* a processor tko has no row for keeps its name */
	want_arch("{\"backend\": \"hip\", \"gcn_arch_name\": \"gfx1030\"}", "gfx1030");
	want_arch("{\"backend\": \"hip\", \"gcn_arch_name\": null, \"capability\": [9, 4]}", NULL);
	want_arch("{\"backend\": \"hip\", \"gcn_arch_name\": \"\"}", NULL);
	/* an arch named before (rocminfo, nvidia-smi, an older probe) */
	want_arch("{\"backend\": \"cuda\", \"arch\": \"sm_90\"}", "sm_90");
	want_arch("{\"name\": \"fake\"}", NULL);
}

static void test_tunable(void **state)
{
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(target_check_tunable("gfx942", 0, &err), 0);
	assert_int_equal(target_check_tunable("gfx936", 1, &err), 0);
	assert_int_equal(target_check_tunable("gfx936", 0, &err), -1);
	assert_non_null(strstr(err.buf, "triton-das"));
	buf_reset(&err);
	assert_int_equal(target_check_tunable("NVIDIA H200", 0, &err), -1);
	assert_non_null(strstr(err.buf, "unknown target 'NVIDIA H200'"));
	buf_reset(&err);
	/* an ISA row only */
	assert_int_equal(target_check_tunable("gfx906", 0, &err), -1);
	assert_string_equal(err.buf, "unknown target 'gfx906' (known: gfx90a, gfx942, gfx950, "
			    "gfx926, gfx928, gfx936, gfx938, gfx92a, gfx946, gfx948, sm_80, sm_86, "
			    "sm_89, sm_90, sm_100, sm_103, sm_120)");
	buf_release(&err);
}

static void test_occupancy(void **state)
{
	const struct target *g942 = target_isa_find("gfx942:sramecc+:xnack-", 22);
	const struct target *g936 = target_isa_find("gfx936", 6);

	(void)state;
	assert_non_null(g942);
	/* Kernel info blocks of corpus/amd-xcompile and corpus/dcu */
	assert_int_equal(target_vgpr_waves(g942, 94), 5);
	assert_int_equal(target_vgpr_waves(g942, 216), 2);
	assert_int_equal(target_vgpr_waves(g942, 512), 1);
	assert_int_equal(target_vgpr_waves(g942, 12), 8);
	assert_int_equal(target_vgpr_waves(target_isa_find("gfx906", 6), 6), 10);
	assert_int_equal(target_vgpr_waves(g936, 65), 10);
	assert_int_equal(g936->vendor, TARGET_HYGON);
	assert_int_equal(g936->vgpr_max, 768);
	assert_int_equal(target_vgpr_waves(g942, 513), 0);
	assert_int_equal(target_vgpr_waves(target_isa_find("gfx1100", 7), 20), 0);
	/* the scanner judges no NVIDIA row and no row known only by its ELF number */
	assert_null(target_isa_find("sm_90", 5));
	assert_non_null(target_find("sm_90"));
	assert_null(target_isa_find("gfx1030", 7));
	assert_null(target_isa_find("gfx94", 5));
}

static void test_elf_mach(void **state)
{
	static const struct { unsigned mach; const char *name; } llvm[] = {
		{ 0x2c, "gfx900" }, { 0x2f, "gfx906" }, { 0x30, "gfx908" }, { 0x3f, "gfx90a" },
		{ 0x40, "gfx940" }, { 0x4b, "gfx941" }, { 0x4c, "gfx942" }, { 0x4f, "gfx950" },
		{ 0x36, "gfx1030" }, { 0x41, "gfx1100" }, { 0x46, "gfx1101" }, { 0x47, "gfx1102" },
		{ 0x48, "gfx1200" }, { 0x4e, "gfx1201" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(llvm) / sizeof(llvm[0]); i++) {
		assert_non_null(target_of_elf_mach(llvm[i].mach));
		assert_string_equal(target_of_elf_mach(llvm[i].mach)->name, llvm[i].name);
	}
	assert_null(target_of_elf_mach(0));
	assert_null(target_of_elf_mach(0x99));
	assert_false(target_known(target_find("gfx1030")));
	assert_true(target_known(target_find("gfx906")));
	assert_true(target_known(target_find("sm_80")));
}

static void test_hygon(void **state)
{
	/* the brief's HCU table, in its order, with triton-das's VGPR-file flags */
	static const struct { const char *name; int das; int vgprs; } brief[] = {
		{ "gfx926", 1, 0 }, { "gfx928", 1, 512 }, { "gfx92a", 1, 512 },
		{ "gfx936", 1, 768 }, { "gfx938", 1, 768 }, { "gfx946", 1, 512 },
		{ "gfx948", 0, 0 },
	};
	size_t i, n;
	const struct target *const *h = target_hygon(&n);

	(void)state;
	assert_int_equal(n, 7);
	for (i = 0; i < n; i++) {
		assert_string_equal(h[i]->name, brief[i].name);
		assert_non_null(h[i]->hcu);
		assert_int_equal(h[i]->hcu->das, brief[i].das);
		assert_int_equal(h[i]->vgpr_file, brief[i].vgprs);
		assert_int_equal(h[i]->wave, 64);
		assert_true(h[i]->tunable && h[i]->isa && !h[i]->upstream);
		assert_true(target_is_dcu(h[i]->name));
	}
	assert_true(target_is_dcu("gfx936:sramecc-"));
	assert_false(target_is_dcu("gfx942"));
	assert_false(target_is_dcu("sm_90"));
	assert_false(target_is_dcu(NULL));
	assert_int_equal(target_find("gfx948")->vgpr_max, 0);
	assert_int_equal(target_find("gfx946")->smem_block, 131072);
}

static void want_json(const char *arch, const char *text)
{
	json_t *j = target_compile_json(target_find(arch));
	char *s = json_dumps(j, JSON_COMPACT);

	assert_string_equal(s, text);
	free(s);
	json_decref(j);
}

/* tune/request.c sent these before target.c existed (tests/golden/tune/compile-gfx942). */
static void test_compile_json(void **state)
{
	(void)state;
	want_json("sm_90", "{\"backend\":\"cuda\",\"arch\":90,\"warp_size\":32}");
	want_json("gfx942", "{\"backend\":\"hip\",\"arch\":\"gfx942\",\"warp_size\":64}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_norm),
		cmocka_unit_test(test_norm_dup),
		cmocka_unit_test(test_of_gpu),
		cmocka_unit_test(test_gpu_arch),
		cmocka_unit_test(test_tunable),
		cmocka_unit_test(test_occupancy),
		cmocka_unit_test(test_elf_mach),
		cmocka_unit_test(test_hygon),
		cmocka_unit_test(test_compile_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
