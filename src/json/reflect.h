/*
 * reflect: structs described by tables of their fields, so that one
 * description drives writing them as JSON, reading them back (checking
 * every field's type), freeing them and comparing two of them. The
 * analysis model (model/analysis.h) is described this way in
 * model/analysis_desc.c: `tko investigate` writes it, `tko report` reads it back,
 * `tko diff` compares two, and the JSON keys documented in docs/json.md are
 * exactly the table rows.
 *
 * Conventions for the members a table names:
 *   RF_STR     char *, owned; NULL is JSON null
 *   RF_LONG    long; -1 means unknown and is JSON null; read: an integer >= 0
 *   RF_I64     long long; RF_I64_NONE is unknown and JSON null; read: any
 *              integer (RF_COUNT: >= 0)
 *   RF_NUM     double; NAN means unknown and is JSON null (RF_TIME, RF_RATE:
 *              read only a number >= 0)
 *   RF_BOOL    int, 0 or 1
 *   RF_TRI     int, a boolean that may be unknown: RF_TRI_UNKNOWN (-1) when
 *              the key is missing or null, else 0 or 1; written null when
 *              unknown (a key that older writers left out: "confirmed")
 *   RF_ENUM    int, an index into the row's `names` (NULL-terminated): the
 *              name is the JSON string; -1 unknown, JSON null; reading a name
 *              not in the table is an error
 *   RF_JSON    json_t *, owned: any JSON value passed through as it is
 *              (RF_OBJECT, RF_OBJECTS, RF_BOOLEAN: read only an object, a list
 *              of objects, true or false); with a `sub` table (RF_JX) the
 *              object, or each object of the list, is also checked against
 *              it on reading (the keys a pass-through value must have right)
 *   RF_STRV    char ** with a size_t count at nr_off; each string owned
 *   RF_ARRAY   T * with a size_t count at nr_off, T described by `sub`
 *   RF_STRUCT  an embedded struct described by `sub`; RF_OPTIONAL makes
 *              it JSON null when its first field (a string) is NULL; RF_SEEN
 *              (RF_SS) keeps whether it is there in an int of the parent at
 *              nr_off: rf_read sets it to 1 when the key holds an object (a
 *              missing key and null leave it 0), rf_write writes null when
 *              it is 0, so an object whose members are all unknown ({})
 *              is told from no object
 *   RF_PAIRS   struct rf_pair * with a size_t count at nr_off: a JSON object
 *              of strings (or nulls), in its order (environment variables)
 *   RF_COUNTS  struct rf_count * with a size_t count at nr_off: a JSON object
 *              of counts (or nulls), in its order
 *
 * A struct whose table is RF_OPEN keeps the JSON object it was read from
 * (a json_t * member, named by the table's end row): written again, the document's keys come
 * in the document's order, those the table does not know with their values
 * as read, then the table's other keys. Python's documents (a replay's
 * configs) survive a round trip byte for byte that way.
 *
 * Usage:
 *
 *	struct jsonw w;
 *	jsonw_init_prec(&w, fp, 17);
 *	rf_write(&w, &my_struct_desc, &value);
 *	if (rf_read(&my_struct_desc, &value, j, "kernels.json", &err) < 0)
 *		... err: "'kernels.json': kernels[3].time_ms: not a number"
 *	rf_release(&my_struct_desc, &value);
 */
#ifndef TKO_JSON_REFLECT_H
#define TKO_JSON_REFLECT_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "json/jsonw.h"
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
	RF_I64,
	RF_ENUM,
	RF_JSON,
	RF_PAIRS,
	RF_COUNTS,
	RF_TRI,
};

