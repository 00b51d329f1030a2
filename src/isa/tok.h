/*
 * Small tokenizing helpers shared by the ISA scanners. Lines come from
 * util/lines.h; these work on [p, e) spans of one line and never read
 * past `e` or rely on NUL. Hot-path helpers are inline.
 */
#ifndef TKO_ISA_TOK_H
#define TKO_ISA_TOK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline int tok_is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *tok_skip_ws(const char *p, const char *e)
{
	while (p < e && tok_is_ws(*p))
		p++;
	return p;
}

/*
 * End of the word at p: the first space, tab, or one of `stops` (at most
 * three characters; inputs hold no NUL, so unused stops never match).
 */
static inline const char *tok_word_end(const char *p, const char *e,
				       const char *stops)
{
	char a = stops[0], b = a ? stops[1] : 0, c = b ? stops[2] : 0;

	while (p < e) {
		char x = *p;

		if (x == ' ' || x == '\t' || (a && (x == a || x == b || x == c)))
			break;
		p++;
	}
	return p;
}

/*
 * Bytes of w that end an instruction word: below 0x21 (space, tab) or
 * one of ',' ';' '/'. The lowest set high bit is exact (the later ones
 * may be false); words are loaded little-endian on every tko target.
 */
static inline uint64_t tok_stop_bits(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t a = w ^ (ones * ','), b = w ^ (ones * ';'), c = w ^ (ones * '/');

	return ((w - ones * 0x21) & ~w & high) | ((a - ones) & ~a & high) |
	       ((b - ones) & ~b & high) | ((c - ones) & ~c & high);
}

/*
 * End of an instruction word at p: the first space, tab, ',', ';' or
 * '/'. Eight bytes at a time: this runs on every instruction line.
 */
static inline const char *tok_mnemonic_end(const char *p, const char *e)
{
	while (e - p >= 8) {
		uint64_t w, m;

		memcpy(&w, p, 8);
		m = tok_stop_bits(w);
		if (m)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
	while (p < e && !(*p == ' ' || *p == '\t' || *p == ',' || *p == ';' || *p == '/'))
		p++;
	return p;
}

/* 1 when a[0..n) equals b[0..n): eight bytes a step, no libc call. */
static inline int tok_same(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	for (; n >= 8; a += 8, b += 8, n -= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	for (; n; a++, b++, n--)
		if (*a != *b)
			return 0;
	return 1;
}

/* 1 when s[0..n) starts with the k bytes of lit, k <= 8. */
static inline int tok_prefix8(const char *s, size_t n, const char *lit, size_t k)
{
	unsigned long long a = 0, b = 0;

	if (n < k)
		return 0;
	memcpy(&a, s, k);
	memcpy(&b, lit, k);
	return a == b;
}

static inline int tok_is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

/* Where lit[0..k) starts in p[0..n), or NULL; for short spans (one line). */
static inline const char *tok_find(const char *p, size_t n, const char *lit,
				   size_t k)
{
	const char *e = p + n;

	while ((size_t)(e - p) >= k) {
		const char *h = memchr(p, lit[0], (size_t)(e - p) - k + 1);

		if (!h)
			return NULL;
		if (!memcmp(h + 1, lit + 1, k - 1))
			return h;
		p = h + 1;
	}
	return NULL;
}
#define TOK_FIND(p, n, lit) tok_find((p), (n), (lit), sizeof(lit) - 1)
/* 1 when s[0..n) is exactly the string literal `lit`. */
#define TOK_IS(s, n, lit) ((n) == sizeof(lit) - 1 && !memcmp((s), (lit), sizeof(lit) - 1))

static inline int tok_eq(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n == k && !memcmp(s, lit, k);
}

/* A decimal number at *pp (the .loc fast path); 0, or -1 with no digit. */
static inline int tok_dec(const char **pp, const char *e, unsigned long long *v)
{
	const char *p = *pp;
	unsigned long long x = 0;

	if (p >= e || *p < '0' || *p > '9')
		return -1;
	for (; p < e && *p >= '0' && *p <= '9' && x < (1ull << 56); p++)
		x = x * 10 + (unsigned)(*p - '0');
	*v = x;
	*pp = p;
	return 0;
}

/*
 * Where a block comment opens ("/" "*") in [p, p + n), or NULL. The AMDGCN
 * scanner keeps the next one found ahead of its line loop, over the whole
 * text, so this runs on every byte: 64 bytes a step are searched for '*'
 * alone (rarer than '/', which every "//" comment and path has), and a
 * '*' counts when a '/' is before it. A memchr hop from '/' to '/' cost
 * a call each (a tenth of `tko isa` went to block comments).
 */
static inline const char *tok_find_block_open(const char *p, size_t n)
{
	const char *e = p + n, *q = p + 1;	/* where the '*' may be */
#if defined(__SSE2__)
	const __m128i star = _mm_set1_epi8('*');

	while (e - q >= 64) {
		const __m128i *v = (const __m128i *)(const void *)q;
		uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), star));
		uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), star));
		uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), star));
		uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), star));
		uint64_t m = m0 | m1 << 16 | m2 << 32 | m3 << 48;

		for (; m; m &= m - 1) {
			const char *t = q + __builtin_ctzll(m);

			if (t[-1] == '/')
				return t - 1;
		}
		q += 64;
	}
#endif
	for (; q < e; q++)
		if (*q == '*' && q[-1] == '/')
			return q - 1;
	return NULL;
}

/* Where a ';' or "//" comment starts in [p, e), or e (eight bytes a step). */
static inline const char *tok_comment_fast(const char *p, const char *e)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;

	while (e - p >= 8) {
		uint64_t w, a, b, m;

		memcpy(&w, p, 8);
		a = w ^ (ones * ';');
		b = w ^ (ones * '/');
		m = ((a - ones) & ~a & high) | ((b - ones) & ~b & high);
		if (!m) {
			p += 8;
			continue;
		}
		p += __builtin_ctzll(m) >> 3;
		if (*p == ';' || (p + 1 < e && p[1] == '/'))
			return p;
		p++;
	}
	for (; p < e; p++)
		if (*p == ';' || (*p == '/' && p + 1 < e && p[1] == '/'))
			return p;
	return e;
}

/*
 * Parses an unsigned number at *pp (decimal, or hex with 0x) and moves
 * *pp past it. Returns 0, or -1 (nothing moved) when there is no digit.
 */
int tok_uint(const char **pp, const char *e, unsigned long long *v);
/* The same with an optional leading '-'. */
int tok_int(const char **pp, const char *e, long long *v);

/*
 * Reads a "quoted" string at *pp (no escapes are interpreted); sets
 * (*s, *n) to its inside and moves *pp past the closing quote. 0 or -1.
 */
int tok_quoted(const char **pp, const char *e, const char **s, size_t *n);

/*
 * 1 when `word` appears in [p, e) as a whole token, bounded by the span
 * ends, spaces, tabs or commas ("offen offset:0, lds" has "lds").
 * A prefix match is enough when word ends in ':' ("th:").
 */
int tok_has_word(const char *p, const char *e, const char *word);

/* Where a comment starts in [p, e): the first of `;`, `//`, or e. */
const char *tok_comment_start(const char *p, const char *e);

/*
 * Copies the line [p, e) into `out` without its block comments (and
 * without a trailing ';' or '//' comment). *in_block says whether the line
 * starts inside a block comment and, on return, whether it ends in one.
 */
struct buf;
void tok_strip_block_comments(const char *p, const char *e, int *in_block,
			      struct buf *out);

#endif
