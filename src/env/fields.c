/* Span helpers for tool output (see fields.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "env/fields.h"
#include "util/lines.h"
#include "banned.h"

int field_split(const char *s, size_t n, const char **key, size_t *kn,
		const char **val, size_t *vn)
{
	const char *colon = memchr(s, ':', n);

	if (!colon)
		return -1;
	*key = s;
	*kn = (size_t)(colon - s);
	span_trim(key, kn);
	*val = colon + 1;
	*vn = n - (size_t)(colon - s) - 1;
	span_trim(val, vn);
	return *kn ? 0 : -1;
}

long field_leading_long(const char *s, size_t n, long fallback)
{
	long v = 0;
	size_t i = 0;

	if (!n || !isdigit((unsigned char)s[0]))
		return fallback;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (v > (__LONG_MAX__ - 9) / 10)
			return fallback;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int field_leading_double(const char *s, size_t n, double *out)
{
	char tmp[64];
	size_t i = 0;
	char *end;

	while (i < n && i + 1 < sizeof(tmp) &&
	       (isdigit((unsigned char)s[i]) || s[i] == '.' || (i == 0 && s[i] == '-')))
		i++;
	if (!i || (i == 1 && !isdigit((unsigned char)s[0])))
		return 0;
	memcpy(tmp, s, i);
	tmp[i] = '\0';
	errno = 0;
	*out = strtod(tmp, &end);
	return end != tmp && !errno;
}

int field_next_word(const char *s, size_t n, size_t *pos, const char **w, size_t *wn)
{
	size_t i = *pos, start;

	while (i < n && isspace((unsigned char)s[i]))
		i++;
	if (i >= n) {
		*pos = n;
		return 0;
	}
	start = i;
	while (i < n && !isspace((unsigned char)s[i]))
		i++;
	*w = s + start;
	*wn = i - start;
	*pos = i;
	return 1;
}

const char *field_find_nocase(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i, j;

	if (!k || k > n)
		return k ? NULL : s;
	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++)
			if (tolower((unsigned char)s[i + j]) != tolower((unsigned char)needle[j]))
				break;
		if (j == k)
			return s + i;
	}
	return NULL;
}

int field_eq_nocase(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && field_find_nocase(s, n, word) == s;
}
