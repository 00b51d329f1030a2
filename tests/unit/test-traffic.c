/*
 * Unit tests for model/traffic: the bytes a launch moves, on kernels
 * written by hand in Inductor's style (the AdamW foreach update and the
 * cross-entropy forward of issue 17's H200 run, a broadcast add) with
 * capture.json argument lists made to match, and the footprint of
 * argument lists with shared storages and views. Every expected byte
 * count is counted by hand in the comment above it, never taken from the
 * code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/traffic.h"
#include "parse/kernel_uses.h"
#include "parse/triton_meta.h"
#include "util/file.h"
#include "util/mem.h"

#define HEAD "import triton\nimport triton.language as tl\n@triton.jit\n"

/* AdamW over one 79.55 M-element fp32 parameter: param, grad, exp_avg, exp_avg_sq, step. */
static const char adamw_src[] = HEAD
	"def triton_for_fused_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, out_ptr2,"
	" out_ptr3, xnumel):\n"
	"    pid = tl.program_id(0)\n"
	"    XBLOCK: tl.constexpr = 1024\n"
	"    xnumel = 79550000\n"
	"    xoffset = pid * XBLOCK\n"
	"    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
	"    xmask = xindex < xnumel\n"
	"    x0 = xindex\n"
	"    tmp0 = tl.load(in_ptr0 + (x0), xmask)\n"
	"    tmp1 = tl.load(in_ptr1 + (x0), xmask)\n"
	"    tmp2 = tl.load(in_ptr2 + (x0), xmask)\n"
	"    tmp3 = tl.load(in_ptr3 + (x0), xmask)\n"
	"    tmp4 = tl.load(in_ptr4 + (0))\n"
	"    tmp5 = 0.9 * tmp2 + 0.1 * tmp1\n"
	"    tmp6 = 0.999 * tmp3 + 0.001 * tmp1 * tmp1\n"
	"    tmp7 = tmp0 - tmp4 * tmp5 / (tl.sqrt(tmp6) + 1e-08)\n"
	"    tl.store(out_ptr1 + (x0), tmp7, xmask)\n"
	"    tl.store(out_ptr2 + (x0), tmp5, xmask)\n"
	"    tl.store(out_ptr3 + (x0), tmp6, xmask)\n";

#define T1(name, n, storage) \
	"{\"name\":\"" name "\",\"kind\":\"tensor\",\"shape\":[" #n "],\"stride\":[1]," \
	"\"storage_offset\":0,\"element_size\":4,\"storage\":" #storage "}"

/* out_ptr1..3 are the storages of in_ptr0, 2, 3: the update is in place. */
static const char adamw_cap[] =
	"{\"kernel\":\"triton_for_fused_1\",\"args\":["
	T1("in_ptr0", 79550000, 0) "," T1("in_ptr1", 79550000, 1) ","
	T1("in_ptr2", 79550000, 2) "," T1("in_ptr3", 79550000, 3) ","
	T1("in_ptr4", 1, 4) "," T1("out_ptr1", 79550000, 0) ","
	T1("out_ptr2", 79550000, 2) "," T1("out_ptr3", 79550000, 3) ","
	"{\"name\":\"xnumel\",\"kind\":\"scalar\",\"value\":79550000}],"
	"\"mutated_arg_names\":[\"in_ptr0\",\"in_ptr2\",\"in_ptr3\",\"out_ptr1\",\"out_ptr2\",\"out_ptr3\"]}";

