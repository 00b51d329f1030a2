/*
 * Unit tests for apply/plan's choice per tune result: a winner is planned
 * with the config of the variant it names; the base winning, no winner, a
 * confirmation that refused it (its reason kept) and a source variant
 * without --source-variants are not, unless tune confirmed a config-only
 * variant (then that one is); keys left out of older results. The tune documents are written by
 * hand in tko tune's schema (docs/json.md, src/tune/output.c).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apply/plan.h"
#include "json/jsonio.h"
#include "test-file.h"

#define VARIANTS "\"variants\": [{\"id\": \"v000\", \"source_variants\": [], \"config\": " \
	"{\"num_warps\": 4, \"num_stages\": 1, \"kwargs\": {\"XBLOCK\": 1024}}}, " \
	"{\"id\": \"v003\", \"source_variants\": [], \"config\": " \
	"{\"num_warps\": 8, \"num_stages\": 1, \"kwargs\": {\"XBLOCK\": 2048}}}, " \
	"{\"id\": \"v004\", \"source_variants\": [\"multiple_of\"], \"config\": " \
	"{\"num_warps\": 4, \"num_stages\": 1, \"kwargs\": {\"XBLOCK\": 1024}}}]"

static void decide_in(const char *variants, const char *winner, unsigned flags,
		      struct apply_item *it)
{
	char text[2048];
	json_t *tk;

	snprintf(text, sizeof(text), "{\"kernel\": \"k\", %s, \"winner\": %s}", variants, winner);
	tk = json_loads(text, 0, NULL);
	assert_non_null(tk);
	memset(it, 0, sizeof(*it));
	it->kernel = "k";
	apply_item_from_tune(it, tk, flags);
	json_decref(tk);
}

static void decide(const char *winner, unsigned flags, struct apply_item *it)
{
	decide_in(VARIANTS, winner, flags, it);
}

static void release(struct apply_item *it)
{
	apply_plan_kernel_free(it->entry);
	free(it->skip_detail);
}

static void test_planned_winner(void **state)
{
	struct apply_item it;
	json_t *cfg;

	(void)state;
	decide("{\"id\": \"v003\", \"speedup\": 1.25, \"time_ms\": 0.5, \"is_base\": false, "
	       "\"inductor_settings\": {\"online_softmax\": false}}", 0, &it);
	assert_null(it.skip);
	assert_non_null(it.entry);
	cfg = it.entry->config;
	assert_int_equal(json_int(cfg, "num_warps", -1), 8);
	assert_int_equal(json_int(json_object_get(cfg, "kwargs"), "XBLOCK", -1), 2048);
	assert_true(json_is_false(json_object_get(it.entry->inductor_settings, "online_softmax")));
	assert_float_equal(it.speedup, 1.25, 0);
	release(&it);
	/* a confirmation that accepted it changes nothing */
	decide("{\"id\": \"v003\", \"speedup\": 1.25, \"is_base\": false, \"confirmation\": "
	       "{\"rounds\": 5, \"ratio\": 0.8, \"ci95\": [0.78, 0.82], \"accepted\": true}}", 0, &it);
	assert_null(it.skip);
	release(&it);
}

static void test_not_planned(void **state)
{
	struct apply_item it;

	(void)state;
	decide("{\"id\": \"v000\", \"speedup\": 1.0, \"is_base\": true}", 0, &it);
	assert_string_equal(it.skip, "default_is_best");
	assert_null(it.entry);
	decide("null", 0, &it);
	assert_string_equal(it.skip, "no_winner");
	decide("{\"id\": \"v003\", \"speedup\": 1.01, \"is_base\": false, \"confirmation\": "
	       "{\"rounds\": 5, \"ratio\": 0.99, \"ci95\": [0.97, 1.01], \"accepted\": false, "
	       "\"reason\": \"interval includes 1\"}}", 0, &it);
	assert_string_equal(it.skip, "not_confirmed");
	assert_string_equal(it.skip_detail, "interval includes 1");
	release(&it);
	/* the shape tune writes today (an H200 tune.json of 2026-12-04): the patch
	 * v014 was refused, its config-only v009 won in its place, confirmed */
	decide("{\"id\": \"v003\", \"speedup\": 1.25, \"is_base\": false, \"confirmed\": true, "
	       "\"confirmation\": {\"candidate\": \"v014\", \"accepted\": false, \"winner\": \"v003\"}}",
	       0, &it);
	assert_null(it.skip);
	release(&it);
	decide("{\"id\": \"v003\", \"speedup\": 1.1, \"is_base\": false, \"confirmed\": false}", 0, &it);
	assert_string_equal(it.skip, "not_confirmed");
	assert_string_equal(it.skip_detail, "no confirmation ran (tune's budget)");
	release(&it);
	decide("{\"id\": \"v004\", \"speedup\": 1.1, \"is_base\": false}", 0, &it);
	assert_string_equal(it.skip, "source_variant");
	decide("{\"id\": \"v004\", \"speedup\": 1.1, \"is_base\": false}", 1, &it);
	assert_null(it.skip);
	release(&it);
	decide("{\"id\": \"v009\", \"speedup\": 1.1, \"is_base\": false}", 0, &it);
	assert_string_equal(it.skip, "no_winner_config");
}

