/*
 * Unit tests for tune/space and tune/plan: the parameters per kernel kind
 * and arch, the validity rules, the neighbourhood, the phases, dedupe, the
 * budget and max-variants limits, and the descent following improvements.
 * Kernels are built by hand, shaped like the corpus's Inductor kernels
 * (h200-run1 triton_poi_fused_add_mul_sigmoid_sub_0: XBLOCK only, x size
 * hint 33554432; triton_tem_fused_mm_0: BLOCK_M/N/K 128/128/64 in the body).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tune/plan.h"
#include "util/mem.h"
#include "tune-test.h"

static void pointwise(struct tune_kernel *k)
{
	tune_kernel_init(k);
	k->name = xstrdup("triton_poi_fused_add_mul_sigmoid_sub_0");
	k->kind = TUNE_KIND_POINTWISE;
	add_arg(k, "in_ptr0", "*bf16");
	add_arg(k, "out_ptr0", "*bf16");
	add_arg(k, "xnumel", "i32");
	add_arg(k, "XBLOCK", "constexpr");
	k->size_hint[TUNE_DIM_X] = 33554432;
}

static void mm_template(struct tune_kernel *k)
{
	tune_kernel_init(k);
	k->name = xstrdup("triton_tem_fused_mm_0");
	k->kind = TUNE_KIND_TEMPLATE;
	add_arg(k, "arg_A", "*fp16");
	add_arg(k, "arg_B", "*fp16");
	add_arg(k, "out_ptr0", "*fp16");
	json_object_set_new(k->body_consts, "BLOCK_M", json_integer(128));
	json_object_set_new(k->body_consts, "BLOCK_N", json_integer(128));
	json_object_set_new(k->body_consts, "BLOCK_K", json_integer(64));
	k->num_warps = 8;
	k->num_stages = 5;
}

static int has(const struct tune_space *s, const char *name)
{
	return tune_space_find(s, name) >= 0;
}

static void test_space_per_arch(void **state)
{
	struct tune_kernel k;
	struct tune_space s;

	(void)state;
	pointwise(&k);
	tune_space_build(&s, &k, target_find("gfx942"));
	assert_true(has(&s, "XBLOCK") && has(&s, "num_warps") && has(&s, "waves_per_eu"));
	assert_false(has(&s, "YBLOCK") || has(&s, "BLOCK_M") || has(&s, "schedule_hint"));
	/* 1024 threads of wave64: 16 waves at most. */
	assert_int_equal(s.p[tune_space_find(&s, "num_warps")].max, 16);
	assert_int_equal(s.p[tune_space_find(&s, "num_stages")].tuned, 0);
	tune_space_build(&s, &k, target_find("sm_90"));
	assert_false(has(&s, "waves_per_eu"));
	assert_int_equal(s.p[tune_space_find(&s, "num_warps")].max, 32);
	tune_kernel_release(&k);

	mm_template(&k);
	tune_space_build(&s, &k, target_find("gfx936"));
	assert_true(has(&s, "BLOCK_M") && has(&s, "BLOCK_K") && has(&s, "schedule_hint") &&
		    has(&s, "matrix_instr_nonkdim"));
	assert_false(has(&s, "XBLOCK"));
	tune_space_build(&s, &k, target_find("gfx942"));
	assert_false(has(&s, "schedule_hint"));
	tune_kernel_release(&k);
}

