/*
 * Unit tests for apply/predict's note on a RUN without a profile: a RUN
 * tko capture made with its profiler on (tko-run.json's env_set has
 * TKO_PROFILE_DIR, docs/json.md) is not told that tko capture records one.
 * The tko-run.json documents are written here by hand, with the keys
 * docs/json.md lists.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "apply/predict.h"
#include "util/mem.h"

static const char *const generic =
	"the RUN has no profile (tko capture records one unless --no-profile)";

/* A RUN directory holding only tko-run.json with `doc` (none when NULL); its path, rmdir'd by done(). */
static char *run_with(const char *doc)
{
	char *dir = xstrdup("/tmp/tko-predict-XXXXXX");
	char *path;
	FILE *fp;

	assert_non_null(mkdtemp(dir));
	if (!doc)
		return dir;
	path = xstrfmt("%s/tko-run.json", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(doc, fp);
	assert_int_equal(fclose(fp), 0);
	free(path);
	return dir;
}

static void done(char *dir)
{
	char *path = xstrfmt("%s/tko-run.json", dir);

	unlink(path);
	free(path);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

/* The note apply_predict_step() gives for the RUN `doc` describes. */
static void assert_note(const char *doc, const char *want)
{
	struct apply_plan plan = APPLY_PLAN_INIT;
	struct apply_predict pr = APPLY_PREDICT_INIT;
	char *run = run_with(doc);

	apply_predict_step(&pr, &plan, run);
	assert_null(pr.profile);
	assert_string_equal(pr.note, want);
	apply_predict_release(&pr);
	done(run);
}

static void test_no_manifest(void **state)
{
	(void)state;
	assert_note(NULL, generic);
	/* --no-profile, or a tko older than the profiler: no TKO_PROFILE_DIR */
	assert_note("{\"schema_version\": 1, \"tool\": \"tko capture\","
		    " \"env_set\": {\"TORCH_LOGS\": \"+inductor\"},"
		    " \"capture\": {\"by_type\": {\"launch\": 3}}}", generic);
}

static void test_profiler_was_on(void **state)
{
	(void)state;
	assert_note("{\"schema_version\": 1, \"tool\": \"tko capture\","
		    " \"env_set\": {\"TKO_PROFILE_DIR\": \"/w/run/profile\"},"
		    " \"capture\": {\"by_type\": {\"session_start\": 1, \"launch\": 3}}}",
		    "the RUN has no profile: tko capture set TKO_PROFILE_DIR (tko-run.json's"
		    " env_set), but the 3 Triton launches its hook recorded never settled into a"
		    " steady state to profile (see tko investigate's gap)");
	assert_note("{\"schema_version\": 1, \"tool\": \"tko capture\","
		    " \"env_set\": {\"TKO_PROFILE_DIR\": \"/w/run/profile\"},"
		    " \"capture\": {\"by_type\": {}}}",
		    "the RUN has no profile: tko capture set TKO_PROFILE_DIR (tko-run.json's"
		    " env_set), but its hook recorded no Triton launch");
}

/* An unreadable tko-run.json says nothing about what tko set: the generic note. */
static void test_bad_manifest(void **state)
{
	(void)state;
	assert_note("{\"env_set\": [1, 2]}", generic);
	assert_note("not json", generic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_manifest),
		cmocka_unit_test(test_profiler_was_on),
		cmocka_unit_test(test_bad_manifest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
