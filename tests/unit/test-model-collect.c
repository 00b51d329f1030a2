/*
 * Unit tests for model/collect (collect.json as a typed document) and
 * report/collect_text (tko collect's summary). The expected bytes are the
 * golden suite's record of `tko collect` on the corpus RUN, written by
 * jansson before collect.json had a struct (tests/golden/collect/related:
 * o2/collect.json and the summary at the end of stdout).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json/jsonio.h"
#include "model/collect.h"
#include "report/collect_text.h"
#include "util/file.h"
#include "util/mem.h"
#include "test-file.h"

#define CASE "tests/golden/collect/related/expected/"

static void load(struct collect_doc *d, const char *path)
{
	struct buf err = BUF_INIT;
	json_t *j = json_load_path(path, &err);

	assert_non_null(j);
	collect_doc_init(d);
	assert_int_equal(collect_doc_read(d, j, path, &err), 0);
	json_decref(j);
	buf_release(&err);
}

/* Read and written back, the recorded document is the same bytes. */
static void test_round_trip(void **state)
{
	struct collect_doc d;
	char *want, *got = NULL;
	size_t nwant, ngot = 0;
	FILE *fp;

	(void)state;
	want = test_read_file(CASE "o2/collect.json", &nwant);
	load(&d, CASE "o2/collect.json");
	/* grep -c '"role"' o2/collect.json -> 21; 3 entries; no capture folder */
	assert_int_equal(d.nfiles, 21);
	assert_int_equal(d.nentries, 3);
	assert_int_equal(d.nskipped, 0);
	assert_null(d.capture_dir);
	fp = open_memstream(&got, &ngot);
	assert_int_equal(collect_doc_write(fp, &d), 0);
	fclose(fp);
	assert_int_equal(ngot, nwant);
	assert_string_equal(got, want);
	collect_doc_release(&d);
	free(got);
	free(want);
}

/* Files appended count their bytes; skipped inputs are kept in order. */
static void test_add(void **state)
{
	struct collect_doc d;

	(void)state;
	collect_doc_init(&d);
	collect_doc_add_file(&d, "inductor/a.py", "cache/inductor/aa/a.py", 10, "kernel_module");
	collect_doc_add_file(&d, "triton/H/k.ptx", "cache/triton/H/k.ptx", 32, "ptx");
	collect_doc_add_skip(&d, "cache/triton/H/k.json", "a symbolic link");
	assert_int_equal(d.bytes, 42);
	assert_int_equal(d.nfiles, 2);
	assert_string_equal(d.files[1].role, "ptx");
	assert_int_equal(d.nskipped, 1);
	assert_string_equal(d.skipped[0].why, "a symbolic link");
	collect_doc_release(&d);
}

/* The summary printed for o2 is the end of the case's stdout. */
static void test_summary(void **state)
{
	struct collect_doc d;
	char *want, *got = NULL, *at;
	size_t nwant, ngot = 0;
	FILE *fp;

	(void)state;
	want = test_read_file(CASE "stdout", &nwant);
	at = strstr(want, "triton_red_fused_native_layer_norm_native_layer_norm_backward_view_6: ");
	assert_non_null(at);
	load(&d, CASE "o2/collect.json");
	fp = open_memstream(&got, &ngot);
	collect_print_summary(fp, &d);
	fclose(fp);
	assert_string_equal(got, at);
	collect_doc_release(&d);
	free(got);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
