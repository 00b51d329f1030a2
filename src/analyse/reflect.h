/*
 * reflect: structs described by tables of their fields, so that one
 * description drives writing them as JSON, reading them back, freeing them
 * and comparing two of them. The analysis model (analyse/model.h) is
 * described this way in analyse/schema.c: `tko investigate` writes it,
 * `tko report` reads it back, `tko diff` compares two, and the JSON keys
 * documented in docs/json.md are exactly the table rows.
 *
 * Conventions for the members a table names:
 *   RF_STR     char *, owned; NULL is JSON null
 *   RF_LONG    long; -1 means unknown and is JSON null
 *   RF_NUM     double; NAN means unknown and is JSON null
 *   RF_BOOL    int, 0 or 1
 *   RF_STRV    char ** with a size_t count at nr_off; each string owned
 *   RF_ARRAY   T * with a size_t count at nr_off, T described by `sub`
 *   RF_STRUCT  an embedded struct described by `sub`; RF_OPTIONAL makes
 *              it JSON null when its first field (a string) is NULL
 *
 * Usage:
 *
 *	json_t *j = rf_to_json(&my_struct_desc, &value);
 *	if (rf_from_json(&my_struct_desc, &value, j, "kernels.json", &err) < 0)
 *		... err: "'kernels.json': kernels[3].time_ms: not a number"
 *	rf_release(&my_struct_desc, &value);
 */
#ifndef TKO_ANALYSE_REFLECT_H
#define TKO_ANALYSE_REFLECT_H

#include <stddef.h>
#include <jansson.h>

#include "util/buf.h"

enum rf_type {
	RF_END,
	RF_STR,
	RF_LONG,
	RF_NUM,
	RF_BOOL,
	RF_STRV,
	RF_ARRAY,
	RF_STRUCT,
};

enum {
	RF_OPTIONAL = 1,	/* RF_STRUCT: null when its first field is NULL */
	RF_NODIFF = 2,		/* not compared by rf_diff (where it came from, not what it is) */
	RF_NEED = 4,		/* rf_from_json: must be there and not null (writers rely on it) */
};

struct rf_struct;

struct rf_field {
	const char *key;		/* the JSON key */
	enum rf_type type;		/* what the member is */
	size_t off;			/* offsetof the member */
	size_t nr_off;			/* RF_STRV / RF_ARRAY: offsetof its size_t count */
	const struct rf_struct *sub;	/* RF_ARRAY / RF_STRUCT: the element's table */
	unsigned flags;			/* RF_OPTIONAL, RF_NODIFF */
};

struct rf_struct {
	const char *name;		/* for messages */
	size_t size;			/* sizeof the struct */
	const struct rf_field *fields;	/* ending with an RF_END row */
};

#define RF_F(T, key, type, m) { key, type, offsetof(T, m), 0, NULL, 0 }
#define RF_FX(T, key, type, m, flags) { key, type, offsetof(T, m), 0, NULL, flags }
#define RF_V(T, key, m, nr) { key, RF_STRV, offsetof(T, m), offsetof(T, nr), NULL, 0 }
#define RF_A(T, key, m, nr, sub) { key, RF_ARRAY, offsetof(T, m), offsetof(T, nr), sub, 0 }
#define RF_S(T, key, m, sub, flags) { key, RF_STRUCT, offsetof(T, m), 0, sub, flags }
#define RF_FEND { NULL, RF_END, 0, 0, NULL, 0 }

/*
 * Arrays of the model hold no capacity field: their capacity is implied
 * by their count (8, 16, 32, ...), so rf_grow() returns `v` with room for
 * element nr+1 and arrays read from JSON are allocated the same way.
 */
size_t rf_capacity(size_t nr);
void *rf_grow(void *v, size_t nr, size_t size);

/* Sets every member to "unknown": NULL, -1, NAN, 0, empty arrays. */
void rf_init(const struct rf_struct *d, void *p);
/* Frees what the members own and re-initialises them. */
void rf_release(const struct rf_struct *d, void *p);

/* The struct as a JSON object (new reference), keys in table order. */
json_t *rf_to_json(const struct rf_struct *d, const void *p);

/*
 * Fills an initialised struct from a JSON object. Missing keys and nulls
 * stay unknown, unknown keys are ignored (newer writers may add fields);
 * a value of the wrong type is an error naming `what` and the key path.
 * Returns 0, or -1 with one line in err (the struct holds what was read).
 */
int rf_from_json(const struct rf_struct *d, void *p, const json_t *j,
		 const char *what, struct buf *err);

/* One difference found by rf_diff. */
struct rf_change {
	char *path;	/* "isa.res.vgprs", "time_ms" */
	char *a;	/* the value in the first struct as text ("-" unknown) */
	char *b;	/* in the second */
};

struct rf_changes {
	struct rf_change *v;
	size_t nr, alloc;
};
#define RF_CHANGES_INIT { NULL, 0, 0 }

/*
 * Appends the scalar members (strings, numbers, booleans, embedded
 * structs; not arrays) that differ between a and b, skipping RF_NODIFF
 * rows. Numbers differ when their relative difference exceeds `rel_tol`.
 * `prefix` starts every path ("" for none).
 */
void rf_diff(const struct rf_struct *d, const void *a, const void *b,
	     const char *prefix, double rel_tol, struct rf_changes *out);
void rf_changes_add(struct rf_changes *c, const char *path, const char *a,
		    const char *b);
void rf_changes_release(struct rf_changes *c);

#endif