static void test_validity_rules(void **state)
{
	struct tune_kernel k;
	struct tune_space s;
	struct tune_config c;
	struct buf why = BUF_INIT;

	(void)state;
	pointwise(&k);
	k.size_hint[TUNE_DIM_X] = 100;
	tune_space_build(&s, &k, target_find("gfx942"));
	/* next power of two of 100 is 128 */
	assert_int_equal(s.p[tune_space_find(&s, "XBLOCK")].max, 128);
	tune_config_default(&s, &k, &c);
	assert_int_equal(c.v[tune_space_find(&s, "XBLOCK")], 128);
	assert_true(tune_config_valid(&s, &c, NULL));
	c.v[tune_space_find(&s, "XBLOCK")] = 256;
	assert_false(tune_config_valid(&s, &c, &why));
	assert_non_null(strstr(why.buf, "XBLOCK=256"));
	buf_reset(&why);
	c.v[tune_space_find(&s, "XBLOCK")] = 96;
	assert_false(tune_config_valid(&s, &c, NULL));
	/* 128 elements over 4 waves of 64 leave lanes idle */
	c.v[tune_space_find(&s, "XBLOCK")] = 128;
	c.v[tune_space_find(&s, "num_warps")] = 4;
	assert_false(tune_config_valid(&s, &c, &why));
	assert_non_null(strstr(why.buf, "idle"));
	tune_kernel_release(&k);

	mm_template(&k);
	tune_space_build(&s, &k, target_find("gfx942"));
	tune_config_default(&s, &k, &c);
	/* num_stages 5 from the decorator is clamped to gfx942's 3; two
	 * buffers of 128x64 + 64x128 fp16 fill the 64 KiB of LDS exactly */
	assert_int_equal(c.v[tune_space_find(&s, "num_stages")], 3);
	assert_true(tune_config_valid(&s, &c, NULL));
	c.v[tune_space_find(&s, "BLOCK_K")] = 128;
	buf_reset(&why);
	assert_false(tune_config_valid(&s, &c, &why));
	assert_non_null(strstr(why.buf, "shared memory"));
	tune_space_build(&s, &k, target_find("sm_90"));
	tune_config_default(&s, &k, &c);
	assert_int_equal(c.v[tune_space_find(&s, "num_stages")], 5);
	/* 5 stages x (128x64 + 64x128) x 2 bytes = 160 KiB fit in 227 KiB */
	assert_true(tune_config_valid(&s, &c, NULL));
	/* EVEN_K: K is loaded unmasked, so BLOCK_K must divide it */
	k.even_k = 1;
	k.tmpl_dims[2] = 96;
	tune_space_build(&s, &k, target_find("sm_90"));
	c.v[tune_space_find(&s, "BLOCK_K")] = 32;
	assert_true(tune_config_valid(&s, &c, NULL));
	c.v[tune_space_find(&s, "BLOCK_K")] = 64;
	buf_reset(&why);
	assert_false(tune_config_valid(&s, &c, &why));
	assert_non_null(strstr(why.buf, "BLOCK_K=64 does not divide K=96"));
	buf_release(&why);
	tune_kernel_release(&k);
}

static void base_plan(struct tune_plan *p, struct tune_kernel *k, const char *arch,
		      const struct tune_plan_opts *o, const char *cfg)
{
	struct tune_config c;
	struct buf err = BUF_INIT;

	assert_int_equal(tune_plan_init(p, k, target_find(arch), o, &err), 0);
	tune_config_default(&p->space, k, &c);
	assert_int_equal(tune_config_parse(&p->space, cfg, &c, &err), 0);
	assert_int_equal(tune_plan_add_base(p, &c, TUNE_FROM_AUTOTUNE, -1), 0);
	buf_release(&err);
}

