/* String-keyed pointer map (see strmap.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/strmap.h"
#include "util/mem.h"
#include "banned.h"

struct strmap_entry {
	char *key;		/* owned copy, NUL-terminated; NULL: free slot */
	size_t len;
	void *value;		/* borrowed */
};

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static struct strmap_entry *probe(struct strmap_entry *e, size_t nslots,
				  const char *key, size_t len)
{
	size_t i = (size_t)hash(key, len) & (nslots - 1);

	while (e[i].key && (e[i].len != len || memcmp(e[i].key, key, len)))
		i = (i + 1) & (nslots - 1);
	return &e[i];
}

static void grow(struct strmap *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 64, i;
	struct strmap_entry *e = xcalloc(n, sizeof(*e));

	for (i = 0; i < m->nslots; i++)
		if (m->e[i].key)
			*probe(e, n, m->e[i].key, m->e[i].len) = m->e[i];
	free(m->e);
	m->e = e;
	m->nslots = n;
}

void **strmap_put(struct strmap *m, const char *key, size_t len)
{
	struct strmap_entry *slot;

	if (2 * (m->used + 1) > m->nslots)
		grow(m);
	slot = probe(m->e, m->nslots, key, len);
	if (!slot->key) {
		slot->key = xstrndup(key, len);
		slot->len = len;
		slot->value = NULL;
		m->used++;
	}
	return &slot->value;
}

void *strmap_get(const struct strmap *m, const char *key, size_t len)
{
	struct strmap_entry *slot;

	if (!m->nslots)
		return NULL;
	slot = probe(m->e, m->nslots, key, len);
	return slot->key ? slot->value : NULL;
}

void strmap_each(const struct strmap *m, void (*fn)(void *value))
{
	size_t i;

	for (i = 0; i < m->nslots; i++)
		if (m->e[i].key)
			fn(m->e[i].value);
}

void strmap_release(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->nslots; i++)
		free(m->e[i].key);
	free(m->e);
	m->e = NULL;
	m->nslots = m->used = 0;
}
