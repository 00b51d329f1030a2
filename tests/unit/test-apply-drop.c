/*
 * Unit tests for apply/drop and the artifact's left_out, on plans built
 * by hand (two winners: "a" needs Inductor's online_softmax off, "b"
 * needs no setting). Expected by reading the rules in drop.h:
 * - --exclude a (by kernel name) or k-a (by folder id): a leaves the plan
 *   with skip "excluded", and its setting goes with it (settings {});
 * - an earlier apply.json judging b slower with b's own config and key:
 *   b leaves the plan ("slower_in_step", the evidence as detail), the
 *   judgement is carried with carried: true; with keep_slower b stays and
 *   the judgement is still carried; with another config or another key,
 *   nothing is carried;
 * - the artifact with left_out naming a: a's lookup key is absent and so
 *   is its setting; "left_out" is the list given.
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

#include "apply/artifact.h"
#include "apply/drop.h"
#include "json/jsonio.h"
#include "util/mem.h"

static void add(struct apply_plan *p, const char *name, const char *settings)
{
	struct apply_item *it = &p->v[p->nr++];
	json_t *cfg = json_pack("{s:{s:i}, s:i, s:i}", "kwargs", "XBLOCK", 64, "num_warps", 4, "num_stages", 1);

	it->id = xstrfmt("k-%s", name);
	it->kernel = xstrfmt("triton_poi_fused_%s", name);
	it->tune_path = xstrfmt("run/capture/kernels/k-%s/tune/tune.json", name);
	it->speedup = 1.06;
	it->entry = apply_plan_kernel_new();
	it->entry->id = xstrdup(it->id);
	it->entry->kernel = xstrdup(it->kernel);
	it->entry->lookup_hash = xstrdup(name);
	it->entry->fused = 1;
	it->entry->config = cfg;
	if (settings) {
		it->entry->inductor_settings = json_loads(settings, 0, NULL);
		json_object_update(p->settings, it->entry->inductor_settings);
	}
}

static void make_plan(struct apply_plan *p)
{
	*p = (struct apply_plan)APPLY_PLAN_INIT;
	p->v = xcalloc(2, sizeof(*p->v));
	p->alloc = 2;
	p->backend = "cuda";
	p->settings = json_object();
	add(p, "a", "{\"online_softmax\": false}");
	add(p, "b", NULL);
}

/* An earlier apply.json judging b slower; num_warps and key as given. */
static char *earlier(int num_warps, const char *key)
{
	char path[] = "/tmp/test-apply-drop-XXXXXX";
	int fd = mkstemp(path);
	json_t *doc = json_pack("{s:[{s:s, s:s, s:s, s:{s:{s:i}, s:i, s:i}, s:f, s:f, s:[f, f], s:i, s:b}]}",
				"slower_in_step", "id", "k-b", "kernel", "triton_poi_fused_b",
				"lookup_hash", key, "config", "kwargs", "XBLOCK", 64, "num_warps", num_warps,
				"num_stages", 1, "predicted_speedup", 1.06, "measured_gain", 0.91,
				"measured_gain_ci95", 0.885, 0.935, "rounds", 3, "carried", 0);
	struct buf err = BUF_INIT;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(json_write_path(doc, path, &err), 0);
	json_decref(doc);
	buf_release(&err);
	return xstrdup(path);
}

/*
 * tune timed a slower warm (interval wholly below 1) and b within the
 * noise: a leaves the plan with its evidence, its settings with it, unless
 * keep_slower. The detail by hand from the figures set here.
 */
