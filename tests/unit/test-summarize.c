/*
 * Unit tests for parse/summarize: which files of a RUN are read, in which
 * order, and what stops the read. The RUN is built in a temporary
 * directory from small hand-written files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "autotune-test.h"
#include "parse/summarize.h"
#include "util/file.h"
#include "util/mem.h"

static char root[] = "/tmp/tko-unit-XXXXXX";

static void put(const char *rel, const char *text)
{
	struct buf err = BUF_INIT;
	char *p = path_join(root, rel), *slash = strrchr(p, '/');

	*slash = '\0';
	assert_int_equal(mkdir_p(p, &err), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(p, text, strlen(text), &err), 0);
	free(p);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(root));
	put("capture/events.jsonl",
	    "{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"triton_poi_fused_zeros_0\", "
	    "\"source_hash\": \"aa\", \"heuristic_type\": \"pointwise\", \"num_configs\": 2}\n"
	    "{\"schema_version\": 1, \"event\": \"session_end\", "
	    "\"launch_counts\": {\"triton_poi_fused_zeros_0\": 7}}\n");
	put("log/model.log",
	    "Best config for triton_poi_fused_zeros_0: XBLOCK: 512, num_warps: 8, num_ctas: 1, "
	    "num_stages: 1, maxnreg: None: 0.011456, nreg 6, nspill 0, #shared-mem 0\n"
	    "Save heuristic tuning result to /tmp/w/cache/inductor/d6/8e17.best_config\n");
	put("log/empty.log", "");
	put("notes.txt", "nothing about autotuning here\n");
	put("cache/inductor/d6/8e17.best_config",
	    "{\"XBLOCK\": 512, \"num_warps\": 8, \"num_stages\": 1, \"configs_hash\": \"3ca5\", "
	    "\"found_by_coordesc\": false, \"time_taken_ms\": 18, \"triton_cache_hash\": null}");
	put("cache/inductor/zz/broken.best_config", "{\"XBLOCK\": ");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_run_directory(void **state)
{
	const char *paths[1] = { root };
	struct autotune_set set;
	struct buf err = BUF_INIT;
	const struct at_kernel *k;
	const struct at_tuning *t;
	size_t i;

	(void)state;
	autotune_set_init(&set);
	assert_int_equal(summarize_paths(paths, 1, &set, &err), 0);
	assert_int_equal(err.len, 0);
	/* events, then logs (log/ first, then the top), then cache records */
	assert_int_equal(set.ninputs, 6);
	assert_non_null(strstr(set.inputs[0].path, "capture/events.jsonl"));
	assert_non_null(strstr(set.inputs[1].path, "log/empty.log"));
	assert_non_null(strstr(set.inputs[1].note, "is empty"));
	assert_non_null(strstr(set.inputs[2].path, "log/model.log"));
	assert_non_null(strstr(set.inputs[3].path, "notes.txt"));
	assert_int_equal(set.inputs[3].ignored, 1);
	assert_non_null(strstr(set.inputs[4].path, "d6/8e17.best_config"));
	assert_non_null(strstr(set.inputs[5].note, "cannot parse"));
	k = kernel_by_id(&set, "triton_poi_fused_zeros_0");
	assert_string_equal(k->kind, "pointwise");
	assert_int_equal(k->kind_src.fmt, AT_FMT_EVENTS);
	assert_int_equal(k->launches, 7);
	t = only_tuning(k);	/* the cache record annotated the log's tuning */
	assert_true(fabs(t->elapsed_ms - 18.0) < 1e-9);
	assert_non_null(strstr(t->cache_file, "d6/8e17.best_config"));
	for (i = 0; i < set.ninputs; i++)
		assert_int_equal(set.inputs[i].malformed, 0);
	autotune_set_release(&set);
	buf_release(&err);
}

static void expect_error(const char *path, const char *want)
{
	const char *paths[1];
	struct autotune_set set;
	struct buf err = BUF_INIT;

	paths[0] = path;
	autotune_set_init(&set);
	assert_int_equal(summarize_paths(paths, 1, &set, &err), -1);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' does not say '%s'", err.buf, want);
	assert_null(memchr(err.buf, '\n', err.len));
	autotune_set_release(&set);
	buf_release(&err);
}

static void test_named_files_are_strict(void **state)
{
	char *p;

	(void)state;
	p = path_join(root, "log/empty.log");
	expect_error(p, "is empty");
	free(p);
	p = path_join(root, "notes.txt");
	expect_error(p, "no autotune records in");
	free(p);
	p = path_join(root, "cache/inductor/zz/broken.best_config");
	expect_error(p, "no autotune records in");	/* not JSON: read as a log */
	free(p);
	p = path_join(root, "cache");
	expect_error(p, "is a directory but not a RUN directory");
	free(p);
	expect_error("/nonexistent/tko.log", "cannot open '/nonexistent/tko.log'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_directory),
		cmocka_unit_test(test_named_files_are_strict),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