/* Cross-entropy forward: one logit per row of [2048, 50257] (stride 50272), gathered by target. */
static const char ce_src[] = HEAD
	"def triton_red_fused_nll_loss_forward_4(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3,"
	" xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
	"    xnumel = 1\n"
	"    r0_numel = 2048\n"
	"    xoffset = tl.program_id(0) * XBLOCK\n"
	"    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]\n"
	"    r0_base = tl.arange(0, R0_BLOCK)[None, :]\n"
	"    _tmp9 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)\n"
	"    for r0_offset in range(0, r0_numel, R0_BLOCK):\n"
	"        r0_index = r0_offset + r0_base\n"
	"        r0_mask = r0_index < r0_numel\n"
	"        r0_0 = r0_index\n"
	"        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0)\n"
	"        tmp4 = tl.where(tmp0 != -100, tmp0, 0)\n"
	"        tmp8 = tl.where(tmp4 < 0, tmp4 + 50257, tmp4)\n"
	"        tmp10 = tl.load(in_ptr1 + (tmp8 + 50272*r0_0), r0_mask, eviction_policy='evict_last', other=0.0)\n"
	"        tmp11 = tl.load(in_ptr2 + (r0_0), r0_mask, other=0.0)\n"
	"        tmp13 = tl.load(in_ptr3 + (r0_0), r0_mask, other=0.0)\n"
	"        _tmp9 = _tmp9 + (tmp10 - tmp11 - tmp13)\n"
	"    tmp9 = tl.sum(_tmp9, 1)[:, None]\n"
	"    tmp20 = tl.load(in_out_ptr0 + (0))\n"
	"    tl.store(in_out_ptr0 + (tl.full([XBLOCK, 1], 0, tl.int32)), tmp20 - tmp9, None)\n";

static const char ce_cap[] =
	"{\"kernel\":\"triton_red_fused_nll_loss_forward_4\",\"args\":["
	"{\"name\":\"in_out_ptr0\",\"kind\":\"tensor\",\"shape\":[],\"stride\":[],"
	"\"storage_offset\":0,\"element_size\":4,\"storage\":0},"
	"{\"name\":\"in_ptr0\",\"kind\":\"tensor\",\"shape\":[2048],\"stride\":[1],"
	"\"storage_offset\":0,\"element_size\":8,\"storage\":1},"
	"{\"name\":\"in_ptr1\",\"kind\":\"tensor\",\"shape\":[2048,50257],\"stride\":[50272,1],"
	"\"storage_offset\":0,\"element_size\":4,\"storage\":2},"
	"{\"name\":\"in_ptr2\",\"kind\":\"tensor\",\"shape\":[2048,1],\"stride\":[1,1],"
	"\"storage_offset\":0,\"element_size\":4,\"storage\":3},"
	"{\"name\":\"in_ptr3\",\"kind\":\"tensor\",\"shape\":[2048,1],\"stride\":[1,1],"
	"\"storage_offset\":0,\"element_size\":4,\"storage\":4},"
	"{\"name\":\"xnumel\",\"kind\":\"scalar\",\"value\":1},"
	"{\"name\":\"r0_numel\",\"kind\":\"scalar\",\"value\":2048}],"
	"\"mutated_arg_names\":[\"in_out_ptr0\"]}";

/*
 * An embedding's backward (the shape of a real H200 capture of 2026-12-04,
 * bench/models/second.py): the gradient rows of 4 tokens, [4, 1024] fp32,
 * atomically added into a [32000, 1024] fp32 table at the token ids.
 */
static const char emb_src[] = HEAD
	"def triton_poi_fused_embedding_dense_backward_5(in_ptr0, in_ptr1, out_ptr0,"
	" xnumel, XBLOCK : tl.constexpr):\n"
	"    xnumel = 4096\n"
	"    xoffset = tl.program_id(0) * XBLOCK\n"
	"    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
	"    xmask = tl.full([XBLOCK], True, tl.int1)\n"
	"    x1 = xindex // 1024\n"
	"    x0 = (xindex % 1024)\n"
	"    x2 = xindex\n"
	"    tmp0 = tl.load(in_ptr0 + (x1), None, eviction_policy='evict_last')\n"
	"    tmp7 = tl.load(in_ptr1 + (x2), None)\n"
	"    tmp1 = tl.full([XBLOCK], 32000, tl.int32)\n"
	"    tmp2 = tmp0 + tmp1\n"
	"    tmp3 = tmp0 < 0\n"
	"    tmp4 = tl.where(tmp3, tmp2, tmp0)\n"
	"    tl.atomic_add(out_ptr0 + (x0 + 1024*tmp4), tmp7, None, sem='relaxed')\n";

