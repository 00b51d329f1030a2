/* Python literal trees as JSON and as repr() text (see pylit_json.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/pylit_json.h"
#include "banned.h"

/*
 * repr() of a float: the fewest digits that read back as the same double,
 * written in fixed notation when the exponent is in [-4, 16) and in
 * scientific notation otherwise, as Python's float_repr_style 'short'.
 */
static void add_float(struct buf *out, double f)
{
	char tmp[40], digits[20];
	int prec, exp, nd, i;
	char *e;

	if (isnan(f) || isinf(f)) {
		buf_adds(out, isnan(f) ? "nan" : f < 0 ? "-inf" : "inf");
		return;
	}
	for (prec = 0; prec < 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec, f);
		if (strtod(tmp, NULL) == f)
			break;
	}
	e = strchr(tmp, 'e');
	exp = (int)strtol(e + 1, NULL, 10);
	for (nd = 0, i = tmp[0] == '-'; tmp + i < e; i++)
		if (tmp[i] != '.')
			digits[nd++] = tmp[i];
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (f < 0 || (f == 0 && signbit(f)))
		buf_addch(out, '-');
	if (exp < -4 || exp >= 16) {
		buf_addch(out, digits[0]);
		if (nd > 1) {
			buf_addch(out, '.');
			buf_add(out, digits + 1, (size_t)nd - 1);
		}
		buf_addf(out, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	} else if (exp < 0) {
		buf_adds(out, "0.");
		for (i = -1; i > exp; i--)
			buf_addch(out, '0');
		buf_add(out, digits, (size_t)nd);
	} else {
		for (i = 0; i <= exp; i++)
			buf_addch(out, i < nd ? digits[i] : '0');
		buf_addch(out, '.');
		if (nd > exp + 1)
			buf_add(out, digits + exp + 1, (size_t)(nd - exp - 1));
		else
			buf_addch(out, '0');
	}
}

/* A quoted string the way repr() writes it: '...' unless it holds ' only. */
static void add_quoted(struct buf *out, const char *s, size_t n, int bytes)
{
	char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';
	size_t i;

	if (bytes)
		buf_addch(out, 'b');
	buf_addch(out, q);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == (unsigned char)q) {
			buf_addch(out, '\\');
			buf_addch(out, c);
		} else if (c == '\n') {
			buf_adds(out, "\\n");
		} else if (c == '\t') {
			buf_adds(out, "\\t");
		} else if (c == '\r') {
			buf_adds(out, "\\r");
		} else if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80)) {
			buf_addf(out, "\\x%02x", c);
		} else {
			buf_addch(out, c);
		}
	}
	buf_addch(out, q);
}

static void add_items(struct buf *out, const struct pylit *v, const char *open,
		      const char *close)
{
	size_t i;

	buf_adds(out, open);
	for (i = 0; i < v->n; i++) {
		if (i)
			buf_adds(out, ", ");
		if (v->keys) {
			pylit_repr(out, v->keys[i]);
			buf_adds(out, ": ");
		} else if (v->kw && v->kw[i]) {
			buf_adds(out, v->kw[i]);
			buf_addch(out, '=');
		}
		pylit_repr(out, v->items[i]);
	}
	if (v->kind == PYLIT_TUPLE && v->n == 1)
		buf_addch(out, ',');
	buf_adds(out, close);
}

void pylit_repr(struct buf *out, const struct pylit *v)
{
	switch (v->kind) {
	case PYLIT_NONE:
		buf_adds(out, "None");
		break;
	case PYLIT_BOOL:
		buf_adds(out, v->i ? "True" : "False");
		break;
	case PYLIT_INT:
		if (v->big)
			buf_adds(out, v->s);
		else
			buf_addf(out, "%lld", v->i);
		break;
	case PYLIT_FLOAT:
		add_float(out, v->f);
		break;
	case PYLIT_STR:
	case PYLIT_BYTES:
		add_quoted(out, v->s, v->slen, v->kind == PYLIT_BYTES);
		break;
	case PYLIT_LIST:
		add_items(out, v, "[", "]");
		break;
	case PYLIT_TUPLE:
		add_items(out, v, "(", ")");
		break;
	case PYLIT_SET:
		if (!v->n)
			buf_adds(out, "set()");
		else
			add_items(out, v, "{", "}");
		break;
	case PYLIT_DICT:
		add_items(out, v, "{", "}");
		break;
	case PYLIT_CALL:
		buf_adds(out, v->s);
		add_items(out, v, "(", ")");
		break;
	case PYLIT_NAME:
	case PYLIT_EXPR:
		buf_adds(out, v->s);
		break;
	}
}

static json_t *tagged(const char *tag, json_t *value)
{
	json_t *o = json_object();

	json_object_set_new(o, tag, value);
	return o;
}

/* One code point per byte, so any bytes fit in a JSON string. */
static json_t *bytes_json(const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	json_t *j;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x80) {
			buf_addch(&b, c);
		} else {
			buf_addch(&b, 0xc0 | (c >> 6));
			buf_addch(&b, 0x80 | (c & 0x3f));
		}
	}
	j = json_stringn(b.buf, b.len);
	buf_release(&b);
	return tagged("$bytes", j);
}

static json_t *array_json(const struct pylit *v)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < v->n; i++)
		json_array_append_new(a, pylit_to_json(v->items[i]));
	return a;
}

static json_t *dict_json(const struct pylit *v)
{
	json_t *o = json_object();
	struct buf key = BUF_INIT;
	size_t i;

	for (i = 0; i < v->n; i++) {
		const struct pylit *k = v->keys[i];

		buf_reset(&key);
		if (k->kind == PYLIT_STR)
			buf_add(&key, k->s, k->slen);
		else
			pylit_repr(&key, k);
		json_object_setn_new(o, key.buf, key.len, pylit_to_json(v->items[i]));
	}
	buf_release(&key);
	return o;
}

static json_t *call_json(const struct pylit *v)
{
	json_t *o = json_object(), *args = json_array(), *kwargs = json_object();
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (v->kw && v->kw[i])
			json_object_set_new(kwargs, v->kw[i], pylit_to_json(v->items[i]));
		else
			json_array_append_new(args, pylit_to_json(v->items[i]));
	}
	json_object_set_new(o, "$call", json_string(v->s));
	json_object_set_new(o, "args", args);
	json_object_set_new(o, "kwargs", kwargs);
	return o;
}

json_t *pylit_to_json(const struct pylit *v)
{
	json_t *j;

	switch (v->kind) {
	case PYLIT_NONE:
		return json_null();
	case PYLIT_BOOL:
		return json_boolean(v->i);
	case PYLIT_INT:
		return v->big ? json_real(v->f) : json_integer(v->i);
	case PYLIT_FLOAT:
		return isfinite(v->f) ? json_real(v->f) : json_null();
	case PYLIT_STR:
		j = json_stringn(v->s, v->slen);
		return j ? j : bytes_json(v->s, v->slen);
	case PYLIT_BYTES:
		return bytes_json(v->s, v->slen);
	case PYLIT_LIST:
	case PYLIT_TUPLE:
	case PYLIT_SET:
		return array_json(v);
	case PYLIT_DICT:
		return dict_json(v);
	case PYLIT_CALL:
		return call_json(v);
	case PYLIT_NAME:
		return tagged("$name", json_string(v->s));
	case PYLIT_EXPR:
		return tagged("$expr", json_stringn(v->s, v->slen));
	}
	return json_null();
}
