/* Span helpers for the line reader (see lines.h). */
#include "util/lines.h"
#include "banned.h"

const char *span_find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	const char *end = s + n;

	if (!k)
		return s;
	while ((size_t)(end - s) >= k) {
		const char *hit = memchr(s, needle[0], (size_t)(end - s) - k + 1);
		if (!hit)
			return NULL;
		if (!memcmp(hit, needle, k))
			return hit;
		s = hit + 1;
	}
	return NULL;
}

void span_trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}
