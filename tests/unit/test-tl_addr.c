/*
 * Unit tests for parse/tl_addr: the address patterns of loads and stores.
 * The first three kernels are bodies of corpus/h200-run1's Inductor
 * modules (d6/cd6tam...py, 4o/c4ozvd...py, 6p/c6phgw...py and
 * 5p/c5p4ze...py), trimmed to the lines that matter; the others are
 * written by hand in Inductor's style to show one pattern each. Every
 * expected count is read off the text by eye.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "parse/triton_meta.h"

#define HEAD "import triton\nimport triton.language as tl\n@triton.jit\n"

static struct meta_kernel_list scan(const char *text)
{
	struct meta_kernel_list l = META_KERNEL_LIST_INIT;
	struct buf err = BUF_INIT;

	assert_int_equal(triton_meta_scan(&l, "k.py", text, strlen(text), 0, &err), 1);
	buf_release(&err);
	return l;
}

/* zeros_0: one store of tl.full([1], 0.0, ...) to out_ptr0, contiguous. */
static void test_zero_init(void **state)
{
	struct meta_kernel_list l = scan(HEAD
		"def triton_poi_fused_zeros_0(out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
		"    xnumel = 1280000\n"
		"    xoffset = tl.program_id(0) * XBLOCK\n"
		"    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
		"    xmask = xindex < xnumel\n"
		"    x0 = xindex\n"
		"    tmp0 = tl.full([1], 0.0, tl.float32)\n"
		"    tl.store(out_ptr0 + (x0), tmp0, xmask)\n");
	const struct tl_addr *a = &l.v[0]->addr;

	(void)state;
	assert_true(a->read);
	assert_int_equal(a->stores, 1);
	assert_int_equal(a->loads, 0);
	assert_int_equal(a->zero_stores, 1);
	assert_string_equal(a->zero_param, "out_ptr0");
	assert_int_equal(a->strided + a->divmod + a->gathers + a->scatters, 0);
	meta_kernel_list_release(&l);
}

/*
 * index_add_zeros_1: tmp6's row is contiguous (x1 + 256*y0); tmp0 is an
 * index load; the atomic through tmp4 is no plain scatter.
 */
static void test_index_add(void **state)
{
	struct meta_kernel_list l = scan(HEAD
		"def k(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):\n"
		"    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK\n"
		"    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]\n"
		"    xoffset = tl.program_id(0) * XBLOCK\n"
		"    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]\n"
		"    y0 = yindex\n"
		"    x1 = xindex\n"
		"    tmp0 = tl.load(in_ptr0 + (y0), None, eviction_policy='evict_last')\n"
		"    tmp6 = tl.load(in_ptr1 + (x1 + 256*y0), None, eviction_policy='evict_last')\n"
		"    tmp1 = tl.full([1, 1], 5000, tl.int32)\n"
		"    tmp2 = tmp0 + tmp1\n"
		"    tmp3 = tmp0 < 0\n"
		"    tmp4 = tl.where(tmp3, tmp2, tmp0)\n"
		"    tl.atomic_add(out_ptr0 + (tl.broadcast_to(x1 + 256*tmp4, [YBLOCK, XBLOCK])), tmp6, None, sem='relaxed')\n");
	const struct tl_addr *a = &l.v[0]->addr;

	(void)state;
	assert_int_equal(a->loads, 2);
	assert_int_equal(a->stores, 0);
	assert_int_equal(a->gathers, 0);
	assert_int_equal(a->strided, 0);
	assert_int_equal(a->divmod, 0);
	meta_kernel_list_release(&l);
}

/* embedding + layer norm: a row gather (r0_1 + 1024*tmp4), contiguous in the row. */
static void test_row_gather(void **state)
{
	struct meta_kernel_list l = scan(HEAD
		"def k(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):\n"
		"    R0_BLOCK: tl.constexpr = 1024\n"
		"    xoffset = tl.program_id(0) * XBLOCK\n"
		"    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]\n"
		"    r0_index = tl.arange(0, R0_BLOCK)[None, :]\n"
		"    x0 = xindex\n"
		"    r0_1 = r0_index\n"
		"    tmp0 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last')\n"
		"    tmp1 = tl.full([XBLOCK, R0_BLOCK], 32000, tl.int32)\n"
		"    tmp2 = tmp0 + tmp1\n"
		"    tmp3 = tmp0 < 0\n"
		"    tmp4 = tl.where(tmp3, tmp2, tmp0)\n"
		"    tmp6 = tl.load(in_ptr1 + (r0_1 + 1024*tmp4), None)\n"
		"    tl.store(out_ptr0 + (r0_1 + 1024*x0), tmp6, None)\n");
	const struct tl_addr *a = &l.v[0]->addr;

	(void)state;
	assert_int_equal(a->gathers, 1);
	assert_int_equal(a->gather_elems, 0);
	assert_int_equal(a->gather_line, 16);
	assert_int_equal(a->strided, 0);
	assert_int_equal(a->zero_stores, 0);
	meta_kernel_list_release(&l);
}

