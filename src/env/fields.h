/*
 * Small span helpers shared by the readers of tool output (rocminfo,
 * hy-smi, nvidia-smi, "--version" texts): "Key: value" lines, leading
 * numbers, whitespace-separated words. All work on (pointer, length)
 * spans and never rely on a NUL.
 */
#ifndef TKO_ENV_FIELDS_H
#define TKO_ENV_FIELDS_H

#include <stddef.h>

/*
 * Splits "  Key:   value  " at its first ':' into a trimmed key and value.
 * Returns 0, or -1 when there is no ':' or the key is empty.
 */
int field_split(const char *s, size_t n, const char **key, size_t *kn,
		const char **val, size_t *vn);

/* The decimal number the span starts with ("64(0x40)" -> 64), or fallback. */
long field_leading_long(const char *s, size_t n, long fallback);

/* The number the span starts with ("40.0C" -> 40.0); 0 when none, else 1. */
int field_leading_double(const char *s, size_t n, double *out);

/*
 * The next whitespace-separated word of s[*pos..n): sets *w, *wn and
 * advances *pos; returns 0 when no word is left.
 */
int field_next_word(const char *s, size_t n, size_t *pos, const char **w, size_t *wn);

/* 1 when the span equals `word`, ignoring case. */
int field_eq_nocase(const char *s, size_t n, const char *word);

/* Case-insensitive search for `needle` in the span; NULL when absent. */
const char *field_find_nocase(const char *s, size_t n, const char *needle);

#endif
