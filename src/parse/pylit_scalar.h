/*
 * Internals of the Python literal reader shared by its two files: the
 * parser state, error reporting, and the scalar readers (strings and
 * numbers, pylit_scalar.c) that the container parser (pylit.c) calls.
 * Not for use outside src/parse/pylit*.c; see pylit.h for the API.
 */
#ifndef TKO_PYLIT_SCALAR_H
#define TKO_PYLIT_SCALAR_H

#include <stddef.h>

#include "parse/pylit.h"
#include "util/buf.h"

/* Deeper nesting than any decorator needs; guards the C stack. */
#define PYLIT_MAX_DEPTH 200

struct pylit_parser {
	const char *s;		/* the whole span */
	size_t n;		/* its length */
	size_t pos;		/* next unread byte */
	unsigned flags;		/* PYLIT_LENIENT */
	int depth;		/* current nesting of containers and calls */
	struct buf msg;		/* the last failure, "line L column C: why" */
	int eof_reported;	/* msg names the innermost bracket left open; keep it */
	struct buf scratch;	/* a string literal being decoded */
};

/*
 * Records "line L column C: <why>" for s[off] in p->msg (replacing an
 * earlier failure) and returns -1.
 */
int pylit_fail(struct pylit_parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Names the byte at `off` for messages ("end of input", "'x'", "byte 0x01"), using tmp. */
const char *pylit_what_at(struct pylit_parser *p, size_t off, char tmp[16]);
/* Skips spaces, line breaks, backslash continuations and comments. */
void pylit_skip_space(struct pylit_parser *p);
/* The byte at p->pos, or -1 at the end. */
int pylit_peek(struct pylit_parser *p);
struct pylit *pylit_node_new(enum pylit_kind kind, size_t off);

/* A string literal at p->pos, with the literals after it concatenated. */
int pylit_parse_string(struct pylit_parser *p, struct pylit **out);
/* A number at p->pos; `neg` when a '-' (at `start`) was already consumed. */
int pylit_parse_number(struct pylit_parser *p, size_t start, int neg, struct pylit **out);

#endif
