/*
 * Unit tests for tune/arch: architecture names as compilers spell them,
 * and the GPU descriptions the tune worker sends. The first case is what
 * the H200 run sent before the fix: torch's gcnArchName on CUDA is the
 * marketing name, "NVIDIA H200", which names no target.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tune/arch.h"

static void want_norm(const char *in, const char *want)
{
	struct buf out = BUF_INIT;

	if (!want) {
		assert_int_equal(tune_arch_normalize(in, &out), -1);
	} else {
		assert_int_equal(tune_arch_normalize(in, &out), 0);
		assert_string_equal(out.buf, want);
	}
	buf_release(&out);
}

static void test_normalize(void **state)
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

static const struct tune_arch *of(const char *json, struct buf *err)
{
	json_error_t e;
	json_t *gpu = json_loads(json, 0, &e);
	const struct tune_arch *a;

	assert_non_null(gpu);
	a = tune_arch_of_gpu(gpu, err);
	json_decref(gpu);
	return a;
}

static void test_of_gpu(void **state)
{
	struct buf err = BUF_INIT;
	const struct tune_arch *a;

	(void)state;
	/* the failing H200 run: only the marketing name */
	assert_null(of("{\"name\": \"NVIDIA H200\", \"arch\": \"NVIDIA H200\"}", &err));
	assert_non_null(strstr(err.buf, "'NVIDIA H200'"));
	assert_non_null(strstr(err.buf, "sm_90"));
	assert_null(strchr(err.buf, '\n'));
	buf_reset(&err);
	/* the fixed worker: arch from the compute capability */
	a = of("{\"name\": \"NVIDIA H200\", \"backend\": \"cuda\", \"arch\": \"sm_90\", "
	       "\"cc\": [9, 0]}", &err);
	assert_non_null(a);
	assert_string_equal(a->name, "sm_90");
	assert_int_equal(a->cc, 90);
	/* an old worker's marketing name, but the capability is there */
	a = of("{\"name\": \"NVIDIA H200\", \"arch\": \"NVIDIA H200\", \"cc\": [9, 0]}", &err);
	assert_non_null(a);
	assert_string_equal(a->name, "sm_90");
	/* ROCm: gcnArchName with feature suffixes */
	a = of("{\"name\": \"AMD Instinct MI300X\", \"backend\": \"hip\", \"arch\": null, "
	       "\"arch_name\": \"gfx942:sramecc+:xnack-\", \"cc\": [9, 4]}", &err);
	assert_non_null(a);
	assert_string_equal(a->name, "gfx942");
	/* a HIP device's cc (9, 4) is not an sm_ arch */
	assert_null(of("{\"name\": \"x\", \"backend\": \"hip\", \"cc\": [9, 4]}", &err));
	buf_reset(&err);
	/* DTK on a BW DCU */
	a = of("{\"name\": \"BW\", \"backend\": \"hip\", \"arch\": \"gfx936\"}", &err);
	assert_non_null(a);
	assert_true(a->hcu && !a->upstream);
	/* known to the compiler, not to tko */
	assert_null(of("{\"name\": \"Jetson\", \"backend\": \"cuda\", \"arch\": \"sm_87\", "
		       "\"cc\": [8, 7]}", &err));
	assert_non_null(strstr(err.buf, "'sm_87'"));
	assert_non_null(strstr(err.buf, "--target"));
	buf_release(&err);
}

static void test_check(void **state)
{
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(tune_arch_check("gfx942", 0, &err), 0);
	assert_int_equal(tune_arch_check("gfx936", 1, &err), 0);
	assert_int_equal(tune_arch_check("gfx936", 0, &err), -1);
	assert_non_null(strstr(err.buf, "triton-das"));
	buf_reset(&err);
	assert_int_equal(tune_arch_check("NVIDIA H200", 0, &err), -1);
	assert_non_null(strstr(err.buf, "unknown target 'NVIDIA H200'"));
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_of_gpu),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