static void test_neighbourhood_and_dedupe(void **state)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	/* one step of each tuned parameter, by hand */
	const char *want[] = { "base", "XBLOCK=64,num_warps=8", "XBLOCK=2048", "XBLOCK=512",
			       "num_warps=8", "num_warps=2" };
	struct tune_kernel k;
	struct tune_plan p;
	struct tune_variant *v;
	struct tune_config c;
	size_t n = 0;

	(void)state;
	o.no_source = 1;
	o.grid_max = 0;
	pointwise(&k);
	base_plan(&p, &k, "sm_90", &o, "XBLOCK=1024,num_warps=4");
	c = p.v[0].cfg;
	assert_int_equal(tune_plan_add_base(&p, &c, TUNE_FROM_INDUCTOR, -1), -1);
	/* Inductor's configs are measured even where tko's rules would not
	 * derive them: 64 elements over 8 warps of 32 threads */
	c.v[tune_space_find(&p.space, "XBLOCK")] = 64;
	c.v[tune_space_find(&p.space, "num_warps")] = 8;
	assert_false(tune_config_valid(&p.space, &c, NULL));
	assert_int_equal(tune_plan_add_base(&p, &c, TUNE_FROM_INDUCTOR, -1), 1);
	while ((v = tune_plan_next(&p))) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_string_equal(v->label, want[n]);
		tune_plan_record(&p, v->index, -1, 1, 0.1);
		n++;
	}
	assert_int_equal(n, 6);
	assert_null(p.stop_reason);
	tune_plan_release(&p);
	tune_kernel_release(&k);
}

static void test_source_variants_per_backend(void **state)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct tune_kernel k;
	struct tune_plan p;
	struct tune_variant *v;
	struct buf labels = BUF_INIT;

	(void)state;
	o.no_search = 1;
	pointwise(&k);
	base_plan(&p, &k, "gfx942", &o, "XBLOCK=1024,num_warps=4");
	while ((v = tune_plan_next(&p))) {
		buf_addf(&labels, "%s;", v->label);
		tune_plan_record(&p, v->index, -1, 1, 0.1);
	}
	assert_string_equal(labels.buf, "base;+hints;+assume;+ptr32;+bufops;+nobufops;"
			    "+hints+assume+ptr32+bufops;");
	tune_plan_release(&p);
	buf_reset(&labels);
	base_plan(&p, &k, "sm_90", &o, "XBLOCK=1024,num_warps=4");
	while ((v = tune_plan_next(&p))) {
		buf_addf(&labels, "%s;", v->label);
		tune_plan_record(&p, v->index, -1, 1, 0.1);
	}
	assert_string_equal(labels.buf, "base;+hints;+assume;+hints+assume;");
	tune_plan_release(&p);
	buf_release(&labels);
	tune_kernel_release(&k);
}

static void test_budget_and_max_variants(void **state)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct tune_kernel k;
	struct tune_plan p;
	struct tune_variant *v;
	size_t n = 0;

	(void)state;
	pointwise(&k);
	o.budget_s = 10;
	base_plan(&p, &k, "gfx942", &o, "XBLOCK=1024,num_warps=4");
	/* each variant costs 4 s, the base's not counted: after the base and
	 * two more, a third would pass 10 s */
	while ((v = tune_plan_next(&p))) {
		tune_plan_record(&p, v->index, -1, 1, 4.0);
		n++;
	}
	assert_int_equal(n, 3);
	assert_string_equal(p.stop_reason, "budget");
	tune_plan_release(&p);

	/* a budget below one variant's cost still times one: 1 s each within
	 * 3 s gives the base and three more (a fourth would make 4 s) */
	o.budget_s = 3;
	n = 0;
	base_plan(&p, &k, "gfx942", &o, "XBLOCK=1024,num_warps=4");
	while ((v = tune_plan_next(&p))) {
		tune_plan_record(&p, v->index, -1, 1, 1.0);
		n++;
	}
	assert_int_equal(n, 4);
	assert_string_equal(p.stop_reason, "budget");
	tune_plan_release(&p);
	o.budget_s = 0.5;
	n = 0;
	base_plan(&p, &k, "gfx942", &o, "XBLOCK=1024,num_warps=4");
	while ((v = tune_plan_next(&p))) {
		tune_plan_record(&p, v->index, -1, 1, 1.0);
		n++;
	}
	assert_int_equal(n, 2);
	tune_plan_release(&p);

	o.budget_s = 0;
	o.max_variants = 3;
	n = 0;
	base_plan(&p, &k, "gfx942", &o, "XBLOCK=1024,num_warps=4");
	while ((v = tune_plan_next(&p))) {
		tune_plan_record(&p, v->index, -1, 1, 4.0);
		n++;
	}
	assert_int_equal(n, 3);
	assert_string_equal(p.stop_reason, "max-variants");
	tune_plan_release(&p);
	tune_kernel_release(&k);
}

