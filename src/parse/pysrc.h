/*
 * pysrc: a scanner for Python source files, enough to find Triton kernels
 * in TorchInductor's generated modules and in hand-written files: logical
 * lines (statements, with their bracketed continuations, backslash
 * continuations and multi-line strings), the comment block above each one,
 * function definitions with their decorators, parameters (name, annotation,
 * default) and bodies, the arguments of a call, and the names used in a
 * span with their physical line numbers. Strings and comments never count
 * as code.
 *
 * It is not a Python parser: statements are not interpreted beyond their
 * first word, and expressions stay text for pylit.h to read.
 *
 * Usage:
 *
 *	struct pysrc src = PYSRC_INIT;
 *	if (pysrc_scan(&src, data, len, &err) < 0)
 *		... err: "line L column C: '{' is never closed"
 *	for (i = 0; i < src.nfuncs; i++)
 *		... src.funcs[i], its decorators src.stmts[f->stmt - f->ndecorators ...]
 *	pysrc_release(&src);
 *
 * All offsets index the scanned span, which stays borrowed: it must
 * outlive the struct pysrc.
 */
#ifndef TKO_PYSRC_H
#define TKO_PYSRC_H

#include <stddef.h>

#include "util/buf.h"

/* One logical line. */
struct pysrc_stmt {
	size_t off;		/* first byte of code, after the indentation */
	size_t end;		/* one past its last code byte (a trailing comment excluded) */
	size_t line;		/* physical line where it starts (1-based) */
	size_t end_line;	/* physical line where its code ends */
	unsigned indent;	/* indentation width, tabs to multiples of 8 */
	size_t comment_off;	/* the comment-only lines right above it, no blank line between ... */
	size_t comment_end;	/* ... up to here (equal to comment_off when there are none) */
	size_t comment_line;	/* line of the first of those comments */
};

struct pysrc_param {
	size_t name_off, name_len;	/* the parameter's name */
	size_t ann_off, ann_len;	/* its annotation ("tl.constexpr"); ann_len 0 when none */
	size_t def_off, def_len;	/* its default value; def_len 0 when none */
	int stars;			/* 1 for *args, 2 for **kwargs, else 0 */
};

/* A `def` (or `async def`) statement with its decorators and body. */
struct pysrc_func {
	size_t name_off, name_len;	/* the function's name */
	size_t line;			/* line of the `def` */
	size_t stmt;			/* index of the def statement in stmts */
	size_t ndecorators;		/* decorators are stmts[stmt - ndecorators .. stmt) */
	struct pysrc_param *params;	/* in order; a bare '*' or '/' is not listed */
	size_t nparams;
	size_t body_off;		/* first byte after the header's ':' */
	size_t body_end;		/* one past the end of the last body statement */
	size_t body_line;		/* line of body_off */
	size_t body_stmts_end;		/* index after the last body statement */
};

struct pysrc {
	const char *s;			/* the scanned span (borrowed) */
	size_t n;			/* its length */
	struct pysrc_stmt *stmts;	/* every logical line, in order */
	size_t nstmts, stmts_alloc;
	struct pysrc_func *funcs;	/* every def, at any depth, in order */
	size_t nfuncs, funcs_alloc;
};
#define PYSRC_INIT { NULL, 0, NULL, 0, 0, NULL, 0, 0 }

/*
 * Splits s[0..n) into statements and finds the functions. Returns 0, or -1
 * with "line L column C: <why>" in err for text Python could not tokenize
 * (an unterminated string, a bracket never closed, a closer that matches
 * nothing). The struct holds what was found before the error either way.
 */
int pysrc_scan(struct pysrc *src, const char *s, size_t n, struct buf *err);
void pysrc_release(struct pysrc *src);

/* 1 when statement text s[off..end) starts with the word `word` (then not a name character). */
int pysrc_starts_word(const char *s, size_t off, size_t end, const char *word);

/*
 * The closer matching the bracket at s[open], skipping strings and
 * comments; -1 when there is none before `end`.
 */
long pysrc_match(const char *s, size_t end, size_t open);

/*
 * The first `c` at bracket depth 0 in s[from..end), outside strings and
 * comments; for '=', one that is not part of ==, <=, >=, != or :=.
 * -1 when there is none.
 */
long pysrc_find_top(const char *s, size_t from, size_t end, char c);

/* One argument of a call: "kw=value" or "value", both trimmed. */
struct pysrc_arg {
	size_t kw_off, kw_len;	/* the keyword; kw_len 0 when positional */
	size_t off, len;	/* the value's text */
};

struct pysrc_args {
	struct pysrc_arg *v;
	size_t nr, alloc;
};
#define PYSRC_ARGS_INIT { NULL, 0, 0 }

/*
 * Splits the bracketed list whose opener is at s[open] at its top-level
 * commas (replacing what `out` held), and sets *close to the closer.
 * Returns 0, or -1 when the bracket is not closed before `end`.
 */
int pysrc_split_args(const char *s, size_t end, size_t open,
		     struct pysrc_args *out, size_t *close);
void pysrc_args_release(struct pysrc_args *a);

/* A name in code: an identifier, or a dotted chain of them ("tl.load"). */
struct pysrc_tok {
	size_t off, len;	/* its text */
	size_t line;		/* physical line of its first byte */
	int after_dot;		/* it follows a '.', so is an attribute of something else */
};

/* Walks the names of s[pos..end), skipping strings, comments and numbers. */
struct pysrc_cursor {
	const char *s;		/* the source */
	size_t pos;		/* next byte to look at */
	size_t end;		/* where to stop */
	size_t line;		/* physical line of s[pos] */
};

/* 1 and the next name in *t, or 0 at the end. */
int pysrc_next_name(struct pysrc_cursor *c, struct pysrc_tok *t);

/* The first offset at or after `pos` that is not a space or a tab (at most `end`). */
size_t pysrc_skip_blanks(const char *s, size_t pos, size_t end);

#endif
