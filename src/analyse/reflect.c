/*
 * Walking field tables (reflect.h): init, release, to JSON, from JSON and
 * diff. Each operation is one switch over the field types, so a new
 * member of the analysis model is one table row in schema.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/reflect.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

#define AT(p, off, T) ((T *)(void *)((char *)(p) + (off)))
#define CAT(p, off, T) ((const T *)(const void *)((const char *)(p) + (off)))

size_t rf_capacity(size_t nr)
{
	size_t cap = 8;

	if (!nr)
		return 0;
	while (cap < nr)
		cap *= 2;
	return cap;
}

void *rf_grow(void *v, size_t nr, size_t size)
{
	if (nr < rf_capacity(nr))
		return v;
	return xrealloc(v, rf_capacity(nr + 1) * size);
}

void rf_init(const struct rf_struct *d, void *p)
{
	const struct rf_field *f;

	memset(p, 0, d->size);
	for (f = d->fields; f->type != RF_END; f++) {
		switch (f->type) {
		case RF_LONG:
			*AT(p, f->off, long) = -1;
			break;
		case RF_NUM:
			*AT(p, f->off, double) = NAN;
			break;
		case RF_STRUCT:
			rf_init(f->sub, AT(p, f->off, char));
			break;
		default:
			break;
		}
	}
}

static void release_array(const struct rf_field *f, void *p)
{
	char *v = *AT(p, f->off, char *);
	size_t i, nr = *AT(p, f->nr_off, size_t);

	for (i = 0; i < nr; i++)
		rf_release(f->sub, v + i * f->sub->size);
	free(v);
}

void rf_release(const struct rf_struct *d, void *p)
{
	const struct rf_field *f;

	for (f = d->fields; f->type != RF_END; f++) {
		switch (f->type) {
		case RF_STR:
			free(*AT(p, f->off, char *));
			break;
		case RF_STRV: {
			char **v = *AT(p, f->off, char **);
			size_t i, nr = *AT(p, f->nr_off, size_t);

			for (i = 0; i < nr; i++)
				free(v[i]);
			free(v);
			break;
		}
		case RF_ARRAY:
			release_array(f, p);
			break;
		case RF_STRUCT:
			rf_release(f->sub, AT(p, f->off, char));
			break;
		default:
			break;
		}
	}
	rf_init(d, p);
}

static json_t *num_json(double v)
{
	if (isnan(v) || isinf(v))
		return json_null();
	return json_real(v);
}

static json_t *strv_json(char *const *v, size_t nr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < nr; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *array_json(const struct rf_field *f, const void *p)
{
	const char *v = *CAT(p, f->off, char *);
	size_t i, nr = *CAT(p, f->nr_off, size_t);
	json_t *a = json_array();

	for (i = 0; i < nr; i++)
		json_array_append_new(a, rf_to_json(f->sub, v + i * f->sub->size));
	return a;
}

static json_t *field_json(const struct rf_field *f, const void *p)
{
	switch (f->type) {
	case RF_STR: {
		const char *s = *CAT(p, f->off, char *);
		return s ? json_string(s) : json_null();
	}
	case RF_LONG: {
		long v = *CAT(p, f->off, long);
		return v < 0 ? json_null() : json_integer(v);
	}
	case RF_NUM:
		return num_json(*CAT(p, f->off, double));
	case RF_BOOL:
		return json_boolean(*CAT(p, f->off, int));
	case RF_STRV: {
		char **v;

		memcpy(&v, (const char *)p + f->off, sizeof(v));
		return strv_json(v, *CAT(p, f->nr_off, size_t));
	}
	case RF_ARRAY:
		return array_json(f, p);
	case RF_STRUCT: {
		const void *sp = CAT(p, f->off, char);

		if ((f->flags & RF_OPTIONAL) && !*(char *const *)sp)
			return json_null();
		return rf_to_json(f->sub, sp);
	}
	default:
		return json_null();
	}
}

json_t *rf_to_json(const struct rf_struct *d, const void *p)
{
	const struct rf_field *f;
	json_t *o = json_object();

	for (f = d->fields; f->type != RF_END; f++)
		json_object_set_new(o, f->key, field_json(f, p));
	return o;
}

struct rf_path {
	struct buf *err;	/* where the error goes */
	const char *what;	/* the file, for messages */
	const char *prefix;	/* key path of the enclosing object */
};

