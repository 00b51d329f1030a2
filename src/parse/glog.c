/* glog prefixes of TORCH_LOGS lines (see glog.h). */
#include <string.h>

#include "parse/glog.h"
#include "banned.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Skips a run of characters that `in_set` accepts; returns the new position. */
static size_t skip(const char *s, size_t i, size_t n, int (*in_set)(char))
{
	while (i < n && in_set(s[i]))
		i++;
	return i;
}

static int is_time(char c)
{
	return is_digit(c) || c == ':' || c == '.';
}

static int is_space(char c)
{
	return c == ' ';
}

static int is_compile_id(char c)
{
	return is_digit(c) || c == '/' || c == '_' || c == '!';
}

/* "[0/0] " at s[i]: returns the position after it, or i when absent. */
static size_t compile_id(const char *s, size_t i, size_t n, struct glog_line *g)
{
	size_t j;

	if (i >= n || s[i] != '[')
		return i;
	j = skip(s, i + 1, n, is_compile_id);
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
	if (n < 24 || !memchr("VDIWEF", s[0], 6) || !is_digit(s[1]) ||
	    !is_digit(s[4]) || s[5] != ' ')
		return 0;
	i = skip(s, 6, n, is_time);
	if (i == 6 || i >= n || s[i] != ' ')
		return 0;
	i = skip(s, i, n, is_space);
	start = i;
	i = skip(s, i, n, is_digit);
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
