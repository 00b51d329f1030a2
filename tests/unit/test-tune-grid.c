/*
 * Unit tests for tune/grid: Inductor's grid formulas (GridExpr in torch's
 * triton_heuristics.py, computed here by hand), the mm template's grid,
 * the captured grid reused where the grid parameters are the base's, and
 * the check that freezes the grid parameters when the formulas do not
 * reproduce the capture.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tune/grid.h"
#include "tune/sweep.h"
#include "tune/workspace.h"
#include "util/mem.h"
#include "tune-test.h"

static void test_inductor_formulas(void **state)
{
	struct buf err = BUF_INIT;
	long g[3];
	const long n1[3] = { 1000, 1, 1 }, b1[3] = { 256, 1, 1 };
	/* 3 000 000 rows of YBLOCK 16: 187 500 y blocks, more than 65 535 */
	const long n2[3] = { 64, 3000000, 1 }, b2[3] = { 32, 16, 1 };

	(void)state;
	assert_int_equal(tune_grid_inductor("Grid1D", n1, b1, g, &err), 0);
	assert_int_equal(g[0], 4);	/* ceil(1000 / 256) */
	assert_int_equal(g[1], 1);
	assert_int_equal(tune_grid_inductor("Grid2D", n2, b2, g, &err), 0);
	assert_int_equal(g[0], 2);
	assert_int_equal(g[1], 187500);
	/* y_grid_div_ = ceil(187500 / 65535) = 3; y = ceil(187500 / 3) = 62500 */
	assert_int_equal(tune_grid_inductor("Grid2DWithYZOverflow", n2, b2, g, &err), 0);
	assert_int_equal(g[0], 2);
	assert_int_equal(g[1], 62500);
	assert_int_equal(g[2], 3);
	assert_int_equal(tune_grid_inductor("SequentialComboKernelGrid", n1, b1, g, &err), -1);
	assert_non_null(strstr(err.buf, "SequentialComboKernelGrid"));
	buf_release(&err);
}

/* The capture, the plan and tko's default config as its base. */
static void plan_sweep(struct tune_sweep *s, const char *capture_json)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct buf err = BUF_INIT;
	struct tune_config c;
	json_error_t e;
	json_t *j = json_loads(capture_json, 0, &e);

	assert_non_null(j);
	s->capture = xmalloc(sizeof(*s->capture));
	capture_init(s->capture);
	assert_int_equal(capture_read(s->capture, j, "capture.json", &err), 0);
	json_decref(j);
	assert_int_equal(tune_plan_init(&s->plan, &s->k, target_find("sm_90"), &o, &err), 0);
	tune_config_default(&s->plan.space, &s->k, &c);
	tune_plan_add_base(&s->plan, &c, TUNE_FROM_DEFAULT, -1);
	buf_release(&err);
}

/* A sweep with only what the grid reads: the kernel, the capture, the plan. */
static void sweep(struct tune_sweep *s, int template, const char *grid_json)
{
	memset(s, 0, sizeof(*s));
	tune_kernel_init(&s->k);
	if (template) {
		s->k.name = xstrdup("triton_tem_fused_mm_0");
		s->k.kind = TUNE_KIND_TEMPLATE;
		add_arg(&s->k, "arg_A", "*fp16");
		json_object_set_new(s->k.body_consts, "BLOCK_M", json_integer(128));
		json_object_set_new(s->k.body_consts, "BLOCK_N", json_integer(128));
		json_object_set_new(s->k.body_consts, "BLOCK_K", json_integer(64));
		s->k.tmpl_dims[0] = s->k.tmpl_dims[1] = s->k.tmpl_dims[2] = 2048;
		s->k.num_warps = 8;
		s->k.num_stages = 3;
	} else {
		s->k.name = xstrdup("triton_for_fused_0");
		s->k.kind = TUNE_KIND_POINTWISE;
		s->k.grid_type = xstrdup("SequentialComboKernelGrid");
		add_arg(&s->k, "in_ptr0", "*fp32");
		add_arg(&s->k, "xnumel", "i32");
		add_arg(&s->k, "XBLOCK", "constexpr");
	}
	plan_sweep(s, grid_json);
}

static void release(struct tune_sweep *s)
{
	tune_plan_release(&s->plan);
	tune_kernel_release(&s->k);
	capture_release(s->capture);
	free(s->capture);
	buf_release(&s->text);
}