/*
 * The confirmation's warm interval (winner.confirmation.warm) is the
 * winner's only when it names the winner; the plan entry carries it.
 */
static void test_warm(void **state)
{
	struct apply_item it;
	const struct apply_predicted *pred;

	(void)state;
	decide("{\"id\": \"v003\", \"speedup\": 1.25, \"is_base\": false, \"confirmed\": true, "
	       "\"confirmation\": {\"accepted\": true, \"warm\": {\"variant\": \"v003\", "
	       "\"ratio\": 0.93, \"ci95\": [0.9, 0.96], \"rounds\": 7}}}", 0, &it);
	assert_null(it.skip);	/* the plan keeps it; apply/drop decides */
	assert_true(apply_item_has_warm(&it));
	assert_float_equal(it.warm, 0.93, 0);
	assert_float_equal(it.warm_lo, 0.9, 0);
	assert_float_equal(it.warm_hi, 0.96, 0);
	assert_int_equal(it.warm_rounds, 7);
	assert_float_equal(apply_item_predicted(&it), 0.93, 0);
	pred = &it.entry->predicted;
	assert_float_equal(pred->warm_speedup, 0.93, 0);
	assert_float_equal(json_number_value(json_array_get(pred->warm_ci95, 1)), 0.96, 0);
	release(&it);
	/* of the refused candidate, not of the config-only winner: no warm figure */
	decide("{\"id\": \"v003\", \"speedup\": 1.25, \"is_base\": false, \"confirmed\": true, "
	       "\"confirmation\": {\"accepted\": false, \"warm\": {\"variant\": \"v004\", "
	       "\"ratio\": 0.93, \"ci95\": [0.9, 0.96], \"rounds\": 7}}}", 0, &it);
	assert_false(apply_item_has_warm(&it));
	assert_float_equal(apply_item_predicted(&it), 1.25, 0);
	assert_true(isnan(it.entry->predicted.warm_speedup));
	assert_null(it.entry->predicted.warm_ci95);
	release(&it);
}

/*
 * What the model's RF_TRI and RF_SEEN tell apart: an empty winner object
 * is a winner without a config, a missing one none; a "confirmed" left out
 * or null leaves the confirmation's "accepted" to decide.
 */
static void test_missing_keys(void **state)
{
	struct apply_item it;
	json_t *tk = json_loads("{\"kernel\": \"k\", " VARIANTS "}", 0, NULL);

	(void)state;
	assert_non_null(tk);
	memset(&it, 0, sizeof(it));
	it.kernel = "k";
	apply_item_from_tune(&it, tk, 0);
	assert_string_equal(it.skip, "no_winner");
	json_decref(tk);
	decide("{}", 0, &it);
	assert_string_equal(it.skip, "no_winner_config");
	decide("{\"id\": \"v003\", \"is_base\": false, \"confirmation\": {\"accepted\": false}}",
	       0, &it);
	assert_string_equal(it.skip, "not_confirmed");
	assert_null(it.skip_detail);	/* a confirmation without its reason */
	decide("{\"id\": \"v003\", \"is_base\": false, \"confirmed\": null, "
	       "\"confirmation\": {\"accepted\": false, \"reason\": \"r\"}}", 0, &it);
	assert_string_equal(it.skip, "not_confirmed");
	assert_string_equal(it.skip_detail, "r");
	release(&it);
	decide("{\"id\": \"v003\", \"is_base\": false, \"confirmation\": {\"rounds\": 0}}",
	       0, &it);
	assert_null(it.skip);	/* no "accepted" to refuse it */
	release(&it);
}

/*
 * A source-variant winner without --source-variants: the config-only
 * variant tune confirmed faster than the base (winner.config_only) is
 * planned in its place, with its own figure and settings and marked as
 * the fallback; one not confirmed, or naming a variant with source
 * variants, leaves the kernel unplanned as before.
 */
