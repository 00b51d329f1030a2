/*
 * The lowest layer of tko's Python readers: character classes, string
 * literal boundaries and positions, shared by the literal reader (pylit.c)
 * and the source scanner (pysrc.c) so both agree on where a string or a
 * comment starts and ends.
 *
 * Input is a (pointer, length) span of UTF-8 Python source; nothing here
 * relies on a NUL terminator.
 */
#ifndef TKO_PYLEX_H
#define TKO_PYLEX_H

#include <stddef.h>

/*
 * Identifier characters, by table: the scanners ask for every byte of
 * every file. Bytes >= 0x80 count as identifier characters: they are parts
 * of UTF-8 encoded names, which Python allows.
 */
enum {
	PYLEX_IDENT_START = 1,	/* a letter, '_' or a byte >= 0x80 */
	PYLEX_IDENT_CHAR = 2,	/* those and the digits */
};
extern const unsigned char pylex_class[256];

static inline int pylex_ident_start(unsigned char c)
{
	return pylex_class[c] & PYLEX_IDENT_START;
}

static inline int pylex_ident_char(unsigned char c)
{
	return pylex_class[c] & PYLEX_IDENT_CHAR;
}

/* The end of the identifier that starts at s[pos]. */
size_t pylex_ident_end(const char *s, size_t n, size_t pos);

/* One string literal, prefix and quotes included. */
struct pylex_str {
	size_t start;		/* first byte of the prefix (or of the quote) */
	size_t body;		/* first byte after the opening quote(s) */
	size_t body_end;	/* first byte of the closing quote(s) */
	size_t end;		/* one past the closing quote(s) */
	char quote;		/* '\'' or '"' */
	unsigned char triple;	/* 1 for ''' and """ */
	unsigned char raw;	/* r/R prefix: backslashes are kept */
	unsigned char bytes;	/* b/B prefix */
	unsigned char fmt;	/* f/F prefix: an f-string, not a literal */
	size_t newlines;	/* physical line breaks inside the literal */
};

/*
 * 1 when a string literal (with an optional prefix such as r, b, rb, u, f)
 * starts at s[pos], with *st describing its opening; 0 otherwise. The caller
 * calls it at a token boundary only.
 */
int pylex_string_at(const char *s, size_t n, size_t pos, struct pylex_str *st);

/*
 * Finds the closing quote of the string opened in *st, filling body_end,
 * end and newlines. Returns 0, or -1 when the literal is not closed (a
 * single-quoted string ends at its line; st->end is then where the scan
 * stopped).
 */
int pylex_string_close(const char *s, size_t n, struct pylex_str *st);

/* The number of line breaks in s[from..to). */
size_t pylex_count_lines(const char *s, size_t from, size_t to);

/* The 1-based line and column (in bytes) of s[off]. */
void pylex_where(const char *s, size_t off, size_t *line, size_t *col);

#endif
