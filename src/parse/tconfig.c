/* Triton config strings and log numbers (see tconfig.h). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "parse/tconfig.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

/* Numbers longer than this are not numbers a log prints. */
#define NUM_MAX 63

int span_double(const char *s, size_t n, double *out)
{
	char tmp[NUM_MAX + 1], *end;

	if (!n || n > NUM_MAX)
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	*out = strtod(tmp, &end);
	return *end || errno == ERANGE || tmp[0] == ' ' ? -1 : 0;
}

int span_long(const char *s, size_t n, long *out)
{
	char tmp[NUM_MAX + 1], *end;

	if (!n || n > NUM_MAX || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	*out = strtol(tmp, &end, 10);
	return *end || errno == ERANGE ? -1 : 0;
}

int span_lead_double(const char *s, size_t n, double *out)
{
	const char *sp = memchr(s, ' ', n);

	return span_double(s, sp ? (size_t)(sp - s) : n, out);
}

int span_long_or_none(const char *s, size_t n, long *out)
{
	if (n == 4 && !memcmp(s, "None", 4)) {
		*out = -1;
		return 0;
	}
	return span_long(s, n, out);
}

const char *span_rfind(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	const char *p;

	if (k > n)
		return NULL;
	for (p = s + n - k;; p--) {
		if (*p == needle[0] && !memcmp(p, needle, k))
			return p;
		if (p == s)
			return NULL;
	}
}

/* The fields that have their own member; everything else is a kwarg. */
static long *named_field(struct at_config *c, const char *k, size_t n)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{ "num_warps", offsetof(struct at_config, num_warps) },
		{ "num_stages", offsetof(struct at_config, num_stages) },
		{ "num_ctas", offsetof(struct at_config, num_ctas) },
		{ "maxnreg", offsetof(struct at_config, maxnreg) },
	};
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strlen(fields[i].name) == n && !memcmp(fields[i].name, k, n))
			return (long *)((char *)c + fields[i].off);
	return NULL;
}

/* Length of the next item: up to a comma outside brackets and quotes. */
static size_t item_len(const char *s, size_t n)
{
	size_t i, depth = 0;
	char quote = 0;

	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (quote) {
			if (ch == quote)
				quote = 0;
		} else if (ch == '\'' || ch == '"') {
			quote = ch;
		} else if (ch == '(' || ch == '[' || ch == '{') {
			depth++;
		} else if ((ch == ')' || ch == ']' || ch == '}') && depth) {
			depth--;
		} else if (ch == ',' && !depth) {
			break;
		}
	}
	return i;
}

static int is_ident(const char *s, size_t n)
{
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (!(ch == '_' || (ch >= 'a' && ch <= 'z') ||
		      (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
			return 0;
	}
	return 1;
}

/* One "name: value" or "name=value" item. */
static int parse_item(struct at_config *c, const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n), *eq = memchr(s, '=', n);
	const char *sep = colon && (!eq || colon < eq) ? colon : eq;
	const char *v;
	size_t kn, vn;
	long *field;

	if (!sep)
		return -1;
	kn = (size_t)(sep - s);
	v = sep + 1;
	vn = n - kn - 1;
	span_trim(&s, &kn);
	span_trim(&v, &vn);
	if (!is_ident(s, kn) || !vn)
		return -1;
	field = named_field(c, s, kn);
	if (field)
		return span_long_or_none(v, vn, field);
	at_kwarg_add(c, s, kn, v, vn);
	return 0;
}

int tconfig_parse(struct at_config *c, const char *s, size_t n)
{
	const char *p, *end;
	size_t len;

	span_trim(&s, &n);
	if (n && s[n - 1] == ';')	/* TRITON_PRINT_AUTOTUNING ends it so */
		n--;
	span_trim(&s, &n);
	if (!n)
		return -1;
	free(c->text);
	c->text = xstrndup(s, n);
	p = s;
	end = s + n;
	while (p < end) {
		len = item_len(p, (size_t)(end - p));
		if (parse_item(c, p, len) < 0)
			return -1;
		p += len;
		if (p < end)
			p++;	/* the comma */
	}
	return 0;
}

/* "nreg 30, nspill 0, #shared-mem 0": the register and memory fields. */
static int parse_resources(struct at_config *c, const char *s, size_t n)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "nreg ", offsetof(struct at_config, n_regs) },
		{ "nspill ", offsetof(struct at_config, n_spills) },
		{ "#shared-mem ", offsetof(struct at_config, shared_bytes) },
	};
	const char *p = s, *end = s + n;
	size_t i = 0;

	while (p < end) {
		size_t step = item_len(p, (size_t)(end - p)), len = step, k;
		const char *item = p;

		span_trim(&item, &len);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (span_starts(item, len, keys[k].key))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]) ||
		    span_long_or_none(item + strlen(keys[k].key),
				      len - strlen(keys[k].key),
				      (long *)((char *)c + keys[k].off)) < 0)
			return -1;
		p += step;
		if (p < end)
			p++;
		i++;
	}
	return i ? 0 : -1;
}

int tconfig_timed(struct at_config *c, const char *s, size_t n)
{
	const char *res = span_rfind(s, n, ", nreg ");
	size_t head = res ? (size_t)(res - s) : n;
	const char *colon = span_rfind(s, head, ": ");
	const char *t;
	size_t tn;

	if (!colon)
		return -1;
	t = colon + 2;
	tn = head - (size_t)(t - s);
	span_trim(&t, &tn);
	if (span_double(t, tn, &c->time_ms) < 0)
		return -1;
	if (isinf(c->time_ms) || isnan(c->time_ms))
		c->time_ms = INFINITY;
	if (res && parse_resources(c, res + 2, n - head - 2) < 0)
		return -1;
	return tconfig_parse(c, s, (size_t)(colon - s));
}
