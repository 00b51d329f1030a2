/* Checking the fields of a JSON document against a table (jcheck.h). */
#include <math.h>
#include <stdlib.h>

#include "util/jcheck.h"
#include "util/mem.h"
#include "banned.h"

static const char *what(enum jc_type t)
{
	static const char *const names[] = {
		"a string", "a number", "a time (a number >= 0)", "a count (an integer >= 0)",
		"true or false", "an object", "a list of objects", "a list of strings",
		"an object of objects", "an object of counts", "a rate (a number >= 0)",
	};

	return names[t];
}

int jc_type_ok(const json_t *v, enum jc_type t)
{
	size_t i;
	const json_t *e;

	switch (t) {
	case JC_STR:
		return json_is_string(v);
	case JC_NUM:
		return json_is_number(v);
	case JC_TIME:
	case JC_RATE:
		return json_is_number(v) && isfinite(json_number_value(v)) &&
		       json_number_value(v) >= 0;
	case JC_COUNT:
		return json_is_integer(v) && json_integer_value(v) >= 0;
	case JC_BOOL:
		return json_is_boolean(v);
	case JC_OBJ:
		return json_is_object(v);
	case JC_LIST:
		if (!json_is_array(v))
			return 0;
		json_array_foreach(v, i, e)
			if (!json_is_object(e))
				return 0;
		return 1;
	case JC_STRS:
		if (!json_is_array(v))
			return 0;
		json_array_foreach(v, i, e)
			if (!json_is_string(e))
				return 0;
		return 1;
	case JC_MAP:
	case JC_COUNTS: {
		const char *key;
		json_t *x;

		if (!json_is_object(v))
			return 0;
		json_object_foreach((json_t *)v, key, x)
			if (t == JC_MAP ? !json_is_object(x) :
			    !json_is_null(x) && !(json_is_integer(x) && json_integer_value(x) >= 0))
				return 0;
		return 1;
	}
	}
	return 0;
}

static int check_at(const json_t *obj, const struct jc_field *fields, const char *file,
		    const char *prefix, struct buf *err);

static int check_field(const json_t *v, const struct jc_field *f, const char *file,
		       const char *path, struct buf *err)
{
	size_t i;
	const json_t *e;
	int ret = 0;

	if (!jc_type_ok(v, f->type)) {
		buf_addf(err, "'%s': %s: not %s", file, path, what(f->type));
		return -1;
	}
	if (f->type == JC_OBJ && f->sub)
		return check_at(v, f->sub, file, path, err);
	if (f->type == JC_MAP && f->sub) {
		const char *key;
		json_t *x;

		json_object_foreach((json_t *)v, key, x) {
			char *sub = xstrfmt("%s.%s", path, key);

			ret = check_at(x, f->sub, file, sub, err);
			free(sub);
			if (ret < 0)
				return -1;
		}
		return 0;
	}
	if (f->type != JC_LIST || !f->sub)
		return 0;
	json_array_foreach(v, i, e) {
		char *sub = xstrfmt("%s[%zu]", path, i);

		ret = check_at(e, f->sub, file, sub, err);
		free(sub);
		if (ret < 0)
			break;
	}
	return ret;
}

static int check_at(const json_t *obj, const struct jc_field *fields, const char *file,
		    const char *prefix, struct buf *err)
{
	const struct jc_field *f;

	for (f = fields; f->key; f++) {
		const json_t *v = json_object_get(obj, f->key);
		char *path = *prefix ? xstrfmt("%s.%s", prefix, f->key) : xstrdup(f->key);
		int ret = 0;

		if (!v && (f->flags & JC_NEED)) {
			buf_addf(err, "'%s': %s: missing", file, path);
			ret = -1;
		} else if (v && json_is_null(v) && !(f->flags & JC_NULL)) {
			buf_addf(err, "'%s': %s: null where %s belongs", file, path, what(f->type));
			ret = -1;
		} else if (v && !json_is_null(v)) {
			ret = check_field(v, f, file, path, err);
		}
		free(path);
		if (ret < 0)
			return -1;
	}
	return 0;
}

int jc_check(const json_t *doc, const struct jc_field *fields, const char *file,
	     struct buf *err)
{
	if (!json_is_object(doc)) {
		buf_addf(err, "'%s' is not a JSON object", file);
		return -1;
	}
	return check_at(doc, fields, file, "", err);
}
