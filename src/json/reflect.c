/*
 * Walking field tables (reflect.h): init, release, write (as JSON text or
 * a jansson tree), read with type checks, and diff. Each operation is one
 * switch over the field types, so a new member of a typed document is one
 * table row.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "json/reflect.h"
#include "util/file.h"
#include "util/jcheck.h"
#include "util/mem.h"
#include "banned.h"

#define AT(p, off, T) ((T *)(void *)((char *)(p) + (off)))
#define CAT(p, off, T) ((const T *)(const void *)((const char *)(p) + (off)))

/* The end row: it holds the table's own flags (reflect.h). */
static const struct rf_field *end_row(const struct rf_struct *d)
{
	const struct rf_field *f = d->fields;

	while (f->type != RF_END)
		f++;
	return f;
}

/* The json_t * member that keeps the object read, or NULL when the table is not RF_OPEN. */
static json_t **kept_slot(const struct rf_struct *d, const void *p)
{
	const struct rf_field *end = end_row(d);

	return end->flags & RF_OPEN ? AT(p, end->off, json_t *) : NULL;
}

static int jc_words(const struct rf_struct *d)
{
	return !!(end_row(d)->flags & RF_JC_WORDS);
}

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
		case RF_I64:
			*AT(p, f->off, long long) = RF_I64_NONE;
			break;
		case RF_ENUM:
		case RF_TRI:
			*AT(p, f->off, int) = -1;
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

static void release_map(const struct rf_field *f, void *p)
{
	size_t i, nr = *AT(p, f->nr_off, size_t);

	if (f->type == RF_PAIRS) {
		struct rf_pair *v = *AT(p, f->off, struct rf_pair *);

		for (i = 0; i < nr; i++) {
			free(v[i].key);
			free(v[i].value);
		}
		free(v);
	} else {
		struct rf_count *v = *AT(p, f->off, struct rf_count *);

		for (i = 0; i < nr; i++)
			free(v[i].key);
		free(v);
	}
}

void rf_release(const struct rf_struct *d, void *p)
{
	const struct rf_field *f;

	for (f = d->fields; f->type != RF_END; f++) {
		switch (f->type) {
		case RF_STR:
			free(*AT(p, f->off, char *));
			break;
		case RF_JSON:
			json_decref(*AT(p, f->off, json_t *));
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
		case RF_PAIRS:
		case RF_COUNTS:
			release_map(f, p);
			break;
		case RF_STRUCT:
			rf_release(f->sub, AT(p, f->off, char));
			break;
		default:
			break;
		}
	}
	if (kept_slot(d, p))
		json_decref(*kept_slot(d, p));
	rf_init(d, p);
}

/* The name of an RF_ENUM value, or NULL when unknown or out of its table. */
static const char *enum_name(const struct rf_field *f, int v)
{
	int i;

	for (i = 0; v >= 0 && f->names[i]; i++)
		if (i == v)
			return f->names[i];
	return NULL;
}

static int all_unknown(const struct rf_struct *d, const void *p);

/* Whether a member holds nothing: what RF_OMIT_NULL leaves out. */
static int is_unknown(const struct rf_field *f, const void *p)
{
	switch (f->type) {
	case RF_STR:
		return !*CAT(p, f->off, char *);
	case RF_LONG:
		return *CAT(p, f->off, long) < 0;
	case RF_I64:
		return *CAT(p, f->off, long long) == RF_I64_NONE;
	case RF_NUM:
		return !isfinite(*CAT(p, f->off, double));
	case RF_ENUM:
		return !enum_name(f, *CAT(p, f->off, int));
	case RF_TRI:
		return *CAT(p, f->off, int) < 0;
	case RF_JSON:
		return !*CAT(p, f->off, json_t *);
	case RF_STRV:
	case RF_ARRAY:
	case RF_PAIRS:
	case RF_COUNTS:
		return !*CAT(p, f->nr_off, size_t);
	case RF_STRUCT:
		if (f->flags & RF_SEEN)
			return !*CAT(p, f->nr_off, int);
		if (f->flags & RF_ALL_UNKNOWN)
			return all_unknown(f->sub, CAT(p, f->off, char));
		return (f->flags & RF_OPTIONAL) && !*CAT(p, f->off, char *);
	default:
		return 0;
	}
}