/* Flags of a row (struct rf_field) and, RF_OPEN and RF_JC_WORDS, of a table (its end row). */
enum {
	RF_OPTIONAL = 1,	/* RF_STRUCT: null when its first field is NULL */
	RF_NODIFF = 2,		/* not compared by rf_diff (where it came from, not what it is) */
	RF_NEED = 4,		/* rf_read: must be there and not null (writers rely on it) */
	RF_OMIT_NULL = 8,	/* rf_write: the key is left out when unknown (an array: empty),
				   unless the document it was read from had it (RF_OPEN) */
	RF_TIME = 16,		/* RF_NUM: a number >= 0 (milliseconds, seconds) */
	RF_RATE = 32,		/* RF_NUM: a number >= 0 that is not a time (GB/s, a fraction) */
	RF_COUNT = 64,		/* RF_I64: an integer >= 0 */
	RF_OBJECT = 128,	/* RF_JSON: an object */
	RF_OBJECTS = 256,	/* RF_JSON: a list of objects */
	RF_OPEN = 512,		/* table: keeps the object read (RF_FEND_OPEN), see above */
	RF_JC_WORDS = 1024,	/* table: rf_read's messages in util/jcheck.c's words (below) */
	RF_NONNULL = 2048,	/* rf_read: may be missing, but null is an error */
	RF_ALL_UNKNOWN = 4096,	/* RF_STRUCT: null when every member is unknown (a table
				   without RF_BOOL rows: a boolean is never unknown) */
	RF_SEEN = 8192,		/* RF_STRUCT: whether it is there, in the parent's int at nr_off (RF_SS) */
	RF_BOOLEAN = 16384,	/* RF_JSON: true or false, kept as the JSON value (a missing
				   one is neither) */
	RF_PRESENT = 32768,	/* a scalar, RF_JSON or RF_STRUCT row whose key is there only
				   when the parent's int at nr_off says so (RF_PR): rf_write
				   leaves it out when that int is 0 and writes it, null when
				   unknown, when it is 1; rf_read sets it to 1 when the key is
				   there, null or not. A key that is null in some documents and
				   missing in others ("detail" of a kernel not planned) */
};

struct rf_struct;

struct rf_field {
	const char *key;		/* the JSON key */
	enum rf_type type;		/* what the member is */
	size_t off;			/* offsetof the member */
	size_t nr_off;			/* RF_STRV / RF_ARRAY / RF_PAIRS / RF_COUNTS: offsetof its size_t count;
					   RF_STRUCT with RF_SEEN: offsetof the int that says it is there */
	const struct rf_struct *sub;	/* RF_ARRAY / RF_STRUCT: the element's table;
					   RF_JSON: the table its object(s) are checked against */
	unsigned flags;			/* RF_OPTIONAL, RF_NODIFF, RF_NEED, ... */
	const char *const *names;	/* RF_ENUM: the JSON name of each value, NULL-terminated */
};

/*
 * The table's own flags live in its RF_END row (RF_FEND_X, RF_FEND_OPEN),
 * whose other members are unused: tables written before there were any
 * keep their three-member initialisers.
 */
struct rf_struct {
	const char *name;		/* for messages */
	size_t size;			/* sizeof the struct */
	const struct rf_field *fields;	/* ending with an RF_END row */
};

/* An RF_PAIRS element: value NULL is JSON null. */
struct rf_pair {
	char *key;
	char *value;
};

/* An RF_COUNTS element: n RF_I64_NONE is JSON null. */
struct rf_count {
	char *key;
	long long n;
};

#define RF_I64_NONE LLONG_MIN
#define RF_TRI_UNKNOWN (-1)

#define RF_F(T, key, type, m) { key, type, offsetof(T, m), 0, NULL, 0, NULL }
#define RF_FX(T, key, type, m, flags) { key, type, offsetof(T, m), 0, NULL, flags, NULL }
#define RF_V(T, key, m, nr) { key, RF_STRV, offsetof(T, m), offsetof(T, nr), NULL, 0, NULL }
#define RF_A(T, key, m, nr, sub) { key, RF_ARRAY, offsetof(T, m), offsetof(T, nr), sub, 0, NULL }
#define RF_AX(T, key, m, nr, sub, flags) \
	{ key, RF_ARRAY, offsetof(T, m), offsetof(T, nr), sub, flags, NULL }
#define RF_S(T, key, m, sub, flags) { key, RF_STRUCT, offsetof(T, m), 0, sub, flags, NULL }
/* An RF_STRUCT whose presence is the parent's int member `seen` (RF_SEEN). */
#define RF_SS(T, key, m, seen, sub, flags) \
	{ key, RF_STRUCT, offsetof(T, m), offsetof(T, seen), sub, RF_SEEN | (flags), NULL }
/* A row whose key is written when the parent's int member `present` is 1 (RF_PRESENT). */
#define RF_PR(T, key, type, m, present, flags) \
	{ key, type, offsetof(T, m), offsetof(T, present), NULL, RF_PRESENT | (flags), NULL }
#define RF_PRS(T, key, m, present, sub, flags) \
	{ key, RF_STRUCT, offsetof(T, m), offsetof(T, present), sub, RF_PRESENT | (flags), NULL }
