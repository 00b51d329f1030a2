/*
 * Source variants by rewriting a kernel's source text, line by line.
 *
 * Each rewriter looks at the lines of one kernel (struct tune_kernel gives
 * the function's line range) and appends edits to a struct rewrite; the
 * edits can then be applied (the variant's source file) or shown as a
 * unified diff (the patch a user applies). Rewriters:
 *
 *   rewrite_hints    after `xoffset = <expr> * XBLOCK` adds
 *                    `xoffset = tl.multiple_of(xoffset, XBLOCK)`; after a
 *                    1-D index `x = <offset> + tl.arange(0, B)` whose offset
 *                    is a multiple of B adds
 *                    `x = tl.max_contiguous(tl.multiple_of(x, B), B)`
 *   rewrite_assume   `tl.assume(v >= 0)` after each program-id offset, and
 *                    at the top of the body for each integer argument
 *                    (sizes such as xnumel)
 *   rewrite_body_const  `NAME : tl.constexpr = N` to a new N (a template's
 *                    BLOCK_M/N/K)
 *   rewrite_pointer_range  adds ['tt.pointer_range', 32] to the pointer
 *                    arguments in the decorator's triton_meta configs (the
 *                    Inductor form of the ptr32 variant)
 *   rewrite_two_pass an online softmax (Inductor's online_softmax_combine
 *                    loop) made two passes: the row's max, then the sum
 *                    of exps in a second loop (twopass.c)
 *
 * Each returns the number of edits it added (0: the rewrite does not apply
 * to this kernel). Edits are kept sorted by line.
 */
#ifndef TKO_TUNE_REWRITE_H
#define TKO_TUNE_REWRITE_H

#include <stddef.h>

#include "tune/kernel.h"
#include "util/buf.h"

struct rewrite_edit {
	size_t line;	/* the 1-based line the edit is anchored at */
	int replace;	/* 1: replaces that line; 0: inserted after it */
	char *text;	/* the new line, without its newline */
};

struct rewrite {
	struct rewrite_edit *e;	/* sorted by line, inserts after a replace of the same line */
	size_t nr, alloc;
};
#define REWRITE_INIT { NULL, 0, 0 }

void rewrite_release(struct rewrite *r);

int rewrite_hints(const char *src, size_t len, const struct tune_kernel *k,
		  struct rewrite *r);
int rewrite_assume(const char *src, size_t len, const struct tune_kernel *k,
		   struct rewrite *r);
int rewrite_body_const(const char *src, size_t len, const struct tune_kernel *k,
		       const char *name, long value, struct rewrite *r);
int rewrite_pointer_range(const char *src, size_t len, const struct tune_kernel *k,
			  struct rewrite *r);

int rewrite_two_pass(const char *src, size_t len, const struct tune_kernel *k,
		     struct rewrite *r);

/* The source with the edits applied, appended to `out`. */
void rewrite_apply(const char *src, size_t len, const struct rewrite *r,
		   struct buf *out);

/*
 * A unified diff (3 lines of context) from `src` to the rewritten source,
 * with "--- a/<path>" and "+++ b/<path>" headers; nothing when no edits.
 */
void rewrite_diff(const char *src, size_t len, const struct rewrite *r,
		  const char *path, struct buf *out);

/*
 * The integer that a `NAME = <int>` line of the kernel body assigns (a
 * template's `M = 2048`), into *value. Returns 0, or -1 when there is none.
 */
int rewrite_find_int(const char *src, size_t len, const struct tune_kernel *k,
		     const char *name, long *value);

#endif