static int all_unknown(const struct rf_struct *d, const void *p)
{
	const struct rf_field *f;

	for (f = d->fields; f->type != RF_END; f++)
		if (!is_unknown(f, p))
			return 0;
	return 1;
}

static const struct rf_field *field_named(const struct rf_struct *d, const char *key)
{
	const struct rf_field *f;

	for (f = d->fields; f->type != RF_END; f++)
		if (!strcmp(f->key, key))
			return f;
	return NULL;
}

/*
 * One member to write: a table row (f) or, in an RF_OPEN struct, a key the
 * table does not know with its value as read (raw).
 */
typedef void each_fn(void *ctx, const char *key, const struct rf_field *f, const void *p,
		     const json_t *raw);

/* Calls fn for every member rf_write writes, in its order (reflect.h). */
static void each_member(const struct rf_struct *d, const void *p, const char *except,
			each_fn *fn, void *ctx)
{
	json_t **slot = kept_slot(d, p);
	const json_t *kept = slot ? *slot : NULL;
	const struct rf_field *f;
	const char *key;
	json_t *raw;

	json_object_foreach((json_t *)kept, key, raw) {
		if (except && !strcmp(key, except))
			continue;
		f = field_named(d, key);
		fn(ctx, key, f, p, f ? NULL : raw);
	}
	for (f = d->fields; f->type != RF_END; f++) {
		if ((except && !strcmp(f->key, except)) || (kept && json_object_get(kept, f->key)))
			continue;
		if ((f->flags & RF_OMIT_NULL) && is_unknown(f, p))
			continue;
		if ((f->flags & RF_PRESENT) && !*CAT(p, f->nr_off, int))
			continue;
		fn(ctx, f->key, f, p, NULL);
	}
}

static void write_member(void *ctx, const char *key, const struct rf_field *f, const void *p,
			 const json_t *raw);

/* The element count of a list or map member; 0 for the others (RF_SEEN's nr_off is an int). */
static size_t count_of(const struct rf_field *f, const void *p)
{
	switch (f->type) {
	case RF_STRV:
	case RF_ARRAY:
	case RF_PAIRS:
	case RF_COUNTS:
		return *CAT(p, f->nr_off, size_t);
	default:
		return 0;
	}
}

static void write_field(struct jsonw *w, const struct rf_field *f, const void *p)
{
	size_t i, nr = count_of(f, p);

	switch (f->type) {
	case RF_STR:
		jsonw_str_or_null(w, *CAT(p, f->off, char *));
		return;
	case RF_LONG:
		if (is_unknown(f, p))
			jsonw_null(w);
		else
			jsonw_int(w, *CAT(p, f->off, long));
		return;
	case RF_I64:
		if (is_unknown(f, p))
			jsonw_null(w);
		else
			jsonw_int(w, *CAT(p, f->off, long long));
		return;
	case RF_NUM:
		jsonw_real(w, *CAT(p, f->off, double));	/* NAN: null */
		return;
	case RF_BOOL:
		jsonw_bool(w, *CAT(p, f->off, int));
		return;
	case RF_TRI:
		if (is_unknown(f, p))
			jsonw_null(w);
		else
			jsonw_bool(w, *CAT(p, f->off, int));
		return;
	case RF_ENUM:
		jsonw_str_or_null(w, enum_name(f, *CAT(p, f->off, int)));
		return;
	case RF_JSON:
		jsonw_value(w, *CAT(p, f->off, json_t *));
		return;
	case RF_STRV: {
		char **v;

		memcpy(&v, (const char *)p + f->off, sizeof(v));
		jsonw_array(w);
		for (i = 0; i < nr; i++)
			jsonw_str(w, v[i]);
		jsonw_end(w);
		return;
	}
	case RF_ARRAY: {
		const char *v = *CAT(p, f->off, char *);

		jsonw_array(w);
		for (i = 0; i < nr; i++)
			rf_write(w, f->sub, v + i * f->sub->size);
		jsonw_end(w);
		return;
	}
	case RF_PAIRS: {
		const struct rf_pair *v = *CAT(p, f->off, struct rf_pair *);

		jsonw_object(w);
		for (i = 0; i < nr; i++) {
			jsonw_key(w, v[i].key);
			jsonw_str_or_null(w, v[i].value);
		}
		jsonw_end(w);
		return;
	}
	case RF_COUNTS: {
		const struct rf_count *v = *CAT(p, f->off, struct rf_count *);

		jsonw_object(w);
		for (i = 0; i < nr; i++) {
			jsonw_key(w, v[i].key);
			if (v[i].n == RF_I64_NONE)
				jsonw_null(w);
			else
				jsonw_int(w, v[i].n);
		}
		jsonw_end(w);
		return;
	}
	case RF_STRUCT:
		if (is_unknown(f, p))
			jsonw_null(w);
		else
			rf_write(w, f->sub, CAT(p, f->off, char));
		return;
	default:
		jsonw_null(w);
		return;
	}
}