static void test_warm_slower(void **state)
{
	struct buf warn = BUF_INIT, err = BUF_INIT;
	struct apply_plan p;
	int keep;

	(void)state;
	for (keep = 0; keep < 2; keep++) {
		struct apply_judgements carried = APPLY_JUDGEMENTS_INIT;
		struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;

		make_plan(&p);
		p.v[0].warm = 0.93, p.v[0].warm_lo = 0.9, p.v[0].warm_hi = 0.96, p.v[0].warm_rounds = 7;
		p.v[1].warm = 1.02, p.v[1].warm_lo = 0.98, p.v[1].warm_hi = 1.06, p.v[1].warm_rounds = 7;
		assert_int_equal(apply_drop_plan(&p, NULL, NULL, 0, keep, &carried, &left, &warn, &err), 0);
		assert_non_null(p.v[1].entry);
		if (keep) {
			assert_non_null(p.v[0].entry);
			assert_int_equal(left.nr, 0);
			assert_int_equal(json_object_size(p.settings), 1);
		} else {
			assert_null(p.v[0].entry);
			assert_string_equal(p.v[0].skip, "slower_warm");
			assert_string_equal(p.v[0].skip_detail, "tune timed it warm (no L2 flush) at 0.930x "
					    "[0.900, 0.960] over the base in 7 rounds; cold 1.060x");
			assert_int_equal(left.nr, 1);
			assert_string_equal(left.v[0].reason, "slower_warm");
			assert_string_equal(left.v[0].of, "plan");
			assert_int_equal(json_object_size(p.settings), 0);
		}
		apply_judgements_release(&carried);
		apply_left_outs_release(&left);
		apply_plan_release(&p);
	}
	assert_int_equal(warn.len, 0);
	buf_release(&warn);
	buf_release(&err);
}

static void test_exclude(void **state)
{
	static const char *const by_name[] = { "triton_poi_fused_a" };
	static const char *const by_id[] = { "k-a" };
	static const char *const unknown[] = { "nope" };
	const char *const *names[] = { by_name, by_id };
	struct buf warn = BUF_INIT, err = BUF_INIT;
	struct apply_plan p;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct apply_judgements carried = APPLY_JUDGEMENTS_INIT;
		struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;

		make_plan(&p);
		assert_int_equal(apply_drop_plan(&p, NULL, names[i], 1, 0, &carried, &left, &warn, &err), 0);
		assert_null(p.v[0].entry);
		assert_string_equal(p.v[0].skip, "excluded");
		assert_non_null(p.v[1].entry);
		assert_int_equal(json_object_size(p.settings), 0);
		assert_int_equal(left.nr, 1);
		assert_string_equal(left.v[0].of, "plan");
		assert_int_equal(carried.nr, 0);
		apply_judgements_release(&carried);
		apply_left_outs_release(&left);
		apply_plan_release(&p);
	}
	make_plan(&p);
	{
		struct apply_judgements carried = APPLY_JUDGEMENTS_INIT;
		struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;

		assert_int_equal(apply_drop_plan(&p, NULL, unknown, 1, 0, &carried, &left, &warn, &err), -1);
		assert_non_null(strstr(err.buf, "--exclude 'nope'"));
		apply_judgements_release(&carried);
		apply_left_outs_release(&left);
	}
	apply_plan_release(&p);
	buf_release(&warn);
	buf_release(&err);
}

/* b judged slower earlier: left out (or kept), carried; another config or key: not. */
static void check_carry(int num_warps, const char *key, int keep, int left_out, int carried_n)
{
	char *path = earlier(num_warps, key);
	struct apply_judgements carried = APPLY_JUDGEMENTS_INIT;
	struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;
	struct buf warn = BUF_INIT, err = BUF_INIT;
	struct apply_plan p;

	make_plan(&p);
	assert_int_equal(apply_drop_plan(&p, path, NULL, 0, keep, &carried, &left, &warn, &err), 0);
	assert_int_equal(warn.len, 0);
	assert_int_equal(p.v[1].entry == NULL, left_out);
	assert_int_equal(left.nr, (size_t)left_out);
	assert_int_equal(carried.nr, (size_t)carried_n);
	if (left_out) {
		assert_string_equal(p.v[1].skip, "slower_in_step");
		assert_string_equal(p.v[1].skip_detail,
				    "measured 0.910x [0.885, 0.935] inside the step over 3 rounds; tune predicted 1.060x");
	}
	if (carried_n)
		assert_true(carried.v[0].carried);
	/* a's setting stays: only b left */
	assert_int_equal(json_object_size(p.settings), 1);
	unlink(path);
	free(path);
	apply_judgements_release(&carried);
	apply_left_outs_release(&left);
	apply_plan_release(&p);
	buf_release(&warn);
	buf_release(&err);
}

