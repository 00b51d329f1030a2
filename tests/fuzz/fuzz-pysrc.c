/*
 * Fuzzes the Python source scanner (parse/pysrc.c) and the lexer under it
 * (parse/pylex.c): statements, functions, then the argument splitter,
 * bracket matcher, top-level search and name cursor on every statement.
 */
#include "fuzz.h"
#include "parse/pylex.h"
#include "parse/pysrc.h"
#include "banned.h"

static void each_stmt(const char *s, const struct pysrc_stmt *st)
{
	struct pysrc_args args = PYSRC_ARGS_INIT;
	struct pysrc_cursor cur;
	struct pysrc_tok t;
	long open = pysrc_find_top(s, st->off, st->end, '(');
	size_t close, line, col, names = 0;

	if (open >= 0) {
		pysrc_match(s, st->end, (size_t)open);
		pysrc_split_args(s, st->end, (size_t)open, &args, &close);
	}
	pysrc_find_top(s, st->off, st->end, '=');
	pysrc_starts_word(s, st->off, st->end, "def");
	pylex_where(s, st->end, &line, &col);
	cur.s = s;
	cur.pos = st->off;
	cur.end = st->end;
	cur.line = st->line;
	while (names++ < 64 && pysrc_next_name(&cur, &t))
		;
	pysrc_args_release(&args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct pysrc src = PYSRC_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	pysrc_scan(&src, s, size, &err);
	for (i = 0; i < src.nstmts; i++)
		each_stmt(s, &src.stmts[i]);
	for (i = 0; i < src.nfuncs; i++)
		pysrc_skip_blanks(s, src.funcs[i].body_off, src.funcs[i].body_end);
	pysrc_release(&src);
	buf_release(&err);
	return 0;
}