/* A fake device: XBLOCK=4096 is fastest, warps do not matter. */
static double fake_ms(const struct tune_plan *p, const struct tune_variant *v)
{
	int x = v->cfg.v[tune_space_find(&p->space, "XBLOCK")];

	return x >= 4096 ? 0.25 : 1024.0 / x;
}

static void test_descent_follows_improvement(void **state)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct tune_kernel k;
	struct tune_plan p;
	struct tune_variant *v;
	int saw4096 = 0;

	(void)state;
	o.no_source = 1;
	o.grid_max = 0;
	o.max_variants = 0;
	pointwise(&k);
	base_plan(&p, &k, "sm_90", &o, "XBLOCK=1024,num_warps=4");
	while ((v = tune_plan_next(&p))) {
		if (!strcmp(v->label, "XBLOCK=4096"))
			saw4096 = 1;
		tune_plan_record(&p, v->index, fake_ms(&p, v), 1, 0.1);
	}
	/* 4096 is two steps away: only a second round around 2048 reaches it */
	assert_true(saw4096);
	assert_int_equal(p.v[p.best].cfg.v[tune_space_find(&p.space, "XBLOCK")], 4096);
	assert_int_equal(p.phase, TUNE_PH_DONE);
	tune_plan_release(&p);
	tune_kernel_release(&k);
}

/* Runs the plan with every variant timed by ms(); returns the labels, ';'-separated. */
static void run_timed(struct tune_plan *p, double (*ms)(const struct tune_plan *,
						       const struct tune_variant *),
		      struct buf *labels)
{
	struct tune_variant *v;

	while ((v = tune_plan_next(p))) {
		buf_addf(labels, "%s;", v->label);
		tune_plan_record(p, v->index, ms(p, v), 1, 0.1);
	}
}

/* A timed plan of the pointwise kernel on `arch` from XBLOCK=1024, 4 warps,
 * with no grid phase and no variant limit (so every phase shows), and no
 * widening unless `widen` (where every time is the same, every variant is
 * a runner-up and the plan would walk the whole space). */
static void timed_plan_widen(struct tune_plan *p, struct tune_kernel *k, const char *arch,
			     int no_source, double widen)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;

	o.timed = 1;
	o.no_source = no_source;
	o.grid_max = 0;
	o.max_variants = 0;
	o.widen = widen;
	pointwise(k);
	base_plan(p, k, arch, &o, "XBLOCK=1024,num_warps=4");
}

static void timed_plan(struct tune_plan *p, struct tune_kernel *k, const char *arch,
		       int no_source)
{
	timed_plan_widen(p, k, arch, no_source, 0);
}

static void timed_release(struct tune_plan *p, struct tune_kernel *k, struct buf *labels)
{
	tune_plan_release(p);
	buf_release(labels);
	tune_kernel_release(k);
}

static double flat_ms(const struct tune_plan *p, const struct tune_variant *v)
{
	(void)p;
	(void)v;
	return 1.0;
}

