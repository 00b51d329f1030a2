/*
 * Unit tests for tune/gpus: which GPUs `tko tune --gpus` uses and the
 * variable that pins each worker, from the visible devices as PyTorch
 * numbers them (CUDA_VISIBLE_DEVICES, else HIP_VISIBLE_DEVICES, else the
 * driver's count).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tune/gpus.h"

static void check(const char *spec, const struct tune_gpus_env *e, const char *var,
		  const char *const *want, size_t n)
{
	struct tune_gpus g = TUNE_GPUS_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	assert_int_equal(tune_gpus_select(spec, e, &g, &err), 0);
	assert_string_equal(g.var, var);
	assert_int_equal(g.n, n);
	for (i = 0; i < n; i++)
		assert_string_equal(g.id[i], want[i]);
	tune_gpus_release(&g);
	buf_release(&err);
}

static void test_cuda_visible(void **state)
{
	/* Slurm's --gres=gpu:2 on a node gives a job "2,5": ordinals 0 and 1 */
	const struct tune_gpus_env e = { "2,5", NULL, NULL, 8, 0 };
	const char *const all[] = { "2", "5" }, *one[] = { "5" }, *twice[] = { "2", "2" };

	(void)state;
	check(NULL, &e, "CUDA_VISIBLE_DEVICES", all, 2);
	check("all", &e, "CUDA_VISIBLE_DEVICES", all, 2);
	check("1", &e, "CUDA_VISIBLE_DEVICES", one, 1);
	check("0,0", &e, "CUDA_VISIBLE_DEVICES", twice, 2);
}

static void test_drivers(void **state)
{
	const struct tune_gpus_env nv = { NULL, NULL, NULL, 3, 0 }, amd = { NULL, NULL, NULL, 0, 4 };
	const struct tune_gpus_env hip = { NULL, "1,3", NULL, 0, 4 }, none = { NULL, NULL, NULL, 0, 0 };
	const struct tune_gpus_env empty = { "", NULL, NULL, 2, 0 };
	/* Slurm on an AMD node: ROCR_VISIBLE_DEVICES=4,6; HIP numbers those 0 and 1 */
	const struct tune_gpus_env rocr = { NULL, NULL, "4,6", 0, 8 };
	const char *const zero_one[] = { "0", "1" };
	const char *const three[] = { "0", "1", "2" }, *amd2[] = { "3", "0" }, *hip2[] = { "1", "3" };

	(void)state;
	check(NULL, &nv, "CUDA_VISIBLE_DEVICES", three, 3);
	check("3,0", &amd, "HIP_VISIBLE_DEVICES", amd2, 2);
	check(NULL, &hip, "HIP_VISIBLE_DEVICES", hip2, 2);
	check(NULL, &rocr, "HIP_VISIBLE_DEVICES", zero_one, 2);
	/* nothing visible: no worker, one tko tune on the default device */
	check(NULL, &none, "CUDA_VISIBLE_DEVICES", NULL, 0);
	/* CUDA_VISIBLE_DEVICES="" hides every GPU, as it does for PyTorch */
	check(NULL, &empty, "CUDA_VISIBLE_DEVICES", NULL, 0);
}

static void bad(const char *spec, const struct tune_gpus_env *e, const char *msg)
{
	struct tune_gpus g = TUNE_GPUS_INIT;
	struct buf err = BUF_INIT;

	assert_int_equal(tune_gpus_select(spec, e, &g, &err), -1);
	assert_non_null(strstr(err.buf, msg));
	assert_int_equal(g.n, 0);
	buf_release(&err);
}

static void test_bad(void **state)
{
	const struct tune_gpus_env e = { "0,1", NULL, NULL, 2, 0 };

	(void)state;
	bad("2", &e, "GPU 2 is not visible (2 visible)");
	bad("0,x", &e, "'x' is not a GPU number");
	bad("-1", &e, "'-1' is not a GPU number");
	bad("0,,1", &e, "'' is not a GPU number");
	bad("", &e, "--gpus is empty");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuda_visible),
		cmocka_unit_test(test_drivers),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