static void write_member(void *ctx, const char *key, const struct rf_field *f, const void *p,
			 const json_t *raw)
{
	struct jsonw *w = ctx;

	jsonw_key(w, key);
	if (f)
		write_field(w, f, p);
	else
		jsonw_value(w, raw);
}

void rf_write_members(struct jsonw *w, const struct rf_struct *d, const void *p,
		      const char *except)
{
	each_member(d, p, except, write_member, w);
}

int rf_write_doc(FILE *fp, const struct rf_struct *d, const void *p, int schema_version,
		 const char *tool)
{
	struct jsonw w;

	jsonw_init_prec(&w, fp, 10);
	jsonw_object(&w);
	jsonw_key(&w, "schema_version");
	jsonw_int(&w, schema_version);
	jsonw_key(&w, "tool");
	jsonw_str(&w, tool);
	rf_write_members(&w, d, p, NULL);
	jsonw_end(&w);
	return jsonw_finish(&w);
}

int rf_save_doc(const char *path, const struct rf_struct *d, const void *p, int schema_version,
		const char *tool, struct buf *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	int ret;

	if (!fp) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = rf_write_doc(fp, d, p, schema_version, tool);
	if (fclose(fp) != 0 || ret < 0) {
		buf_addf(err, "cannot encode JSON for '%s'", path);
		free(text);
		return -1;
	}
	ret = write_file_atomic(path, text, len, err);
	free(text);
	return ret;
}

int rf_write(struct jsonw *w, const struct rf_struct *d, const void *p)
{
	jsonw_object(w);
	rf_write_members(w, d, p, NULL);
	jsonw_end(w);
	return ferror(w->fp) ? -1 : 0;
}

static json_t *field_json(const struct rf_field *f, const void *p)
{
	size_t i, nr = count_of(f, p);
	json_t *v;

	if (f->type != RF_BOOL && f->type != RF_STRV && f->type != RF_ARRAY &&
	    f->type != RF_PAIRS && f->type != RF_COUNTS && is_unknown(f, p))
		return json_null();
	switch (f->type) {
	case RF_STR:
		return json_string(*CAT(p, f->off, char *));
	case RF_LONG:
		return json_integer(*CAT(p, f->off, long));
	case RF_I64:
		return json_integer(*CAT(p, f->off, long long));
	case RF_NUM:
		return json_real(*CAT(p, f->off, double));
	case RF_BOOL:
	case RF_TRI:
		return json_boolean(*CAT(p, f->off, int));
	case RF_ENUM:
		return json_string(enum_name(f, *CAT(p, f->off, int)));
	case RF_JSON:	/* NULL is null, as rf_write writes it */
		return *CAT(p, f->off, json_t *) ? json_deep_copy(*CAT(p, f->off, json_t *)) :
		       json_null();
	case RF_STRV: {
		char **sv;

		memcpy(&sv, (const char *)p + f->off, sizeof(sv));
		v = json_array();
		for (i = 0; i < nr; i++)
			json_array_append_new(v, json_string(sv[i]));
		return v;
	}
	case RF_ARRAY:
		v = json_array();
		for (i = 0; i < nr; i++)
			json_array_append_new(v, rf_to_json(f->sub,
				*CAT(p, f->off, char *) + i * f->sub->size));
		return v;
	case RF_PAIRS:
		v = json_object();
		for (i = 0; i < nr; i++) {
			const struct rf_pair *e = &(*CAT(p, f->off, struct rf_pair *))[i];

			json_object_set_new(v, e->key, e->value ? json_string(e->value) : json_null());
		}
		return v;
	case RF_COUNTS:
		v = json_object();
		for (i = 0; i < nr; i++) {
			const struct rf_count *e = &(*CAT(p, f->off, struct rf_count *))[i];

			json_object_set_new(v, e->key, e->n == RF_I64_NONE ? json_null() :
					    json_integer(e->n));
		}
		return v;
	case RF_STRUCT:
		if ((f->flags & (RF_ALL_UNKNOWN | RF_SEEN)) && is_unknown(f, p))
			return json_null();
		return rf_to_json(f->sub, CAT(p, f->off, char));
	default:
		return json_null();
	}
}

