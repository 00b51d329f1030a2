/*
 * Unit tests for parse/meta (with triton_meta, tl_uses and
 * inductor_wrapper under it): the library API that `tko investigate` and
 * `tko tune` call in-process. Expected values are read off the inline
 * modules by eye, or counted with grep in the corpus (noted where used).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/meta.h"
#include "report/meta_json.h"
#include "util/file.h"

/* An Inductor module for a DCU and a hand-written kernel, in one span. */
static const char module[] =
	"import triton\n"							/* 1 */
	"import triton.language as tl\n"					/* 2 */
	"@triton_heuristics.pointwise(size_hints={'x': 64}, filename=__file__,\n"	/* 3 */
	"    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'xnumel': 'i32',"
	" 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='hip', index=0,"
	" multi_processor_count=80, cc='gfx936', warp_size=64), 'constants': {},"
	" 'configs': [{(0,): [['tt.divisibility', 16], ['tt.pointer_range', 32]],"
	" (1,): [['tt.divisibility', 16]]}]},\n"					/* 4 */
	"    inductor_meta={'kernel_name': 'triton_poi_fused_relu_0', 'mutated_arg_names': []})\n" /* 5 */
	"@triton.jit\n"								/* 6 */
	"def triton_poi_fused_relu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n" /* 7 */
	"    x0 = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)\n"		/* 8 */
	"    tmp0 = tl.load(in_ptr0 + x0, x0 < xnumel)\n"			/* 9 */
	"    tl.store(out_ptr0 + x0, tl.where(tmp0 > 0, tmp0, 0), x0 < xnumel)\n"	/* 10 */
	"\n"									/* 11 */
	"@triton.jit\n"								/* 12 */
	"def copy(src, dst, n, BLOCK: tl.constexpr = 128):\n"			/* 13 */
	"    p = src + tl.arange(0, BLOCK)\n"					/* 14 */
	"    tl.store(dst, tl.load(p), mask=None)\n";				/* 15 */

static void test_span_kernels(void **state)
{
	struct meta_set set = META_SET_INIT;
	struct buf err = BUF_INIT;
	const struct meta_kernel *k[2];
	const struct meta_arg *a;

	(void)state;
	assert_int_equal(meta_scan_span(&set, "m.py", module, strlen(module), &err), 0);
	meta_link(&set);
	assert_int_equal(set.kernels.nr, 2);
	assert_string_equal(set.files[0].role, "kernel");
	assert_int_equal(meta_find(&set, "triton_poi_fused_relu_0", k, 2), 1);
	assert_string_equal(k[0]->kind, "pointwise");
	assert_int_equal(k[0]->line, 7);
	assert_string_equal(k[0]->device.backend, "hip");
	assert_string_equal(k[0]->device.arch, "gfx936");
	assert_int_equal(k[0]->device.warp_size, 64);
	assert_int_equal(k[0]->device.multi_processor_count, 80);
	assert_true(k[0]->hints_known);
	a = meta_kernel_arg(k[0], "in_ptr0");
	assert_int_equal(meta_arg_hint(a, "tt.pointer_range"), 32);
	assert_int_equal(a->pointer, 1);
	assert_int_equal(a->loads, 1);
	a = meta_kernel_arg(k[0], "out_ptr0");
	assert_int_equal(meta_arg_hint(a, "tt.divisibility"), 16);
	assert_int_equal(meta_arg_hint(a, "tt.pointer_range"), 0);
	assert_int_equal(a->stores, 1);
	assert_true(meta_kernel_arg(k[0], "XBLOCK")->is_constexpr);
	assert_int_equal(k[0]->nuses, 3);
	assert_string_equal(k[0]->uses[1].op, "tl.store");
	assert_string_equal(k[0]->uses[1].mask, "x0 < xnumel");
	assert_string_equal(k[0]->uses[2].op, "tl.where");
	assert_int_equal(k[0]->uses[2].line, 10);

	assert_int_equal(meta_find(&set, "copy", k, 2), 1);
	assert_string_equal(k[0]->kind, "jit");
	assert_false(k[0]->hints_known);
	assert_null(k[0]->device.backend);
	assert_int_equal(meta_kernel_arg(k[0], "src")->pointer, 1);	/* through p = src + ... */
	assert_int_equal(meta_kernel_arg(k[0], "dst")->pointer, 1);
	assert_int_equal(meta_kernel_arg(k[0], "n")->pointer, -1);
	assert_string_equal(meta_kernel_arg(k[0], "BLOCK")->default_text, "128");
	assert_null(k[0]->uses[0].mask);	/* mask=None is no mask */
	assert_string_equal(k[0]->uses[1].op, "tl.load");
	assert_string_equal(k[0]->uses[1].base, "src");
	assert_int_equal(meta_find(&set, "cop", k, 2), 0);
	meta_set_release(&set);
	buf_release(&err);
}

