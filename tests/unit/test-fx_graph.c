/*
 * Unit tests for parse/fx_graph (post-grad graph nodes to the user's
 * source lines) and parse/wrapper_calls (launch sites of a wrapper
 * module): a small excerpt in the real format, then the real files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/fx_graph.h"
#include "parse/wrapper_calls.h"
#include "util/file.h"
#include "util/mem.h"

#define PRE "V1202 18:16:32.985000 531 torch/_inductor/compile_fx.py:1346] [1/0] [__post_grad_graphs] "

static const char excerpt[] =
	PRE "TRACED GRAPH\n"
	PRE "        # File: /m/model.py:36 in scatter, code: out = torch.zeros(n, 3)\n"
	PRE "        full_default: \"f32[5000, 256][256, 1]cuda:0\" = torch.ops.aten.full.default([5000, 256], 0)\n"
	PRE "        # File: /m/model.py:37 in scatter, code: out.index_add_(0, index, src)\n"
	PRE "        index_put: \"f32[5000, 256][256, 1]cuda:0\" = torch.ops.aten.index_put_.default(full_default)\n"
	PRE "        # No stacktrace found for following nodes\n"
	PRE "        prepare = torch.ops.prims.prepare_softmax_online.default(view_3, -1)\n"
	"V1202 18:16:33.614000 531 torch/_inductor/graph.py:2522] [1/0] Output code written to: /r/cache/inductor/pu/cpuh.py\n"
	"the model's own print: index_put = 3\n";

static void test_excerpt(void **state)
{
	struct fx_graphs g = FX_GRAPHS_INIT;
	const struct fx_graph *gr;
	const struct fx_origin *o;

	(void)state;
	assert_int_equal(fx_graphs_scan(&g, excerpt, strlen(excerpt)), 1);
	gr = fx_graphs_find(&g, "/laptop/RUN/cache/inductor/pu/cpuh.py");
	assert_non_null(gr);
	assert_string_equal(gr->compile_id, "1/0");
	o = fx_graph_origin(gr, "index_put");
	assert_non_null(o);
	assert_string_equal(o->file, "/m/model.py");
	assert_int_equal(o->line, 37);
	assert_string_equal(o->function, "scatter");
	assert_string_equal(o->code, "out.index_add_(0, index, src)");
	assert_int_equal(fx_graph_origin(gr, "full_default")->line, 36);
	assert_null(fx_graph_origin(gr, "prepare"));	/* no stack trace */
	assert_null(fx_graph_origin(gr, "view_3"));	/* only used, never defined */
	assert_null(fx_graphs_find(&g, "/r/cache/inductor/te/other.py"));
	fx_graphs_release(&g);
}

/* examples/h200-run/log/model.log: grep -c 'AFTER POST GRAD' gives 3 graphs. */
static void test_example_log(void **state)
{
	struct fx_graphs g = FX_GRAPHS_INIT;
	struct mapped_file m = MAPPED_FILE_INIT;
	struct buf err = BUF_INIT;
	char *p = path_join(getenv("TESTDATA"), "../../examples/h200-run/log/model.log");
	const struct fx_graph *gr;

	(void)state;
	assert_int_equal(file_map(p, 0, &m, &err), 0);
	assert_int_equal(fx_graphs_scan(&g, m.data, m.len), 3);
	gr = fx_graphs_find(&g, "cache/inductor/pu/cpuh55of2vyceyms3pvbh2frhhyqbsiueef2ujbfydnvfnn3pjbt.py");
	assert_non_null(gr);
	assert_int_equal(fx_graph_origin(gr, "index_put")->line, 37);
	file_unmap(&m);
	fx_graphs_release(&g);
	free(p);
}

static const char wrapper[] =
	"triton_poi_fused_zeros_0 = async_compile.triton('triton_poi_fused_zeros_0', '''\n"
	"def call(args):\n"
	"    triton_poi_fused_zeros_0.run(*args, stream=stream0)\n"
	"''', device_str='cuda')\n"
	"def call(args):\n"
	"    # triton_poi_fused_zeros_0.run(buf0) in a comment\n"
	"    triton_poi_fused_zeros_0.run(buf0, 1280000, stream=stream0)\n"
	"    extern_kernels.mm(a, b, out=buf3)\n"
	"    other_kernel.run(buf0)\n"
	"    triton_poi_fused_zeros_0.run (buf1, 16, stream=stream0)\n";

static void test_wrapper_calls(void **state)
{
	struct strmap names = STRMAP_INIT;
	struct wcall_list l = WCALL_LIST_INIT;
	int added;

	(void)state;
	strmap_put(&names, "triton_poi_fused_zeros_0", 24, &added);
	assert_int_equal(wrapper_calls_scan(&l, wrapper, strlen(wrapper), &names), 3);
	assert_string_equal(l.v[0].name, "triton_poi_fused_zeros_0");
	assert_int_equal(l.v[0].line, 7);
	assert_false(l.v[0].library);
	assert_string_equal(l.v[1].name, "extern_kernels.mm");
	assert_true(l.v[1].library);
	assert_int_equal(l.v[2].line, 10);
	wcall_list_release(&l);
	strmap_release(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_excerpt),
		cmocka_unit_test(test_example_log),
		cmocka_unit_test(test_wrapper_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
