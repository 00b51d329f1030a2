/*
 * Unit tests for tune/rewrite: the hint, assume, template-constant and
 * pointer-range rewrites, their unified diff, and idempotence. The sources
 * are tiny excerpts shaped like corpus/h200-run1's Inductor kernels
 * (triton_poi_fused_add_mul_sigmoid_sub_0, triton_tem_fused_mm_0) and
 * corpus/scripts/amd_compile.py's add_scale; the expected lines are
 * written out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tune/rewrite.h"
#include "util/mem.h"

#define L1 "@triton_heuristics.pointwise("
#define L2_HEAD "    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', " \
	"'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'configs': [{"
#define L2_TAIL "(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},"
#define L3 ")"
#define L4 "@triton.jit"
#define L5 "def k(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):"
#define L6 "    xnumel = 1024"
#define L7 "    xoffset = tl.program_id(0) * XBLOCK"
#define L8 "    xindex = xoffset + tl.arange(0, XBLOCK)[:]"
#define L9 "    tmp2 = tmp0 * tmp1"
#define L10 "    tl.store(out_ptr0 + (xindex), tmp2, None)"

static const char poi[] = L1 "\n" L2_HEAD L2_TAIL "\n" L3 "\n" L4 "\n" L5 "\n" L6 "\n"
	L7 "\n" L8 "\n" L9 "\n" L10 "\n";

static void kernel(struct tune_kernel *k, long first, long last)
{
	static const char *const names[] = { "in_ptr0", "out_ptr0", "xnumel", "XBLOCK" };
	static const char *const types[] = { "*bf16", "*bf16", "i32", "constexpr" };
	size_t i;

	tune_kernel_init(k);
	k->name = xstrdup("k");
	k->def_line = first;
	k->end_line = last;
	for (i = 0; i < 4; i++) {
		ALLOC_GROW(k->args, k->nargs + 1, k->alloc);
		memset(&k->args[k->nargs], 0, sizeof(k->args[0]));
		k->args[k->nargs].name = xstrdup(names[i]);
		k->args[k->nargs].type = xstrdup(types[i]);
		k->nargs++;
	}
}

static char *applied(const char *src, const struct rewrite *r)
{
	struct buf out = BUF_INIT;

	rewrite_apply(src, strlen(src), r, &out);
	return buf_detach(&out, NULL);
}

static void test_hints(void **state)
{
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT, again = REWRITE_INIT;
	char *text;

	(void)state;
	kernel(&k, 1, 10);
	assert_int_equal(rewrite_hints(poi, strlen(poi), &k, &r), 2);
	assert_int_equal(r.e[0].line, 7);
	assert_string_equal(r.e[0].text, "    xoffset = tl.multiple_of(xoffset, XBLOCK)");
	assert_int_equal(r.e[1].line, 8);
	assert_string_equal(r.e[1].text,
			    "    xindex = tl.max_contiguous(tl.multiple_of(xindex, XBLOCK), XBLOCK)");
	/* "tmp2 = tmp0 * tmp1" is no offset: line 9 untouched */
	text = applied(poi, &r);
	assert_non_null(strstr(text, "    tmp2 = tmp0 * tmp1\n    tl.store"));
	/* hinting a hinted kernel changes nothing */
	assert_int_equal(rewrite_hints(text, strlen(text), &k, &again), 0);
	free(text);
	rewrite_release(&r);
	rewrite_release(&again);
	tune_kernel_release(&k);
}

static void test_hints_user_kernel(void **state)
{
	static const char src[] =
		"@triton.jit\n"
		"def add_scale(x_ptr, o_ptr, n, BLOCK: tl.constexpr):\n"
		"    pid = tl.program_id(0)\n"
		"    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
		"    odd = pid + tl.arange(0, BLOCK)\n";
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;

	(void)state;
	kernel(&k, 1, 5);
	/* offs starts at a multiple of BLOCK; odd does not */
	assert_int_equal(rewrite_hints(src, strlen(src), &k, &r), 1);
	assert_int_equal(r.e[0].line, 4);
	assert_string_equal(r.e[0].text,
			    "    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)");
	rewrite_release(&r);
	/* the helper gives k an i32 argument, xnumel: assumed at the top */
	assert_int_equal(rewrite_assume(src, strlen(src), &k, &r), 2);
	assert_string_equal(r.e[0].text, "    tl.assume(xnumel >= 0)");
	assert_int_equal(r.e[0].line, 2);
	assert_string_equal(r.e[1].text, "    tl.assume(pid >= 0)");
	assert_int_equal(r.e[1].line, 3);
	rewrite_release(&r);
	tune_kernel_release(&k);
}

