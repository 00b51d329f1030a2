/*
 * Unit tests for model/diff (the `tko diff --json` document as a typed
 * model). The oracle for the bytes is jansson: before the document had a
 * table, report/diff_out.c built it with json_pack and wrote it with
 * json_dumps(JSON_INDENT(2) | JSON_REAL_PRECISION(10)); old_tree() packs
 * the same tree with the same format strings, and the model must write
 * the same text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/diff.h"
#include "util/mem.h"

static void fill(struct an_diff *d)
{
	struct kdiff *k;

	*d = (struct an_diff)AN_DIFF_INIT;
	d->a = xstrdup("runA");
	d->b = xstrdup("runB");
	rf_changes_add(&d->run, "device", "gfx928", "gfx936");
	k = diff_doc_add(d, "k1", DIFF_SAME);
	rf_changes_add(&k->changes, "time_ms", "1.5", "2");
	rf_changes_add(&k->changes, "rules", "-", "spills");
	diff_doc_status(k, DIFF_CHANGED);
	diff_doc_add(d, "k2", DIFF_SAME);
	diff_doc_add(d, "k3", DIFF_ONLY_A);
	diff_doc_add(d, "k4", DIFF_ONLY_B);
	d->summary.changed = 1;
	d->summary.same = 1;
	d->summary.only_a = 1;
	d->summary.only_b = 1;
}

/* The old diff_to_json(), format strings and all, on the same values. */
static json_t *old_tree(void)
{
	json_t *ks = json_array(), *c1 = json_array();

	json_array_append_new(c1, json_pack("{s:s, s:s, s:s}", "field", "time_ms", "a", "1.5",
					    "b", "2"));
	json_array_append_new(c1, json_pack("{s:s, s:s, s:s}", "field", "rules", "a", "-",
					    "b", "spills"));
	json_array_append_new(ks, json_pack("{s:s, s:s, s:o}", "id", "k1", "status", "changed",
					    "changes", c1));
	json_array_append_new(ks, json_pack("{s:s, s:s, s:o}", "id", "k2", "status", "same",
					    "changes", json_array()));
	json_array_append_new(ks, json_pack("{s:s, s:s, s:o}", "id", "k3", "status", "only_a",
					    "changes", json_array()));
	json_array_append_new(ks, json_pack("{s:s, s:s, s:o}", "id", "k4", "status", "only_b",
					    "changes", json_array()));
	return json_pack("{s:i, s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I}, s:[{s:s, s:s, s:s}], s:o}",
			 "schema_version", 1, "tool", "tko diff", "a", "runA", "b", "runB",
			 "summary", "changed", (json_int_t)1, "same", (json_int_t)1,
			 "only_a", (json_int_t)1, "only_b", (json_int_t)1,
			 "run", "field", "device", "a", "gfx928", "b", "gfx936", "kernels", ks);
}

static char *written(const struct an_diff *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(rf_write_doc(fp, &diff_doc_desc, d, DIFF_SCHEMA_VERSION, "tko diff"), 0);
	fclose(fp);
	return text;
}

static void test_write_as_before(void **state)
{
	struct an_diff d;
	json_t *old = old_tree();
	char *want = json_dumps(old, JSON_INDENT(2) | JSON_REAL_PRECISION(10)), *got;
	size_t n = strlen(want);

	(void)state;
	fill(&d);
	got = written(&d);
	assert_int_equal(strlen(got), n + 1);
	assert_memory_equal(got, want, n);
	assert_int_equal(got[n], '\n');
	free(got);
	free(want);
	json_decref(old);
	an_diff_release(&d);
}

static void test_round_trip(void **state)
{
	struct an_diff d, back = AN_DIFF_INIT;
	struct buf err = BUF_INIT;
	char *text, *again;
	json_t *j;

	(void)state;
	fill(&d);
	text = written(&d);
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	assert_int_equal(diff_doc_read(&back, j, "d.json", &err), 0);
	assert_int_equal(back.nr, 4);
	assert_true(diff_doc_is(&back.v[0], DIFF_CHANGED));
	assert_string_equal(back.v[0].changes.v[1].b, "spills");
	assert_true(diff_doc_is(&back.v[3], DIFF_ONLY_B));
	assert_int_equal(back.summary.only_a, 1);
	again = written(&back);
	assert_string_equal(again, text);
	free(again);
	free(text);
	json_decref(j);
	buf_release(&err);
	an_diff_release(&back);
	an_diff_release(&d);
}

static void test_read_bad(void **state)
{
	struct an_diff d = AN_DIFF_INIT;
	struct buf err = BUF_INIT;
	json_t *j = json_loads("{\"a\": \"x\", \"b\": \"y\", \"kernels\": [{\"id\": \"k\"}]}",
			       0, NULL);

	(void)state;
	assert_int_equal(diff_doc_read(&d, j, "d.json", &err), -1);
	assert_non_null(strstr(err.buf, "'d.json'"));
	assert_non_null(strstr(err.buf, "kernels[0].status"));
	json_decref(j);
	buf_release(&err);
	an_diff_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_as_before),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_read_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
