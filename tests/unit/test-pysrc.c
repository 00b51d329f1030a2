/*
 * Unit tests for parse/pysrc: statements, comments, decorators, defs and
 * their parameters and bodies, call arguments, names with line numbers,
 * and the errors of truncated or unbalanced source. Line numbers were
 * counted by hand (`grep -n` for the corpus file).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/pysrc.h"
#include "util/file.h"

static void assert_span(const char *s, size_t off, size_t len, const char *want)
{
	if (len != strlen(want) || memcmp(s + off, want, len))
		fail_msg("got <%.*s>, want <%s>", (int)len, s + off, want);
}

static void scan_ok(struct pysrc *src, const char *text)
{
	struct buf err = BUF_INIT;

	if (pysrc_scan(src, text, strlen(text), &err) < 0)
		fail_msg("scan failed: %s", err.buf);
	buf_release(&err);
}

static void assert_scan_error(const char *text, const char *want)
{
	struct pysrc src = PYSRC_INIT;
	struct buf err = BUF_INIT;

	assert_int_equal(pysrc_scan(&src, text, strlen(text), &err), -1);
	assert_string_equal(err.buf, want);
	buf_release(&err);
	pysrc_release(&src);
}

static const char sample[] =
	"# header comment\n"				/* 1 */
	"import triton\n"				/* 2 */
	"\n"						/* 3 */
	"DOC = '''\n"					/* 4 */
	"@triton.jit\n"					/* 5 */
	"def fake(x):\n"				/* 6 */
	"'''\n"						/* 7 */
	"# about k\n"					/* 8 */
	"# more\n"					/* 9 */
	"@triton.autotune(configs=[\n"			/* 10 */
	"    triton.Config({'B': 1}),  # one\n"		/* 11 */
	"], key=['n'])\n"				/* 12 */
	"@triton.jit\n"					/* 13 */
	"def k(a_ptr, n, \\\n"				/* 14 */
	"      B: tl.constexpr = 4, *rest, c=(1, 2), **kw) -> None:\n" /* 15 */
	"    s = \"def inner(\"  # def not(\n"		/* 16 */
	"    x = tl.load(a_ptr +\n"			/* 17 */
	"                n)\n"				/* 18 */
	"\n"						/* 19 */
	"\tif x: tl.store(a_ptr, x)\n"			/* 20 */
	"def one(a): return a\n"			/* 21 */
	"class C:\n"					/* 22 */
	"    async def m(self, /, q, *, r):\n"		/* 23 */
	"        pass\n";				/* 24 */

static void test_statements_and_comments(void **state)
{
	struct pysrc src = PYSRC_INIT;
	const struct pysrc_stmt *st;

	(void)state;
	scan_ok(&src, sample);
	assert_int_equal(src.nstmts, 12);
	st = &src.stmts[0];
	assert_int_equal(st->line, 2);
	assert_span(sample, st->comment_off, st->comment_end - st->comment_off, "# header comment\n");
	st = &src.stmts[1];
	assert_int_equal(st->line, 4);
	assert_int_equal(st->end_line, 7);
	assert_int_equal(st->comment_end, st->comment_off);
	st = &src.stmts[2];
	assert_int_equal(st->line, 10);
	assert_int_equal(st->end_line, 12);
	assert_int_equal(st->comment_line, 8);
	assert_span(sample, st->comment_off, st->comment_end - st->comment_off, "# about k\n# more\n");
	assert_span(sample, st->off, st->end - st->off,
		    "@triton.autotune(configs=[\n    triton.Config({'B': 1}),  # one\n], key=['n'])");
	st = &src.stmts[4];
	assert_int_equal(st->line, 14);
	assert_int_equal(st->end_line, 15);
	st = &src.stmts[5];
	assert_int_equal(st->line, 16);
	assert_span(sample, st->off, st->end - st->off, "s = \"def inner(\"");
	assert_int_equal(src.stmts[6].end_line, 18);
	assert_int_equal(src.stmts[7].indent, 8);
	assert_int_equal(src.stmts[7].line, 20);
	pysrc_release(&src);
}

static void test_functions(void **state)
{
	struct pysrc src = PYSRC_INIT;
	const struct pysrc_func *f;
	const struct pysrc_param *p;

	(void)state;
	scan_ok(&src, sample);
	assert_int_equal(src.nfuncs, 3);
	f = &src.funcs[0];
	assert_span(sample, f->name_off, f->name_len, "k");
	assert_int_equal(f->line, 14);
	assert_int_equal(f->ndecorators, 2);
	assert_int_equal(src.stmts[f->stmt - 2].line, 10);
	assert_int_equal(f->nparams, 6);
	p = f->params;
	assert_span(sample, p[0].name_off, p[0].name_len, "a_ptr");
	assert_int_equal(p[0].ann_len, 0);
	assert_span(sample, p[2].name_off, p[2].name_len, "B");
	assert_span(sample, p[2].ann_off, p[2].ann_len, "tl.constexpr");
	assert_span(sample, p[2].def_off, p[2].def_len, "4");
	assert_span(sample, p[3].name_off, p[3].name_len, "rest");
	assert_int_equal(p[3].stars, 1);
	assert_span(sample, p[4].def_off, p[4].def_len, "(1, 2)");
	assert_int_equal(p[5].stars, 2);
	assert_int_equal(f->body_line, 15);
	assert_int_equal(f->body_stmts_end, 8);
	assert_span(sample, f->body_end - 18, 18, "tl.store(a_ptr, x)");
	f = &src.funcs[1];
	assert_span(sample, f->name_off, f->name_len, "one");
	assert_int_equal(f->ndecorators, 0);
	assert_span(sample, f->body_off, f->body_end - f->body_off, " return a");
	f = &src.funcs[2];
	assert_span(sample, f->name_off, f->name_len, "m");
	assert_int_equal(f->line, 23);
	assert_int_equal(f->nparams, 3);
	assert_span(sample, f->params[1].name_off, f->params[1].name_len, "q");
	pysrc_release(&src);
}