static void json_member(void *ctx, const char *key, const struct rf_field *f, const void *p,
			const json_t *raw)
{
	json_object_set_new(ctx, key, f ? field_json(f, p) : json_deep_copy(raw));
}

json_t *rf_to_json(const struct rf_struct *d, const void *p)
{
	json_t *o = json_object();

	each_member(d, p, NULL, json_member, o);
	return o;
}

struct rf_path {
	struct buf *err;	/* where the error goes */
	const char *what;	/* the file, for messages */
	const char *prefix;	/* key path of the enclosing object */
	int jc;			/* RF_JC_WORDS */
};

static int type_error(const struct rf_path *rp, const char *key, const char *want)
{
	buf_addf(rp->err, "'%s': %s%s%s: not %s", rp->what, rp->prefix,
		 *rp->prefix ? "." : "", key, want);
	return -1;
}

/* What a row's value must be, in the table's words (reflect.h). */
static const char *noun(const struct rf_field *f, int jc)
{
	switch (f->type) {
	case RF_STR:
	case RF_ENUM:
		return "a string";
	case RF_LONG:
		return jc ? "a count (an integer >= 0)" : "a count";
	case RF_I64:
		return f->flags & RF_COUNT ? "a count (an integer >= 0)" : "an integer";
	case RF_NUM:
		return f->flags & RF_TIME ? "a time (a number >= 0)" :
		       f->flags & RF_RATE ? "a rate (a number >= 0)" : "a number";
	case RF_BOOL:
	case RF_TRI:
		return "true or false";
	case RF_JSON:
		return f->flags & RF_OBJECT ? "an object" :
		       f->flags & RF_OBJECTS ? "a list of objects" :
		       f->flags & RF_BOOLEAN ? "true or false" : "a value";
	case RF_STRV:
		return jc ? "a list of strings" : "a list";
	case RF_ARRAY:
		return jc ? "a list of objects" : "a list";
	case RF_STRUCT:
		return "an object";
	case RF_PAIRS:
		return "an object of strings";
	case RF_COUNTS:
		return "an object of counts";
	default:
		return "a value";
	}
}

