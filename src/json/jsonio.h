/*
 * Reading and writing JSON files through jansson, with tko's error and
 * atomic-write conventions, plus small accessors that keep call sites
 * short. Every JSON document tko writes carries "schema_version" and is
 * documented in docs/json.md.
 */
#ifndef TKO_JSONIO_H
#define TKO_JSONIO_H

#include <stdio.h>

#include <jansson.h>

#include "util/buf.h"

/*
 * Loads `path`; returns a new reference, or NULL with one line in err:
 * "'path' is empty", "... is binary ...", "... is not UTF-8 text ..."
 * (text_input_check) or "cannot parse 'path' line L column C: <why>".
 */
json_t *json_load_path(const char *path, struct buf *err);
/* Parses a span (`what` names it in messages). */
json_t *json_load_span(const char *what, const char *p, size_t len,
		       struct buf *err);

/*
 * Writes `j` (an object or array) atomically ("-": stdout) through the one
 * writer, json/jsonw: indented, reals to 10 digits, a final newline.
 */
int json_write_path(const json_t *j, const char *path, struct buf *err);
/* The same text into an open stream (an atomic_set's). 0 or -1. */
int json_write_fp(const json_t *j, FILE *fp);

/* Accessors: NULL / fallback when the key is missing or of another type. */
const char *json_str(const json_t *obj, const char *key);
double json_num(const json_t *obj, const char *key, double fallback);
long long json_int(const json_t *obj, const char *key, long long fallback);
int json_has(const json_t *obj, const char *key);
/* The first object of array `arr` whose string `key` equals `value`; NULL, also for a NULL value. */
const json_t *json_find(const json_t *arr, const char *key, const char *value);

/* Setters that take ownership of nothing: they copy the value in. */
void json_set_str(json_t *obj, const char *key, const char *s);
void json_set_strn(json_t *obj, const char *key, const char *s, size_t n);
void json_set_int(json_t *obj, const char *key, long long v);
void json_set_num(json_t *obj, const char *key, double v);
void json_set_bool(json_t *obj, const char *key, int v);
/* Sets obj[key] to `v`, stealing the reference (NULL becomes JSON null). */
void json_set_new(json_t *obj, const char *key, json_t *v);

#endif
