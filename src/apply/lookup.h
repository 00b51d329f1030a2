/*
 * apply/lookup: Inductor's autotune_lookup_table key of a kernel, from its
 * module text, as torch 2.11 computes it (runtime/triton_heuristics.py
 * :117-143, generate_lookup_hash_from_source_code(str(size_hints),
 * fn.src)). fn.src is Triton 3.6's JITFunction.src: the function's lines
 * as inspect.getsourcelines gives them, dedented, from `def name(`.
 * python/tko/lookup.py is the same computation in Python; docs/apply.md
 * has the facts and tests/unit/test-apply-lookup.c checks both against
 * the keys torch itself computed.
 */
#ifndef TKO_APPLY_LOOKUP_H
#define TKO_APPLY_LOOKUP_H

#include <stddef.h>

#include "util/buf.h"

/*
 * What JITFunction.src holds for the module-level function `name` of
 * text[0..len), appended to `out`. 0, or -1 when the module defines no
 * such function.
 */
int lookup_function_source(const char *text, size_t len, const char *name, struct buf *out);

/* The module's `size_hints={...}` literal, or "None", appended to `out`. */
void lookup_size_hints(const char *text, size_t len, struct buf *out);

/* sha256(size_hints + src.strip() with "def <name>(" cut to "("), hex into key[65]. */
void lookup_hash(const char *size_hints, const char *src, size_t src_len, char key[65]);

/* The key of kernel `name` in a module's text. 0, or -1 when it is not defined there. */
int lookup_hash_of_module(const char *text, size_t len, const char *name, char key[65]);

#endif
