/* JSON files through jansson, with tko's conventions (see jsonio.h). */
#include <math.h>
#include <string.h>

#include "util/file.h"
#include "json/jsonio.h"
#include "json/jsonw.h"
#include "banned.h"

json_t *json_load_span(const char *what, const char *p, size_t len,
		       struct buf *err)
{
	json_error_t je;
	json_t *j;

	/* Said plainly before jansson stops at a NUL or a bad byte. */
	if (text_input_check(what, p, len, err) < 0)
		return NULL;
	j = json_loadb(p, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	if (!j)
		buf_addf(err, "cannot parse '%s' line %d column %d: %s", what,
			 je.line, je.column, je.text);
	return j;
}

json_t *json_load_path(const char *path, struct buf *err)
{
	struct mapped_file m;
	json_t *j;

	if (file_map(path, 0, &m, err) < 0)
		return NULL;
	j = json_load_span(path, m.data, m.len, err);
	file_unmap(&m);
	return j;
}

/* jansson's dumpers refuse a bare scalar without JSON_ENCODE_ANY; so do these. */
static int is_document(const json_t *j)
{
	return json_is_object(j) || json_is_array(j);
}

int json_write_path(const json_t *j, const char *path, struct buf *err)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = is_document(j) ? open_memstream(&s, &n) : NULL;
	int bad, ret;

	bad = !fp || jsonw_write_doc(fp, j, 10) < 0;
	if (fp)
		bad |= fclose(fp) != 0;
	if (bad) {
		buf_addf(err, "cannot encode JSON for '%s'", path);
		free(s);
		return -1;
	}
	ret = write_file_atomic(path, s, n, err);
	free(s);
	return ret;
}

int json_write_fp(const json_t *j, FILE *fp)
{
	return is_document(j) ? jsonw_write_doc(fp, j, 10) : -1;
}

const char *json_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

const json_t *json_find(const json_t *arr, const char *key, const char *value)
{
	const json_t *v;
	size_t i;

	if (!value)
		return NULL;
	json_array_foreach(arr, i, v)
		if (json_str(v, key) && !strcmp(json_str(v, key), value))
			return v;
	return NULL;
}

double json_num(const json_t *obj, const char *key, double fallback)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : fallback;
}

long long json_int(const json_t *obj, const char *key, long long fallback)
{
	json_t *v = json_object_get(obj, key);

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v))
		return (long long)json_real_value(v);
	return fallback;
}

int json_has(const json_t *obj, const char *key)
{
	return json_object_get(obj, key) != NULL;
}

void json_set_new(json_t *obj, const char *key, json_t *v)
{
	json_object_set_new(obj, key, v ? v : json_null());
}

void json_set_str(json_t *obj, const char *key, const char *s)
{
	json_set_new(obj, key, s ? json_string(s) : NULL);
}

void json_set_strn(json_t *obj, const char *key, const char *s, size_t n)
{
	json_set_new(obj, key, json_stringn(s, n));
}

void json_set_int(json_t *obj, const char *key, long long v)
{
	json_set_new(obj, key, json_integer(v));
}

void json_set_num(json_t *obj, const char *key, double v)
{
	/* JSON has no NaN or infinity: an unknown number is null. */
	json_set_new(obj, key, isfinite(v) ? json_real(v) : NULL);
}

void json_set_bool(json_t *obj, const char *key, int v)
{
	json_set_new(obj, key, json_boolean(v));
}
