/*
 * Unit tests for src/analyse: the join, the shares and the evidence on the
 * two real RUNs, corpus/h200-run1 (no capture: logs and caches only) and
 * examples/h200-run (captured and replayed on an H200). Expected values
 * come from the files themselves, counted by hand or by the grep named
 * beside each, never from tko's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyse/analysis.h"
#include "decide/decide.h"
#include "decide/rules.h"
#include "model/analysis_desc.h"
#include "util/file.h"
#include "util/mem.h"

static struct an_run corpus, example;

static char *data_path(const char *env, const char *rel)
{
	const char *base = getenv(env);

	assert_non_null(base);
	return path_join(base, rel);
}

static int setup(void **state)
{
	struct an_opts o = AN_OPTS_INIT;
	struct buf err = BUF_INIT;
	char *p;

	(void)state;
	an_run_init(&corpus);
	an_run_init(&example);
	o.peak_gbps = 4243;	/* the corpus README's measured copy rate */
	p = data_path("CORPUS", "h200-run1");
	assert_int_equal(decide_run(p, &o, &corpus, &err), 0);
	free(p);
	o.peak_gbps = 0;
	p = data_path("TESTDATA", "../../examples/h200-run");
	assert_int_equal(decide_run(p, &o, &example, &err), 0);
	free(p);
	buf_release(&err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	an_run_release(&corpus);
	an_run_release(&example);
	return 0;
}

static const struct an_kernel *kernel(const struct an_run *r, const char *id)
{
	const struct an_kernel *k = an_run_find(r, id);

	if (!k)
		fail_msg("no kernel %s", id);
	return k;
}

static int fired(const struct an_kernel *k, const char *rule)
{
	size_t i;

	for (i = 0; i < k->nfired; i++)
		if (!strcmp(k->fired[i].rule, rule))
			return 1;
	return 0;
}

/* The five wrapper modules launch 19 distinct kernels from 20 call sites (hand count). */
static void test_corpus_kernels(void **state)
{
	size_t i;
	long sites = 0;

	(void)state;
	assert_int_equal(corpus.nkernels, 19);
	for (i = 0; i < corpus.nkernels; i++)
		sites += corpus.kernels[i].launches;
	assert_int_equal(sites, 20);
	assert_int_equal(kernel(&corpus, "triton_per_fused_native_layer_norm_native_layer_norm_backward_view_7")->launches, 2);
	assert_string_equal(NAME_OF(launch_basis_names, kernel(&corpus, "triton_poi_fused_zeros_0")->launch_basis), "wrapper");
	assert_int_equal(corpus.wrappers, 5);
	assert_int_equal(corpus.capture_dirs, 0);
	for (i = 0; i < corpus.ncandidates; i++)
		if (!strcmp(corpus.candidates[i].name, "triton_mm"))
			assert_int_equal(corpus.candidates[i].count, 20);
}

/* grep -o 'extern_kernels\.[a-z]*(' in cache/inductor/l3 and te: 4 mm, 2 addmm. */
static void test_corpus_libcalls(void **state)
{
	size_t i;
	long mm = 0, addmm = 0;

	(void)state;
	for (i = 0; i < corpus.nlibcalls; i++) {
		if (!strcmp(corpus.libcalls[i].op, "extern_kernels.mm"))
			mm += corpus.libcalls[i].calls;
		if (!strcmp(corpus.libcalls[i].op, "extern_kernels.addmm"))
			addmm += corpus.libcalls[i].calls;
	}
	assert_int_equal(mm, 4);
	assert_int_equal(addmm, 2);
}