static void test_timed_order_cuda(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	struct tune_config c;
	struct buf labels = BUF_INIT;

	(void)state;
	timed_plan(&p, &k, "sm_90", 0);
	c = p.v[0].cfg;
	c.v[tune_space_find(&p.space, "XBLOCK")] = 512;
	c.v[tune_space_find(&p.space, "num_warps")] = 8;
	assert_int_equal(tune_plan_add_base(&p, &c, TUNE_FROM_INDUCTOR, 1.2), 1);
	assert_int_equal(tune_plan_add_base(&p, &c, TUNE_FROM_INDUCTOR, 1.2), -1);
	run_timed(&p, flat_ms, &labels);
	/* by hand: the base, its four coordinate-descent neighbours, the two
	 * moves of XBLOCK with the warps, Inductor's other config, then the
	 * source variants, which on NVIDIA rarely change the PTX */
	assert_string_equal(labels.buf, "base;XBLOCK=2048;XBLOCK=512;num_warps=8;num_warps=2;"
			    "XBLOCK=2048,num_warps=8;XBLOCK=512,num_warps=2;"
			    "XBLOCK=512,num_warps=8;+hints;+assume;+hints+assume;");
	assert_int_equal(p.v[7].origin, TUNE_FROM_INDUCTOR);
	assert_true(p.v[7].inductor_ms == 1.2);
	assert_int_equal(p.phase, TUNE_PH_DONE);
	timed_release(&p, &k, &labels);
}

static void test_timed_order_hip(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	struct buf labels = BUF_INIT;

	(void)state;
	timed_plan(&p, &k, "gfx942", 0);
	run_timed(&p, flat_ms, &labels);
	/* on AMD the source variants (buffer ops) come first */
	assert_string_equal(labels.buf, "base;+hints;+assume;+ptr32;+bufops;+nobufops;"
			    "+hints+assume+ptr32+bufops;XBLOCK=2048;XBLOCK=512;num_warps=8;"
			    "num_warps=2;waves_per_eu=1;XBLOCK=2048,num_warps=8;"
			    "XBLOCK=512,num_warps=2;");
	timed_release(&p, &k, &labels);
}

/* XBLOCK=2048 halves the time; the buffer-ops switch takes 3% off anything. */
static double bufops_ms(const struct tune_plan *p, const struct tune_variant *v)
{
	double ms = v->cfg.v[tune_space_find(&p->space, "XBLOCK")] == 2048 ? 0.5 : 1.0;

	return v->src & TUNE_SRC_BUF_ON ? ms * 0.97 : ms;
}

/*
 * The config-only track (plan.h): +bufops wins the source phase, so each
 * descent round around it (every variant +bufops) is followed by one
 * around the fastest config-only variant, the base first and then
 * XBLOCK=2048, which the main track only ever times with +bufops.
 */
static void test_config_only_track(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	struct buf labels = BUF_INIT;

	(void)state;
	timed_plan(&p, &k, "gfx942", 0);
	run_timed(&p, bufops_ms, &labels);
	/* by hand: the source phase, the best's round and the base's, the new
	 * best's round and XBLOCK=2048's, then the one pair not planned yet */
	assert_string_equal(labels.buf, "base;+hints;+assume;+ptr32;+bufops;+nobufops;"
			    "+hints+assume+ptr32+bufops;"
			    "XBLOCK=2048 +bufops;XBLOCK=512 +bufops;num_warps=8 +bufops;"
			    "num_warps=2 +bufops;waves_per_eu=1 +bufops;"
			    "XBLOCK=2048;XBLOCK=512;num_warps=8;num_warps=2;waves_per_eu=1;"
			    "XBLOCK=4096 +bufops;XBLOCK=2048,num_warps=8 +bufops;"
			    "XBLOCK=2048,num_warps=2 +bufops;XBLOCK=2048,waves_per_eu=1 +bufops;"
			    "XBLOCK=4096;XBLOCK=2048,num_warps=8;XBLOCK=2048,num_warps=2;"
			    "XBLOCK=2048,waves_per_eu=1;"
			    "XBLOCK=4096,num_warps=8 +bufops;");
	assert_string_equal(p.v[p.best].label, "XBLOCK=2048 +bufops");
	assert_string_equal(p.v[p.plain_center].label, "XBLOCK=2048");
	assert_int_equal(p.phase, TUNE_PH_DONE);
	timed_release(&p, &k, &labels);
}

