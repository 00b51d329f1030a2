/*
 * Unit tests for parse/output_code: kernel paths in an Inductor output
 * module (the shape of corpus/h200-run1/cache/inductor/nb/cnbs....py).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/output_code.h"

static const char module[] =
	"# AOT ID: ['3_inference']\n"
	"async_compile = AsyncCompile()\n"
	"\n"
	"# kernel path: /tmp/w/cache/inductor/vw/cvwx.py\n"
	"# Topologically Sorted Source Nodes: [matmul], Original ATen: [aten.mm]\n"
	"triton_tem_fused_mm_0 = async_compile.triton('triton_tem_fused_mm_0', '''\n"
	"@triton.jit\n"
	"def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0):\n"
	"    x = bad = async_compile.triton('not_me', '''\n"
	"''', device_str='cuda')\n"
	"\n"
	"# kernel path: /tmp/w/cache/inductor/sb/csbf.py\r\n"
	"triton_poi_fused_relu_1 = async_compile.triton('triton_poi_fused_relu_1', '''\n"
	"''', device_str='cuda')\n"
	"other = async_compile.triton('without_a_path', '''\n";

static void test_scan(void **state)
{
	struct oc_module m;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(output_code_scan(&m, module, strlen(module)), 15);
	assert_int_equal(m.nr, 2);
	assert_string_equal(m.k[0].name, "triton_tem_fused_mm_0");
	assert_string_equal(m.k[0].path, "/tmp/w/cache/inductor/vw/cvwx.py");
	assert_int_equal(m.k[0].line, 4);
	assert_string_equal(m.k[1].name, "triton_poi_fused_relu_1");
	assert_string_equal(m.k[1].path, "/tmp/w/cache/inductor/sb/csbf.py");
	assert_int_equal(m.k[1].line, 12);
	while (m.nr--) {
		free(m.k[m.nr].name);
		free(m.k[m.nr].path);
	}
	free(m.k);
}

static void test_missing_module_is_cached(void **state)
{
	struct output_code_cache c = { NULL, 0, 0 };
	struct autotune_set set;
	const struct oc_module *a, *b;
	const char *p = "/nonexistent/tko/te/cte.py";

	(void)state;
	autotune_set_init(&set);
	a = output_code_get(&c, &set, NULL, p, strlen(p));
	b = output_code_get(&c, &set, NULL, p, strlen(p));
	assert_ptr_equal(a, b);
	assert_int_equal(a->found, 0);
	assert_int_equal(a->nr, 0);
	assert_int_equal(set.ninputs, 0);
	output_code_cache_release(&c);
	autotune_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_missing_module_is_cached),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
