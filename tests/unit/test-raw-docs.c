/*
 * Unit tests for report/raw_docs: the tools' own documents that tko
 * investigate writes beside the analysis, published with the set or not at
 * all. The models are filled by the readers themselves from a hand-written
 * input (one autotune log line, one kernel module, one PTX file), so the
 * expected names come from those inputs, not from the writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyse/analysis.h"
#include "json/jsonio.h"
#include "report/raw_docs.h"
#include "util/file.h"
#include "util/mem.h"

static char *tmpdir;

static int setup(void **state)
{
	char tmpl[] = "/tmp/tko-test-rawdocs.XXXXXX";

	(void)state;
	tmpdir = xstrdup(mkdtemp(tmpl));
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xstrfmt("rm -rf '%s'", tmpdir);

	(void)state;
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(tmpdir);
	return 0;
}

static json_t *load(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	struct buf err = BUF_INIT;
	json_t *j = json_load_path(p, &err);

	free(p);
	buf_release(&err);
	return j;
}

/* A kernel module read by meta: its kernel's name is in meta.json. */
static void fill(struct an_raw *raw)
{
	static const char module[] =
		"import triton\n"
		"import triton.language as tl\n"
		"@triton.jit\n"
		"def triton_poi_fused_add_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):\n"
		"    xoffset = tl.program_id(0) * XBLOCK\n";
	struct buf err = BUF_INIT;

	an_raw_init(raw);
	assert_int_equal(meta_scan_span(&raw->meta, "cx/k.py", module, sizeof(module) - 1,
					&err), 0);
	buf_release(&err);
}

/* Committed: three documents, each the JSON of its tool. */
static void test_written(void **state)
{
	char *dir = path_join(tmpdir, "a");
	struct atomic_set set = ATOMIC_SET_INIT;
	struct buf err = BUF_INIT;
	struct an_raw raw;
	json_t *j;

	(void)state;
	fill(&raw);
	assert_int_equal(mkdir_p(dir, &err), 0);
	assert_int_equal(raw_docs_write(&raw, &set, dir, &err), 0);
	assert_int_equal(atomic_set_commit(&set, &err), 0);
	j = load(dir, "meta.json");
	assert_non_null(j);
	assert_string_equal(json_str(json_array_get(json_object_get(j, "kernels"), 0), "name"),
			    "triton_poi_fused_add_0");
	json_decref(j);
	j = load(dir, "summarize.json");
	assert_non_null(j);
	assert_true(json_is_array(json_object_get(j, "kernels")));
	assert_int_equal(json_array_size(json_object_get(j, "kernels")), 0);
	json_decref(j);
	j = load(dir, "isa.json");
	assert_non_null(j);
	assert_int_equal(json_int(j, "schema_version", 0), 1);
	json_decref(j);
	an_raw_release(&raw);
	free(dir);
	buf_release(&err);
}

/* Aborted: nothing published. A folder that is not there: an error naming the file. */
static void test_all_or_nothing(void **state)
{
	char *dir = path_join(tmpdir, "b"), *p;
	struct atomic_set set = ATOMIC_SET_INIT;
	struct buf err = BUF_INIT;
	struct an_raw raw;

	(void)state;
	fill(&raw);
	assert_int_equal(mkdir_p(dir, &err), 0);
	assert_int_equal(raw_docs_write(&raw, &set, dir, &err), 0);
	atomic_set_abort(&set);
	p = path_join(dir, "summarize.json");
	assert_false(is_file(p));
	free(p);
	free(dir);
	dir = path_join(tmpdir, "no/such");
	set = (struct atomic_set)ATOMIC_SET_INIT;
	assert_int_equal(raw_docs_write(&raw, &set, dir, &err), -1);
	assert_non_null(strstr(err.buf, "summarize.json"));
	atomic_set_abort(&set);
	an_raw_release(&raw);
	free(dir);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written),
		cmocka_unit_test(test_all_or_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