/* Fast only where XBLOCK and the warps grew together, and more so again. */
static double pair_ms(const struct tune_plan *p, const struct tune_variant *v)
{
	int x = v->cfg.v[tune_space_find(&p->space, "XBLOCK")];
	int w = v->cfg.v[tune_space_find(&p->space, "num_warps")];

	if (x == 4096 && w == 8)
		return 0.3;
	return x == 2048 && w == 8 ? 0.5 : 1.0;
}

static void test_descent_again_after_pairs(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	struct buf labels = BUF_INIT;

	(void)state;
	timed_plan(&p, &k, "sm_90", 1);
	run_timed(&p, pair_ms, &labels);
	/* no single step helps; the pair does, and a descent round from it
	 * finds XBLOCK=4096 (a step no earlier phase planned) */
	assert_non_null(strstr(labels.buf, ";XBLOCK=2048,num_warps=8;"));
	assert_non_null(strstr(labels.buf, ";XBLOCK=4096,num_warps=8;"));
	assert_true(strstr(labels.buf, ";XBLOCK=4096,num_warps=8;") >
		    strstr(labels.buf, ";XBLOCK=2048,num_warps=8;"));
	assert_int_equal(p.v[p.best].cfg.v[tune_space_find(&p.space, "XBLOCK")], 4096);
	assert_int_equal(p.v[p.best].origin, TUNE_FROM_DESCENT);
	timed_release(&p, &k, &labels);
}

/*
 * The best single move (num_warps=8) is a dead end; the runner-up
 * (XBLOCK=2048, 6% slower) is one move from the fastest config, a move
 * with XBLOCK up and the warps down that neither the pairs nor the
 * best's neighbourhood plan.
 */
static double trap_ms(const struct tune_plan *p, const struct tune_variant *v)
{
	int x = v->cfg.v[tune_space_find(&p->space, "XBLOCK")];
	int w = v->cfg.v[tune_space_find(&p->space, "num_warps")];

	if (x == 1024 && w == 8)
		return 0.80;
	if (x == 2048 && w == 4)
		return 0.85;
	return x == 2048 && w == 2 ? 0.70 : 1.0;
}

static int best_is(const struct tune_plan *p, int xblock, int warps)
{
	const struct tune_config *c = &p->v[p->best].cfg;

	return c->v[tune_space_find(&p->space, "XBLOCK")] == xblock &&
	       c->v[tune_space_find(&p->space, "num_warps")] == warps;
}

static void test_widen_leaves_a_dead_end(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	struct buf labels = BUF_INIT;

	(void)state;
	timed_plan(&p, &k, "sm_90", 1);
	run_timed(&p, trap_ms, &labels);
	assert_null(strstr(labels.buf, ";XBLOCK=2048,num_warps=2;"));
	assert_true(best_is(&p, 1024, 8));
	timed_release(&p, &k, &labels);

	timed_plan_widen(&p, &k, "sm_90", 1, 0.10);
	run_timed(&p, trap_ms, &labels);
	assert_non_null(strstr(labels.buf, ";XBLOCK=2048,num_warps=2;"));
	assert_true(best_is(&p, 2048, 2));
	assert_int_equal(p.v[p.best].origin, TUNE_FROM_DESCENT);
	assert_int_equal(p.phase, TUNE_PH_DONE);
	timed_release(&p, &k, &labels);

	/* 6% is outside a 5% window: the runner-up is not widened */
	timed_plan_widen(&p, &k, "sm_90", 1, 0.05);
	run_timed(&p, trap_ms, &labels);
	assert_true(best_is(&p, 1024, 8));
	timed_release(&p, &k, &labels);
}