static const char emb_cap[] =
	"{\"kernel\":\"triton_poi_fused_embedding_dense_backward_5\",\"args\":["
	"{\"name\":\"in_ptr0\",\"kind\":\"tensor\",\"shape\":[4],\"stride\":[1],"
	"\"storage_offset\":0,\"element_size\":8,\"storage\":0},"
	"{\"name\":\"in_ptr1\",\"kind\":\"tensor\",\"shape\":[4,1024],\"stride\":[1024,1],"
	"\"storage_offset\":0,\"element_size\":4,\"storage\":1},"
	"{\"name\":\"out_ptr0\",\"kind\":\"tensor\",\"shape\":[32000,1024],\"stride\":[1024,1],"
	"\"storage_offset\":0,\"element_size\":4,\"storage\":2},"
	"{\"name\":\"xnumel\",\"kind\":\"scalar\",\"value\":4096}],"
	"\"mutated_arg_names\":[\"out_ptr0\"]}";

static struct meta_kernel_list scan(const char *text)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf err = BUF_INIT;

	assert_int_equal(triton_meta_scan(&l, "k.py", text, strlen(text), 0, &err), 1);
	buf_release(&err);
	return l;
}

/* A capture.json text read into its model (model/capture.h). */
static void read_capture(struct capture_doc *c, const char *cap_text)
{
	json_t *j = json_loads(cap_text, 0, NULL);
	struct buf err = BUF_INIT;

	assert_non_null(j);
	capture_init(c);
	assert_int_equal(capture_read(c, j, "capture.json", &err), 0);
	json_decref(j);
	buf_release(&err);
}

static void count(struct traffic *t, const char *cap_text, const char *src)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct traffic_source uses = TRAFFIC_SOURCE_INIT;
	struct capture_doc cap;

	read_capture(&cap, cap_text);
	if (src) {
		l = scan(src);
		kernel_uses_of(&uses, l.v[0]);
	}
	assert_int_equal(traffic_count(t, &cap, src ? &uses : NULL), 0);
	traffic_source_release(&uses);
	meta_kernel_list_release(&l);
	capture_release(&cap);
}

/*
 * 4 reads + 3 writes of 79,550,000 fp32 = 7 x 318,200,000 = 2,227,400,000
 * bytes, plus the 4-byte step read: 2,227,400,004. The old footprint (each
 * storage once) said 4 x 318.2 MB + 4 = 1,272,800,004.
 */
static void test_adamw_in_place(void **state)
{
	struct traffic t;

	(void)state;
	count(&t, adamw_cap, adamw_src);
	assert_true(t.bytes == 2227400004.0);
	assert_true(t.read_bytes == 4 * 318200000.0 + 4);
	assert_true(t.write_bytes == 3 * 318200000.0);
	assert_int_equal(t.estimate, 0);
	assert_int_equal(t.reads, 5);
	assert_int_equal(t.writes, 3);
	traffic_release(&t);
}

/* Without the source, names and mutated_arg_names give the same 2,227,400,004. */
static void test_adamw_from_names(void **state)
{
	struct traffic t;

	(void)state;
	count(&t, adamw_cap, NULL);
	assert_true(t.bytes == 2227400004.0);
	assert_int_equal(t.estimate, 0);
	assert_non_null(strstr(t.note, "no kernel source"));
	traffic_release(&t);
}

/*
 * The loss scalar read and written (4 + 4), targets 2048 x 8 = 16,384,
 * amax and logsumexp 2048 x 4 = 8,192 each, and the gathered logits one
 * fp32 per lane: xnumel 1 x r0_numel 2048 x 4 = 8,192, not the 411,828,164
 * bytes ((2047 x 50272 + 50257) x 4) the logits view spans.
 * 8 + 16,384 + 8,192 x 3 = 40,968, an estimate (a gather's bound).
 */
static void test_cross_entropy_gather(void **state)
{
	struct traffic t;

	(void)state;
	count(&t, ce_cap, ce_src);
	assert_true(t.bytes == 40968.0);
	assert_int_equal(t.estimate, 1);
	assert_int_equal(t.gathered, 1);
	assert_non_null(strstr(t.note, "in_ptr1: gathered"));
	traffic_release(&t);
}