static void test_carry(void **state)
{
	(void)state;
	check_carry(4, "b", 0, 1, 1);
	check_carry(4, "b", 1, 0, 1);	/* --keep-slower: kept, the judgement still carried */
	check_carry(8, "b", 0, 0, 0);	/* re-tuned: another config */
	check_carry(4, "other", 0, 0, 0);	/* another key */
}

/* An earlier apply.json that is no JSON, or whose judgement has a config of the wrong type. */
static void check_bad_earlier(const char *text, const char *says)
{
	char path[] = "/tmp/test-apply-drop-XXXXXX";
	int fd = mkstemp(path);
	struct apply_judgements carried = APPLY_JUDGEMENTS_INIT;
	struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;
	struct buf warn = BUF_INIT, err = BUF_INIT;
	struct apply_plan p;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	make_plan(&p);
	assert_int_equal(apply_drop_plan(&p, path, NULL, 0, 0, &carried, &left, &warn, &err), 0);
	assert_non_null(strstr(warn.buf, path));
	assert_non_null(strstr(warn.buf, says));
	assert_null(strchr(warn.buf, '\n'));
	assert_non_null(p.v[1].entry);
	assert_int_equal(carried.nr, 0);
	unlink(path);
	apply_judgements_release(&carried);
	apply_left_outs_release(&left);
	apply_plan_release(&p);
	buf_release(&warn);
	buf_release(&err);
}

static void test_bad_earlier(void **state)
{
	(void)state;
	check_bad_earlier("{", "cannot parse");
	check_bad_earlier("{\"slower_in_step\": [{\"id\": \"k-b\", \"kernel\": "
			  "\"triton_poi_fused_b\", \"lookup_hash\": \"b\", \"config\": \"XBLOCK=64\"}]}",
			  "slower_in_step[0].config");
	check_bad_earlier("{\"slower_in_step\": {}}", "slower_in_step");
}

static void test_artifact_left_out(void **state)
{
	struct apply_left_outs left = APPLY_LEFT_OUTS_INIT;
	struct apply_artifact_doc doc;
	struct apply_plan p;

	(void)state;
	apply_left_outs_add(&left, "k-a", "triton_poi_fused_a", "slower_in_step", "measured", "artifact");
	make_plan(&p);
	apply_artifact_build(&p, &left, &doc);
	assert_null(json_object_get(doc.autotune_lookup_table, "a"));
	assert_non_null(json_object_get(doc.autotune_lookup_table, "b"));
	assert_int_equal(json_object_size(doc.inductor_settings), 0);
	assert_int_equal(doc.left_out.nr, 1);
	assert_string_equal(doc.left_out.v[0].id, "k-a");
	assert_string_equal(doc.left_out.v[0].detail, "measured");
	assert_string_equal(doc.left_out.v[0].of, "artifact");
	apply_artifact_doc_release(&doc);
	apply_artifact_build(&p, NULL, &doc);
	assert_non_null(json_object_get(doc.autotune_lookup_table, "a"));
	assert_int_equal(json_object_size(doc.inductor_settings), 1);
	assert_int_equal(doc.left_out.nr, 0);
	apply_artifact_doc_release(&doc);
	apply_left_outs_release(&left);
	apply_plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_warm_slower),
		cmocka_unit_test(test_carry),
		cmocka_unit_test(test_bad_earlier),
		cmocka_unit_test(test_artifact_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
