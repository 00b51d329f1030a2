/*
 * Unit tests for tune/tune, the loop behind tko tune, where no worker is
 * needed: the empty document, a bad input that leaves the next one to
 * tune, and a missing Python that stops the run (tests/cli/t4000 runs the
 * same through the command).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tune/tune.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static void test_doc(void **state)
{
	struct tune_opts o = { 0 };
	struct tune_doc d;

	(void)state;
	o.compile_only = 1;
	tune_doc_start(&d, &o);
	assert_int_equal(d.mode, TUNE_MODE_COMPILE_ONLY);
	assert_int_equal(d.nkernels, 0);
	rf_release(&tune_doc_desc, &d);
	o.compile_only = 0;
	tune_doc_start(&d, &o);
	assert_int_equal(d.mode, TUNE_MODE_GPU);
	rf_release(&tune_doc_desc, &d);
}

/* The empty document as tune.json: schema_version and tool first (docs/json.md). */
static void test_doc_save(void **state)
{
	struct tune_opts o = { 0 };
	struct tune_doc d;
	struct buf err = BUF_INIT, got = BUF_INIT;
	char dir[] = "/tmp/test-tune-run.XXXXXX", *path;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "tune.json");
	tune_doc_start(&d, &o);
	assert_int_equal(tune_doc_save(path, &d, &err), 0);
	assert_int_equal(file_read(path, 0, &got, &err), 0);
	assert_string_equal(got.buf, "{\n  \"schema_version\": 2,\n  \"tool\": \"tko tune\",\n"
			    "  \"mode\": \"gpu\",\n  \"kernels\": []\n}\n");
	rf_release(&tune_doc_desc, &d);
	unlink(path);
	rmdir(dir);
	free(path);
	buf_release(&got);
	buf_release(&err);
}

static void count(void *data, const struct tune_sweep *s, const struct tune_doc_kernel *k,
		  const struct tune_outcome *out)
{
	(void)s;
	assert_true(!k == !out->ran);
	(*(int *)data)++;
}

/*
 * Two missing files, then a real kernel with no worker to compile it: the
 * first two are input failures and the run goes on; the third cannot start
 * its worker and the run stops before the fourth.
 */
static void test_run_stops_only_for_tools(void **state)
{
	const char *data = getenv("TESTDATA");
	struct tune_opts o = { 0 };
	struct tune_sweep s[4];
	struct tune_outcome out[4];
	const char *inputs[4];
	char *foreach;
	int calls = 0;
	struct tune_each each = { count, &calls };
	struct tune_job j = { &o, inputs, 4 };
	struct tune_doc doc;
	size_t i, tried;

	(void)state;
	if (!data)
		skip();
	setenv("TKO_PYTHON", "/no/such/python", 1);
	foreach = path_join(data, "tune/foreach.py");
	inputs[0] = "/no/such/kernel.py";
	inputs[1] = "/no/such/other.py";
	inputs[2] = foreach;
	inputs[3] = "/no/such/last.py";
	o.compile_only = 1;
	o.target = "sm_90";
	memset(s, 0, sizeof(s));
	tune_doc_start(&doc, &o);
	tried = tune_run(&j, s, out, &doc, &each);
	assert_int_equal(tried, 3);
	assert_int_equal(calls, 3);
	assert_int_equal(out[0].ran, 0);
	assert_int_equal(out[0].fail, TUNE_FAIL_INPUT);
	assert_int_equal(out[1].fail, TUNE_FAIL_INPUT);
	assert_int_equal(out[2].ran, 0);
	assert_int_equal(out[2].fail, TUNE_FAIL_TOOL);
	assert_int_equal(doc.nkernels, 0);
	for (i = 0; i < tried; i++) {
		assert_null(s[i].pool);
		tune_sweep_release(&s[i]);
	}
	rf_release(&tune_doc_desc, &doc);
	free(foreach);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc),
		cmocka_unit_test(test_doc_save),
		cmocka_unit_test(test_run_stops_only_for_tools),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
