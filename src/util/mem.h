/*
 * Allocation wrappers: tko cannot do useful work without memory, so an
 * allocation failure prints one line and exits (status 1) instead of
 * threading ENOMEM through every parser.
 */
#ifndef TKO_MEM_H
#define TKO_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Formats into a newly allocated string that the caller frees. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Grows array `p` of `nr` used elements to hold at least `want` elements,
 * tracking the allocation in `alloc` (git's ALLOC_GROW pattern).
 */
#define ALLOC_GROW(p, want, alloc) \
	do { \
		if ((want) > (alloc)) { \
			size_t alloc_grow_n_ = (alloc) < 8 ? 8 : (alloc) * 2; \
			if (alloc_grow_n_ < (want)) \
				alloc_grow_n_ = (want); \
			(p) = xrealloc((p), alloc_grow_n_ * sizeof(*(p))); \
			(alloc) = alloc_grow_n_; \
		} \
	} while (0)

#endif