#define SRC_WINNER "{\"id\": \"v004\", \"speedup\": 1.7, \"time_ms\": 0.2, \"is_base\": false, " \
	"\"confirmed\": true, \"inductor_settings\": {\"online_softmax\": false}, "

static void test_config_only_fallback(void **state)
{
	struct apply_item it;
	json_t *cfg;

	(void)state;
	decide(SRC_WINNER "\"config_only\": {\"id\": \"v003\", \"label\": \"XBLOCK=2048\", "
	       "\"speedup\": 1.1, \"ci95\": [1.05, 1.15], \"confirmed\": true}}", 0, &it);
	assert_null(it.skip);
	assert_non_null(it.entry);
	cfg = it.entry->config;
	assert_int_equal(json_int(json_object_get(cfg, "kwargs"), "XBLOCK", -1), 2048);
	assert_int_equal(json_int(cfg, "num_warps", -1), 8);
	assert_string_equal(it.entry->fallback, "config_only");
	assert_null(it.entry->inductor_settings);	/* online_softmax was the patch's */
	assert_float_equal(it.speedup, 1.1, 0);
	assert_float_equal(it.entry->predicted.speedup, 1.1, 0);
	assert_float_equal(it.time_ms, -1, 0);		/* the variant has no time_ms */
	release(&it);
	/* with --source-variants the winner itself */
	decide(SRC_WINNER "\"config_only\": {\"id\": \"v003\", \"speedup\": 1.1, "
	       "\"ci95\": [1.05, 1.15], \"confirmed\": true}}", 1, &it);
	assert_null(it.skip);
	assert_null(it.entry->fallback);
	assert_int_equal(json_int(json_object_get(it.entry->config, "kwargs"), "XBLOCK", -1), 1024);
	assert_true(json_is_false(json_object_get(it.entry->inductor_settings, "online_softmax")));
	assert_float_equal(it.speedup, 1.7, 0);
	release(&it);
	/* its own settings (a split size) go with it */
	decide(SRC_WINNER "\"config_only\": {\"id\": \"v003\", \"speedup\": 1.1, "
	       "\"ci95\": [1.05, 1.15], \"confirmed\": true, \"inductor_settings\": "
	       "{\"triton.mix_order_reduction_split_size\": 64}}}", 0, &it);
	assert_int_equal(json_int(it.entry->inductor_settings,
				  "triton.mix_order_reduction_split_size", -1), 64);
	assert_null(json_object_get(it.entry->inductor_settings, "online_softmax"));
	release(&it);
	/* the H200's second (2026-12-05): the winner's config alone, 0.951x, not confirmed */
	decide(SRC_WINNER "\"config_only\": {\"id\": \"v003\", \"speedup\": 0.9506211322, "
	       "\"ci95\": [0.9485116807, 0.9527352751], \"confirmed\": false}}", 0, &it);
	assert_string_equal(it.skip, "source_variant");
	assert_string_equal(it.skip_detail, "its config-only variant v003 (0.951x) is not "
			    "confirmed faster than the base");
	assert_null(it.entry);
	release(&it);
	/* a config-only that is not: nothing to fall back to */
	decide(SRC_WINNER "\"config_only\": {\"id\": \"v004\", \"speedup\": 1.1, "
	       "\"confirmed\": true}}", 0, &it);
	assert_string_equal(it.skip, "source_variant");
	release(&it);
	/* results written before the key: skipped, no detail */
	decide(SRC_WINNER "\"label\": \"+hints\"}", 0, &it);
	assert_string_equal(it.skip, "source_variant");
	assert_null(it.skip_detail);
	release(&it);
}

/* The config-only variant's warm interval is its own: the winner's is not carried over. */
static void test_config_only_warm(void **state)
{
	struct apply_item it;

	(void)state;
	decide(SRC_WINNER "\"config_only\": {\"id\": \"v003\", \"speedup\": 1.1, "
	       "\"ci95\": [1.05, 1.15], \"confirmed\": true}, \"confirmation\": {\"accepted\": true, "
	       "\"warm\": {\"variant\": \"v004\", \"ratio\": 1.6, \"ci95\": [1.5, 1.7], "
	       "\"rounds\": 7}}}", 0, &it);
	assert_string_equal(it.entry->fallback, "config_only");
	assert_false(apply_item_has_warm(&it));
	assert_float_equal(apply_item_predicted(&it), 1.1, 0);
	assert_null(it.entry->predicted.warm_ci95);
	release(&it);
}