static void test_corpus_hand_written_kernels(void **state)
{
	const char *corpus = getenv("CORPUS");
	struct mapped_file m = MAPPED_FILE_INIT;
	struct pysrc src = PYSRC_INIT;
	struct buf err = BUF_INIT;
	char *path;
	size_t i;

	(void)state;
	if (!corpus)
		skip();
	path = path_join(corpus, "scripts/amd_compile.py");
	assert_int_equal(file_map(path, 0, &m, &err), 0);
	assert_int_equal(pysrc_scan(&src, m.data, m.len, &err), 0);
	for (i = 0; i < src.nfuncs && src.funcs[i].line != 10; i++)
		;
	assert_true(i + 1 < src.nfuncs);
	assert_span(m.data, src.funcs[i].name_off, src.funcs[i].name_len, "add_scale");
	assert_int_equal(src.funcs[i].ndecorators, 1);
	assert_int_equal(src.stmts[src.funcs[i].stmt - 1].line, 9);
	assert_int_equal(src.funcs[i].nparams, 6);
	assert_span(m.data, src.funcs[i].params[5].ann_off, src.funcs[i].params[5].ann_len,
		    "tl.constexpr");
	assert_int_equal(src.stmts[src.funcs[i].body_stmts_end - 1].line, 16);
	assert_span(m.data, src.funcs[i + 1].name_off, src.funcs[i + 1].name_len, "add_scale_hint");
	assert_int_equal(src.funcs[i + 1].line, 19);
	assert_int_equal(src.stmts[src.funcs[i + 1].body_stmts_end - 1].line, 28);
	pysrc_release(&src);
	file_unmap(&m);
	free(path);
	buf_release(&err);
}

static void test_errors(void **state)
{
	(void)state;
	assert_scan_error("x = 1\ny = {'a': [1,\n", "line 2 column 11: '[' is never closed");
	assert_scan_error("x = 'abc\n", "line 1 column 5: unterminated string");
	assert_scan_error("x = '''abc\n\n", "line 1 column 5: unterminated string");
	assert_scan_error("f(a]\n", "line 1 column 4: ']' does not match '('");
	assert_scan_error("x = 1)\n", "line 1 column 6: unmatched ')'");
}

static void test_split_args(void **state)
{
	const char *s = "tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last', other=0.0,)";
	struct pysrc_args a = PYSRC_ARGS_INIT;
	size_t close;

	(void)state;
	assert_int_equal(pysrc_split_args(s, strlen(s), 7, &a, &close), 0);
	assert_int_equal(close, strlen(s) - 1);
	assert_int_equal(a.nr, 4);
	assert_span(s, a.v[0].off, a.v[0].len, "in_ptr0 + (x0)");
	assert_int_equal(a.v[0].kw_len, 0);
	assert_span(s, a.v[1].off, a.v[1].len, "xmask");
	assert_span(s, a.v[2].kw_off, a.v[2].kw_len, "eviction_policy");
	assert_span(s, a.v[2].off, a.v[2].len, "'evict_last'");
	assert_span(s, a.v[3].off, a.v[3].len, "0.0");
	s = "f(a == b, c=d == e, ')')";
	assert_int_equal(pysrc_split_args(s, strlen(s), 1, &a, &close), 0);
	assert_int_equal(a.nr, 3);
	assert_int_equal(a.v[0].kw_len, 0);
	assert_span(s, a.v[1].kw_off, a.v[1].kw_len, "c");
	assert_span(s, a.v[1].off, a.v[1].len, "d == e");
	assert_span(s, a.v[2].off, a.v[2].len, "')'");
	assert_int_equal(pysrc_split_args("f(a, (b", 7, 1, &a, &close), -1);
	pysrc_args_release(&a);
}

static void test_find_top(void **state)
{
	const char *s = "x == y <= z != (w = 1) = '=' ";

	(void)state;
	assert_int_equal(pysrc_find_top(s, 0, strlen(s), '='), 23);
	assert_int_equal(pysrc_find_top(s, 0, strlen(s), ','), -1);
	assert_int_equal(pysrc_match("(a, [b], ')') x", 15, 0), 12);
	assert_int_equal(pysrc_match("(a, [b]", 7, 0), -1);
}

static void test_names(void **state)
{
	const char *s =
		"tmp0 = tl.load(in_ptr0 + x0)  # tl.store(x)\n"
		"s = \"tl.where(\" + '''\n"
		"tl.dot(''' + str(1e5)\n"
		"y = tl.program_id(0).to(tl.int32)\n";
	struct pysrc_cursor c = { s, 0, strlen(s), 1 };
	struct pysrc_tok t;
	struct buf got = BUF_INIT;

	(void)state;
	while (pysrc_next_name(&c, &t))
		buf_addf(&got, "%.*s@%zu%s ", (int)t.len, s + t.off, t.line, t.after_dot ? "." : "");
	assert_string_equal(got.buf, "tmp0@1 tl.load@1 in_ptr0@1 x0@1 s@2 str@3 y@4 "
				     "tl.program_id@4 to@4. tl.int32@4 ");
	buf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statements_and_comments),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_corpus_hand_written_kernels),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_split_args),
		cmocka_unit_test(test_find_top),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