/*
 * The table is touched where the tokens point: one fp32 read and one
 * written per lane, xnumel 4096 x 4 x 2 = 32,768 (an estimate: a
 * scatter's bound), plus the ids 4 x 8 = 32 and the rows 4096 x 4 =
 * 16,384 read: 49,184, not the table's 131,072,000 bytes both ways.
 */
static void test_embedding_backward_atomic_scatter(void **state)
{
	struct traffic t;

	(void)state;
	count(&t, emb_cap, emb_src);
	assert_true(t.bytes == 49184.0);
	assert_int_equal(t.estimate, 1);
	assert_int_equal(t.gathered, 1);
	assert_non_null(strstr(t.note, "out_ptr0: updated atomically through a loaded index"));
	traffic_release(&t);
}

/*
 * A bias broadcast over rows (stride 0): [8192, 4096] fp16 in and out,
 * 2 x 67,108,864, and the bias's 4096 x 2 = 8,192 once: 134,225,920.
 */
static void test_broadcast_counts_storage_once(void **state)
{
	static const char src[] = HEAD
		"def triton_poi_fused_add_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
		"    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]\n"
		"    x2 = xindex\n"
		"    tmp0 = tl.load(in_ptr0 + (x2), None)\n"
		"    tmp1 = tl.load(in_ptr1 + (x2), None)\n"
		"    tl.store(out_ptr0 + (x2), tmp0 + tmp1, None)\n";
	static const char cap[] = "{\"kernel\":\"triton_poi_fused_add_0\",\"args\":["
		"{\"name\":\"in_ptr0\",\"kind\":\"tensor\",\"shape\":[8192,4096],\"stride\":[4096,1],"
		"\"storage_offset\":0,\"element_size\":2,\"storage\":0},"
		"{\"name\":\"in_ptr1\",\"kind\":\"tensor\",\"shape\":[8192,4096],\"stride\":[0,1],"
		"\"storage_offset\":0,\"element_size\":2,\"storage\":1},"
		"{\"name\":\"out_ptr0\",\"kind\":\"tensor\",\"shape\":[8192,4096],\"stride\":[4096,1],"
		"\"storage_offset\":0,\"element_size\":2,\"storage\":2},"
		"{\"name\":\"xnumel\",\"kind\":\"scalar\",\"value\":33554432}],\"mutated_arg_names\":[]}";
	struct traffic t;

	(void)state;
	count(&t, cap, src);
	assert_true(t.bytes == 134225920.0);
	assert_int_equal(t.estimate, 0);
	traffic_release(&t);
}

/* An argument neither the source nor its name places: counted once, an estimate. */
static void test_unknown_access_is_estimate(void **state)
{
	static const char cap[] = "{\"kernel\":\"k\",\"args\":["
		"{\"name\":\"x\",\"kind\":\"tensor\",\"shape\":[1000],\"stride\":[1],"
		"\"storage_offset\":0,\"element_size\":4,\"storage\":0}]}";
	struct traffic t;

	(void)state;
	count(&t, cap, NULL);
	assert_true(t.bytes == 4000.0);
	assert_int_equal(t.estimate, 1);
	assert_non_null(strstr(t.note, "x: access unknown"));
	traffic_release(&t);
}

/*
 * A template reading A and B through tensor descriptors (no tl.load starts
 * from arg_A / arg_B) and storing C: A and B are charged once each as read,
 * an estimate; 3 x 2048 x 2048 x 2 = 25,165,824 bytes.
 */
