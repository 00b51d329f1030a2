/*
 * Unit tests for profile/attrib.c on small profiles built by hand: links
 * from a kernel to the op that launched it (External id, or correlation id
 * through a runtime launch), grouping under the outermost ATen op, Triton
 * launches, the overlap split that makes the shares add up to the busy
 * time exactly, idle gaps, clock jumps, steps from ProfilerStep ranges,
 * and statistics tables. Every expected figure is worked out in the
 * comments; times are chosen so that each is exact in binary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "profile/attrib.h"
#include "profile/prof.h"

static uint32_t str(struct prof *p, const char *s)
{
	return prof_intern(p, s, strlen(s));
}

static struct prof_act *kernel(struct prof *p, const char *name, double start, double dur,
			       int stream)
{
	struct prof_act *a = prof_add_act(p);

	a->name = str(p, name);
	a->start = start;
	a->dur = dur;
	a->device = 0;
	a->stream = stream;
	return a;
}

static struct prof_op *op(struct prof *p, const char *name, double start, double dur,
			  int64_t external)
{
	struct prof_op *o = prof_add_op(p);

	o->name = str(p, name);
	o->start = start;
	o->dur = dur;
	o->external = external;
	o->tid = 1;
	return o;
}

static struct prof_op *step(struct prof *p, const char *name, double start, double dur)
{
	struct prof_op *o = op(p, name, start, dur, -1);

	o->annotation = 1;
	return o;
}

static void launch(struct prof *p, int64_t corr, int64_t external, double start)
{
	struct prof_launch *l = prof_add_launch(p);

	l->correlation = corr;
	l->external = external;
	l->start = start;
}

/* The group whose key is `key`; fails the test when there is none. */
static const struct prof_group *group(const struct prof *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->ngroups; i++)
		if (!strcmp(prof_str(p, p->groups[i].key), key))
			return &p->groups[i];
	fail_msg("no group %s", key);
	return NULL;
}

static void test_links_and_groups(void **state)
{
	struct prof p;
	const struct prof_group *g;
	struct prof_op *o;

	(void)state;
	prof_init(&p);
	/* aten::mm (External id 7) launched correlation 100; its kernel knows only the correlation */
	o = op(&p, "aten::mm", 0, 10, 7);
	o->dtype = str(&p, "float");
	launch(&p, 100, 7, 2);
	kernel(&p, "k_plain_name", 100, 10, 7)->correlation = 100;
	/* a kernel whose correlation no launch has: no op, grouped by its own name */
	kernel(&p, "k_orphan", 120, 2, 7)->correlation = 555;
	/*
	 * a kernel whose name says nothing, launched inside
	 * aten::scaled_dot_product_attention: attention, under that outer op
	 */
	op(&p, "aten::scaled_dot_product_attention", 20, 20, 9);
	op(&p, "aten::_flash_attention_forward", 22, 10, 8);
	kernel(&p, "k_fwd_kernel", 130, 5, 7)->external = 8;
	/* aten::linear around aten::mm: the kernel goes under aten::linear, a matmul */
	op(&p, "aten::linear", 50, 20, 10);
	op(&p, "aten::mm", 52, 8, 11);
	kernel(&p, "k_lin", 140, 3, 7)->external = 11;
	/* Inductor's Triton launch op carries the hash: the kernel is triton, grouped by its name */
	o = op(&p, "triton_poi_fused_add_0", 80, 1, 12);
	o->kernel_hash = str(&p, "cabc123");
	o->num_warps = 4;
	kernel(&p, "triton_poi_fused_add_0", 150, 1, 7)->external = 12;
	kernel(&p, "Memcpy HtoD (Pinned -> Device)", 160, 1, 7)->kind = PROF_ACT_MEMCPY;
	prof_attribute(&p);

	/* the correlation id brought the External id, which brought aten::mm */
	assert_int_equal(p.acts[0].external, 7);
	assert_int_equal(p.acts[0].op, 1);
	g = group(&p, "aten::mm");
	assert_int_equal(g->cls, PROF_CLASS_GEMM);
	assert_string_equal(prof_str(&p, g->top), "k_plain_name");
	assert_string_equal(prof_str(&p, g->dtype), "float");
	assert_int_equal(group(&p, "k_orphan")->cls, PROF_CLASS_OTHER);
	assert_int_equal(p.acts[1].op, 0);
	g = group(&p, "aten::scaled_dot_product_attention");
	assert_int_equal(g->cls, PROF_CLASS_ATTENTION);
	assert_string_equal(prof_str(&p, g->top), "k_fwd_kernel");
	assert_int_equal(group(&p, "aten::linear")->cls, PROF_CLASS_GEMM);
	g = group(&p, "triton_poi_fused_add_0");
	assert_int_equal(g->cls, PROF_CLASS_TRITON);
	assert_string_equal(prof_str(&p, g->kernel_hash), "cabc123");
	assert_int_equal(g->num_warps, 4);
	assert_int_equal(group(&p, "Memcpy HtoD (Pinned -> Device)")->cls, PROF_CLASS_MEMCPY);
	assert_int_equal(p.ngroups, 6);
	/* largest busy time first: aten::mm's 10 us */
	assert_string_equal(prof_str(&p, p.groups[0].key), "aten::mm");
	prof_release(&p);
}