/* "Best config for ...: 0.062560" and the coordinate-descent "-> ... 0.166592" lines of the log. */
static void test_corpus_times(void **state)
{
	const struct an_kernel *k;

	(void)state;
	k = kernel(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	assert_float_equal(k->time_ms, 0.062560, 1e-9);
	assert_string_equal(NAME_OF(time_basis_names, k->time_basis), "autotune");
	k = kernel(&corpus, "triton_poi_fused_relu_1");
	assert_float_equal(k->time_ms, 0.166592, 1e-9);
	/* AUTOTUNE mm(2048x2048, 2048x2048): triton_mm_18 0.0291 ms is the template's config */
	k = kernel(&corpus, "triton_tem_fused_mm_0");
	assert_float_equal(k->time_ms, 0.0291, 1e-9);
	assert_string_equal(NAME_OF(time_basis_names, k->time_basis), "max_autotune");
	k = kernel(&corpus, "triton_red_fused__softmax_exp_sub_sum_view_3");
	assert_true(isnan(k->time_ms));
	assert_int_equal(k->rank, -1);
	assert_string_equal(decision_name(k->decision), "measure");
	/* 0.2013 GB (kernel_num_gb in its module) / 0.06256 ms */
	k = kernel(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	assert_float_equal(k->gbps, 0.201326592e9 / 0.06256e-3 / 1e9, 1e-6);
	assert_float_equal(k->peak_fraction, k->gbps / 4243, 1e-9);
	assert_int_equal(corpus.kernels[0].rank, 1);
	assert_string_equal(corpus.kernels[0].name, "triton_poi_fused_gelu_gelu_backward_mul_view_3");
}

static void test_corpus_isa(void **state)
{
	const struct an_kernel *k;

	(void)state;
	/* .best_config 4o/cfdc...: "triton_cache_hash": "GJQS3RRW..."; that PTX has 2 atom.global */
	k = kernel(&corpus, "triton_poi_fused_index_add_zeros_1");
	assert_string_equal(k->isa.match, "cache_hash");
	assert_string_equal(k->isa.cache_dir, "GJQS3RRWKSUULY6KQSOACKDZOGG4AGJRHVALSJKROJULTJDGC5XA");
	assert_int_equal(k->isa.atomics, 2);
	/* grep -c ld.global.v4 / st.global in CFGBEWMN.../triton_poi_fused_add_mul_sigmoid_sub_0.ptx: 2 / 1 (v4) */
	k = kernel(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	assert_int_equal(k->isa.mem_ops, 3);
	assert_int_equal(k->isa.mem_wide, 3);
	/* the launched template module (vw/) was compiled as 5p/, equal but for whitespace */
	k = kernel(&corpus, "triton_tem_fused_mm_0");
	assert_string_equal(k->isa.match, "same_source");
	assert_int_equal(k->isa.matrix_ops, 4);	/* grep -c wgmma.mma_async */
	/* six compiled XBLOCKs of relu_1 share num_warps 8 / num_stages 1: no way to tell */
	k = kernel(&corpus, "triton_poi_fused_relu_1");
	assert_null(k->isa.file);
	assert_string_equal(k->isa.match, "ambiguous");
}

/* The post-grad graph: "# File: /home/user/kernels/a/capture_demo.py:25 in scatter, code: out.index_add_(...)" */
static void test_corpus_origins(void **state)
{
	const struct an_kernel *k = kernel(&corpus, "triton_poi_fused_index_add_zeros_1");
	size_t i;
	int found = 0;

	(void)state;
	for (i = 0; i < k->norigins; i++)
		found |= k->origins[i].line == 25 && !strcmp(k->origins[i].function, "scatter") &&
			 strstr(k->origins[i].file, "capture_demo.py") != NULL;
	assert_true(found);
	assert_string_equal(k->graph, "2/0");
}

/* The replay's time for the config the model ran, read here with jansson; env.json's copy rate. */
static double replay_time(const char *dir_suffix, double *footprint)
{
	char *p = data_path("TESTDATA", "../../examples/h200-run/analysis/replay.json");
	json_t *doc = json_load_file(p, 0, NULL), *k, *c;
	double ms = NAN;
	size_t i, j;

	assert_non_null(doc);
	json_array_foreach(json_object_get(doc, "kernels"), i, k) {
		const char *d = json_string_value(json_object_get(k, "kernel_dir"));

		if (!d || strlen(d) < strlen(dir_suffix) ||
		    strcmp(d + strlen(d) - strlen(dir_suffix), dir_suffix))
			continue;
		*footprint = json_number_value(json_object_get(k, "footprint_bytes"));
		json_array_foreach(json_object_get(k, "configs"), j, c)
			if (json_is_true(json_object_get(c, "captured")))
				ms = json_number_value(json_object_get(c, "time_ms"));
	}
	json_decref(doc);
	free(p);
	return ms;
}

static void test_example_replay(void **state)
{
	const struct an_kernel *k = kernel(&example, "triton_poi_fused_index_add_zeros_1");
	char *p = data_path("TESTDATA", "../../examples/h200-run/env.json");
	json_t *env = json_load_file(p, 0, NULL);
	double footprint = NAN, ms = replay_time("/triton_poi_fused_index_add_zeros_1-470ead05", &footprint);

	(void)state;
	assert_false(isnan(ms));
	assert_string_equal(NAME_OF(time_basis_names, k->time_basis), "replay");
	assert_float_equal(k->time_ms, ms, 1e-12);
	assert_string_equal(NAME_OF(launch_basis_names, k->launch_basis), "capture");
	assert_float_equal(example.peak_gbps,
			   json_number_value(json_object_get(json_object_get(env, "bandwidth"), "copy_gbps")),
			   1e-9);
	assert_float_equal(k->footprint_bytes, footprint, 0.5);
	k = kernel(&example, "scale_add_kernel");
	assert_string_equal(NAME_OF(kind_names, k->kind), "user_autotune");
	assert_non_null(k->kernel_dir);
	assert_int_equal(example.capture_dirs, 7);
	json_decref(env);
	free(p);
}

static void test_rules_on_real_kernels(void **state)
{
	const struct an_kernel *k;

	(void)state;
	k = kernel(&corpus, "triton_poi_fused_index_add_zeros_1");
	assert_string_equal(decision_name(k->decision), "rewrite");
	assert_string_equal(k->fired[0].rule, "atomic_scatter");
	k = kernel(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	assert_false(fired(k, "narrow_access"));	/* all 128-bit */
	k = kernel(&corpus, "triton_tem_fused_mm_0");
	assert_false(fired(k, "scalarised_gemm"));	/* wgmma present */
	/* zeros_0 only stores zeros; the wrapper passes buf0 next to index_add (pu/cpuh55...py:215) */
	k = kernel(&example, "triton_poi_fused_zeros_0");
	assert_true(fired(k, "init_only"));
	assert_string_equal(k->fired[0].rule, "zero_init");
	assert_string_equal(decision_name(k->decision), "rewrite");
	assert_string_equal(k->addr.zero_consumer,
			    "triton_poi_fused_index_add_zeros_1 (wrapper line 215, argument buf0)");
	assert_non_null(strstr(k->action, "move the initialisation into its consumer"));
	/* the embedding gradient's zero-fill, consumed by kernel 9 (l3/cl3rax...py:1211, 1214) */
	k = kernel(&corpus, "triton_poi_fused_embedding_dense_backward_8");
	assert_int_equal(k->addr.zero_stores, 1);
	assert_string_equal(k->addr.zero_param, "out_ptr0");
	assert_non_null(strstr(k->addr.zero_consumer, "_backward_view_9 (wrapper line 1214, argument buf17)"));
	/* the embedding lookup gathers rows (r0_1 + 1024*tmp4 at 6p/c6phgw...py:46): no element gather */
	k = kernel(&corpus, "triton_per_fused_embedding_native_layer_norm_0");
	assert_int_equal(k->addr.gathers, 1);
	assert_int_equal(k->addr.gather_elems, 0);
	assert_int_equal(k->addr.gather_line, 46);
	assert_false(fired(k, "element_gather"));
	k = kernel(&example, "scale_add_kernel");	/* 90% of the copy rate in the replay */
	assert_string_equal(k->fired[0].rule, "near_peak");
}

/* A copy of a real kernel through the JSON tables, so a rule's input can be changed. */
static struct an_kernel *copy_of(const struct an_run *r, const char *id)
{
	struct an_kernel *k = xcalloc(1, sizeof(*k));
	json_t *j = rf_to_json(&an_kernel_desc, kernel(r, id));
	struct buf err = BUF_INIT;

	an_kernel_init(k);
	assert_int_equal(rf_from_json(&an_kernel_desc, k, j, "copy", &err), 0);
	json_decref(j);
	buf_release(&err);
	return k;
}

static void free_copy(struct an_kernel *k)
{
	rf_release(&an_kernel_desc, k);
	free(k);
}

static void test_rules_on_changed_kernels(void **state)
{
	struct an_kernel *k;

	(void)state;
	/* the mm template as DCU code without matrix instructions would be */
	k = copy_of(&corpus, "triton_tem_fused_mm_0");
	k->share = 0.3;
	k->isa.matrix_ops = 0;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(decision_name(k->decision), "keep_off");
	assert_string_equal(k->fired[0].rule, "scalarised_gemm");
	free_copy(k);
	/* zeros_0 launched 1000 times at 5 us each */
	k = copy_of(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	k->launches = 1000;
	k->time_ms = 0.005;
	k->share = 0.4;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "tiny_launch");
	free_copy(k);
	/* the sigmoid kernel as AMDGCN with global ops only and spills */
	k = copy_of(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	free(k->isa.isa);
	k->isa.isa = xstrdup("amdgcn");
	k->isa.res.spills = 3;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(decision_name(k->decision), "tune");
	assert_true(fired(k, "no_buffer_ops"));
	assert_true(fired(k, "spills"));
	assert_non_null(strstr(k->action, "tt.pointer_range=32"));
	free_copy(k);
	/* a tuned kernel whose winner split its rows differently (a norm backward's) */
	k = copy_of(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	k->share = 0.4;
	k->tune.file = xstrdup("tune.json");
	k->tune.winner = xstrdup("RSPLIT_SIZE=8");
	k->tune.speedup = 1.11;
	k->tune.split_size = 8;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_true(fired(k, "tuned"));
	assert_non_null(strstr(k->action, "mix_order_reduction_split_size = 8"));
	free_copy(k);
	/* a tuned softmax whose winner is the two-pass form: Inductor's setting too */
	k = copy_of(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	k->share = 0.4;
	k->tune.file = xstrdup("tune.json");
	k->tune.winner = xstrdup("R0_BLOCK=8192 +twopass");
	k->tune.speedup = 1.75;
	k->tune.online_softmax_off = 1;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_true(fired(k, "tuned"));
	assert_non_null(strstr(k->action, "torch._inductor.config.online_softmax = False"));
	free_copy(k);
	/* a looped online softmax with no tune result yet; persistent, it has no loop to split */
	k = copy_of(&example, "triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2");
	k->share = 0.4;
	rules_apply_kernel(&example, k, &rule_limits_default);
	assert_false(fired(k, "online_softmax"));
	free_copy(k);
	k = copy_of(&example, "triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2");
	k->share = 0.4;
	k->kind = KIND_REDUCTION;
	rules_apply_kernel(&example, k, &rule_limits_default);
	assert_true(fired(k, "online_softmax"));
	assert_non_null(strstr(k->action, "online_softmax = False"));
	free_copy(k);
	/* not hot wins over everything */
	k = copy_of(&corpus, "triton_poi_fused_index_add_zeros_1");
	k->share = 0.01;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "not_hot");
	assert_string_equal(decision_name(k->decision), "leave");
	free_copy(k);
}

/* The rules written from the brief's advice, on copies of real kernels with one input changed. */
static void test_rules_of_the_brief(void **state)
{
	struct an_kernel *k;
	size_t i;

	(void)state;
	/* a small clone: nothing to tune */
	k = copy_of(&corpus, "triton_poi_fused_relu_1");
	for (i = 0; i < k->naten; i++)
		free(k->aten[i]);
	k->naten = 0;
	an_add_str(&k->aten, &k->naten, "aten.clone");
	k->bytes = 65536;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "small_copy");
	assert_string_equal(decision_name(k->decision), "leave");
	free_copy(k);
	/*
	 * relu_1 as the corpus has it: coordinate descent timed 5 configs from
	 * 0.166592 to 0.16928 ms (log_profile.txt), 1.6% apart, at 2.4% of the
	 * 4243 GB/s peak: tuning will not help
	 */
	k = copy_of(&corpus, "triton_poi_fused_relu_1");
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "flat_configs");
	assert_string_equal(decision_name(k->decision), "keep_off");
	assert_non_null(strstr(k->action, "torch._dynamo.disable"));
	assert_non_null(strstr(k->action, "tko apply --keep-off"));
	/* the same configs 20% apart are no longer alike */
	for (i = 0; i < k->nconfigs; i++)
		if (k->configs[i].method == AT_COORDESC)
			k->configs[i].time_ms = 0.16 * (1 + 0.05 * (double)i);
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_false(fired(k, "flat_configs"));
	free_copy(k);
	/*
	 * a hot single-config kernel: Inductor's path before a sweep, and no
	 * few_configs sweep (no peak, so relu_1's alike configs, below, are no reason)
	 */
	k = copy_of(&corpus, "triton_poi_fused_relu_1");
	k->peak_fraction = NAN;
	k->chosen_by = AT_SINGLE_CONFIG;
	k->configs_timed = 0;
	k->share = 0.3;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_true(fired(k, "no_autotune"));
	assert_false(fired(k, "few_configs"));
	k->chosen_by = AT_CACHE_HIT;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_non_null(strstr(k->action, "TORCHINDUCTOR_CACHE_DIR"));
	free_copy(k);
	/* buffer ops: not advised once tko tune saw them fail to lower */
	k = copy_of(&corpus, "triton_poi_fused_add_mul_sigmoid_sub_0");
	free(k->isa.isa);
	k->isa.isa = xstrdup("amdgcn");
	k->tune.file = xstrdup("tune.json");
	k->tune.failure = xstrdup("bufops: LLVM could not translate ...");
	k->tune.buffer_ops_failed = 1;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_true(fired(k, "tune_failure"));
	assert_false(fired(k, "no_buffer_ops"));
	assert_non_null(strstr(k->action, "keep AMDGCN_USE_BUFFER_OPS off"));
	free_copy(k);
	/* buffer ops: memory-bound kernels only (the mm template is not) */
	k = copy_of(&corpus, "triton_tem_fused_mm_0");
	free(k->isa.isa);
	k->isa.isa = xstrdup("amdgcn");
	k->isa.global_ops = 4;
	k->isa.buffer_ops = 0;
	if (!k->nno_pointer_range)
		an_add_str(&k->no_pointer_range, &k->nno_pointer_range, "A");
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_false(fired(k, "no_buffer_ops"));
	free_copy(k);
	/* // and % offsets with mostly narrow accesses */
	k = copy_of(&corpus, "triton_poi_fused_add_gelu_mul_view_1");
	k->isa.mem_ops = 8;
	k->isa.mem_wide = 1;
	k->isa.vector_share = 0.125;
	assert_int_equal(k->addr.divmod, 1);	/* x0 = xindex % 4096 (sk/cskdom...py) */
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_true(fired(k, "divmod_offsets"));
	assert_true(fired(k, "narrow_access"));
	free_copy(k);
	/* an element gather, a scatter and strided lanes: rewrite, each with its own action */
	k = copy_of(&corpus, "triton_poi_fused_relu_1");
	k->share = 0.3;
	k->addr.gathers = k->addr.gather_elems = 1;
	k->addr.gather_line = 30;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "element_gather");
	assert_non_null(strstr(k->action, "gather whole contiguous rows"));
	k->addr.gathers = k->addr.gather_elems = 0;
	k->addr.scatters = 1;
	k->addr.scatter_line = 31;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "scattered_store");
	k->addr.scatters = 0;
	k->addr.strided = 2;
	k->addr.strided_line = 32;
	k->addr.strided_stride = 512;
	rules_apply_kernel(&corpus, k, &rule_limits_default);
	assert_string_equal(k->fired[0].rule, "strided_lanes");
	assert_non_null(strstr(k->fired[0].why, "512 elements apart"));
	assert_string_equal(decision_name(k->decision), "rewrite");
	free_copy(k);
}

static void test_json_round_trip(void **state)
{
	json_t *a = an_run_to_json(&example, "tko investigate"), *b;
	struct buf err = BUF_INIT;
	struct an_run back;

	(void)state;
	an_run_init(&back);
	assert_int_equal(an_run_from_json(&back, a, "a.json", &err), 0);
	b = an_run_to_json(&back, "tko investigate");
	assert_true(json_equal(a, b));
	json_decref(b);
	an_run_release(&back);
	/* a wrong type names the key path */
	json_object_set_new(json_array_get(json_object_get(a, "kernels"), 1), "time_ms",
			    json_string("fast"));
	an_run_init(&back);
	assert_int_equal(an_run_from_json(&back, a, "a.json", &err), -1);
	assert_string_equal(err.buf, "'a.json': kernels[1].time_ms: not a number");
	an_run_release(&back);
	buf_reset(&err);
	json_object_set_new(a, "schema_version", json_integer(99));
	an_run_init(&back);
	assert_int_equal(an_run_from_json(&back, a, "a.json", &err), -1);
	assert_non_null(strstr(err.buf, "schema_version 99"));
	an_run_release(&back);
	json_decref(a);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_kernels),
		cmocka_unit_test(test_corpus_libcalls),
		cmocka_unit_test(test_corpus_times),
		cmocka_unit_test(test_corpus_isa),
		cmocka_unit_test(test_corpus_origins),
		cmocka_unit_test(test_example_replay),
		cmocka_unit_test(test_rules_on_real_kernels),
		cmocka_unit_test(test_rules_on_changed_kernels),
		cmocka_unit_test(test_rules_of_the_brief),
		cmocka_unit_test(test_json_round_trip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