/* The entry is read through model/tune: what the model refuses is no plan. */
static void test_unreadable(void **state)
{
	struct apply_item it;
	json_t *tk = json_loads("{\"kernel\": \"k\", \"variants\": [{\"id\": \"v003\", "
				"\"status\": \"great\", \"config\": {\"num_warps\": 8}}], "
				"\"winner\": {\"id\": \"v003\", \"is_base\": false}}", 0, NULL);

	(void)state;
	assert_non_null(tk);
	memset(&it, 0, sizeof(it));
	it.kernel = "k";
	apply_item_from_tune(&it, tk, 0);
	assert_string_equal(it.skip, "unreadable");
	assert_non_null(strstr(it.skip_detail, "variants[0].status"));
	assert_null(it.entry);
	release(&it);
	json_decref(tk);
}

/*
 * The base won, and tune timed Inductor's other candidates (origin
 * "inductor", as tune/plan.c names them, or another origin with the
 * autotuner's time, inductor_ms): the base is planned, pinned, so Inductor's
 * own benchmark cannot pick another; not with --no-pin, nor when tune timed
 * no other candidate of the autotuner's (then there is no choice).
 */
#define PIN_VARIANTS(origin, more) "\"variants\": [{\"id\": \"v000\", \"label\": \"base\", " \
	"\"origin\": \"autotune\", \"inductor_ms\": 0.127, \"source_variants\": [], " \
	"\"config\": {\"num_warps\": 8, " \
	"\"num_stages\": 1, \"kwargs\": {\"XBLOCK\": 64, \"YBLOCK\": 64}}}, " \
	"{\"id\": \"v019\", \"label\": \"XBLOCK=256,YBLOCK=16\", \"origin\": \"" origin "\"" more ", " \
	"\"source_variants\": [], \"config\": {\"num_warps\": 8, \"num_stages\": 1, " \
	"\"kwargs\": {\"XBLOCK\": 256, \"YBLOCK\": 16}}}]"
#define BASE_WON "{\"id\": \"v000\", \"speedup\": 1, \"is_base\": true, \"confirmed\": false}"

static void test_pinned_base(void **state)
{
	struct apply_item it;
	json_t *cfg;

	(void)state;
	decide_in(PIN_VARIANTS("inductor", ""), BASE_WON, 0, &it);
	assert_null(it.skip);
	assert_non_null(it.entry);
	assert_string_equal(it.entry->fallback, "pinned_base");
	cfg = it.entry->config;
	assert_int_equal(json_int(cfg, "num_warps", -1), 8);
	assert_int_equal(json_int(json_object_get(cfg, "kwargs"), "YBLOCK", -1), 64);
	assert_float_equal(it.speedup, 1, 0);
	assert_null(it.entry->inductor_settings);
	release(&it);
	decide_in(PIN_VARIANTS("inductor", ""), BASE_WON, APPLY_PLAN_NO_PIN, &it);
	assert_string_equal(it.skip, "default_is_best");
	assert_null(it.entry);
	/* a candidate another phase planned first keeps its origin, with the autotuner's time */
	decide_in(PIN_VARIANTS("pairs", ", \"inductor_ms\": 0.142"), BASE_WON, 0, &it);
	assert_null(it.skip);
	assert_string_equal(it.entry->fallback, "pinned_base");
	release(&it);
	/* the base's own inductor_ms is no other candidate */
	decide_in(PIN_VARIANTS("grid", ", \"inductor_ms\": null"), BASE_WON, 0, &it);
	assert_string_equal(it.skip, "default_is_best");
	assert_null(it.entry);
}

/*
 * The pin is the fastest of the autotuner's other candidates where tune's
 * sweep timed it faster than the base by more than the sweep's 2% margin,
 * else the base: the H100's `second` of 2026-12-05 had the base XBLOCK=512
 * at 0.028832 ms and Inductor's other candidate XBLOCK=1024,num_warps=4 at
 * 0.023104 ms (1.248x, unconfirmed), and inside the step the base pin ran
 * 0.661x of Inductor's pick of that candidate. The own model's
 * triton_poi_fused_div_expand_nll_loss_forward_scatter_unsqueeze_zeros_0 on
 * the H100 (sixth session of that day, tests/corpus/h100-apply-1205f/):
 * base 0.009007999673 ms, candidate 0.008895999752 ms (1.0126x), which
 * pinned ran 0.854x of the base inside the step.
 */
