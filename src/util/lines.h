/*
 * Iterating over the lines of a (pointer, length) span without relying on
 * a NUL terminator: the one line reader every tko parser shares.
 *
 *	struct lines it = LINES_INIT(data, len);
 *	const char *s;
 *	size_t n;
 *	while (lines_next(&it, &s, &n))
 *		... s[0..n) is line number it.lineno, without '\n' or '\r\n'
 */
#ifndef TKO_LINES_H
#define TKO_LINES_H

#include <stddef.h>
#include <string.h>

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct lines {
	const char *p;		/* next unread byte */
	const char *end;	/* one past the last byte */
	size_t lineno;		/* 1-based number of the line last returned */
	int last_unterminated;	/* the last line returned had no '\n' */
	const char *scan;	/* first byte not yet searched for newlines */
	uint64_t mask;		/* newlines found in [scan - 64, scan), not yet returned */
};
#define LINES_INIT(data, len) { (data), (data) + (len), 0, 0, (data), 0 }

/*
 * Why not memchr per line: assembly lines average 40 bytes, and a libc
 * memchr call costs about as much as the scan itself at that length. With
 * SSE2 (every x86-64) one pass finds all newlines of 64 bytes at once and
 * each line is then a count-trailing-zeros away (simdjson's approach);
 * this halved the line-splitting time of `tko isa` on the corpus.
 */
static inline const char *lines_newline(struct lines *it)
{
	const char *nl;

	while (!it->mask) {
		if (it->end - it->scan < 64) {
			nl = memchr(it->scan, '\n', (size_t)(it->end - it->scan));
			it->scan = nl ? nl + 1 : it->end;
			return nl;
		}
#if defined(__SSE2__)
		{
			const __m128i c = _mm_set1_epi8('\n');
			const char *b = it->scan;
			uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
				_mm_loadu_si128((const __m128i *)(const void *)b), c));
			uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
				_mm_loadu_si128((const __m128i *)(const void *)(b + 16)), c));
			uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
				_mm_loadu_si128((const __m128i *)(const void *)(b + 32)), c));
			uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
				_mm_loadu_si128((const __m128i *)(const void *)(b + 48)), c));

			it->mask = m0 | m1 << 16 | m2 << 32 | m3 << 48;
			it->scan += 64;
		}
#else
		nl = memchr(it->scan, '\n', (size_t)(it->end - it->scan));
		it->scan = nl ? nl + 1 : it->end;
		return nl;
#endif
	}
	nl = it->scan - 64 + __builtin_ctzll(it->mask);
	it->mask &= it->mask - 1;
	return nl;
}

static inline int lines_next(struct lines *it, const char **line, size_t *len)
{
	const char *nl;
	size_t n;

	if (it->p >= it->end)
		return 0;
	nl = lines_newline(it);
	n = nl ? (size_t)(nl - it->p) : (size_t)(it->end - it->p);
	*line = it->p;
	it->last_unterminated = !nl;
	it->p = nl ? nl + 1 : it->end;
	if (n && (*line)[n - 1] == '\r')
		n--;
	*len = n;
	it->lineno++;
	return 1;
}

/* Span helpers used by the parsers. */
static inline int span_starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

const char *span_find(const char *s, size_t n, const char *needle);
/* Trims spaces and tabs from both ends, in place on the (s, n) pair. */
void span_trim(const char **s, size_t *n);

#endif
