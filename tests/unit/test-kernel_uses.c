/*
 * Unit tests for parse/kernel_uses: the argument uses model/traffic counts
 * bytes from, read from a hand-written two-kernel module. Every count is
 * the number of tl.load / tl.store / tl.atomic_add sites in the source
 * below whose pointer starts from that argument, counted by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse/kernel_uses.h"
#include "util/file.h"
#include "util/mem.h"

static const char module[] =
	"import triton\n"
	"import triton.language as tl\n"
	"@triton.jit\n"
	"def copy(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):\n"
	"    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)\n"
	"    tmp0 = tl.load(in_ptr0 + xindex)\n"
	"    tl.store(out_ptr0 + xindex, tmp0)\n"
	"@triton.jit\n"
	"def embed_grad(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):\n"
	"    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)\n"
	"    tmp0 = tl.load(in_ptr0 + xindex)\n"
	"    tmp1 = tl.load(in_ptr1 + xindex)\n"
	"    tl.atomic_add(out_ptr0 + tmp0, tmp1)\n";

static char dir[] = "/tmp/tko-test-kernel-uses-XXXXXX";
static char *py;

static int setup(void **state)
{
	struct buf err = BUF_INIT;
	int rc;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	py = path_join(dir, "kernel.py");
	rc = write_file_atomic(py, module, strlen(module), &err);
	buf_release(&err);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	unlink(py);
	free(py);
	return rmdir(dir);
}

static void expect(const struct traffic_source *s, const char *name, unsigned loads,
		   unsigned stores, unsigned atomics, int indirect)
{
	const struct traffic_use *u = traffic_source_get(s, name);

	assert_non_null(u);
	assert_int_equal(u->loads, loads);
	assert_int_equal(u->stores, stores);
	assert_int_equal(u->atomics, atomics);
	assert_int_equal(u->indirect, indirect);
}

/* No name: the first kernel, a plain copy; nothing goes through a loaded index. */
static void test_first_kernel(void **state)
{
	struct traffic_source s = TRAFFIC_SOURCE_INIT;

	(void)state;
	assert_int_equal(kernel_uses_read(&s, py, NULL), 1);
	expect(&s, "in_ptr0", 1, 0, 0, 0);
	expect(&s, "out_ptr0", 0, 1, 0, 0);
	expect(&s, "xnumel", 0, 0, 0, 0);
	assert_null(traffic_source_get(&s, "in_ptr1"));
	traffic_source_release(&s);
}

/* embed_grad: out_ptr0's one atomic goes through tmp0, loaded from in_ptr0. */
static void test_named_kernel(void **state)
{
	struct traffic_source s = TRAFFIC_SOURCE_INIT;
	const struct traffic_use *u;

	(void)state;
	assert_int_equal(kernel_uses_read(&s, py, "embed_grad"), 1);
	expect(&s, "in_ptr0", 1, 0, 0, 0);
	expect(&s, "in_ptr1", 1, 0, 0, 0);
	expect(&s, "out_ptr0", 0, 0, 1, 1);
	u = traffic_source_get(&s, "out_ptr0");
	assert_int_equal(u->gathers, 0);
	assert_int_equal(u->scatters, 0);
	assert_int_equal(u->atomic_scatters, 1);
	traffic_source_release(&s);
}

/* A missing file or kernel reads nothing: the count then goes by argument names. */
static void test_nothing_to_read(void **state)
{
	struct traffic_source s = TRAFFIC_SOURCE_INIT;
	char *missing = path_join(dir, "absent.py");

	(void)state;
	assert_int_equal(kernel_uses_read(&s, missing, NULL), 0);
	assert_int_equal(kernel_uses_read(&s, py, "no_such_kernel"), 0);
	assert_int_equal(s.nr, 0);
	free(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_kernel),
		cmocka_unit_test(test_named_kernel),
		cmocka_unit_test(test_nothing_to_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
