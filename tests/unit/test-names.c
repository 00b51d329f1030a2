/*
 * Unit tests for model/names: every enum's name table against the
 * spellings tko's documents and reports use (docs/json.md, the recorded
 * goldens), and the kind rows against the tables they replaced
 * (parse/triton_meta.c's decorators, parse/autotune.c's prefixes,
 * tune/kernel.c's classes, analyse/join.c's hand-written set), copied
 * here by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/names.h"

/* Each table is NULL-terminated after exactly n names, and each name reads back as its value. */
static void check_table(const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		assert_non_null(names[i]);
		assert_int_equal(name_index(names, names[i]), i);
	}
	assert_null(names[n]);
	assert_int_equal(name_index(names, "no such name"), -1);
	assert_int_equal(name_index(names, NULL), -1);
	assert_null(name_at(names, (size_t)n, -1));
	assert_null(name_at(names, (size_t)n, n));
}

static void test_tables_are_complete(void **state)
{
	(void)state;
	check_table(kind_names, KIND_NR);
	check_table(kind_tune_class_names, KIND_TUNE_NR);
	check_table(decision_names, DECISION_NR);
	check_table(time_basis_names, TIME_NR);
	check_table(launch_basis_names, LAUNCH_NR);
	check_table(bytes_basis_names, BYTES_NR);
	check_table(at_method_names, AT_METHOD_NR);
	assert_string_equal(NAME_OF(kind_names, KIND_OTHER), "other");
	assert_null(NAME_OF(kind_names, KIND_NONE));
	assert_null(NAME_OF(time_basis_names, TIME_NR));
}

/* The JSON names as docs/json.md and the goldens' kernels.json spell them. */
static void test_json_names(void **state)
{
	static const char *const kinds[] = {
		"pointwise", "reduction", "persistent_reduction", "cooperative_reduction",
		"split_scan", "template", "user_autotune", "foreach", "fixed_config", "autotune",
		"jit", "user_jit", "max_autotune", "other",
	};
	static const char *const methods[] = {
		"benchmark", "coordinate_descent", "max_autotune", "user_autotune", "cache_hit",
		"single_config", "declared", "replay",
	};
	size_t i;

	(void)state;
	assert_int_equal(KIND_NR, sizeof(kinds) / sizeof(kinds[0]));
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		assert_int_equal(kind_from_name(kinds[i]), (int)i);
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		assert_string_equal(at_method_names[i], methods[i]);
	assert_int_equal(AT_METHOD_COUNT, 6);
	assert_string_equal(time_basis_names[TIME_REPLAY], "replay");
	assert_string_equal(time_basis_names[TIME_AUTOTUNE], "autotune");
	assert_string_equal(time_basis_names[TIME_MAX_AUTOTUNE], "max_autotune");
	assert_string_equal(time_basis_names[TIME_TRACE], "trace");
	assert_string_equal(launch_basis_names[LAUNCH_CAPTURE], "capture");
	assert_string_equal(launch_basis_names[LAUNCH_WRAPPER], "wrapper");
	assert_string_equal(launch_basis_names[LAUNCH_ASSUMED], "assumed");
	assert_string_equal(launch_basis_names[LAUNCH_TRACE], "trace");
	assert_string_equal(bytes_basis_names[BYTES_INDUCTOR], "inductor");
	assert_string_equal(bytes_basis_names[BYTES_FOOTPRINT], "footprint");
	assert_string_equal(bytes_basis_names[BYTES_SEED_LOG], "seed_log");
}

/* Unknown kinds are "other", no kind is KIND_NONE: Python copies Inductor's strings. */
static void test_kind_from_name(void **state)
{
	(void)state;
	assert_int_equal(kind_from_name(NULL), KIND_NONE);
	assert_int_equal(kind_from_name("HeuristicType.POINTWISE"), KIND_OTHER);
	assert_int_equal(kind_from_name(""), KIND_OTHER);
	assert_int_equal(kind_flags(KIND_NONE), 0);
	assert_int_equal(kind_flags(KIND_NR), 0);
}

