/*
 * Unit tests for tune/kindplan with tune/space and tune/plan: what each
 * kernel kind gets. Expected values by hand: on sm_90 num_warps runs over
 * the powers of two up to 1024 threads / 32 = 32 (1, 2, 4, 8, 16, 32), on
 * gfx942 up to 1024 / 64 = 16, with waves_per_eu 0 to 4 besides.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tune/kindplan.h"
#include "tune/plan.h"
#include "util/mem.h"
#include "tune-test.h"

static void kernel(struct tune_kernel *k, enum tune_kind kind, const char *heuristic)
{
	tune_kernel_init(k);
	k->name = xstrdup("triton_x");
	k->kind = kind;
	k->heuristic = xstrdup(heuristic);
	add_arg(k, "in_ptr0", "*fp32");
	add_arg(k, "out_ptr0", "*fp32");
}

/* Plans k with num_warps `warps` as the base and runs the plan, the base
 * timed fastest and every other variant twice as slow (so no runner-up is
 * within the 10% that widening looks at); the number of variants planned. */
static size_t plan_all(struct tune_kernel *k, const char *arch, int warps, struct tune_plan *p)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct tune_config c;
	struct tune_variant *v;
	struct buf err = BUF_INIT;

	o.timed = 1;
	o.no_source = 1;
	o.max_variants = 0;
	o.budget_s = 0;
	assert_int_equal(tune_plan_init(p, k, target_find(arch), &o, &err), 0);
	tune_kind_restrict(k, &p->space);
	tune_config_default(&p->space, k, &c);
	c.v[tune_space_find(&p->space, "num_warps")] = warps;
	tune_plan_add_base(p, &c, TUNE_FROM_AUTOTUNE, -1);
	while ((v = tune_plan_next(p)))
		tune_plan_record(p, v->index, (long)v->index == p->base ? 1.0 : 2.0, 1, 0.1);
	buf_release(&err);
	return p->nr;
}

static void test_foreach_sm90_every_warps_value(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	size_t i;
	int seen = 0;

	(void)state;
	kernel(&k, TUNE_KIND_FOREACH, "foreach");
	json_object_set_new(k.body_consts, "XBLOCK", json_integer(1024));
	assert_null(tune_kind_refusal(&k));
	assert_int_equal(plan_all(&k, "sm_90", 8, &p), 6);
	for (i = 0; i < p.nr; i++)
		seen |= p.v[i].cfg.v[tune_space_find(&p.space, "num_warps")];
	assert_int_equal(seen, 1 | 2 | 4 | 8 | 16 | 32);
	assert_non_null(tune_kind_restrict(&k, &p.space));
	tune_plan_release(&p);
	tune_kernel_release(&k);
}

static void test_foreach_per_subkernel_blocks(void **state)
{
	struct tune_kernel k;
	struct tune_space s;

	(void)state;
	kernel(&k, TUNE_KIND_FOREACH, "foreach");
	json_object_set_new(k.body_consts, "XBLOCK_0", json_integer(1024));
	json_object_set_new(k.body_consts, "XBLOCK_1", json_integer(64));
	json_object_set_new(k.body_consts, "XBLOCK_SIZE", json_integer(4));
	tune_space_build(&s, &k, target_find("sm_90"));
	/* the smallest sub-kernel block; XBLOCK_SIZE is no sub-kernel's */
	assert_int_equal(s.fixed_numel, 64);
	tune_kernel_release(&k);
}

static void test_foreach_gfx942_warps_and_waves(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;

	(void)state;
	kernel(&k, TUNE_KIND_FOREACH, "foreach");
	json_object_set_new(k.body_consts, "XBLOCK", json_integer(1024));
	/* base num_warps 8, waves_per_eu at its default (its min, 0): num_warps
	 * 1, 2, 4, 16 and waves_per_eu 1, 2, 3, 4 besides the base; the descent
	 * and the grid around the best (the base) add nothing new, and no
	 * runner-up is close enough to be widened around */
	assert_int_equal(plan_all(&k, "gfx942", 8, &p), 9);
	tune_plan_release(&p);
	tune_kernel_release(&k);
}

static void test_split_scan_keeps_blocks(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;

	(void)state;
	kernel(&k, TUNE_KIND_SPLIT_SCAN, "split_scan");
	add_arg(&k, "XBLOCK", "constexpr");
	add_arg(&k, "R0_BLOCK", "constexpr");
	assert_null(tune_kind_refusal(&k));
	assert_int_equal(plan_all(&k, "sm_90", 8, &p), 6);
	assert_false(p.space.p[tune_space_find(&p.space, "XBLOCK")].tuned);
	assert_false(p.space.p[tune_space_find(&p.space, "R0_BLOCK")].tuned);
	assert_true(p.space.p[tune_space_find(&p.space, "num_warps")].tuned);
	tune_plan_release(&p);
	tune_kernel_release(&k);
}

static void test_unknown_heuristic_refused(void **state)
{
	struct tune_kernel k;
	char *why;

	(void)state;
	kernel(&k, TUNE_KIND_OTHER, "newfangled");
	why = tune_kind_refusal(&k);
	assert_non_null(why);
	assert_non_null(strstr(why, "'newfangled'"));
	free(why);
	tune_kernel_release(&k);
	kernel(&k, TUNE_KIND_POINTWISE, "pointwise");
	assert_null(tune_kind_refusal(&k));
	tune_kernel_release(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_foreach_sm90_every_warps_value),
		cmocka_unit_test(test_foreach_per_subkernel_blocks),
		cmocka_unit_test(test_foreach_gfx942_warps_and_waves),
		cmocka_unit_test(test_split_scan_keeps_blocks),
		cmocka_unit_test(test_unknown_heuristic_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