static void test_assume_and_diff(void **state)
{
	/* two inserts (after lines 5 and 7) make one hunk over lines 2..10 */
	static const char want[] =
		"--- a/k.py\n+++ b/k.py\n"
		"@@ -2,9 +2,11 @@\n"
		" " L2_HEAD L2_TAIL "\n"
		" " L3 "\n"
		" " L4 "\n"
		" " L5 "\n"
		"+    tl.assume(xnumel >= 0)\n"
		" " L6 "\n"
		" " L7 "\n"
		"+    tl.assume(xoffset >= 0)\n"
		" " L8 "\n"
		" " L9 "\n"
		" " L10 "\n";
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;
	struct buf diff = BUF_INIT;

	(void)state;
	kernel(&k, 1, 10);
	assert_int_equal(rewrite_assume(poi, strlen(poi), &k, &r), 2);
	rewrite_diff(poi, strlen(poi), &r, "k.py", &diff);
	assert_string_equal(diff.buf, want);
	buf_release(&diff);
	rewrite_release(&r);
	/* no edits, no diff */
	rewrite_diff(poi, strlen(poi), &r, "k.py", &diff);
	assert_int_equal(diff.len, 0);
	tune_kernel_release(&k);
}

static void test_pointer_range(void **state)
{
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;
	char *text;

	(void)state;
	kernel(&k, 1, 10);
	assert_int_equal(rewrite_pointer_range(poi, strlen(poi), &k, &r), 1);
	assert_int_equal(r.e[0].line, 2);
	assert_int_equal(r.e[0].replace, 1);
	/* pointer 0 had an entry, pointer 1 had none; integer 2 is left alone */
	assert_string_equal(r.e[0].text, L2_HEAD "(1,): [['tt.pointer_range', 32]], "
			    "(0,): [['tt.divisibility', 16], ['tt.pointer_range', 32]], "
			    "(2,): [['tt.divisibility', 16]]}]},");
	text = applied(poi, &r);
	assert_int_equal(strlen(text), strlen(poi) + strlen(r.e[0].text) -
			 strlen(L2_HEAD L2_TAIL));
	free(text);
	rewrite_release(&r);
	tune_kernel_release(&k);
}

