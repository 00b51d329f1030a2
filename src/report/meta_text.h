/*
 * The terminal view of `tko meta`: one row per kernel when there are
 * several, and for a single kernel a detailed page (its device, Inductor
 * metadata and ATen ops, an argument table with hints, and every tracked
 * tl.* use with its line). Input: kernels from parse/meta.h.
 */
#ifndef TKO_META_TEXT_H
#define TKO_META_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "parse/triton_meta.h"

/* One row per kernel. */
void meta_print_summary(FILE *fp, const struct meta_kernel *const *k, size_t n);

/* Everything about one kernel. */
void meta_print_kernel(FILE *fp, const struct meta_kernel *k);

#endif
