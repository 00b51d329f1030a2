/* glog prefixes of TORCH_LOGS lines (see glog.h). */
#include <string.h>

#include "parse/glog.h"
#include "banned.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Skips a run of characters from `set`; returns the new position. */
static size_t skip_set(const char *s, size_t i, size_t n, const char *set)
{
	while (i < n && s[i] && strchr(set, s[i]))
		i++;
	return i;
}

/* "[0/0] " at s[i]: returns the position after it, or i when absent. */
static size_t compile_id(const char *s, size_t i, size_t n, struct glog_line *g)
{
	size_t j;

	if (i >= n || s[i] != '[')
		return i;
	j = skip_set(s, i + 1, n, "0123456789/_!");
	if (j == i + 1 || j + 1 >= n || s[j] != ']' || s[j + 1] != ' ' ||
	    !memchr(s + i, '/', j - i))
		return i;
	g->compile_id = s + i + 1;
	g->compile_id_len = j - i - 1;
	return j + 2;
}

int glog_split(const char *s, size_t n, struct glog_line *g)
{
	size_t i, start;
	const char *close;

	g->level = 0;
	g->where = g->compile_id = s;
	g->where_len = g->compile_id_len = 0;
	g->msg = s;
	g->msg_len = n;
	if (n < 24 || !strchr("VDIWEF", s[0]) || !s[0] || !is_digit(s[1]) ||
	    !is_digit(s[4]) || s[5] != ' ')
		return 0;
	i = skip_set(s, 6, n, "0123456789:.");
	if (i == 6 || i >= n || s[i] != ' ')
		return 0;
	i = skip_set(s, i, n, " ");
	start = i;
	i = skip_set(s, i, n, "0123456789");
	if (i == start || i >= n || s[i] != ' ')
		return 0;
	start = i + 1;
	close = memchr(s + start, ']', n - start);
	if (!close || (size_t)(close - s) + 1 >= n || close[1] != ' ')
		return 0;
	g->level = s[0];
	g->where = s + start;
	g->where_len = (size_t)(close - g->where);
	i = compile_id(s, (size_t)(close - s) + 2, n, g);
	g->msg = s + i;
	g->msg_len = n - i;
	return 1;
}