static void test_descriptor_reads_are_assumed(void **state)
{
	static const char src[] = HEAD
		"def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0):\n"
		"    a_desc = tl.make_tensor_descriptor(arg_A, shape=[2048, 2048], strides=[2048, 1],"
		" block_shape=[64, 64])\n"
		"    b_desc = tl.make_tensor_descriptor(arg_B, shape=[2048, 2048], strides=[2048, 1],"
		" block_shape=[64, 64])\n"
		"    acc = tl.dot(a_desc.load([0, 0]), b_desc.load([0, 0]))\n"
		"    idx = tl.arange(0, 64)[:, None] * 2048 + tl.arange(0, 64)[None, :]\n"
		"    tl.store(out_ptr0 + idx, acc)\n";
	static const char cap[] = "{\"kernel\":\"triton_tem_fused_mm_0\",\"args\":["
		"{\"name\":\"arg_A\",\"kind\":\"tensor\",\"shape\":[2048,2048],\"stride\":[2048,1],"
		"\"storage_offset\":0,\"element_size\":2,\"storage\":0},"
		"{\"name\":\"arg_B\",\"kind\":\"tensor\",\"shape\":[2048,2048],\"stride\":[2048,1],"
		"\"storage_offset\":0,\"element_size\":2,\"storage\":1},"
		"{\"name\":\"out_ptr0\",\"kind\":\"tensor\",\"shape\":[2048,2048],\"stride\":[2048,1],"
		"\"storage_offset\":0,\"element_size\":2,\"storage\":2}],\"mutated_arg_names\":[]}";
	struct traffic t;

	(void)state;
	count(&t, cap, src);
	assert_true(t.bytes == 25165824.0);
	assert_int_equal(t.estimate, 1);
	assert_non_null(strstr(t.note, "arg_A: access unknown, counted once as read"));
	assert_non_null(strstr(t.note, "arg_B: access unknown"));
	traffic_release(&t);
}

/*
 * tests/data/traffic: a foreach kernel in Inductor's module shape, two
 * groups in if-blocks. Read: storages 0-3 (1000 fp32 each) and the two
 * scalars, 4 x 4000 + 4 + 4 = 16,008; written through the aliasing
 * out_ptrs: storages 0, 2, 3 and 5, 3 x 4000 + 4 = 12,004. 28,012 bytes.
 */
static void test_foreach_module_file(void **state)
{
	const char *base = getenv("TESTDATA");
	char *dir, *cap, *py;
	struct traffic t;
	struct buf err = BUF_INIT;

	(void)state;
	assert_non_null(base);
	dir = xstrfmt("%s/traffic", base);
	cap = xstrfmt("%s/foreach_capture.json", dir);
	py = xstrfmt("%s/foreach_kernel.py", dir);
	/* the caller names the files (model/ does not know a kernel folder's layout) */
	assert_int_equal(traffic_of_files(&t, cap, py, kernel_uses_read, &err), 0);
	assert_true(t.read_bytes == 16008.0);
	assert_true(t.write_bytes == 12004.0);
	assert_true(t.bytes == 28012.0);
	assert_int_equal(t.estimate, 0);
	assert_string_equal(t.note, "6 tensors read, 4 written");
	traffic_release(&t);
	buf_release(&err);
	free(dir);
	free(cap);
	free(py);
}

static void test_unreadable_args(void **state)
{
	static const char *const caps[] = {
		"{\"args\":[{\"name\":\"x\",\"kind\":\"tensor\",\"shape\":[4]}]}",
		/* spans that would overflow 64 bits: refused, not wrapped */
		"{\"args\":[{\"name\":\"x\",\"kind\":\"tensor\",\"shape\":[9223372036854775807],"
		"\"stride\":[9223372036854775807],\"storage_offset\":0,\"element_size\":4,\"storage\":0}]}",
		"{\"args\":[{\"name\":\"x\",\"kind\":\"tensor\",\"shape\":[4,4],"
		"\"stride\":[-9223372036854775807,1],\"storage_offset\":0,\"element_size\":4,\"storage\":0}]}",
		"{\"args\":[{\"name\":\"x\",\"kind\":\"tensor\",\"shape\":[4],"
		"\"stride\":[1],\"storage_offset\":9223372036854775807,\"element_size\":4,\"storage\":0}]}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct capture_doc doc;
		struct traffic t;

		read_capture(&doc, caps[i]);
		assert_int_equal(traffic_count(&t, &doc, NULL), -1);
		assert_true(t.bytes < 0);
		assert_non_null(strstr(t.note, "argument 0"));
		traffic_release(&t);
		capture_release(&doc);
	}
}

/* traffic_footprint: each storage once, what a launch can touch (not what it moves). */
static long long footprint_of(const char *json)
{
	char *text = xstrfmt("{\"args\": %s}", json);
	struct capture_doc c;
	long long n;

	read_capture(&c, text);
	n = traffic_footprint(&c);
	capture_release(&c);
	free(text);
	return n;
}

