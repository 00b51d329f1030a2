/*
 * Unit tests for tune/result and tune/grid: worker replies to statuses, the
 * winner (a wrong variant never wins, the base stays within the noise),
 * and Inductor's grid types computed by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json/jsonio.h"
#include "tune/grid.h"
#include "tune/result.h"
#include "util/mem.h"

static void test_reply_statuses(void **state)
{
	struct tune_result r = { 0 };
	json_t *rep;

	(void)state;
	r.time_ms = r.compile_ms = -1;
	rep = json_pack("{s:s, s:s, s:s}", "id", "v1", "status", "compile_error",
			"error", "CompilationError: at 13:11: | bad");
	tune_result_from_reply(&r, rep);
	assert_int_equal(r.status, TUNE_ST_COMPILE_ERROR);
	assert_string_equal(r.error, "CompilationError: at 13:11: | bad");
	assert_false(tune_result_usable(&r));
	json_decref(rep);
	/* "ok" without a time is compiled, not usable */
	rep = json_pack("{s:s, s:f, s:{s:i}, s:{s:s}}", "status", "ok", "compile_ms", 12.5,
			"metadata", "shared", 8192, "files", "amdgcn", "/x/k.amdgcn");
	tune_result_from_reply(&r, rep);
	assert_int_equal(r.status, TUNE_ST_COMPILED);
	assert_null(r.error);
	assert_int_equal(r.shared_bytes, 8192);
	assert_string_equal(json_str(r.files, "amdgcn"), "/x/k.amdgcn");
	assert_false(tune_result_usable(&r));
	json_decref(rep);
	rep = json_pack("{s:s, s:f}", "status", "ok", "time_ms", 0.0626);
	tune_result_from_reply(&r, rep);
	assert_int_equal(r.status, TUNE_ST_OK);
	assert_true(tune_result_usable(&r));
	json_decref(rep);
	rep = json_pack("{s:s, s:f}", "status", "wrong", "time_ms", 0.01);
	tune_result_from_reply(&r, rep);
	assert_int_equal(r.status, TUNE_ST_WRONG);
	assert_false(tune_result_usable(&r));
	json_decref(rep);
	rep = json_pack("{s:s}", "status", "exploded");
	tune_result_from_reply(&r, rep);
	assert_int_equal(r.status, TUNE_ST_ERROR);
	assert_string_equal(r.error, "the worker answered status 'exploded'");
	json_decref(rep);
	free(r.error);
	json_decref(r.files);
	json_decref(r.checks);
}

/* A plan with n variants (only what tune_winner reads) and their results. */
static void fake(struct tune_plan *p, struct tune_results *rs, const double *ms,
		 const enum tune_status *st, size_t n)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->v = xcalloc(n, sizeof(*p->v));
	p->nr = n;
	p->base = 0;
	for (i = 0; i < n; i++) {
		struct tune_result *r = tune_results_at(rs, i);

		r->status = st[i];
		r->time_ms = ms[i];
	}
}

static void test_winner(void **state)
{
	const double ms[] = { 1.0, 0.5, 0.7, 0.99, -1 };
	const enum tune_status st[] = { TUNE_ST_OK, TUNE_ST_WRONG, TUNE_ST_OK, TUNE_ST_OK,
					TUNE_ST_COMPILE_ERROR };
	const double close[] = { 1.0, 0.99 };
	const enum tune_status ok2[] = { TUNE_ST_OK, TUNE_ST_OK };
	const enum tune_status bad_base[] = { TUNE_ST_COMPILE_ERROR, TUNE_ST_OK };
	struct tune_results rs = TUNE_RESULTS_INIT;
	struct tune_plan p;

	(void)state;
	/* the fastest (0.5) is wrong: 0.7 wins */
	fake(&p, &rs, ms, st, 5);
	assert_int_equal(tune_winner(&p, &rs, 0.02), 2);
	free(p.v);
	tune_results_release(&rs);
	/* 1% faster is within 2% noise: the base stays */
	fake(&p, &rs, close, ok2, 2);
	assert_int_equal(tune_winner(&p, &rs, 0.02), 0);
	assert_int_equal(tune_winner(&p, &rs, 0.005), 1);
	free(p.v);
	tune_results_release(&rs);
	/* nothing timed: no winner */
	fake(&p, &rs, ms + 4, st + 4, 1);
	assert_int_equal(tune_winner(&p, &rs, 0.02), -1);
	free(p.v);
	tune_results_release(&rs);
	fake(&p, &rs, close, bad_base, 2);
	assert_int_equal(tune_winner(&p, &rs, 0.02), 1);
	free(p.v);
	tune_results_release(&rs);
}

static void test_inductor_grids(void **state)
{
	const long numel[3] = { 256, 100000, 1 }, block[3] = { 128, 1, 1 };
	const long numel1[3] = { 33554432, 1, 1 }, block1[3] = { 1024, 1, 1 };
	long g[3];
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(tune_grid_inductor("Grid1D", numel1, block1, g, &err), 0);
	assert_int_equal(g[0], 32768);
	assert_int_equal(g[1], 1);
	assert_int_equal(tune_grid_inductor("Grid2D", numel, block, g, &err), 0);
	assert_int_equal(g[0], 2);
	assert_int_equal(g[1], 100000);
	/* 100000 y blocks exceed 65535: z = 2, y = 50000 */
	assert_int_equal(tune_grid_inductor("Grid2DWithYZOverflow", numel, block, g, &err), 0);
	assert_int_equal(g[0], 2);
	assert_int_equal(g[1], 50000);
	assert_int_equal(g[2], 2);
	assert_int_equal(tune_grid_inductor("SplitScanGrid", numel, block, g, &err), -1);
	assert_non_null(strstr(err.buf, "SplitScanGrid"));
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply_statuses),
		cmocka_unit_test(test_winner),
		cmocka_unit_test(test_inductor_grids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