static void test_body_const_and_find_int(void **state)
{
	static const char tem[] =
		"@triton.jit\n"
		"def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0):\n"
		"    BLOCK_M : tl.constexpr = 128\n"
		"    BLOCK_K : tl.constexpr = 64\n"
		"    M = 2048\n"
		"    N = 1024\n";
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;
	long v = 0;
	char *text;

	(void)state;
	kernel(&k, 1, 6);
	assert_int_equal(rewrite_body_const(tem, strlen(tem), &k, "BLOCK_M", 64, &r), 1);
	assert_int_equal(rewrite_body_const(tem, strlen(tem), &k, "BLOCK_K", 64, &r), 0);
	assert_int_equal(rewrite_body_const(tem, strlen(tem), &k, "BLOCK_N", 64, &r), 0);
	text = applied(tem, &r);
	assert_non_null(strstr(text, "\n    BLOCK_M : tl.constexpr = 64\n    BLOCK_K : tl.constexpr = 64\n"));
	assert_null(strstr(text, "= 128"));
	free(text);
	assert_int_equal(rewrite_find_int(tem, strlen(tem), &k, "N", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(rewrite_find_int(tem, strlen(tem), &k, "K", &v), -1);
	rewrite_release(&r);
	tune_kernel_release(&k);
}

static void test_range_and_no_newline(void **state)
{
	/* a kernel outside the function's line range is not touched, and a
	 * file without a final newline still rewrites */
	static const char src[] =
		"def helper():\n"
		"    xoffset = tl.program_id(0) * XBLOCK\n"
		"@triton.jit\n"
		"def k(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
		"    xoffset = tl.program_id(0) * XBLOCK";
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;

	(void)state;
	kernel(&k, 3, 5);
	assert_int_equal(rewrite_hints(src, sizeof(src) - 1, &k, &r), 1);
	assert_int_equal(r.e[0].line, 5);
	rewrite_release(&r);
	tune_kernel_release(&k);
}

/* The loop of the cross-entropy forward torch 2.11 generated on the H200
 * (tests/data/tune/online_softmax.py), cut down; lines 1-2 stand for the
 * decorator and the def. */
static const char softmax[] =
	"@triton.jit\n"								/* 1 */
	"def k(in_out_ptr0, in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
	"    _tmp3_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)\n"
	"    _tmp3_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)\n"
	"    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"			/* 5 */
	"        r0_index = r0_offset + r0_base\n"
	"        r0_mask = r0_index < r0_numel\n"
	"        tmp0 = tl.load(in_ptr0 + (r0_index), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)\n"
	"        tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])\n"
	"\n"									/* 10 */
	"        _tmp3_max_next, _tmp3_sum_next = triton_helpers.online_softmax_combine(\n"
	"            _tmp3_max, _tmp3_sum, tmp2, False\n"
	"        )\n"
	"\n"
	"        _tmp3_max = tl.where(r0_mask, _tmp3_max_next, _tmp3_max)\n"	/* 15 */
	"        _tmp3_sum = tl.where(r0_mask, _tmp3_sum_next, _tmp3_sum)\n"
	"\n"
	"    tmp3, tmp4 = triton_helpers.online_softmax_reduce(\n"
	"        _tmp3_max, _tmp3_sum, 1, False)\n"
	"    tmp3 = tmp3[:, None]\n";						/* 20 */

static const char softmax_two_pass[] =
	"@triton.jit\n"
	"def k(in_out_ptr0, in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
	"    _tmp3_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)\n"
	"    _tmp3_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)\n"
	"    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"
	"        r0_index = r0_offset + r0_base\n"
	"        r0_mask = r0_index < r0_numel\n"
	"        tmp0 = tl.load(in_ptr0 + (r0_index), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)\n"
	"        tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])\n"
	"\n"
	"\n"
	"\n"
	"\n"
	"\n"
	"        _tmp3_max = tl.where(r0_mask, triton_helpers.maximum(_tmp3_max, tmp2), _tmp3_max)\n"
	"\n"
	"    tmp3 = triton_helpers.max2(_tmp3_max, 1)\n"
	"    _tmp3_max_row = tl.where(tmp3[:, None] == float('-inf'), 0.0, tmp3[:, None])\n"
	"    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"
	"        r0_index = r0_offset + r0_base\n"
	"        r0_mask = r0_index < r0_numel\n"
	"        tmp0 = tl.load(in_ptr0 + (r0_index), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)\n"
	"        tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])\n"
	"        _tmp3_sum = tl.where(r0_mask, _tmp3_sum + triton_helpers.exp(tmp2 - _tmp3_max_row, False), _tmp3_sum)\n"
	"\n"
	"    tmp4 = tl.sum(_tmp3_sum, 1)\n"
	"\n"
	"    tmp3 = tmp3[:, None]\n";

static int two_pass_edits(const char *src)
{
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;
	int n;

	kernel(&k, 1, 40);	/* clipped to the file's lines */
	n = rewrite_two_pass(src, strlen(src), &k, &r);
	rewrite_release(&r);
	tune_kernel_release(&k);
	return n;
}

/* A copy of the kernel with `from` replaced by `to`, for the cases it must refuse. */
static int two_pass_edits_with(const char *from, const char *to)
{
	struct buf b = BUF_INIT;
	const char *at = strstr(softmax, from);
	int n;

	assert_non_null(at);
	buf_add(&b, softmax, (size_t)(at - softmax));
	buf_adds(&b, to);
	buf_adds(&b, at + strlen(from));
	n = two_pass_edits(b.buf);
	buf_release(&b);
	return n;
}

static void test_two_pass(void **state)
{
	struct tune_kernel k;
	struct rewrite r = REWRITE_INIT;
	char *text;

	(void)state;
	kernel(&k, 1, 20);
	assert_true(rewrite_two_pass(softmax, strlen(softmax), &k, &r) > 0);
	text = applied(softmax, &r);
	assert_string_equal(text, softmax_two_pass);
	free(text);
	rewrite_release(&r);
	tune_kernel_release(&k);
}

static void test_two_pass_refuses(void **state)
{
	(void)state;
	/* a store in the loop would run twice */
	assert_int_equal(two_pass_edits_with("        tmp2 = tl.broadcast_to",
					     "        tl.store(out_ptr0 + (r0_index), tmp0, r0_mask)\n"
					     "        tmp2 = tl.broadcast_to"), 0);
	/* another accumulator updated in the loop */
	assert_int_equal(two_pass_edits_with("        tmp2 = tl.broadcast_to",
					     "        _tmp9 = _tmp9 + tmp0\n"
					     "        tmp2 = tl.broadcast_to"), 0);
	/* something after the two tl.where lines */
	assert_int_equal(two_pass_edits_with("_tmp3_sum_next, _tmp3_sum)\n",
					     "_tmp3_sum_next, _tmp3_sum)\n        tmp5 = tmp2 + 1\n"), 0);
	/* the tl.where masks disagree */
	assert_int_equal(two_pass_edits_with("tl.where(r0_mask, _tmp3_sum_next",
					     "tl.where(xmask, _tmp3_sum_next"), 0);
	/* the reduce is over dim 0, or of another accumulator */
	assert_int_equal(two_pass_edits_with("_tmp3_sum, 1, False)", "_tmp3_sum, 0, False)"), 0);
	assert_int_equal(two_pass_edits_with("        _tmp3_max, _tmp3_sum, 1,",
					     "        _tmp4_max, _tmp4_sum, 1,"), 0);
	/* a second online softmax in the kernel */
	assert_int_equal(two_pass_edits_with("    tmp3 = tmp3[:, None]\n",
					     "    tmp3 = tmp3[:, None]\n"
					     "    _a_max_next, _a_sum_next = triton_helpers.online_softmax_combine("
					     "_a_max, _a_sum, tmp3, False)\n"), 0);
	/* and the kernel as it is does get rewritten */
	assert_true(two_pass_edits(softmax) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hints),
		cmocka_unit_test(test_hints_user_kernel),
		cmocka_unit_test(test_assume_and_diff),
		cmocka_unit_test(test_pointer_range),
		cmocka_unit_test(test_body_const_and_find_int),
		cmocka_unit_test(test_range_and_no_newline),
		cmocka_unit_test(test_two_pass),
		cmocka_unit_test(test_two_pass_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