static void test_footprint_counts_each_storage_once(void **state)
{
	(void)state;
	/* 1024 fp32 in + 1024 fp32 out on two storages: 8192 bytes; the scalar adds nothing. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":1},"
		"{\"kind\":\"scalar\",\"value\":1024}]"), 8192);
	/* An in-place argument passed twice (same storage, same view): 4096 bytes. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[1024],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0}]"), 4096);
}

static void test_footprint_of_views(void **state)
{
	(void)state;
	/*
	 * Two halves of one fp16 buffer, overlapping by 10 elements: elements
	 * [0, 60) and [50, 110) -> [0, 110) = 220 bytes.
	 */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[60],\"stride\":[1],\"storage_offset\":0,"
		"\"element_size\":2,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[60],\"stride\":[1],\"storage_offset\":50,"
		"\"element_size\":2,\"storage\":0}]"), 220);
	/* A transposed 4x3 view, strides (1, 4): last element 3*1 + 2*4 = 11 -> 12 elements * 4 B. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[4,3],\"stride\":[1,4],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0}]"), 48);
	/* A broadcast (stride 0) row of 8 x 1024: one row, 4096 bytes; an empty tensor: 0. */
	assert_int_equal(footprint_of(
		"[{\"kind\":\"tensor\",\"shape\":[8,1024],\"stride\":[0,1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":0},"
		"{\"kind\":\"tensor\",\"shape\":[0,5],\"stride\":[5,1],\"storage_offset\":0,"
		"\"element_size\":4,\"storage\":1}]"), 4096);
	assert_int_equal(footprint_of("[{\"kind\":\"tensor\",\"shape\":[2]}]"), -1);
	assert_int_equal(footprint_of("[]"), 0);
}

/* 2,227,400,004 bytes in 0.531 ms: 4194.7 GB/s, 98.9% of a 4241 GB/s copy. */
static void test_rates(void **state)
{
	double g = traffic_gbps(2227400004.0, 0.531);

	(void)state;
	assert_true(g > 4194.6 && g < 4194.8);
	assert_true(traffic_gbps(-1, 1) < 0);
	assert_true(traffic_gbps(1, 0) < 0);
}

/* Over 105% of the copy rate is flagged with its cause; at or under it is not. */
static void test_rate_over_copy_flagged(void **state)
{
	struct traffic dense = { 2.0e9, 1.0e9, 1.0e9, 1, 1, 0, 0, NULL };
	struct traffic small = { 1.0e6, 0.5e6, 0.5e6, 1, 1, 0, 0, NULL };
	struct traffic gather = { 4.1e8, 4.1e8, 0, 1, 0, 1, 1, NULL };
	char *why;

	(void)state;
	assert_null(traffic_rate_doubt(&dense, 4241 * 1.05, 4241));
	assert_null(traffic_rate_doubt(&dense, 5000, 0));
	why = traffic_rate_doubt(&dense, 4241 * 1.06, 4241);
	assert_non_null(why);
	assert_non_null(strstr(why, "bytes over-counted"));
	free(why);
	why = traffic_rate_doubt(&small, 12000, 4241);
	assert_non_null(strstr(why, "L2-resident reuse"));
	free(why);
	/* issue 17: 54769 GB/s against the copy rate, from a 412 MB gather footprint */
	why = traffic_rate_doubt(&gather, 54769, 4241);
	assert_non_null(strstr(why, "bytes over-counted: a gather"));
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adamw_in_place),
		cmocka_unit_test(test_adamw_from_names),
		cmocka_unit_test(test_cross_entropy_gather),
		cmocka_unit_test(test_embedding_backward_atomic_scatter),
		cmocka_unit_test(test_broadcast_counts_storage_once),
		cmocka_unit_test(test_unknown_access_is_estimate),
		cmocka_unit_test(test_descriptor_reads_are_assumed),
		cmocka_unit_test(test_foreach_module_file),
		cmocka_unit_test(test_unreadable_args),
		cmocka_unit_test(test_footprint_counts_each_storage_once),
		cmocka_unit_test(test_footprint_of_views),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_rate_over_copy_flagged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
