/*
 * struct strmap: an open-addressing hash map from byte strings to a
 * size_t or a pointer, for hot paths (interning mnemonics, finding a
 * kernel by name, .set symbols, the autotune model's name index). Keys are copied in; lookups take a
 * (pointer, length) pair and never rely on NUL. The hash reads at most
 * the first and last eight bytes plus the length, so hashing a mnemonic
 * costs the same whatever its length.
 *
 *	struct strmap m = STRMAP_INIT;
 *	size_t *v = strmap_put(&m, "global_load_dword", 17, &added);
 *	if (added) *v = next_id++;
 *	strmap_get(&m, s, n, &val);
 *	strmap_release(&m);
 *
 * or, with pointer values (a map uses one kind or the other):
 *
 *	void **slot = strmap_put_ptr(&m, "k", 1);	(*slot is NULL for a new key)
 *	*slot = thing;
 *	thing = strmap_get_ptr(&m, "k", 1);
 */
#ifndef TKO_UTIL_STRMAP_H
#define TKO_UTIL_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	char *key;		/* owned copy, NUL-terminated; NULL: empty slot */
	size_t len;		/* key length */
	uint64_t hash;		/* strmap_hash(key) */
	union {
		size_t n;	/* a number (strmap_put/strmap_get) */
		void *p;	/* or a borrowed pointer (the _ptr calls) */
	} value;
};

struct strmap {
	struct strmap_slot *slots;	/* `cap` slots, cap a power of two */
	size_t cap;			/* 0 until the first put */
	size_t nr;			/* keys stored */
};
#define STRMAP_INIT { NULL, 0, 0 }

uint64_t strmap_hash(const char *s, size_t n);

/* 1 and *value when the key is present, else 0. */
int strmap_get(const struct strmap *m, const char *s, size_t n, size_t *value);
/*
 * Finds or inserts the key; returns a pointer to its value (0 for a new
 * key, with *added = 1). The pointer is valid until the next put.
 */
size_t *strmap_put(struct strmap *m, const char *s, size_t n, int *added);
/* The stored key of a present entry, or NULL. */
const char *strmap_key(const struct strmap *m, const char *s, size_t n);
/* Pointer-valued maps: the slot for a key (NULL when new), the value or NULL. */
void **strmap_put_ptr(struct strmap *m, const char *s, size_t n);
void *strmap_get_ptr(const struct strmap *m, const char *s, size_t n);
/* Calls fn on every pointer value (in no order), e.g. to free them. */
void strmap_each_ptr(const struct strmap *m, void (*fn)(void *value));
void strmap_release(struct strmap *m);

#endif