/*
 * layer-norm backward (5p/c5p4ze...py): offsets built with % and //; the
 * x0 term keeps every access contiguous.
 */
static void test_divmod(void **state)
{
	struct meta_kernel_list l = scan(HEAD
		"def k(in_ptr0, in_ptr2, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
		"    xoffset = tl.program_id(0) * XBLOCK\n"
		"    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]\n"
		"    r0_base = tl.arange(0, R0_BLOCK)[None, :]\n"
		"    x0 = (xindex % 1024)\n"
		"    x1 = xindex // 1024\n"
		"    x3 = xindex\n"
		"    for r0_offset in range(0, r0_numel, R0_BLOCK):\n"
		"        r0_index = r0_offset + r0_base\n"
		"        r0_2 = r0_index\n"
		"        tmp0 = tl.load(in_ptr0 + (x0 + 1024*r0_2 + 131072*x1), None, eviction_policy='evict_first', other=0.0)\n"
		"        tmp2 = tl.load(in_ptr2 + (r0_2 + 128*x1), None, eviction_policy='evict_last', other=0.0)\n"
		"    tl.store(out_ptr0 + (x3), tmp0, None)\n");
	const struct tl_addr *a = &l.v[0]->addr;

	(void)state;
	assert_int_equal(a->loads, 2);
	assert_int_equal(a->divmod, 2);
	assert_int_equal(a->divmod_line, 14);
	assert_int_equal(a->strided, 0);
	meta_kernel_list_release(&l);
}

/* By hand: a transposed read (stride 512, no stride-1 term), an element gather, a scatter. */
static void test_strided_gather_scatter(void **state)
{
	struct meta_kernel_list l = scan(HEAD
		"def k(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, ks0, XBLOCK : tl.constexpr):\n"
		"    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]\n"
		"    x0 = xindex\n"
		"    tmp0 = tl.load(in_ptr0 + (512*x0), None)\n"
		"    tmp1 = tl.load(in_ptr1 + (x0), None)\n"
		"    tmp2 = tl.load(in_ptr2 + (7*tmp1), None)\n"
		"    tl.store(out_ptr0 + (tmp1), tmp0 + tmp2, None)\n"
		"    tl.store(out_ptr1 + (x0*ks0), tmp0, None)\n");
	const struct tl_addr *a = &l.v[0]->addr;

	(void)state;
	assert_int_equal(a->loads, 3);
	assert_int_equal(a->stores, 2);
	assert_int_equal(a->strided, 2);
	assert_int_equal(a->strided_line, 7);
	assert_int_equal(a->strided_stride, 512);
	assert_int_equal(a->gathers, 1);
	assert_int_equal(a->gather_elems, 1);
	assert_int_equal(a->gather_line, 9);
	assert_int_equal(a->scatters, 1);
	assert_int_equal(a->scatter_line, 10);
	meta_kernel_list_release(&l);
}

/* A template's accumulator starts as tl.zeros and is added to: not a zero store. */
static void test_accumulator_is_not_zero(void **state)
{
	struct meta_kernel_list l = scan(HEAD
		"def k(A, B, out_ptr0, BLOCK: tl.constexpr):\n"
		"    idx = tl.arange(0, BLOCK)\n"
		"    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)\n"
		"    a = tl.load(A + (idx))\n"
		"    acc += a\n"
		"    tl.store(out_ptr0 + (idx), acc)\n");

	(void)state;
	assert_int_equal(l.v[0]->addr.stores, 1);
	assert_int_equal(l.v[0]->addr.zero_stores, 0);
	meta_kernel_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_init),
		cmocka_unit_test(test_index_add),
		cmocka_unit_test(test_row_gather),
		cmocka_unit_test(test_divmod),
		cmocka_unit_test(test_strided_gather_scatter),
		cmocka_unit_test(test_accumulator_is_not_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
