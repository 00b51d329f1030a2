/*
 * Unit tests for tune/winner: what applying a variant takes, as the
 * winner's config.json and tune.json carry it. Expected values come from
 * plan.h's flag names and pool.c's environments, read by eye.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tune/winner.h"
#include "util/mem.h"
#include "tune-test.h"

static void same_json(json_t *got, const char *want)
{
	json_error_t e;
	json_t *w = json_loads(want, JSON_DECODE_ANY, &e);

	assert_non_null(w);
	assert_true(json_equal(got, w));
	json_decref(w);
	json_decref(got);
}

static void same_strv(unsigned src, const char *want0, const char *want1, size_t want_nr)
{
	char **v = NULL;
	size_t nr = 0, i;

	tune_src_fill(src, &v, &nr);
	assert_int_equal(nr, want_nr);
	if (nr > 0)
		assert_string_equal(v[0], want0);
	if (nr > 1)
		assert_string_equal(v[1], want1);
	for (i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static void same_env(unsigned src, const char *want_value)
{
	struct rf_pair *v = NULL;
	size_t nr = 0;

	tune_env_fill(src, &v, &nr);
	assert_int_equal(nr, want_value ? 1 : 0);
	if (want_value) {
		assert_string_equal(v[0].key, "AMDGCN_USE_BUFFER_OPS");
		assert_string_equal(v[0].value, want_value);
		free(v[0].key);
		free(v[0].value);
	}
	free(v);
}

/* Source flags by name, in the table's order; buffer ops as the worker's environment. */
static void test_src_and_env(void **state)
{
	(void)state;
	same_strv(0, NULL, NULL, 0);
	same_strv(TUNE_SRC_PTR32 | TUNE_SRC_HINTS, "hints", "ptr32", 2);
	same_env(0, NULL);
	same_env(TUNE_SRC_BUF_OFF, "0");
	same_env(TUNE_SRC_BUF_ON, "1");
}

/* A plan of two variants, the second the two-pass softmax; no RSPLIT_SIZE to apply. */
static void test_two_pass_and_split(void **state)
{
	struct tune_plan_opts o = TUNE_PLAN_OPTS_INIT;
	struct tune_sweep s;
	struct tune_config c;
	struct buf err = BUF_INIT;
	json_t *set;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.ws.arg = -1;
	s.winner = -1;
	tune_kernel_init(&s.k);
	s.k.name = xstrdup("triton_red_fused_softmax_0");
	s.k.kind = TUNE_KIND_REDUCTION;
	add_arg(&s.k, "in_ptr0", "*fp32");
	add_arg(&s.k, "XBLOCK", "constexpr");
	add_arg(&s.k, "R0_BLOCK", "constexpr");
	assert_int_equal(tune_plan_init(&s.plan, &s.k, target_find("sm_90"), &o, &err), 0);
	tune_config_default(&s.plan.space, &s.k, &c);
	tune_plan_add_base(&s.plan, &c, TUNE_FROM_DEFAULT, -1);
	assert_true(s.plan.nr >= 1);
	s.plan.v[0].src = 0;
	assert_int_equal(tune_winner_two_pass(&s, 0), 0);
	assert_int_equal(tune_winner_two_pass(&s, -1), 0);
	s.plan.v[0].src = TUNE_SRC_TWO_PASS;
	assert_int_equal(tune_winner_two_pass(&s, 0), 1);
	assert_int_equal(tune_winner_split(&s, 0), 0);
	assert_null(tune_winner_settings(&s, -1));	/* no variant */
	s.winner = 0;
	set = tune_winner_settings(&s, s.winner);
	same_json(set, "{\"online_softmax\": false}");
	/* no winner: nothing to write, and nothing written */
	s.winner = -1;
	assert_int_equal(tune_winner_write(&s, NULL, &err), 0);
	tune_plan_release(&s.plan);
	tune_kernel_release(&s.k);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_src_and_env),
		cmocka_unit_test(test_two_pass_and_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
