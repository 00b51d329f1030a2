/*
 * Reading Triton configs and the numbers around them as the logs print
 * them, from (pointer, length) spans.
 *
 * Two spellings exist:
 *   str(triton.Config)       "XBLOCK: 1024, num_warps: 4, num_ctas: 1, num_stages: 1, maxnreg: None"
 *   max-autotune choices     "ACC_TYPE='tl.float32', BLOCK_K=64, ..., num_stages=5, num_warps=8"
 * tconfig_parse() reads either into a struct at_config: num_warps,
 * num_stages, num_ctas and maxnreg go to their fields, every other item to
 * the kwargs, in order. Items are split at commas outside brackets and
 * quotes, so a tuple value survives.
 *
 * Inductor prints a timed config as "<config>: <ms>, nreg N, nspill N,
 * #shared-mem N" (triton_heuristics.py, benchmark_all_configs and
 * coordinate descent); tconfig_timed() reads that form.
 */
#ifndef TKO_PARSE_TCONFIG_H
#define TKO_PARSE_TCONFIG_H

#include <stddef.h>

#include "parse/autotune.h"

/* Parses a config's text into c (which keeps a copy of the text). 0 or -1. */
int tconfig_parse(struct at_config *c, const char *s, size_t n);

/*
 * Parses "<config>: <ms>[, nreg N, nspill N, #shared-mem N]" into c.
 * 0 or -1 (c may then be partly filled).
 */
int tconfig_timed(struct at_config *c, const char *s, size_t n);

/* Whole-span numbers: 0 when all of s[0..n) is the number, else -1. */
int span_double(const char *s, size_t n, double *out);
int span_long(const char *s, size_t n, long *out);
/* The number that starts s[0..n), ending at a space or the end. */
int span_lead_double(const char *s, size_t n, double *out);
/* Like span_long, but "None" gives -1 (Python's None for "no limit"). */
int span_long_or_none(const char *s, size_t n, long *out);

/* The last occurrence of needle in s[0..n), or NULL. */
const char *span_rfind(const char *s, size_t n, const char *needle);

#endif