#define RF_JX(T, key, m, sub, flags) { key, RF_JSON, offsetof(T, m), 0, sub, flags, NULL }
#define RF_E(T, key, m, names, flags) { key, RF_ENUM, offsetof(T, m), 0, NULL, flags, names }
#define RF_P(T, key, m, nr, flags) { key, RF_PAIRS, offsetof(T, m), offsetof(T, nr), NULL, flags, NULL }
#define RF_C(T, key, m, nr, flags) { key, RF_COUNTS, offsetof(T, m), offsetof(T, nr), NULL, flags, NULL }
#define RF_FEND { NULL, RF_END, 0, 0, NULL, 0, NULL }
/* The end row of a table with flags (RF_JC_WORDS). */
#define RF_FEND_X(flags) { NULL, RF_END, 0, 0, NULL, flags, NULL }
/* The end row of an RF_OPEN table: m is the json_t * member that keeps the object read. */
#define RF_FEND_OPEN(T, m, flags) { NULL, RF_END, offsetof(T, m), 0, NULL, RF_OPEN | (flags), NULL }

/*
 * Arrays of the model hold no capacity field: their capacity is implied
 * by their count (8, 16, 32, ...), so rf_grow() returns `v` with room for
 * element nr+1 and arrays read from JSON are allocated the same way.
 */
size_t rf_capacity(size_t nr);
void *rf_grow(void *v, size_t nr, size_t size);

/* Sets every member to "unknown": NULL, -1, NAN, RF_I64_NONE, RF_TRI_UNKNOWN, 0, empty arrays. */
void rf_init(const struct rf_struct *d, void *p);
/* Frees what the members own and re-initialises them. */
void rf_release(const struct rf_struct *d, void *p);

/*
 * Writes the struct as a JSON object, keys in table order (RF_OPEN: see
 * above), numbers at the writer's precision. 0, or -1 when writing failed.
 */
int rf_write(struct jsonw *w, const struct rf_struct *d, const void *p);
/*
 * The members alone, into an object the caller opened (a document that
 * puts schema_version first); `except` names a key left out, or is NULL.
 */
void rf_write_members(struct jsonw *w, const struct rf_struct *d, const void *p,
		      const char *except);
/*
 * A whole document: schema_version and the tool first, then the members,
 * numbers to 10 significant digits, as tko's documents are written.
 * 0, or -1 when writing failed.
 */
int rf_write_doc(FILE *fp, const struct rf_struct *d, const void *p, int schema_version,
		 const char *tool);
/* rf_write_doc published atomically at `path`; -1 + err (one line naming the file). */
int rf_save_doc(const char *path, const struct rf_struct *d, const void *p, int schema_version,
		const char *tool, struct buf *err);

/* The struct as a JSON object (new reference): the same keys and values as rf_write. */
json_t *rf_to_json(const struct rf_struct *d, const void *p);

/*
 * Fills an initialised struct from a JSON object. Missing keys and nulls
 * stay unknown, unknown keys are ignored (newer writers may add fields;
 * RF_OPEN keeps them); a value of the wrong type, a missing or null
 * RF_NEED field, a null RF_NONNULL one and an RF_ENUM name not in its
 * table are errors naming
 * `what` and the key path. Returns 0, or -1 with one line in err (the
 * struct holds what was read; rf_release frees it).
 *
 * The words: "'f.json': kernels[3].launches: not a count",
 * "'f.json': kernels[0].id: null where a value belongs". Tables marked
 * RF_JC_WORDS say what util/jcheck.c says for the same fields, so that the
 * documents it checks today read the same once typed: "not a count (an
 * integer >= 0)", "not a list of objects" (a list with anything but
 * objects in it), "null where a string belongs", and for every table
 * "not a time (a number >= 0)" (RF_TIME), "not a rate (a number >= 0)"
 * (RF_RATE), "not an object of counts" (RF_COUNTS).
 */
int rf_read(const struct rf_struct *d, void *p, const json_t *j, const char *what,
	    struct buf *err);
/* rf_read's first name, kept for its callers. */
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
 * Appends the scalar members (strings, numbers, booleans, enums, JSON
 * values, embedded structs; not arrays or maps) that differ between a and
 * b, skipping RF_NODIFF rows. Numbers differ when their relative difference
 * exceeds `rel_tol`. `prefix` starts every path ("" for none).
 */
void rf_diff(const struct rf_struct *d, const void *a, const void *b,
	     const char *prefix, double rel_tol, struct rf_changes *out);
void rf_changes_add(struct rf_changes *c, const char *path, const char *a,
		    const char *b);
void rf_changes_release(struct rf_changes *c);

#endif