static void test_overlap_split_evenly(void **state)
{
	struct prof p;
	double sum = 0;
	size_t i;

	(void)state;
	/*
	 * A [0,12) stream 1, B [4,10) stream 2, C [7,16) stream 3:
	 *   [0,4)   A alone        A 4
	 *   [4,7)   A, B           A 1.5, B 1.5
	 *   [7,10)  A, B, C        1 each
	 *   [10,12) A, C           1 each
	 *   [12,16) C alone        C 4
	 * A 7.5, B 2.5, C 6: 16 in all, the union [0,16). Shares 7.5/16 =
	 * 0.46875, 2.5/16 = 0.15625, 6/16 = 0.375.
	 */
	prof_init(&p);
	kernel(&p, "A", 0, 12, 1);
	kernel(&p, "B", 4, 6, 2);
	kernel(&p, "C", 7, 9, 3);
	prof_attribute(&p);
	assert_true(p.acts[0].busy == 7.5);
	assert_true(p.acts[1].busy == 2.5);
	assert_true(p.acts[2].busy == 6);
	assert_true(p.busy == 16 && p.total == 27 && p.idle == 0);
	assert_true(group(&p, "A")->share == 0.46875);
	assert_true(group(&p, "B")->share == 0.15625);
	assert_true(group(&p, "C")->share == 0.375);
	for (i = 0; i < p.ngroups; i++)
		sum += p.groups[i].busy;
	assert_true(sum == p.busy);
	assert_int_equal(p.streams, 3);
	assert_int_equal(p.devices, 1);
	assert_string_equal(prof_str(&p, p.groups[0].key), "A");
	prof_release(&p);
}

static void test_idle_gaps(void **state)
{
	struct prof p;

	(void)state;
	/*
	 * [0,2) [5,6) [6,10) [10.5,11): busy 2 + 1 + 4 + 0.5 = 7.5 of the
	 * span 11; idle 3 (2 to 5) + 0 (6 touches 6) + 0.5 (10 to 10.5) = 3.5;
	 * gaps of 1 us or more: one (the 3); the largest 3.
	 */
	prof_init(&p);
	kernel(&p, "a", 0, 2, 1);
	kernel(&p, "b", 5, 1, 1);
	kernel(&p, "c", 6, 4, 1);
	kernel(&p, "d", 10.5, 0.5, 1);
	prof_attribute(&p);
	assert_true(p.timeline);
	assert_true(p.first == 0 && p.last == 11);
	assert_true(p.busy == 7.5 && p.idle == 3.5);
	assert_int_equal(p.gaps, 1);
	assert_true(p.largest_gap == 3);
	assert_int_equal(p.clock_jumps, 0);
	prof_release(&p);
}