#define PIN_TIMED(base_ms, cand_ms, status) "\"variants\": [{\"id\": \"v000\", " \
	"\"label\": \"base\", \"origin\": \"autotune\", \"status\": \"ok\", " \
	"\"time_ms\": " base_ms ", \"source_variants\": [], \"config\": {\"num_warps\": 8, " \
	"\"num_stages\": 1, \"kwargs\": {\"XBLOCK\": 512}}}, {\"id\": \"v005\", " \
	"\"label\": \"XBLOCK=1024,num_warps=4\", \"origin\": \"descent\", \"status\": \"" status "\", " \
	"\"inductor_ms\": 0.0335, \"time_ms\": " cand_ms ", \"source_variants\": [], " \
	"\"config\": {\"num_warps\": 4, \"num_stages\": 1, \"kwargs\": {\"XBLOCK\": 1024}}}]"

static void assert_pin(const char *variants, const char *fallback, int xblock, double time_ms)
{
	struct apply_item it;

	decide_in(variants, BASE_WON, 0, &it);
	assert_null(it.skip);
	assert_string_equal(it.entry->fallback, fallback);
	assert_int_equal(json_int(json_object_get(it.entry->config, "kwargs"), "XBLOCK", -1), xblock);
	assert_float_equal(it.speedup, 1, 0);
	assert_float_equal(it.time_ms, time_ms, 1e-12);
	release(&it);
}

static void test_pinned_candidate(void **state)
{
	(void)state;
	assert_pin(PIN_TIMED("0.028832", "0.023104", "ok"), "pinned_candidate", 1024, 0.023104);
	/* within the margin (2% of 0.028832 is 0.00057664) the base stays */
	assert_pin(PIN_TIMED("0.028832", "0.0282", "ok"), "pinned_candidate", 1024, 0.0282);
	assert_pin(PIN_TIMED("0.028832", "0.02826", "ok"), "pinned_base", 512, 0.028832);
	assert_pin(PIN_TIMED("0.009007999673", "0.008895999752", "ok"), "pinned_base", 512,
		   0.009007999673);
	/* a tie is the base's; a slower, untimed or wrong candidate leaves the base */
	assert_pin(PIN_TIMED("0.028832", "0.028832", "ok"), "pinned_base", 512, 0.028832);
	assert_pin(PIN_TIMED("0.028832", "0.0335", "ok"), "pinned_base", 512, 0.028832);
	assert_pin(PIN_TIMED("0.028832", "null", "ok"), "pinned_base", 512, 0.028832);
	assert_pin(PIN_TIMED("0.028832", "0.023104", "wrong"), "pinned_base", 512, 0.028832);
}

/*
 * The three real cases, each kernels[0] of the tune.json the H100 wrote
 * (tests/corpus/SOURCES.md), with their sweep times read off by jq:
 * `second`'s cat_mul_neg, base 0.02883 ms, candidate XBLOCK=1024 0.02310
 * (1.248x: pinned); the own model's div_expand, base XBLOCK=1024 0.009008,
 * candidate XBLOCK=512 0.008896 (1.0126x: the base); `model`'s
 * scale_add_kernel, base BLOCK=1024 0.072768, candidate BLOCK=2048 0.072736
 * (1.0004x: the base).
 */
static void assert_real_pin(const char *rel, const char *fallback, const char *key, int value)
{
	json_t *doc = test_corpus_json(rel);
	struct apply_item it;

	memset(&it, 0, sizeof(it));
	it.kernel = "k";
	apply_item_from_tune(&it, json_array_get(json_object_get(doc, "kernels"), 0), 0);
	assert_null(it.skip);
	assert_non_null(it.entry);
	assert_string_equal(it.entry->fallback, fallback);
	assert_int_equal(json_int(json_object_get(it.entry->config, "kwargs"), key, -1), value);
	release(&it);
	json_decref(doc);
}

static void test_pinned_real(void **state)
{
	(void)state;
	assert_real_pin("h100-apply-1205d/second-maxautotune/cat_mul_neg.tune.json",
			"pinned_candidate", "XBLOCK", 1024);
	assert_real_pin("h100-apply-1205f/own-coordesc/div_expand.tune.json", "pinned_base",
			"XBLOCK", 1024);
	assert_real_pin("h100-apply-1205f/model-tune/scale_add.tune.json", "pinned_base", "BLOCK",
			1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planned_winner),
		cmocka_unit_test(test_not_planned),
		cmocka_unit_test(test_missing_keys),
		cmocka_unit_test(test_warm),
		cmocka_unit_test(test_config_only_fallback),
		cmocka_unit_test(test_pinned_base),
		cmocka_unit_test(test_pinned_candidate),
		cmocka_unit_test(test_pinned_real),
		cmocka_unit_test(test_config_only_warm),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
