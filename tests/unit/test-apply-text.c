/*
 * Unit tests for the text of tko apply (report/apply_text.c) on the
 * documents the H100 wrote on 2026-12-05 (corpus/h100-apply-1205d/). The
 * expected figures were read off those documents with Python apart from
 * tko: the own model's second call, arm by arm, moved on the wall clock
 * 28.8% (default: 2.066-2.661 ms), 23.4% and 26.9%, and on GPU time 0.4%,
 * 0.8% and 0.8%; `second`'s arms moved at most 0.4% and 0.1%.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "report/apply_out.h"
#include "util/buf.h"
#include "test-file.h"

/* The text of the corpus document at `dir` (owned). */
static char *text_of(const char *dir)
{
	json_t *j = test_corpus_json(dir);
	struct buf err = BUF_INIT;
	struct apply_doc d;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	rf_init(&apply_doc_desc, &d);
	assert_int_equal(apply_doc_read(&d, j, dir, &err), 0);
	fp = open_memstream(&out, &len);
	assert_non_null(fp);
	apply_report_text(fp, &d);
	fclose(fp);
	rf_release(&apply_doc_desc, &d);
	json_decref(j);
	buf_release(&err);
	return out;
}

static void test_a_noisy_wall_clock_points_at_gpu_time(void **state)
{
	char *t = text_of("h100-apply-1205d/own-coordesc-rerun/apply.json");

	(void)state;
	assert_non_null(strstr(t, "\nnote: the wall clock moved 28.8% between rounds of one arm "
			       "(default: 2.066-2.661 ms a step) while GPU time moved 0.8% at most: "
			       "the CPU side is noisy; read the GPU-time ratios\n"));
	free(t);
}

static void test_a_steady_wall_clock_has_no_such_note(void **state)
{
	char *t = text_of("h100-apply-1205d/second-maxautotune/apply.json");

	(void)state;
	assert_non_null(strstr(t, "\napplied vs max-autotune: 0.9882"));
	assert_null(strstr(t, "the wall clock moved"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_noisy_wall_clock_points_at_gpu_time),
		cmocka_unit_test(test_a_steady_wall_clock_has_no_such_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