static void test_clock_jump(void **state)
{
	struct prof p;

	(void)state;
	/*
	 * [0,1) [2,3) then [1e8+2, 1e8+3): the 1 us gap is idle; the next one,
	 * 1e8 - 1 us (100 s), is past PROF_CLOCK_JUMP_US (60 s): a jump, left
	 * out of idle. Busy 3, idle 1, one jump, noted.
	 */
	prof_init(&p);
	kernel(&p, "a", 0, 1, 1);
	kernel(&p, "b", 2, 1, 1);
	kernel(&p, "c", 1e8 + 2, 1, 1);
	prof_attribute(&p);
	assert_true(p.busy == 3 && p.idle == 1);
	assert_int_equal(p.clock_jumps, 1);
	assert_int_equal(p.gaps, 1);
	assert_int_equal(p.nnotes, 1);
	assert_non_null(strstr(p.notes[0], "clock jump"));
	prof_release(&p);
}

static void test_zero_length_activity(void **state)
{
	struct prof p;

	(void)state;
	/*
	 * [0,5) a copy of 0 us at 5, [5,8): busy 8, the copy's share 0, no gap.
	 * Its end edge used to sort before its own start: the count of running
	 * activities went to -1 and its busy time was read uninitialised.
	 */
	prof_init(&p);
	kernel(&p, "a", 0, 5, 1);
	kernel(&p, "Memcpy DtoD", 5, 0, 2)->kind = PROF_ACT_MEMCPY;
	kernel(&p, "b", 5, 3, 1);
	prof_attribute(&p);
	assert_true(p.busy == 8 && p.idle == 0);
	assert_true(p.acts[1].busy == 0);
	assert_true(p.acts[0].busy == 5 && p.acts[2].busy == 3);
	assert_int_equal(p.gaps, 0);
	prof_release(&p);
}

static void test_steps_from_profiler_ranges(void **state)
{
	struct prof p;

	(void)state;
	/*
	 * ProfilerStep#2 [100,200) added before #1 [0,100); launches at CPU
	 * times 10, 50 (step 1), 120 (step 2), 250 (no step). Their kernels:
	 * [1000,1010) [1050,1070) -> step 1: 2 activities, GPU 1000 to 1070;
	 * [1200,1230) -> step 2: 1 activity, 1200 to 1230; [1300,1301) none.
	 * Step time: (1200 - 1000) / (2 - 1) = 200. "ProfilerStep#x" and a
	 * cpu_op named ProfilerStep#3 are not steps.
	 */
	prof_init(&p);
	step(&p, "ProfilerStep#2", 100, 100);
	step(&p, "ProfilerStep#1", 0, 100);
	step(&p, "ProfilerStep#x", 0, 300);
	op(&p, "ProfilerStep#3", 0, 300, -1);
	launch(&p, 1, -1, 10);
	launch(&p, 2, -1, 50);
	launch(&p, 3, -1, 120);
	launch(&p, 4, -1, 250);
	kernel(&p, "k", 1000, 10, 1)->correlation = 1;
	kernel(&p, "k", 1050, 20, 1)->correlation = 2;
	kernel(&p, "k", 1200, 30, 1)->correlation = 3;
	kernel(&p, "k", 1300, 1, 1)->correlation = 4;
	prof_attribute(&p);
	assert_int_equal(p.nsteps, 2);
	assert_int_equal(p.steps[0].number, 1);
	assert_int_equal(p.steps[0].acts, 2);
	assert_true(p.steps[0].gpu_start == 1000 && p.steps[0].gpu_end == 1070);
	assert_int_equal(p.steps[1].number, 2);
	assert_int_equal(p.steps[1].acts, 1);
	assert_true(p.steps[1].gpu_start == 1200 && p.steps[1].gpu_end == 1230);
	assert_true(p.step_time == 200);
	prof_release(&p);
}