static int type_error(const struct rf_path *rp, const char *key, const char *want)
{
	buf_addf(rp->err, "'%s': %s%s%s: not %s", rp->what, rp->prefix,
		 *rp->prefix ? "." : "", key, want);
	return -1;
}

static int strv_from(const struct rf_field *f, void *p, const json_t *v,
		     const struct rf_path *rp)
{
	char ***vv = AT(p, f->off, char **);
	size_t *nr = AT(p, f->nr_off, size_t), i;
	json_t *e;

	if (!json_is_array(v))
		return type_error(rp, f->key, "a list");
	*vv = xcalloc(rf_capacity(json_array_size(v)) + 1, sizeof(char *));
	json_array_foreach(v, i, e) {
		if (!json_is_string(e))
			return type_error(rp, f->key, "a list of strings");
		(*vv)[(*nr)++] = xstrdup(json_string_value(e));
	}
	return 0;
}

static int from_json_at(const struct rf_struct *d, void *p, const json_t *j,
			const struct rf_path *rp);

static char *child_path(const struct rf_path *rp, const char *key, long index)
{
	const char *dot = *rp->prefix ? "." : "";

	if (index < 0)
		return xstrfmt("%s%s%s", rp->prefix, dot, key);
	return xstrfmt("%s%s%s[%ld]", rp->prefix, dot, key, index);
}

/* Reads a nested object at rp's path extended by key (and index). */
static int nested_from(const struct rf_struct *d, void *p, const json_t *v,
		       const struct rf_path *rp, const char *key, long index)
{
	char *path = child_path(rp, key, index);
	struct rf_path sub = { rp->err, rp->what, path };
	int ret;

	if (!json_is_object(v)) {
		buf_addf(rp->err, "'%s': %s: not an object", rp->what, path);
		ret = -1;
	} else {
		ret = from_json_at(d, p, v, &sub);
	}
	free(path);
	return ret;
}

static int array_from(const struct rf_field *f, void *p, const json_t *v,
		      const struct rf_path *rp)
{
	char **vv = AT(p, f->off, char *);
	size_t *nr = AT(p, f->nr_off, size_t), i;
	json_t *e;

	if (!json_is_array(v))
		return type_error(rp, f->key, "a list");
	*vv = xcalloc(rf_capacity(json_array_size(v)) + 1, f->sub->size);
	json_array_foreach(v, i, e) {
		void *el = *vv + i * f->sub->size;

		rf_init(f->sub, el);
		(*nr)++;
		if (nested_from(f->sub, el, e, rp, f->key, (long)i) < 0)
			return -1;
	}
	return 0;
}

static int field_from(const struct rf_field *f, void *p, const json_t *v,
		      const struct rf_path *rp)
{
	switch (f->type) {
	case RF_STR:
		if (!json_is_string(v))
			return type_error(rp, f->key, "a string");
		*AT(p, f->off, char *) = xstrdup(json_string_value(v));
		return 0;
	case RF_LONG:
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return type_error(rp, f->key, "a count");
		*AT(p, f->off, long) = (long)json_integer_value(v);
		return 0;
	case RF_NUM:
		if (!json_is_number(v))
			return type_error(rp, f->key, "a number");
		*AT(p, f->off, double) = json_number_value(v);
		return 0;
	case RF_BOOL:
		if (!json_is_boolean(v))
			return type_error(rp, f->key, "true or false");
		*AT(p, f->off, int) = json_is_true(v);
		return 0;
	case RF_STRV:
		return strv_from(f, p, v, rp);
	case RF_ARRAY:
		return array_from(f, p, v, rp);
	case RF_STRUCT:
		return nested_from(f->sub, AT(p, f->off, char), v, rp, f->key, -1);
	default:
		return 0;
	}
}