static void test_template(void **state)
{
	struct tune_sweep s;
	struct tune_config c;
	struct buf why = BUF_INIT;
	long g[3];

	(void)state;
	/* 2048 / 128 squared: the 256 blocks Inductor launched */
	sweep(&s, 1, "{\"grid\": [256, 1, 1]}");
	assert_int_equal(tune_grid_check(&s, &why), 0);
	c = s.plan.v[0].cfg;
	c.v[tune_space_find(&s.plan.space, "BLOCK_M")] = 64;
	assert_int_equal(tune_grid(&s, &c, g, &why), 0);
	assert_int_equal(g[0], 512);
	release(&s);
	/* a bmm: its batch of 4 in y stays */
	sweep(&s, 1, "{\"grid\": [256, 4, 1]}");
	assert_int_equal(tune_grid_check(&s, &why), 0);
	assert_int_equal(tune_grid(&s, &c, g, &why), 0);
	assert_int_equal(g[0], 512);
	assert_int_equal(g[1], 4);
	release(&s);
	/* a persistent template launched on fewer blocks: not this formula */
	sweep(&s, 1, "{\"grid\": [132, 1, 1]}");
	assert_int_equal(tune_grid_check(&s, &why), -1);
	assert_non_null(strstr(why.buf, "(256, 1, 1) is not the captured one (132, 1, 1)"));
	assert_int_equal(tune_space_freeze(&s.plan.space, tune_grid_param, &s), 2);
	assert_false(s.plan.space.p[tune_space_find(&s.plan.space, "BLOCK_M")].tuned);
	assert_false(s.plan.space.p[tune_space_find(&s.plan.space, "BLOCK_N")].tuned);
	assert_true(s.plan.space.p[tune_space_find(&s.plan.space, "BLOCK_K")].tuned);
	/* the base's grid parameters: the captured grid as it is */
	c = s.plan.v[0].cfg;
	c.v[tune_space_find(&s.plan.space, "num_warps")] = 4;
	assert_int_equal(tune_grid(&s, &c, g, &why), 0);
	assert_int_equal(g[0], 132);
	release(&s);
	buf_release(&why);
}

static void test_unknown_grid_type(void **state)
{
	struct tune_sweep s;
	struct tune_config c;
	struct buf why = BUF_INIT;
	long g[3];

	(void)state;
	sweep(&s, 0, "{\"grid\": [40, 1, 1], \"args\": [{\"name\": \"xnumel\", \"value\": 4096}]}");
	assert_int_equal(tune_grid_check(&s, &why), -1);
	assert_non_null(strstr(why.buf, "not one tko tune computes"));
	c = s.plan.v[0].cfg;
	c.v[tune_space_find(&s.plan.space, "num_warps")] *= 2;
	assert_int_equal(tune_grid(&s, &c, g, &why), 0);
	assert_int_equal(g[0], 40);
	c.v[tune_space_find(&s.plan.space, "XBLOCK")] *= 2;
	buf_reset(&why);
	assert_int_equal(tune_grid(&s, &c, g, &why), -1);
	assert_int_equal(tune_space_freeze(&s.plan.space, tune_grid_param, &s), 1);
	release(&s);
	buf_release(&why);
}

/*
 * A norm backward's mix-order reduction as torch 2.11 emitted it on the
 * H200 (triton_per_fused_add_div_expand_mul_pow_sum_1): 8192 rows of 1024,
 * RSPLIT_SIZE 16, so 512 programs and a workspace of 512 x 1024 floats.
 */
static void mix_sweep(struct tune_sweep *s, const char *body)
{
	memset(s, 0, sizeof(*s));
	tune_kernel_init(&s->k);
	s->k.name = xstrdup("triton_per_fused_add_div_expand_mul_pow_sum_1");
	s->k.kind = TUNE_KIND_PERSISTENT;
	s->k.grid_type = xstrdup("MixOrderReductionGrid");
	add_arg(&s->k, "in_ptr0", "*fp32");
	add_arg(&s->k, "out_ptr1", "*fp32");
	add_arg(&s->k, "ws_ptr", "*fp32");
	add_arg(&s->k, "xnumel", "i32");
	add_arg(&s->k, "r0_numel", "i32");
	add_arg(&s->k, "XBLOCK", "constexpr");
	add_arg(&s->k, "RSPLIT_SIZE", "constexpr");
	add_arg(&s->k, "NUM_STAGES", "constexpr");
	json_object_set_new(s->k.constants, "RSPLIT_SIZE", json_integer(16));
	json_object_set_new(s->k.constants, "NUM_STAGES", json_integer(1));
	json_object_set_new(s->k.body_consts, "R0_BLOCK", json_integer(1024));
	buf_init(&s->text);
	buf_adds(&s->text, body);
	plan_sweep(s, "{\"grid\": [512, 1, 1], \"args\": ["
		   "{\"name\": \"ws_ptr\", \"kind\": \"tensor\", \"shape\": [524288]},"
		   "{\"name\": \"xnumel\", \"value\": 8192},"
		   "{\"name\": \"r0_numel\", \"value\": 1024}]}");
}

