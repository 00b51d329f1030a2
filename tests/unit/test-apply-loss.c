/*
 * Unit tests for apply/loss (tko apply --ab's loss check), expected values
 * by hand (bc), not from the code:
 *
 * - The H200 documents of tests/corpus/h200-apply-1205 (SOURCES.md): the
 *   reference is run 1 (default, round 0); its largest |loss| is step 0's,
 *   10.53711891, so the floor is 0.1053711891 (reached from step 9 on).
 *   second-coordesc, coordesc (runs 2 and 5): worst at run 2, step 9,
 *   0.08935134858 against 0.08932042122 (below the floor):
 *   3.092736e-5 / 0.1053711891 = 2.93508693e-4 (run 5, same step:
 *   2.58527351e-5 / 0.1053711891 = 2.45356537e-4). applied (runs 3 and 4,
 *   the same losses): worst at step 8, 0.2907922864 against 0.2907527685
 *   (above the floor): 3.95179e-5 / 0.2907527685 = 1.35915817e-4.
 *   second-2arms, applied (runs 2, 3): step 8, 0.2908014059 against
 *   0.2907527685: 4.86374e-5 / 0.2907527685 = 1.67280952e-4.
 *   All within the default --loss-rtol 1e-3, where relative to the step's
 *   loss alone applied's step 33 (3.32851414e-5 against 3.034976544e-5)
 *   differs by 9.7%: that step now reads 2.935e-6 / 0.105 = 2.79e-5.
 * - Hand-made lists, the reference's scale 10 (floor 0.1):
 *   5% off where the loss is half the scale: 0.25 / 5 = 0.05;
 *   the late loss 10x the reference's at 1e-3 of the scale: (0.1 - 0.01)
 *   / max(0.01, 0.1) = 0.9; a loss of 1.5e-4 against 1e-4: 5e-5 / 0.1 =
 *   5e-4; 0.2002 against 0.2 (above the floor): 2e-4 / 0.2 = 1e-3;
 *   negative losses: scale |-10|, 0.5 / 5 = 0.1.
 * - A reference of zeros: scale 0, the bound 1e-12: equal zeros 0,
 *   1e-9 against 0: 1e-9 / 1e-12 = 1000.
 * - null (a loss the hook could not read), lengths that differ, no
 *   losses: NAN (cannot be compared).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apply/loss.h"
#include "test-file.h"

static json_t *list(const char *text)
{
	json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);

	assert_non_null(j);
	return j;
}

/* |a| against |b|, both JSON lists, the lists freed. */
static double diff(const char *a, const char *b)
{
	json_t *x = list(a), *y = list(b);
	double d = apply_loss_diff(x, y);

	json_decref(x);
	json_decref(y);
	return d;
}

/* The losses of run n (its "n", counted from 1). */
static const json_t *losses_of(const json_t *doc, long n)
{
	const json_t *runs = json_object_get(doc, "runs"), *r;
	size_t i;

	json_array_foreach(runs, i, r)
		if (json_integer_value(json_object_get(r, "n")) == n)
			return json_object_get(r, "losses");
	fail_msg("no run %ld", n);
	return NULL;
}

static void test_corpus_second_coordesc(void **state)
{
	json_t *doc = test_corpus_json("h200-apply-1205/second-coordesc/apply.json");
	const json_t *ref = losses_of(doc, 1);

	(void)state;
	assert_int_equal(json_array_size(ref), 250);
	assert_float_equal(apply_loss_scale(ref), 10.53711891, 1e-12);
	assert_float_equal(apply_loss_diff(losses_of(doc, 2), ref), 2.93508693e-4, 1e-12);
	assert_float_equal(apply_loss_diff(losses_of(doc, 5), ref), 2.45356537e-4, 1e-12);
	assert_float_equal(apply_loss_diff(losses_of(doc, 3), ref), 1.35915817e-4, 1e-12);
	assert_float_equal(apply_loss_diff(losses_of(doc, 4), ref), 1.35915817e-4, 1e-12);
	assert_float_equal(apply_loss_diff(losses_of(doc, 6), ref), 0, 0);
	json_decref(doc);
}

static void test_corpus_second_2arms(void **state)
{
	json_t *doc = test_corpus_json("h200-apply-1205/second-2arms/apply.json");
	const json_t *ref = losses_of(doc, 1);

	(void)state;
	assert_float_equal(apply_loss_diff(losses_of(doc, 2), ref), 1.67280952e-4, 1e-12);
	assert_true(apply_loss_diff(losses_of(doc, 3), ref) <= 1.67280952e-4 + 1e-12);
	json_decref(doc);
}

static void test_real_divergence_fails(void **state)
{
	(void)state;
	assert_float_equal(diff("[10, 8, 5.25, 2]", "[10, 8, 5, 2]"), 0.05, 1e-12);
	assert_float_equal(diff("[10, 1, 0.1, 0.1]", "[10, 1, 0.1, 0.01]"), 0.9, 1e-12);
	assert_float_equal(diff("[-10, -5.5]", "[-10, -5]"), 0.1, 1e-12);
}

static void test_near_zero_within_the_floor(void **state)
{
	(void)state;
	assert_float_equal(diff("[10, 1.5e-4]", "[10, 1e-4]"), 5e-4, 1e-12);
	assert_float_equal(diff("[10, 0.2002]", "[10, 0.2]"), 1e-3, 1e-12);
	assert_float_equal(diff("[10, 1, 0.5]", "[10, 1, 0.5]"), 0, 0);
}

static void test_zero_reference(void **state)
{
	json_t *zeros = list("[0, 0]");

	(void)state;
	assert_float_equal(apply_loss_scale(zeros), 0, 0);
	assert_float_equal(diff("[0, 0]", "[0, 0]"), 0, 0);
	assert_float_equal(diff("[0, 1e-9]", "[0, 0]"), 1000, 1e-6);
	json_decref(zeros);
}

static void test_cannot_compare(void **state)
{
	json_t *gap = list("[10, null]"), *none = list("[]");

	(void)state;
	assert_true(isnan(diff("[10, null]", "[10, 5]")));
	assert_true(isnan(diff("[10, 5]", "[10, null]")));
	assert_true(isnan(diff("[10, \"5\"]", "[10, 5]")));
	assert_true(isnan(diff("[10, 5, 1]", "[10, 5]")));
	assert_true(isnan(diff("[10, 5]", "[10, 5, 1]")));
	assert_true(isnan(diff("[]", "[]")));
	assert_true(isnan(apply_loss_scale(gap)));
	assert_true(isnan(apply_loss_scale(none)));
	assert_true(isnan(apply_loss_scale(NULL)));
	assert_true(isnan(apply_loss_diff(NULL, NULL)));
	json_decref(gap);
	json_decref(none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_second_coordesc),
		cmocka_unit_test(test_corpus_second_2arms),
		cmocka_unit_test(test_real_divergence_fails),
		cmocka_unit_test(test_near_zero_within_the_floor),
		cmocka_unit_test(test_zero_reference),
		cmocka_unit_test(test_cannot_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
