/*
 * A map from byte strings to pointers (open addressing, FNV-1a), for the
 * model's indexes: kernel names to their instances, .best_config paths to
 * the tunings that saved them. Keys are copied; values are borrowed.
 *
 *	struct strmap m = STRMAP_INIT;
 *	void **slot = strmap_put(&m, "k", 1);	(*slot is NULL for a new key)
 *	*slot = thing;
 *	thing = strmap_get(&m, "k", 1);
 *	strmap_release(&m);
 */
#ifndef TKO_PARSE_STRMAP_H
#define TKO_PARSE_STRMAP_H

#include <stddef.h>

struct strmap_entry;

struct strmap {
	struct strmap_entry *e;	/* nslots entries; key NULL: free */
	size_t nslots, used;
};
#define STRMAP_INIT { NULL, 0, 0 }

/* The value slot for key[0..len), created (NULL) when new. */
void **strmap_put(struct strmap *m, const char *key, size_t len);
/* The value for key[0..len), or NULL. */
void *strmap_get(const struct strmap *m, const char *key, size_t len);
/* Calls fn on every value (in no order), e.g. to free them. */
void strmap_each(const struct strmap *m, void (*fn)(void *value));
void strmap_release(struct strmap *m);

#endif