/* parse/triton_meta.c's table before names.h: Inductor rows after "triton_heuristics.". */
static void test_kind_from_decorator(void **state)
{
	static const struct {
		const char *decorator;
		enum kernel_kind kind;
	} rows[] = {
		{ "triton_heuristics.pointwise", KIND_POINTWISE },
		{ "torch._inductor.runtime.triton_heuristics.reduction", KIND_REDUCTION },
		{ "triton_heuristics.persistent_reduction", KIND_PERSISTENT_REDUCTION },
		{ "triton_heuristics.cooperative_reduction", KIND_COOPERATIVE_REDUCTION },
		{ "triton_heuristics.split_scan", KIND_SPLIT_SCAN },
		{ "triton_heuristics.template", KIND_TEMPLATE },
		{ "triton_heuristics.user_autotune", KIND_USER_AUTOTUNE },
		{ "triton_heuristics.foreach", KIND_FOREACH },
		{ "triton_heuristics.fixed_config", KIND_FIXED_CONFIG },
		{ "triton.autotune", KIND_AUTOTUNE },
		{ "autotune", KIND_AUTOTUNE },
		/* an Inductor name without its module is a user's decorator, and not one of ours */
		{ "pointwise", KIND_NONE },
		{ "triton_heuristics.autotune", KIND_NONE },
		{ "triton.jit", KIND_NONE },
		{ "triton.heuristics", KIND_NONE },
		{ "triton_heuristics.pointwise2", KIND_NONE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum kernel_kind k = kind_from_decorator(rows[i].decorator);

		if (k != rows[i].kind)
			fail_msg("%s: %d, want %d", rows[i].decorator, k, rows[i].kind);
	}
	assert_true(kind_flags(KIND_TEMPLATE) & KIND_INDUCTOR);
	assert_false(kind_flags(KIND_AUTOTUNE) & KIND_INDUCTOR);
}

/* parse/autotune.c's prefixes before names.h. */
static void test_kind_from_symbol(void **state)
{
	(void)state;
	assert_int_equal(kind_from_symbol("triton_poi_fused_zeros_0"), KIND_POINTWISE);
	assert_int_equal(kind_from_symbol("triton_red_fused_sum_1"), KIND_REDUCTION);
	assert_int_equal(kind_from_symbol("triton_per_fused_softmax_2"), KIND_PERSISTENT_REDUCTION);
	assert_int_equal(kind_from_symbol("triton_tem_fused_mm_0"), KIND_TEMPLATE);
	/* torch 2.11 codegen/triton.py define_kernel: "foreach"[:3] */
	assert_int_equal(kind_from_symbol("triton_for_fused_1"), KIND_FOREACH);
	assert_int_equal(kind_from_symbol("triton_unk_fused_sum_1"), KIND_NONE);
	assert_int_equal(kind_from_symbol("triton_mm"), KIND_NONE);
	assert_int_equal(kind_from_symbol("triton_poi"), KIND_NONE);
	assert_int_equal(kind_from_symbol("scale_add_kernel"), KIND_NONE);
}

/*
 * The flags the rules and the join read: decide/rules.c's memory-bound and
 * reducing kinds, analyse/join.c's hand-written set, and tune/kernel.c's classes
 * ("user" for a kernel without Inductor's heuristics).
 */
static void test_kind_flags_and_tune_classes(void **state)
{
	static const struct {
		enum kernel_kind kind;
		int memory_bound, reduces, hand_written;
		const char *tune;
	} rows[] = {
		{ KIND_POINTWISE, 1, 0, 0, "pointwise" },
		{ KIND_REDUCTION, 1, 1, 0, "reduction" },
		{ KIND_PERSISTENT_REDUCTION, 1, 1, 0, "persistent_reduction" },
		{ KIND_COOPERATIVE_REDUCTION, 0, 0, 0, "reduction" },
		{ KIND_SPLIT_SCAN, 0, 0, 0, "split_scan" },
		{ KIND_TEMPLATE, 0, 0, 0, "template" },
		{ KIND_USER_AUTOTUNE, 0, 0, 1, "user" },
		{ KIND_FOREACH, 0, 0, 0, "foreach" },
		{ KIND_FIXED_CONFIG, 0, 0, 0, "fixed_config" },
		{ KIND_AUTOTUNE, 0, 0, 1, "user" },
		{ KIND_JIT, 0, 0, 1, "user" },
		{ KIND_USER_JIT, 0, 0, 1, "user" },
		{ KIND_MAX_AUTOTUNE, 0, 0, 0, "other" },
		{ KIND_OTHER, 0, 0, 0, "other" },
	};
	size_t i;

	(void)state;
	assert_int_equal(sizeof(rows) / sizeof(rows[0]), KIND_NR);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned f = kind_flags(rows[i].kind);

		assert_int_equal(!!(f & KIND_MEMORY_BOUND), rows[i].memory_bound);
		assert_int_equal(!!(f & KIND_REDUCES), rows[i].reduces);
		assert_int_equal(!!(f & KIND_HAND_WRITTEN), rows[i].hand_written);
		assert_string_equal(kind_tune_class_names[kind_info[rows[i].kind].tune_class],
				    rows[i].tune);
	}
}

/* The report's titles and summary order (report/rtext.c and summary.c before names.h). */
static void test_decisions(void **state)
{
	static const char *const order[] = { "tune", "rewrite", "keep_off", "leave", "measure" };
	int d;
	size_t i;

	(void)state;
	assert_string_equal(decision_title(DECISION_TUNE), "tune");
	assert_string_equal(decision_title(DECISION_KEEP_OFF), "keep TorchInductor off");
	assert_string_equal(decision_title(DECISION_REWRITE), "rewrite the model code");
	assert_string_equal(decision_title(DECISION_LEAVE), "leave it alone");
	assert_string_equal(decision_title(DECISION_MEASURE), "measure first");
	assert_string_equal(decision_title(DECISION_NONE), "-");
	assert_null(decision_name(DECISION_NONE));
	assert_int_equal(decision_from_name("keep_off"), DECISION_KEEP_OFF);
	assert_int_equal(decision_from_name("keep off"), DECISION_NONE);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		d = decision_from_name(order[i]);
		assert_int_equal(decision_info[d].summary_rank, (int)i);
	}
	for (d = 0; d < DECISION_NR; d++)
		assert_non_null(strstr(decision_info[d].action, d == DECISION_LEAVE ? "{why}" :
				       d == DECISION_TUNE ? "{knobs}" : d == DECISION_MEASURE ?
				       "measure it first" : "{where}"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_are_complete),
		cmocka_unit_test(test_json_names),
		cmocka_unit_test(test_kind_from_name),
		cmocka_unit_test(test_kind_from_decorator),
		cmocka_unit_test(test_kind_from_symbol),
		cmocka_unit_test(test_kind_flags_and_tune_classes),
		cmocka_unit_test(test_decisions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
