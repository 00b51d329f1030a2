/* Unit tests for parse/autotune: instances, lookup and the final choice. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "autotune-test.h"

static struct at_src src_in(unsigned file, size_t line)
{
	struct at_src s = { file, line, AT_FMT_INDUCTOR_LOG };

	return s;
}

/* The k-th instance an input mentions is the k-th instance in the set. */
static void test_instances_line_up_across_inputs(void **state)
{
	struct autotune_set set;
	struct at_kernel *a1, *a2, *b1, *b2, *b3;
	unsigned a, b;

	(void)state;
	autotune_set_init(&set);
	a = at_input_add(&set, "events.jsonl");
	b = at_input_add(&set, "model.log");
	a1 = at_kernel_current(&set, "k", 1, src_in(a, 1));
	assert_ptr_equal(at_kernel_current(&set, "k", 1, src_in(a, 2)), a1);
	a2 = at_kernel_next(&set, "k", 1, src_in(a, 3));
	assert_ptr_not_equal(a1, a2);
	b1 = at_kernel_current(&set, "k", 1, src_in(b, 1));
	assert_ptr_equal(b1, a1);
	b2 = at_kernel_next(&set, "k", 1, src_in(b, 5));
	assert_ptr_equal(b2, a2);
	b3 = at_kernel_next(&set, "k", 1, src_in(b, 9));
	assert_int_equal(b3->instance, 3);
	assert_int_equal(b3->name_src.line, 9);
	assert_int_equal(at_kernel_instances(a1), 3);
	assert_int_equal(at_kernel_instances(b3), 3);
	assert_ptr_equal(b3->first_instance, a1);
	assert_ptr_equal(at_kernel_latest(&set, "k", 1), b3);
	assert_null(at_kernel_latest(&set, "q", 1));
	assert_int_equal(set.nr, 3);
	autotune_set_release(&set);
}

static void test_find_and_id(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	unsigned f;
	char *id;

	(void)state;
	autotune_set_init(&set);
	f = at_input_add(&set, "x");
	at_kernel_current(&set, "triton_", 7, src_in(f, 1));
	at_kernel_next(&set, "triton_", 7, src_in(f, 2));
	at_kernel_current(&set, "mm(2x2, 2x2)", 12, src_in(f, 3));
	assert_int_equal(autotune_set_find(&set, "triton_", &k), 2);
	assert_int_equal(autotune_set_find(&set, "triton_#2", &k), 1);
	assert_int_equal(k->instance, 2);
	id = at_kernel_id(k);
	assert_string_equal(id, "triton_#2");
	free(id);
	assert_int_equal(autotune_set_find(&set, "triton_#3", &k), 0);
	assert_int_equal(autotune_set_find(&set, "mm(2x2, 2x2)", &k), 1);
	id = at_kernel_id(k);
	assert_string_equal(id, "mm(2x2, 2x2)");
	free(id);
	assert_int_equal(autotune_set_find(&set, "nope", &k), 0);
	assert_null(k);
	autotune_set_release(&set);
}

/* Many names: the index grows and keeps every one. */
static void test_many_names(void **state)
{
	struct autotune_set set;
	const struct at_kernel *k;
	char name[32];
	unsigned f;
	int i;

	(void)state;
	autotune_set_init(&set);
	f = at_input_add(&set, "x");
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "triton_poi_%d", i);
		at_kernel_current(&set, name, strlen(name), src_in(f, (size_t)i + 1));
	}
	assert_int_equal(set.nr, 3000);
	assert_int_equal(autotune_set_find(&set, "triton_poi_2999", &k), 1);
	assert_int_equal(k->name_src.line, 3000);
	autotune_set_release(&set);
}

static void test_best_and_single_config(void **state)
{
	struct autotune_set set;
	struct at_kernel *k;
	struct at_tuning *t1, *t2;
	struct at_config *c;
	enum at_method how;
	unsigned f;

	(void)state;
	autotune_set_init(&set);
	f = at_input_add(&set, "x");
	k = at_kernel_current(&set, "k", 1, src_in(f, 1));
	assert_null(at_kernel_best(k, &how));
	c = at_config_push(&k->declared, &k->ndeclared, &k->declared_alloc, src_in(f, 2));
	c->num_warps = 4;
	assert_ptr_equal(at_kernel_best(k, &how), c);
	assert_int_equal(how, AT_SINGLE_CONFIG);
	k->num_configs = 2;	/* one of two declared configs listed: no choice known */
	assert_null(at_kernel_best(k, &how));
	t1 = at_tuning_add(k, AT_BENCHMARK, src_in(f, 3));
	at_config_push(&t1->configs, &t1->nr, &t1->alloc, src_in(f, 4))->time_ms = 1.0;
	at_config_push(&t1->configs, &t1->nr, &t1->alloc, src_in(f, 5))->time_ms = 0.5;
	t1->best = 1;
	t2 = at_tuning_add(k, AT_COORDESC, src_in(f, 6));
	at_config_push(&t2->configs, &t2->nr, &t2->alloc, src_in(f, 7));
	assert_ptr_equal(at_kernel_best(k, &how), &t1->configs[1]);	/* t2 chose nothing */
	assert_int_equal(how, AT_BENCHMARK);
	t2->best = 0;
	assert_ptr_equal(at_kernel_best(k, &how), &t2->configs[0]);
	assert_int_equal(how, AT_COORDESC);
	assert_int_equal(at_kernel_timed(k), 2);
	assert_int_equal(at_tuning_find(t1, "x", 1), -1);
	autotune_set_release(&set);
}

static void test_names_and_kinds(void **state)
{
	(void)state;
	assert_string_equal(at_kind_from_name("triton_poi_fused_add_0"), "pointwise");
	assert_string_equal(at_kind_from_name("triton_red_fused_sum_1"), "reduction");
	assert_string_equal(at_kind_from_name("triton_per_fused_softmax_2"), "persistent_reduction");
	assert_string_equal(at_kind_from_name("triton_tem_fused_mm_0"), "template");
	assert_null(at_kind_from_name("triton_"));
	assert_null(at_kind_from_name("add_kernel"));
	assert_string_equal(at_format_name(AT_FMT_MAX_AUTOTUNE), "max_autotune");
	assert_string_equal(at_method_name(AT_COORDESC), "coordinate_descent");
}

static void test_set_str_keeps_first(void **state)
{
	struct at_src a = { 0, 1, AT_FMT_EVENTS }, b = { 0, 2, AT_FMT_INDUCTOR_LOG }, got;
	char *field = NULL;

	(void)state;
	assert_int_equal(at_set_str(&field, &got, "first", 5, a), 1);
	assert_int_equal(at_set_str(&field, &got, "second", 6, b), 0);
	assert_string_equal(field, "first");
	assert_int_equal(got.fmt, AT_FMT_EVENTS);
	free(field);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instances_line_up_across_inputs),
		cmocka_unit_test(test_find_and_id),
		cmocka_unit_test(test_many_names),
		cmocka_unit_test(test_best_and_single_config),
		cmocka_unit_test(test_names_and_kinds),
		cmocka_unit_test(test_set_str_keeps_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
