/* Version strings in "--version" texts (see toolver.h). */
#include <ctype.h>
#include <string.h>

#include "env/fields.h"
#include "env/toolver.h"
#include "util/lines.h"
#include "banned.h"

static void copy_span(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* The first line holding `needle` (or any non-empty line when NULL). */
static int find_line(const char *p, size_t n, const char *needle,
		     const char **line, size_t *len, const char **after)
{
	struct lines it = LINES_INIT(p, n);
	const char *s, *hit;
	size_t sn;

	while (lines_next(&it, &s, &sn)) {
		span_trim(&s, &sn);
		if (!sn)
			continue;
		hit = needle ? field_find_nocase(s, sn, needle) : s;
		if (hit) {
			*line = s;
			*len = sn;
			*after = needle ? hit + strlen(needle) : s;
			return 1;
		}
	}
	return 0;
}

static int version_word(const char *s, size_t n, struct tool_version *out)
{
	size_t pos = 0;
	const char *w;
	size_t wn;

	while (field_next_word(s, n, &pos, &w, &wn)) {
		while (wn && !isdigit((unsigned char)*w) && (*w == 'V' || *w == 'v' ||
							   *w == ':' || *w == '('))
			w++, wn--;
		while (wn && strchr(",;:()", w[wn - 1]))
			wn--;
		if (wn && isdigit((unsigned char)w[0]) && memchr(w, '.', wn)) {
			copy_span(out->version, sizeof(out->version), w, wn);
			return 0;
		}
	}
	return -1;
}

int tool_version_parse(const char *p, size_t n, const char *hint, struct tool_version *out)
{
	const char *tries[3] = { hint, "version", NULL };
	const char *line, *after;
	size_t len, i;

	out->version[0] = out->line[0] = '\0';
	for (i = 0; i < 3; i++) {
		if (i == 0 && !hint)
			continue;
		if (!find_line(p, n, tries[i], &line, &len, &after))
			continue;
		copy_span(out->line, sizeof(out->line), line, len);
		if (!version_word(after, len - (size_t)(after - line), out))
			return 0;
	}
	return -1;
}
