/*
 * Unit tests for decide/tune_pick: which kernels `tko investigate
 * --tune-top N` tunes. The runs are built by hand, kernels in rank order
 * as the analysis leaves them; the expected choices are read off each
 * run's table below by the rule of tune_pick.h (marked tune, captured,
 * the first N; a tuned one counts but is not tuned again).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decide/tune_pick.h"
#include "util/mem.h"

/* One kernel per row: its name, decision, capture dir (or NULL), tune file (or NULL). */
struct row {
	const char *name;
	enum decision d;
	const char *dir, *tuned;
};

static void build(struct an_run *r, const struct row *rows, size_t n)
{
	size_t i;

	an_run_init(r);
	for (i = 0; i < n; i++) {
		struct an_kernel *k = an_run_add_kernel(r);

		k->name = xstrdup(rows[i].name);
		k->decision = rows[i].d;
		k->kernel_dir = rows[i].dir ? xstrdup(rows[i].dir) : NULL;
		k->tune.file = rows[i].tuned ? xstrdup(rows[i].tuned) : NULL;
	}
}

static const struct row mixed[] = {
	{ "a_leave", DECISION_LEAVE, "capture/kernels/a", NULL },
	{ "b_tune", DECISION_TUNE, "capture/kernels/b", NULL },
	{ "c_uncaptured", DECISION_TUNE, NULL, NULL },
	{ "d_tuned", DECISION_TUNE, "capture/kernels/d", "capture/kernels/d/tune/tune.json" },
	{ "e_rewrite", DECISION_REWRITE, "capture/kernels/e", NULL },
	{ "f_tune", DECISION_TUNE, "capture/kernels/f", NULL },
	{ "g_tune", DECISION_TUNE, "capture/kernels/g", NULL },
	{ "h_uncaptured", DECISION_TUNE, NULL, NULL },
};

static void test_top_three(void **state)
{
	struct an_run r;
	struct tune_pick *p;
	size_t n;

	(void)state;
	build(&r, mixed, sizeof(mixed) / sizeof(mixed[0]));
	n = tune_pick(&r, 3, &p);
	/* b, d and f are the first three captured kernels marked tune; c ranks between them */
	assert_int_equal(n, 4);
	assert_string_equal(p[0].k->name, "b_tune");
	assert_int_equal(p[0].what, TUNE_PICK_TUNE);
	assert_string_equal(p[1].k->name, "c_uncaptured");
	assert_int_equal(p[1].what, TUNE_PICK_NO_INPUTS);
	assert_string_equal(p[2].k->name, "d_tuned");
	assert_int_equal(p[2].what, TUNE_PICK_TUNED);
	assert_string_equal(p[3].k->name, "f_tune");
	assert_int_equal(p[3].what, TUNE_PICK_TUNE);
	free(p);
	an_run_release(&r);
}

static void test_more_than_there_are(void **state)
{
	struct an_run r;
	struct tune_pick *p;
	size_t n;

	(void)state;
	build(&r, mixed, sizeof(mixed) / sizeof(mixed[0]));
	n = tune_pick(&r, 10, &p);
	/* every kernel marked tune: b c d f g h */
	assert_int_equal(n, 6);
	assert_string_equal(p[4].k->name, "g_tune");
	assert_string_equal(p[5].k->name, "h_uncaptured");
	assert_int_equal(p[5].what, TUNE_PICK_NO_INPUTS);
	free(p);
	an_run_release(&r);
}

static void test_top_one(void **state)
{
	struct an_run r;
	struct tune_pick *p;

	(void)state;
	build(&r, mixed, sizeof(mixed) / sizeof(mixed[0]));
	assert_int_equal(tune_pick(&r, 1, &p), 1);
	assert_string_equal(p[0].k->name, "b_tune");
	free(p);
	an_run_release(&r);
}

static void test_nothing_to_tune(void **state)
{
	static const struct row none[] = {
		{ "a_leave", DECISION_LEAVE, "capture/kernels/a", NULL },
		{ "b_keep_off", DECISION_KEEP_OFF, "capture/kernels/b", NULL },
		{ "c_measure", DECISION_MEASURE, NULL, NULL },
	};
	struct an_run r;
	struct tune_pick *p = (struct tune_pick *)&r;

	(void)state;
	build(&r, none, sizeof(none) / sizeof(none[0]));
	assert_int_equal(tune_pick(&r, 3, &p), 0);
	assert_null(p);
	an_run_release(&r);
	build(&r, mixed, sizeof(mixed) / sizeof(mixed[0]));
	assert_int_equal(tune_pick(&r, 0, &p), 0);
	assert_null(p);
	an_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_three),
		cmocka_unit_test(test_more_than_there_are),
		cmocka_unit_test(test_top_one),
		cmocka_unit_test(test_nothing_to_tune),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
