/*
 * Fuzzes the streaming JSON scanner (profile/jscan.c) on its own:
 *
 *   - jscan_extent() fed the value one byte more at a time, and in
 *     chunks of 1 to 16 bytes, must end exactly where one call over the
 *     whole buffer ends (same result, same length): a value is found the
 *     same wherever the reader's window happens to end;
 *   - the cursor (jc_*) walks the value into a jansson tree; every number
 *     it parses must equal strtod() of the same characters (the fast path
 *     claims to be exact), every string is unescaped;
 *   - when jansson accepts the input as one JSON document, the scanner must
 *     find that value and nothing but blanks after it, and the cursor's
 *     tree must equal jansson's (numbers compared as doubles). Not for
 *     inputs with a raw NUL byte, which jansson passes over between
 *     tokens ("[1\0, 2]" loads) though no JSON has one.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz.h"
#include "profile/jscan.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

#define MAX_DEPTH 4096	/* jansson's own limit is 2048 */

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* jscan_extent() over p[0..len) fed in pieces of step(i) bytes; returns its result. */
static int extent_in_pieces(const char *p, size_t len, unsigned seed, size_t *off)
{
	struct jscan s = JSCAN_INIT;
	size_t have = 0;
	int r = 0;

	while (have < len) {
		have += seed ? 1 + (seed = seed * 1103515245u + 12345u) % 16 : 1;
		if (have > len)
			have = len;
		r = jscan_extent(&s, p, have, 0);
		if (r)
			break;
	}
	if (!r)
		r = jscan_extent(&s, p, len, 1);
	*off = s.off;
	return r;
}

static void check_extent(const char *p, size_t len, int *r, size_t *off)
{
	struct jscan s = JSCAN_INIT;
	size_t off2;
	unsigned seed;

	*r = jscan_extent(&s, p, len, 1);
	*off = s.off;
	FUZZ_CHECK(extent_in_pieces(p, len, 0, &off2) == *r);
	if (*r == 1)
		FUZZ_CHECK(off2 == *off);
	seed = len ? (unsigned char)p[len - 1] | 1u : 1u;
	FUZZ_CHECK(extent_in_pieces(p, len, seed, &off2) == *r);
	if (*r == 1)
		FUZZ_CHECK(off2 == *off);
}

/* A number through jc_number(), checked against strtod() of its characters. */
static json_t *number(struct jcur *c)
{
	const char *start;
	char *copy, *end;
	double v, ref;

	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	start = c->p;
	if (jc_number(c, &v) < 0)
		return NULL;
	copy = xstrndup(start, (size_t)(c->p - start));
	ref = strtod(copy, &end);
	FUZZ_CHECK(*end == '\0' && (v == ref || (v != v && ref != ref)));
	free(copy);
	return json_real(v);
}

static json_t *string(struct jcur *c, struct buf *tmp)
{
	const char *s;
	size_t n;
	int esc;

	if (jc_string(c, &s, &n, &esc) < 0)
		return NULL;
	buf_reset(tmp);
	if (!esc)
		buf_add(tmp, s, n);
	else if (json_unescape(s, n, tmp) < 0)
		return NULL;
	return json_stringn_nocheck(tmp->buf, tmp->len);
}

static json_t *literal(struct jcur *c, const char *lit, json_t *v)
{
	const char *start;
	size_t n = strlen(lit);

	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	start = c->p;
	/* the scanner is lenient about what follows a literal; the tree is not */
	if (jc_skip(c) < 0 || (size_t)(c->p - start) != n || memcmp(start, lit, n)) {
		json_decref(v);
		return NULL;
	}
	return v;
}

static json_t *build(struct jcur *c, int depth);

static json_t *object(struct jcur *c, int depth)
{
	json_t *o = json_object(), *v;
	struct buf key = BUF_INIT;
	const char *k;
	size_t n;
	int r;

	if (jc_object(c) < 0)
		goto fail;
	while ((r = jc_key(c, &k, &n)) == 1) {
		buf_reset(&key);
		if (json_unescape(k, n, &key) < 0 || !(v = build(c, depth + 1)))
			goto fail;
		json_object_setn_new_nocheck(o, key.buf, key.len, v);
	}
	if (r < 0)
		goto fail;
	buf_release(&key);
	return o;
fail:
	buf_release(&key);
	json_decref(o);
	return NULL;
}

static json_t *array(struct jcur *c, int depth)
{
	json_t *a = json_array(), *v;
	int r;

	if (jc_array(c) < 0) {
		json_decref(a);
		return NULL;
	}
	while ((r = jc_item(c)) == 1) {
		if (!(v = build(c, depth + 1))) {
			json_decref(a);
			return NULL;
		}
		json_array_append_new(a, v);
	}
	if (r < 0) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* The value at the cursor as a tree, or NULL where the cursor refuses it. */
static json_t *build(struct jcur *c, int depth)
{
	struct buf tmp = BUF_INIT;
	json_t *v;

	if (depth > MAX_DEPTH)
		return NULL;
	switch (jc_peek(c)) {
	case JT_OBJECT: return object(c, depth);
	case JT_ARRAY: return array(c, depth);
	case JT_NUMBER: return number(c);
	case JT_TRUE: return literal(c, "true", json_true());
	case JT_FALSE: return literal(c, "false", json_false());
	case JT_NULL: return literal(c, "null", json_null());
	case JT_STRING:
		v = string(c, &tmp);
		buf_release(&tmp);
		return v;
	default:
		return NULL;
	}
}

/* jansson's tree and the cursor's: the same, integers and reals compared as numbers. */
static int same(json_t *a, json_t *b)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_OBJECT:
		if (json_object_size(a) != json_object_size(b))
			return 0;
		json_object_keylen_foreach(a, key, i, v) {
			json_t *w = json_object_getn(b, key, i);

			if (!w || !same(v, w))
				return 0;
		}
		return 1;
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!same(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
	default:
		return 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	json_t *ref, *tree = NULL;
	json_error_t jerr;
	size_t skip = 0, off, i;
	int r;

	while (skip < size && is_blank(p[skip]))
		skip++;
	check_extent(p + skip, size - skip, &r, &off);
	if (r == 1) {
		struct jcur c = { p + skip, p + skip + off };

		tree = build(&c, 0);
	}
	ref = memchr(p, '\0', size) ? NULL :
	      json_loadb(p, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	if (ref) {
		FUZZ_CHECK(r == 1);
		for (i = skip + off; i < size; i++)
			FUZZ_CHECK(is_blank(p[i]));
		FUZZ_CHECK(tree && same(ref, tree));
	}
	json_decref(ref);
	json_decref(tree);
	return 0;
}