static int strv_from(const struct rf_field *f, void *p, const json_t *v,
		     const struct rf_path *rp)
{
	char ***vv = AT(p, f->off, char **);
	size_t *nr = AT(p, f->nr_off, size_t), i;
	json_t *e;

	if (!json_is_array(v))
		return type_error(rp, f->key, noun(f, rp->jc));
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
	struct rf_path sub = { rp->err, rp->what, path, jc_words(d) };
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

	if (!json_is_array(v) || (rp->jc && !jc_type_ok(v, JC_LIST)))
		return type_error(rp, f->key, noun(f, rp->jc));
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

static int is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

/* RF_PAIRS and RF_COUNTS: every value checked before any is kept. */
static int map_from(const struct rf_field *f, void *p, const json_t *v,
		    const struct rf_path *rp)
{
	size_t *nr = AT(p, f->nr_off, size_t), n = json_object_size(v);
	const char *key;
	json_t *x;

	if (!json_is_object(v))
		return type_error(rp, f->key, noun(f, rp->jc));
	json_object_foreach((json_t *)v, key, x)
		if (!json_is_null(x) && (f->type == RF_PAIRS ? !json_is_string(x) : !is_count(x)))
			return type_error(rp, f->key, noun(f, rp->jc));
	if (f->type == RF_PAIRS) {
		struct rf_pair *pv = xcalloc(rf_capacity(n) + 1, sizeof(*pv));

		*AT(p, f->off, struct rf_pair *) = pv;
		json_object_foreach((json_t *)v, key, x) {
			pv[*nr].key = xstrdup(key);
			pv[(*nr)++].value = json_is_null(x) ? NULL : xstrdup(json_string_value(x));
		}
	} else {
		struct rf_count *cv = xcalloc(rf_capacity(n) + 1, sizeof(*cv));

		*AT(p, f->off, struct rf_count *) = cv;
		json_object_foreach((json_t *)v, key, x) {
			cv[*nr].key = xstrdup(key);
			cv[(*nr)++].n = json_is_null(x) ? RF_I64_NONE : (long long)json_integer_value(x);
		}
	}
	return 0;
}

static int enum_from(const struct rf_field *f, void *p, const json_t *v,
		     const struct rf_path *rp)
{
	int i;

	if (!json_is_string(v))
		return type_error(rp, f->key, noun(f, rp->jc));
	for (i = 0; f->names[i]; i++) {
		if (!strcmp(f->names[i], json_string_value(v))) {
			*AT(p, f->off, int) = i;
			return 0;
		}
	}
	buf_addf(rp->err, "'%s': %s%s%s: '%s' is not a known value", rp->what, rp->prefix,
		 *rp->prefix ? "." : "", f->key, json_string_value(v));
	return -1;
}

static int scalar_ok(const struct rf_field *f, const json_t *v)
{
	switch (f->type) {
	case RF_STR:
		return json_is_string(v);
	case RF_LONG:
		return is_count(v);
	case RF_I64:
		return json_is_integer(v) && (!(f->flags & RF_COUNT) || json_integer_value(v) >= 0);
	case RF_NUM:
		return json_is_number(v) && (!(f->flags & (RF_TIME | RF_RATE)) ||
					     (isfinite(json_number_value(v)) && json_number_value(v) >= 0));
	case RF_BOOL:
	case RF_TRI:
		return json_is_boolean(v);
	case RF_JSON:
		return (!(f->flags & RF_OBJECT) || json_is_object(v)) &&
		       (!(f->flags & RF_OBJECTS) || jc_type_ok(v, JC_LIST)) &&
		       (!(f->flags & RF_BOOLEAN) || json_is_boolean(v));
	default:
		return 1;
	}
}

/* RF_JSON with a `sub` table: the object, or each one of the list, read into a scratch struct. */
static int json_checked(const struct rf_field *f, const json_t *v, const struct rf_path *rp)
{
	void *scratch = xcalloc(1, f->sub->size);
	int list = json_is_array(v), ret = 0;
	size_t i, n = list ? json_array_size(v) : 1;

	for (i = 0; i < n && ret == 0; i++) {
		rf_init(f->sub, scratch);
		ret = nested_from(f->sub, scratch, list ? json_array_get(v, i) : v, rp, f->key,
				  list ? (long)i : -1);
		rf_release(f->sub, scratch);
	}
	free(scratch);
	return ret;
}

static int field_from(const struct rf_field *f, void *p, const json_t *v,
		      const struct rf_path *rp)
{
	switch (f->type) {
	case RF_STRV:
		return strv_from(f, p, v, rp);
	case RF_ARRAY:
		return array_from(f, p, v, rp);
	case RF_STRUCT:
		if (nested_from(f->sub, AT(p, f->off, char), v, rp, f->key, -1) < 0)
			return -1;
		if (f->flags & RF_SEEN)
			*AT(p, f->nr_off, int) = 1;
		return 0;
	case RF_PAIRS:
	case RF_COUNTS:
		return map_from(f, p, v, rp);
	case RF_ENUM:
		return enum_from(f, p, v, rp);
	default:
		break;
	}
	if (!scalar_ok(f, v))
		return type_error(rp, f->key, noun(f, rp->jc));
	if (f->type == RF_JSON && f->sub && json_checked(f, v, rp) < 0)
		return -1;
	switch (f->type) {
	case RF_STR:
		*AT(p, f->off, char *) = xstrdup(json_string_value(v));
		break;
	case RF_LONG:
		*AT(p, f->off, long) = (long)json_integer_value(v);
		break;
	case RF_I64:
		*AT(p, f->off, long long) = (long long)json_integer_value(v);
		break;
	case RF_NUM:
		*AT(p, f->off, double) = json_number_value(v);
		break;
	case RF_BOOL:
	case RF_TRI:
		*AT(p, f->off, int) = json_is_true(v);
		break;
	case RF_JSON:
		*AT(p, f->off, json_t *) = json_deep_copy(v);
		break;
	default:
		break;
	}
	return 0;
}

static int from_json_at(const struct rf_struct *d, void *p, const json_t *j,
			const struct rf_path *rp)
{
	const struct rf_field *f;

	if (kept_slot(d, p))
		*kept_slot(d, p) = json_deep_copy(j);
	for (f = d->fields; f->type != RF_END; f++) {
		const json_t *v = json_object_get(j, f->key);

		if ((!v && (f->flags & RF_NEED)) ||
		    (v && json_is_null(v) && (f->flags & (RF_NEED | RF_NONNULL)))) {
			buf_addf(rp->err, "'%s': %s%s%s: ", rp->what, rp->prefix,
				 *rp->prefix ? "." : "", f->key);
			if (!v)
				buf_addf(rp->err, "missing");
			else
				buf_addf(rp->err, "null where %s belongs",
					 rp->jc ? noun(f, 1) : "a value");
			return -1;
		}
		if (v && (f->flags & RF_PRESENT))
			*AT(p, f->nr_off, int) = 1;
		if (!v || json_is_null(v))
			continue;
		if (field_from(f, p, v, rp) < 0)
			return -1;
	}
	return 0;
}

int rf_read(const struct rf_struct *d, void *p, const json_t *j, const char *what,
	    struct buf *err)
{
	struct rf_path rp = { err, what, "", jc_words(d) };

	if (!json_is_object(j)) {
		if (rp.jc)
			buf_addf(err, "'%s' is not a JSON object", what);
		else
			buf_addf(err, "'%s': %s is not an object", what, d->name);
		return -1;
	}
	return from_json_at(d, p, j, &rp);
}

int rf_from_json(const struct rf_struct *d, void *p, const json_t *j,
		 const char *what, struct buf *err)
{
	return rf_read(d, p, j, what, err);
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

/* A scalar member as rf_diff shows it: "-" when unknown. */
static char *scalar_text(const struct rf_field *f, const void *p)
{
	char *s;

	if (f->type != RF_BOOL && is_unknown(f, p))
		return xstrdup("-");
	switch (f->type) {
	case RF_LONG:
		return xstrfmt("%ld", *CAT(p, f->off, long));
	case RF_I64:
		return xstrfmt("%lld", *CAT(p, f->off, long long));
	case RF_BOOL:
	case RF_TRI:
		return xstrdup(*CAT(p, f->off, int) ? "true" : "false");
	case RF_ENUM:
		return xstrdup(enum_name(f, *CAT(p, f->off, int)));
	case RF_JSON:
		s = jsonw_compact_string(*CAT(p, f->off, json_t *));
		return s ? s : xstrdup("-");
	default:
		return xstrdup("-");
	}
}

static int scalar_differs(const struct rf_field *f, const void *a, const void *b)
{
	switch (f->type) {
	case RF_LONG:
		return *CAT(a, f->off, long) != *CAT(b, f->off, long);
	case RF_I64:
		return *CAT(a, f->off, long long) != *CAT(b, f->off, long long);
	case RF_BOOL:
	case RF_TRI:
	case RF_ENUM:
		return *CAT(a, f->off, int) != *CAT(b, f->off, int);
	case RF_JSON: {
		const json_t *ja = *CAT(a, f->off, json_t *), *jb = *CAT(b, f->off, json_t *);

		return (ja || jb) && (!ja || !jb || !json_equal((json_t *)ja, (json_t *)jb));
	}
	default:
		return 0;
	}
}

static void diff_scalar(const struct rf_field *f, const void *a, const void *b,
			const char *path, double tol, struct rf_changes *out)
{
	char *ta = NULL, *tb = NULL;

	if (f->type == RF_STR) {
		const char *sa = *CAT(a, f->off, char *), *sb = *CAT(b, f->off, char *);

		if ((sa || sb) && (!sa || !sb || strcmp(sa, sb)))
			rf_changes_add(out, path, sa ? sa : "-", sb ? sb : "-");
		return;
	}
	if (f->type == RF_NUM) {
		double da = *CAT(a, f->off, double), db = *CAT(b, f->off, double);

		if (num_differs(da, db, tol)) {
			ta = num_text(da);
			tb = num_text(db);
		}
	} else if (scalar_differs(f, a, b)) {
		ta = scalar_text(f, a);
		tb = scalar_text(f, b);
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

		if (f->flags & RF_NODIFF || f->type == RF_STRV || f->type == RF_ARRAY ||
		    f->type == RF_PAIRS || f->type == RF_COUNTS)
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