static int from_json_at(const struct rf_struct *d, void *p, const json_t *j,
			const struct rf_path *rp)
{
	const struct rf_field *f;

	for (f = d->fields; f->type != RF_END; f++) {
		const json_t *v = json_object_get(j, f->key);

		if ((!v || json_is_null(v)) && (f->flags & RF_NEED)) {
			buf_addf(rp->err, "'%s': %s%s%s: %s", rp->what, rp->prefix,
				 *rp->prefix ? "." : "", f->key, v ? "null where a value belongs" :
				 "missing");
			return -1;
		}
		if (!v || json_is_null(v))
			continue;
		if (field_from(f, p, v, rp) < 0)
			return -1;
	}
	return 0;
}

int rf_from_json(const struct rf_struct *d, void *p, const json_t *j,
		 const char *what, struct buf *err)
{
	struct rf_path rp = { err, what, "" };

	if (!json_is_object(j)) {
		buf_addf(err, "'%s': %s is not an object", what, d->name);
		return -1;
	}
	return from_json_at(d, p, j, &rp);
}

void rf_changes_add(struct rf_changes *c, const char *path, const char *a,
		    const char *b)
{
	struct rf_change *ch;

	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	ch = &c->v[c->nr++];
	ch->path = xstrdup(path);
	ch->a = xstrdup(a);
	ch->b = xstrdup(b);
}

void rf_changes_release(struct rf_changes *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].path);
		free(c->v[i].a);
		free(c->v[i].b);
	}
	free(c->v);
	c->v = NULL;
	c->nr = c->alloc = 0;
}

static char *num_text(double v)
{
	return isnan(v) ? xstrdup("-") : xstrfmt("%.6g", v);
}

static int num_differs(double a, double b, double tol)
{
	double m;

	if (isnan(a) || isnan(b))
		return isnan(a) != isnan(b);
	m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return m > 0 && fabs(a - b) / m > tol;
}

static void diff_scalar(const struct rf_field *f, const void *a, const void *b,
			const char *path, double tol, struct rf_changes *out)
{
	char *ta = NULL, *tb = NULL;

	switch (f->type) {
	case RF_STR: {
		const char *sa = *CAT(a, f->off, char *), *sb = *CAT(b, f->off, char *);

		if ((sa || sb) && (!sa || !sb || strcmp(sa, sb)))
			rf_changes_add(out, path, sa ? sa : "-", sb ? sb : "-");
		return;
	}
	case RF_LONG: {
		long la = *CAT(a, f->off, long), lb = *CAT(b, f->off, long);

		if (la != lb) {
			ta = la < 0 ? xstrdup("-") : xstrfmt("%ld", la);
			tb = lb < 0 ? xstrdup("-") : xstrfmt("%ld", lb);
		}
		break;
	}
	case RF_NUM: {
		double da = *CAT(a, f->off, double), db = *CAT(b, f->off, double);

		if (num_differs(da, db, tol)) {
			ta = num_text(da);
			tb = num_text(db);
		}
		break;
	}
	case RF_BOOL:
		if (*CAT(a, f->off, int) != *CAT(b, f->off, int)) {
			ta = xstrdup(*CAT(a, f->off, int) ? "true" : "false");
			tb = xstrdup(*CAT(b, f->off, int) ? "true" : "false");
		}
		break;
	default:
		return;
	}
	if (ta)
		rf_changes_add(out, path, ta, tb);
	free(ta);
	free(tb);
}

void rf_diff(const struct rf_struct *d, const void *a, const void *b,
	     const char *prefix, double rel_tol, struct rf_changes *out)
{
	const struct rf_field *f;

	for (f = d->fields; f->type != RF_END; f++) {
		char *path;

		if (f->flags & RF_NODIFF || f->type == RF_STRV || f->type == RF_ARRAY)
			continue;
		path = *prefix ? xstrfmt("%s.%s", prefix, f->key) : xstrdup(f->key);
		if (f->type == RF_STRUCT)
			rf_diff(f->sub, CAT(a, f->off, char), CAT(b, f->off, char), path,
				rel_tol, out);
		else
			diff_scalar(f, a, b, path, rel_tol, out);
		free(path);
	}
}