static void test_one_step_time_is_its_gpu_span(void **state)
{
	struct prof p;

	(void)state;
	/* one step: its time is its own GPU span, 1000 to 1070 = 70 */
	prof_init(&p);
	step(&p, "ProfilerStep#6", 0, 100);
	launch(&p, 1, -1, 10);
	launch(&p, 2, -1, 50);
	kernel(&p, "k", 1000, 10, 1)->correlation = 1;
	kernel(&p, "k", 1050, 20, 1)->correlation = 2;
	prof_attribute(&p);
	assert_int_equal(p.nsteps, 1);
	assert_true(p.step_time == 70);
	prof_release(&p);
}

static void test_statistics_table(void **state)
{
	struct prof p;
	struct prof_act *a;

	(void)state;
	/*
	 * Rows of a kernel statistics table (no start times): totals 3000 us
	 * (2 calls), 800 (4), 200 (1): busy is their sum, 4000; shares 0.75,
	 * 0.2, 0.05; no idle time, and a note saying so.
	 */
	prof_init(&p);
	p.format = PROF_FMT_NSYS_SUM;
	a = prof_add_act(&p);
	a->name = str(&p, "cutlass_80_simt_sgemm_128x128_8x4_nn_align1");
	a->dur = 3000;
	a->calls = 2;
	a = prof_add_act(&p);
	a->name = str(&p, "triton_red_fused__log_softmax_0");
	a->dur = 800;
	a->calls = 4;
	a = prof_add_act(&p);
	a->name = str(&p, "fmha_cutlassF_f32_aligned_64x64_rf_sm80");
	a->dur = 200;
	prof_attribute(&p);
	assert_false(p.timeline);
	assert_true(p.busy == 4000);
	assert_true(p.groups[0].share == 0.75 && p.groups[0].cls == PROF_CLASS_GEMM);
	assert_int_equal(p.groups[0].calls, 2);
	assert_true(p.groups[1].share == 0.2 && p.groups[1].cls == PROF_CLASS_TRITON);
	assert_true(p.groups[2].share == 0.05 && p.groups[2].cls == PROF_CLASS_ATTENTION);
	assert_non_null(strstr(p.notes[0], "no timeline"));
	prof_release(&p);
}

static void test_classes_of_names(void **state)
{
	/* the name rules of attrib.h, first that applies */
	(void)state;
	assert_int_equal(prof_class_of_name("Memcpy DtoH (Device -> Pinned)"), PROF_CLASS_MEMCPY);
	assert_int_equal(prof_class_of_name("__amd_rocclr_copyBuffer"), PROF_CLASS_MEMCPY);
	assert_int_equal(prof_class_of_name("__amd_rocclr_fillBufferAligned"), PROF_CLASS_MEMSET);
	assert_int_equal(prof_class_of_name("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), PROF_CLASS_COMM);
	assert_int_equal(prof_class_of_name("void pytorch_flash::flash_fwd_kernel<>"),
			 PROF_CLASS_ATTENTION);
	assert_int_equal(prof_class_of_name("triton_poi_fused_add_0"), PROF_CLASS_TRITON);
	assert_int_equal(prof_class_of_name("Cijk_Ailk_Bljk_SB_MT128x128x8"), PROF_CLASS_GEMM);
	assert_int_equal(prof_class_of_name("sm90_xmma_gemm_f32f32"), PROF_CLASS_GEMM);
	assert_int_equal(prof_class_of_name("vectorized_elementwise_kernel"), PROF_CLASS_OTHER);
	assert_true(prof_op_is_matmul("aten::addmm") && !prof_op_is_matmul("aten::add"));
	assert_true(prof_op_is_attention("aten::_scaled_dot_product_flash_attention"));
	assert_false(prof_op_is_attention("flash_attention_in_user_code"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links_and_groups),
		cmocka_unit_test(test_overlap_split_evenly),
		cmocka_unit_test(test_idle_gaps),
		cmocka_unit_test(test_clock_jump),
		cmocka_unit_test(test_zero_length_activity),
		cmocka_unit_test(test_steps_from_profiler_ranges),
		cmocka_unit_test(test_one_step_time_is_its_gpu_span),
		cmocka_unit_test(test_statistics_table),
		cmocka_unit_test(test_classes_of_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
