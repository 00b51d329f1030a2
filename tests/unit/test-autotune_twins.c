/*
 * Unit tests for parse/autotune_twins: one benchmark told by TorchInductor's
 * log and by the seed skill's autotune.log becomes one tuning. The Inductor
 * lines are corpus/h200-run1/log_profile.txt lines 4910-4913 (graph 2's
 * triton_poi_fused_zeros_0); the seed block is written by hand from the
 * grammar in docs/seed-scripts.md 2.1 with the same two timings rounded to
 * four decimals, as the capture prints them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"
#include "parse/autotune_twins.h"

#define V "V1202 15:29:36.528000 475 torch/_inductor/runtime/triton_heuristics.py:"
static const char inductor[] =
	V "1147] Benchmark all input configs for triton_poi_fused_zeros_0, get:\n"
	V "1149] XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None: 0.013920, nreg 6, nspill 0, #shared-mem 0\n"
	V "1149] XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0\n"
	V "1185] Best config for triton_poi_fused_zeros_0: XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0\n";

#define TS "2026-12-02 15:29:36 "
#define SEED(slow, fast) \
	TS "================================================================\n" \
	TS "[AUTOTUNE] kernel=triton_poi_fused_zeros_0  configs=2\n" \
	TS "  out_ptr0            : shape=[5000, 256]  dtype=torch.float32  stride=[256, 1]\n" \
	TS "  [TIMING] kernel=triton_poi_fused_zeros_0  autotune elapsed: 0.161s (161.3ms)\n" \
	TS "  Config                                                         Time(ms)\n" \
	TS "  ----------------------------------------------------------------------\n" \
	TS "  XBLOCK: 512, num_warps: 8, num_ctas: 1, num_stages: 1, maxnreg: None     " fast "  BEST\n" \
	TS "  XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None     " slow "\n" \
	TS "================================================================\n"

static void test_merged(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_tuning *t;
	const struct at_config *best;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, inductor);
	scan_text(&set, SEED("0.0139", "0.0115"));
	assert_int_equal(autotune_set_merge_twins(&set), 1);
	k = kernel_by_id(&set, "triton_poi_fused_zeros_0");
	t = only_tuning(k);
	assert_int_equal(at_kernel_timed(k), 2);
	assert_int_equal(t->src.file, 0);
	assert_int_equal(t->twin_src.file, 1);
	assert_int_equal(t->twin_src.line, 2);
	/* the seed log's elapsed time, Inductor's registers and six decimals */
	assert_true(fabs(t->elapsed_ms - 161.3) < 1e-9);
	assert_int_equal(t->elapsed_src.file, 1);
	best = at_kernel_best(k, NULL);
	assert_int_equal(best->num_warps, 8);
	assert_int_equal(best->n_regs, 6);
	assert_true(fabs(best->time_ms - 0.011456) < 1e-12);
	autotune_set_release(&set);
}

/* The seed log first: its rounded times give way to Inductor's, registers filled in. */
static void test_merged_seed_first(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	const struct at_config *best;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, SEED("0.0139", "0.0115"));
	scan_text(&set, inductor);
	autotune_set_merge_twins(&set);
	k = kernel_by_id(&set, "triton_poi_fused_zeros_0");
	assert_int_equal(only_tuning(k)->src.file, 0);
	best = at_kernel_best(k, NULL);
	assert_int_equal(best->num_warps, 8);
	assert_int_equal(best->n_regs, 6);
	assert_int_equal(best->n_spills, 0);
	assert_true(fabs(best->time_ms - 0.011456) < 1e-12);
	autotune_set_release(&set);
}

/* 0.0141 is 1.8e-4 ms from 0.013920: another benchmark, not the same one. */
static void test_other_times_stay_apart(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, inductor);
	scan_text(&set, SEED("0.0141", "0.0115"));
	assert_int_equal(autotune_set_merge_twins(&set), 0);
	k = kernel_by_id(&set, "triton_poi_fused_zeros_0");
	assert_int_equal(k->ntunings, 2);
	assert_int_equal(at_kernel_timed(k), 4);
	autotune_set_release(&set);
}

/* Two equal benchmarks in one input are two runs, not one told twice. */
static void test_one_input_stays_apart(void **state)
{
	struct autotune_set set;

	(void)state;
	autotune_set_init(&set);
	scan_text(&set, SEED("0.0139", "0.0115") SEED("0.0139", "0.0115"));
	assert_int_equal(autotune_set_merge_twins(&set), 0);
	assert_int_equal(kernel_by_id(&set, "triton_poi_fused_zeros_0")->ntunings, 2);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_merged_seed_first),
		cmocka_unit_test(test_other_times_stay_apart),
		cmocka_unit_test(test_one_input_stays_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