static void test_bad_span_is_recorded(void **state)
{
	struct meta_set set = META_SET_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	assert_int_equal(meta_scan_span(&set, "cut.py", module, 120, &err), -1);
	assert_string_equal(err.buf, "cannot parse 'cut.py' line 3 column 29: '(' is never closed");
	assert_int_equal(set.nfiles, 1);
	assert_string_equal(set.files[0].role, "error");
	assert_string_equal(set.files[0].error, err.buf);
	assert_int_equal(set.nerrors, 1);
	buf_reset(&err);
	assert_int_equal(meta_scan_span(&set, "empty.py", module, 0, &err), -1);
	assert_string_equal(err.buf, "'empty.py' is empty");
	assert_int_equal(set.nerrors, 2);
	buf_reset(&err);
	assert_int_equal(meta_scan_span(&set, "other.py", "print(1)\n", 9, &err), 0);
	assert_string_equal(set.files[2].role, "other");
	meta_set_release(&set);
	buf_release(&err);
}

static char *corpus_path(const char *rel)
{
	const char *corpus = getenv("CORPUS");

	return corpus ? path_join(corpus, rel) : NULL;
}

/* The corpus wrapper 2y/c2y7l3...: two blocks, the defs at lines 65 and 137 (grep -n). */
static void test_wrapper_alone(void **state)
{
	char *path = corpus_path("h200-run1/cache/inductor/2y/c2y7l3hjoz3kucv3lz3rfl7oyyzrqcnwaetgeepjff5eravxqr37.py");
	struct meta_set set = META_SET_INIT;
	struct buf err = BUF_INIT;

	(void)state;
	if (!path)
		skip();
	assert_int_equal(meta_scan_file(&set, path, &err), 0);
	meta_link(&set);
	assert_string_equal(set.files[0].role, "wrapper");
	assert_int_equal(set.wrapped.nr, 2);
	assert_null(set.wrapped.v[0].resolved);
	assert_int_equal(set.kernels.nr, 2);
	assert_int_equal(set.kernels.v[0]->line, 65);
	assert_int_equal(set.kernels.v[1]->line, 137);
	assert_true(set.kernels.v[1]->embed_line > 0);
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(set.kernels.v[1]->aten, "original_aten"), 1)), "aten.index_add");
	meta_set_release(&set);
	buf_release(&err);
	free(path);
}

/* Writes the streamed document and reads it back. */
static json_t *stream_and_load(const struct meta_set *set, char **text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	json_error_t je;
	json_t *j;

	assert_non_null(fp);
	assert_int_equal(meta_write_json(fp, set, NULL, 0), 0);
	assert_int_equal(fclose(fp), 0);
	j = json_loadb(buf, len, 0, &je);
	if (!j)
		fail_msg("streamed JSON does not parse: %s line %d", je.text, je.line);
	*text = buf;
	return j;
}

/* The whole corpus cache: every block linked (19 `# kernel path:` lines, grep -c). */
static void test_directory_stream_equals_tree(void **state)
{
	char *path = corpus_path("h200-run1/cache/inductor");
	struct meta_set set = META_SET_INIT;
	struct buf err = BUF_INIT;
	json_t *tree, *streamed;
	char *text, *want;
	size_t i;

	(void)state;
	if (!path)
		skip();
	assert_int_equal(meta_scan_path(&set, path, &err), 0);
	meta_link(&set);
	assert_int_equal(set.nerrors, 0);
	assert_int_equal(set.wrapped.nr, 19);
	for (i = 0; i < set.wrapped.nr; i++)
		assert_non_null(set.wrapped.v[i].resolved);
	for (i = 1; i < set.kernels.nr; i++)
		assert_true(strcmp(set.kernels.v[i - 1]->file, set.kernels.v[i]->file) <= 0);
	tree = meta_to_json(&set, NULL, 0);
	streamed = stream_and_load(&set, &text);
	assert_true(json_equal(tree, streamed));
	want = json_dumps(tree, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	assert_non_null(want);
	assert_int_equal(strlen(text), strlen(want) + 1);
	assert_memory_equal(text, want, strlen(want));
	free(want);
	free(text);
	json_decref(tree);
	json_decref(streamed);
	meta_set_release(&set);
	buf_release(&err);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span_kernels),
		cmocka_unit_test(test_bad_span_is_recorded),
		cmocka_unit_test(test_wrapper_alone),
		cmocka_unit_test(test_directory_stream_equals_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
