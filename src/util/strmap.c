/* Open-addressing string hash map (see strmap.h). */
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/strmap.h"
#include "banned.h"

uint64_t strmap_hash(const char *s, size_t n)
{
	uint64_t a = 0, b = 0, h;

	if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
	} else {
		memcpy(&a, s, n);
	}
	h = (a ^ (b * 0x9e3779b97f4a7c15ull) ^ n) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 29);
}

static struct strmap_slot *find(const struct strmap *m, const char *s,
				size_t n, uint64_t h)
{
	size_t mask = m->cap - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		struct strmap_slot *sl = &m->slots[i];

		if (!sl->key || (sl->hash == h && sl->len == n && !memcmp(sl->key, s, n)))
			return sl;
	}
}

int strmap_get(const struct strmap *m, const char *s, size_t n, size_t *value)
{
	struct strmap_slot *sl;

	if (!m->cap)
		return 0;
	sl = find(m, s, n, strmap_hash(s, n));
	if (!sl->key)
		return 0;
	*value = sl->value.n;
	return 1;
}

const char *strmap_key(const struct strmap *m, const char *s, size_t n)
{
	struct strmap_slot *sl;

	if (!m->cap)
		return NULL;
	sl = find(m, s, n, strmap_hash(s, n));
	return sl->key;
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (i = 0; i < old.cap; i++) {
		struct strmap_slot *sl = &old.slots[i];

		if (sl->key)
			*find(m, sl->key, sl->len, sl->hash) = *sl;
	}
	free(old.slots);
}

/* Finds or inserts the key; a new slot's value is zeroed. */
static struct strmap_slot *put(struct strmap *m, const char *s, size_t n,
			       int *added)
{
	uint64_t h = strmap_hash(s, n);
	struct strmap_slot *sl;

	if ((m->nr + 1) * 4 > m->cap * 3)
		grow(m);
	sl = find(m, s, n, h);
	*added = !sl->key;
	if (!sl->key) {
		sl->key = xstrndup(s, n);
		sl->len = n;
		sl->hash = h;
		memset(&sl->value, 0, sizeof(sl->value));
		m->nr++;
	}
	return sl;
}

size_t *strmap_put(struct strmap *m, const char *s, size_t n, int *added)
{
	return &put(m, s, n, added)->value.n;
}

void **strmap_put_ptr(struct strmap *m, const char *s, size_t n)
{
	int added;
	struct strmap_slot *sl = put(m, s, n, &added);

	if (added)
		sl->value.p = NULL;
	return &sl->value.p;
}

void *strmap_get_ptr(const struct strmap *m, const char *s, size_t n)
{
	struct strmap_slot *sl;

	if (!m->cap)
		return NULL;
	sl = find(m, s, n, strmap_hash(s, n));
	return sl->key ? sl->value.p : NULL;
}

void strmap_each_ptr(const struct strmap *m, void (*fn)(void *value))
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			fn(m->slots[i].value.p);
}

void strmap_release(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	*m = (struct strmap)STRMAP_INIT;
}