static const char sum_body[] =
	"    accum0 = tl.full([R0_BLOCK], 0, tl.float32)[None, :]\n"
	"        tmp24 = accum0 + tmp23\n        accum0 = tmp24\n";

static void test_mix_order_grid(void **state)
{
	struct tune_sweep s;
	struct tune_config c;
	struct buf why = BUF_INIT;
	int rsplit, xblock;
	long g[3];

	(void)state;
	mix_sweep(&s, sum_body);
	rsplit = tune_space_find(&s.plan.space, "RSPLIT_SIZE");
	xblock = tune_space_find(&s.plan.space, "XBLOCK");
	assert_true(rsplit >= 0 && xblock >= 0);
	assert_int_equal(tune_grid_check(&s, &why), 0);
	c = s.plan.v[0].cfg;
	c.v[rsplit] = 8;
	assert_int_equal(tune_grid(&s, &c, g, &why), 0);
	assert_int_equal(g[0], 1024);	/* 8192 / 8 */
	c.v[rsplit] = 16;
	c.v[xblock] = 4;
	assert_int_equal(tune_grid(&s, &c, g, &why), 0);
	assert_int_equal(g[0], 512);	/* XBLOCK steps inside a program's rows */
	assert_true(tune_config_valid(&s.plan.space, &c, NULL));
	c.v[xblock] = 32;		/* more rows than a program has */
	assert_false(tune_config_valid(&s.plan.space, &c, &why));
	assert_non_null(strstr(why.buf, "XBLOCK=32 is more than RSPLIT_SIZE=16"));
	/* the row loop's pipelining is tuned from 1 to 4 stages, not a block */
	assert_true(s.plan.space.p[tune_space_find(&s.plan.space, "NUM_STAGES")].tuned);
	assert_int_equal(s.plan.space.p[tune_space_find(&s.plan.space, "NUM_STAGES")].max, 4);
	c.v[xblock] = 1;
	c.v[tune_space_find(&s.plan.space, "NUM_STAGES")] = 3;
	assert_true(tune_config_valid(&s.plan.space, &c, NULL));
	/* only RSPLIT_SIZE shapes this grid */
	assert_int_equal(tune_space_freeze(&s.plan.space, tune_grid_param, &s), 1);
	assert_false(s.plan.space.p[rsplit].tuned);
	assert_true(s.plan.space.p[xblock].tuned);
	release(&s);
	buf_release(&why);
}

static void test_mix_order_workspace(void **state)
{
	struct tune_sweep s;
	struct tune_workspace w;
	struct buf why = BUF_INIT;

	(void)state;
	mix_sweep(&s, sum_body);
	assert_int_equal(tune_workspace_find(&s, 16, &w, &why), 0);
	assert_int_equal(w.arg, 2);
	assert_int_equal(w.partials, 1);	/* 524288 / (512 x 1024) */
	assert_int_equal(tune_workspace_numel(&w, 8), 1048576);	/* 1024 x 1024 */
	assert_int_equal(tune_workspace_numel(&w, 128), 65536);	/* 64 x 1024 */
	/* 100.7 MB moved / 16 = 6.29 MB: 8192 / 8 x 1024 x 4 bytes = 4.2 MB fits, 8.4 MB not */
	assert_int_equal(tune_workspace_min_split(&w, 100.7e6 / 16), 8);
	release(&s);
	/* a max-reduction's partials: the wrapper takes their amax, not a sum */
	mix_sweep(&s, "    accum0 = tl.full([R0_BLOCK], float('-inf'), tl.float32)\n"
		      "        tmp3 = triton_helpers.maximum(accum0, tmp2)\n");
	assert_int_equal(tune_workspace_find(&s, 16, &w, &why), -1);
	assert_non_null(strstr(why.buf, "not all sums"));
	assert_int_equal(w.arg, -1);
	release(&s);
	/* a captured workspace that is not programs x row: not resized */
	mix_sweep(&s, sum_body);
	buf_reset(&why);
	assert_int_equal(tune_workspace_find(&s, 32, &w, &why), 0);	/* 256 x 1024 x 2 */
	assert_int_equal(w.partials, 2);
	assert_int_equal(tune_workspace_find(&s, 3, &w, &why), -1);
	assert_non_null(strstr(why.buf, "not a multiple of 2731 programs x 1024"));
	release(&s);
	buf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inductor_formulas),
		cmocka_unit_test(test_template),
		cmocka_unit_test(test_unknown_grid_type),
		cmocka_unit_test(test_mix_order_grid),
		cmocka_unit_test(test_mix_order_workspace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