static void test_start_found_by_another_phase_keeps_inductor_time(void **state)
{
	struct tune_kernel k;
	struct tune_plan p;
	struct tune_config c;
	struct buf labels = BUF_INIT;
	size_t i, n = 0;

	(void)state;
	timed_plan(&p, &k, "sm_90", 1);
	c = p.v[0].cfg;
	c.v[tune_space_find(&p.space, "XBLOCK")] = 2048;
	tune_plan_add_base(&p, &c, TUNE_FROM_INDUCTOR, 0.9);
	run_timed(&p, flat_ms, &labels);
	for (i = 0; i < p.nr; i++)
		if (!strcmp(p.v[i].label, "XBLOCK=2048")) {
			assert_true(p.v[i].inductor_ms == 0.9);
			n++;
		}
	assert_int_equal(n, 1);
	timed_release(&p, &k, &labels);
}

static void test_template_pairs_trade_stages_for_tiles(void **state)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct tune_kernel k;
	struct tune_plan p;
	struct buf labels = BUF_INIT;

	(void)state;
	o.timed = 1;
	o.no_source = 1;
	o.grid_max = 0;
	o.max_variants = 0;
	mm_template(&k);
	base_plan(&p, &k, "sm_90", &o, "num_stages=5");
	run_timed(&p, flat_ms, &labels);
	/* 256x128 tiles in 5 stages need 5 x (256x64 + 64x128) x 2 = 240 KiB,
	 * past the 227 KiB of sm_90: the descent cannot take the step alone;
	 * with 4 stages it is 192 KiB */
	assert_null(strstr(labels.buf, ";BLOCK_M=256;"));
	assert_non_null(strstr(labels.buf, ";BLOCK_M=256,num_stages=4;"));
	assert_non_null(strstr(labels.buf, ";BLOCK_N=256,num_stages=4;"));
	timed_release(&p, &k, &labels);
}

static void test_config_text_and_json(void **state)
{
	struct tune_kernel k;
	struct tune_space s;
	struct tune_config c;
	struct buf err = BUF_INIT, out = BUF_INIT;
	json_t *j, *in;

	(void)state;
	pointwise(&k);
	tune_space_build(&s, &k, target_find("gfx942"));
	tune_config_default(&s, &k, &c);
	assert_int_equal(tune_config_parse(&s, "FOO=1", &c, &err), -1);
	assert_non_null(strstr(err.buf, "'FOO' is not a parameter"));
	buf_reset(&err);
	assert_int_equal(tune_config_parse(&s, "num_warps=x", &c, &err), -1);
	buf_reset(&err);
	assert_int_equal(tune_config_parse(&s, "XBLOCK", &c, &err), -1);
	/* the .best_config shape: kwargs at the top level */
	in = json_pack("{s:i, s:i, s:i, s:s}", "XBLOCK", 512, "num_warps", 8, "num_stages", 1,
		       "configs_hash", "3ca5");
	tune_config_from_json(&s, in, &c);
	j = tune_config_to_json(&s, &c);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "kwargs"), "XBLOCK")), 512);
	assert_int_equal(json_integer_value(json_object_get(j, "num_warps")), 8);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "options"),
							    "waves_per_eu")), 0);
	tune_config_diff(&s, &c, NULL, &out);
	assert_string_equal(out.buf, "XBLOCK=512,num_warps=8,num_stages=1,waves_per_eu=0");
	json_decref(j);
	json_decref(in);
	buf_release(&err);
	buf_release(&out);
	tune_kernel_release(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_space_per_arch),
		cmocka_unit_test(test_validity_rules),
		cmocka_unit_test(test_neighbourhood_and_dedupe),
		cmocka_unit_test(test_source_variants_per_backend),
		cmocka_unit_test(test_budget_and_max_variants),
		cmocka_unit_test(test_descent_follows_improvement),
		cmocka_unit_test(test_timed_order_cuda),
		cmocka_unit_test(test_timed_order_hip),
		cmocka_unit_test(test_config_only_track),
		cmocka_unit_test(test_descent_again_after_pairs),
		cmocka_unit_test(test_widen_leaves_a_dead_end),
		cmocka_unit_test(test_start_found_by_another_phase_keeps_inductor_time),
		cmocka_unit_test(test_template_pairs_trade_stages_for_tiles),
		cmocka_unit_test(test_config_text_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
