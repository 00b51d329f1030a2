/*
 * pylit: a reader for Python literal syntax, the values that TorchInductor
 * and Triton users write into decorators: `triton_meta={...}`,
 * `inductor_meta={...}`, `configs=[triton.Config({...}, num_warps=4)]`.
 *
 * It reads what ast.literal_eval reads, plus the few non-literals those
 * decorators hold:
 *   - dicts (any literal as key, so tuple keys such as `(0,)` work), lists,
 *     tuples, sets and `set()`;
 *   - strings with every quote kind (' " ''' """), prefix (r b rb u) and
 *     escape (\n \x41 \u00e9 \U0001F600 \101 \<newline> ...), and implicit
 *     concatenation ('a' "b");
 *   - ints (decimal, 0x, 0o, 0b, with '_'), floats, a sign on a number,
 *     True, False, None;
 *   - names and dotted names (`ReductionHint.INNER`, `tl.float32`,
 *     `__file__`) as PYLIT_NAME;
 *   - calls with positional and keyword arguments
 *     (`DeviceProperties(type='hip', cc='gfx936', warp_size=64)`) as
 *     PYLIT_CALL.
 * With PYLIT_LENIENT, any other expression in a value position (a lambda,
 * `2**3`, `x[0]`, an f-string) becomes a PYLIT_EXPR node holding its source
 * text, so one odd argument does not hide the rest of a decorator.
 *
 * Not supported (an error, or PYLIT_EXPR when lenient): complex numbers,
 * \N{...} escapes, surrogate code points, `*`/`**` unpacking.
 *
 * Usage:
 *
 *	struct pylit *v;
 *	size_t pos = 0;
 *	if (pylit_parse(text, len, &pos, 0, &v, &err) < 0)
 *		... err holds "line L column C: <why>"
 *	const struct pylit *sig = pylit_get(v, "signature");
 *	...
 *	pylit_free(v);
 *
 * pylit_json.h turns a tree into JSON and into Python's repr().
 *
 * Ownership: pylit_parse hands the caller a tree it frees with pylit_free;
 * lookups return borrowed pointers into that tree.
 */
#ifndef TKO_PYLIT_H
#define TKO_PYLIT_H

#include <stddef.h>

#include "util/buf.h"

enum pylit_kind {
	PYLIT_NONE,
	PYLIT_BOOL,
	PYLIT_INT,
	PYLIT_FLOAT,
	PYLIT_STR,
	PYLIT_BYTES,
	PYLIT_LIST,
	PYLIT_TUPLE,
	PYLIT_SET,
	PYLIT_DICT,
	PYLIT_CALL,
	PYLIT_NAME,
	PYLIT_EXPR,
};

struct pylit {
	enum pylit_kind kind;
	size_t off;		/* offset of the value's first byte in the parsed span */
	size_t end;		/* one past its last byte */
	long long i;		/* BOOL: 0 or 1; INT: the value (unless big) */
	int big;		/* INT beyond long long: `f` approximates it, `s` holds its digits */
	double f;		/* FLOAT: the value */
	char *s;		/* STR/BYTES: decoded bytes; NAME: the dotted name; CALL: the
				 * callee's name; EXPR: the source text; always NUL-terminated */
	size_t slen;		/* bytes in s (a STR or BYTES may hold NUL) */
	struct pylit **items;	/* LIST/TUPLE/SET: elements; DICT: values; CALL: arguments */
	struct pylit **keys;	/* DICT: the key of each value */
	char **kw;		/* CALL: the keyword of each argument, NULL when positional */
	size_t n;		/* number of items */
};

enum {
	PYLIT_LENIENT = 1,	/* non-literal values become PYLIT_EXPR instead of errors */
};

/*
 * Parses one value starting at s[*pos] (leading spaces, newlines and
 * comments are skipped) and sets *pos just past it. Returns 0 with *out set,
 * or -1 with "line L column C: <why>" appended to err (L and C count from
 * s[0], so pass a whole file and a start offset to get file positions).
 */
int pylit_parse(const char *s, size_t n, size_t *pos, unsigned flags,
		struct pylit **out, struct buf *err);

/* Like pylit_parse, but the value must fill the span (trailing spaces and comments allowed). */
int pylit_parse_all(const char *s, size_t n, unsigned flags,
		    struct pylit **out, struct buf *err);

void pylit_free(struct pylit *v);

/* "dict", "list", "str", ... */
const char *pylit_kind_name(enum pylit_kind kind);

/* DICT lookup by string key; NULL when v is not a dict or has no such key. */
const struct pylit *pylit_get(const struct pylit *v, const char *key);
/* CALL keyword argument by name, or NULL. */
const struct pylit *pylit_kwarg(const struct pylit *v, const char *name);
/* The i-th positional argument of a CALL, or NULL. */
const struct pylit *pylit_arg(const struct pylit *v, size_t i);

/* The string of a STR value, else NULL. */
const char *pylit_str(const struct pylit *v);
/* 0 and *out for an INT (not big) or BOOL value, else -1. */
int pylit_int(const struct pylit *v, long long *out);
/* 0 and *out for an INT, BOOL or FLOAT value, else -1. */
int pylit_number(const struct pylit *v, double *out);
/* 1 when v is the NAME `name` (a dotted name compares whole), else 0. */
int pylit_is_name(const struct pylit *v, const char *name);
/* True for True and non-zero ints, as Python's bool(); -1 when not a bool/int/None. */
int pylit_truth(const struct pylit *v);

#endif
