/*
 * The autotune model's lifecycle, its name index and the small helpers
 * that every reader uses to add facts (see autotune.h for the model).
 *
 * The name index maps a kernel name to its chain of instances and keeps,
 * per name, which instance the input being read is talking about
 * (cur_file, cur_k). Inputs are read one after the other, so one position
 * per name is enough: a different input starts again at the first
 * instance, which is how two inputs describing the same run line up.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/autotune.h"
#include "parse/autotune_launch.h"
#include "rundir/layout.h"
#include "util/mem.h"
#include "banned.h"

/* The instances of one name, and where the input being read is among them. */
struct at_name_slot {
	struct at_kernel *first;	/* instance 1 */
	struct at_kernel *last;		/* the latest instance */
	unsigned cur_file;	/* 1 + the input that cur_k belongs to; 0: none */
	unsigned cur_k;		/* the instance that input is at (0: not started) */
	struct at_kernel *cur;	/* that instance, so the next lookups need no walk */
};

static const char *const format_names[AT_FMT_COUNT] = {
	[AT_FMT_NONE] = "none",
	[AT_FMT_EVENTS] = "capture_events",
	[AT_FMT_INDUCTOR_LOG] = "inductor_log",
	[AT_FMT_MAX_AUTOTUNE] = "max_autotune",
	[AT_FMT_TRITON_PRINT] = "triton_print",
	[AT_FMT_SEED_LOG] = "seed_log",
	[AT_FMT_BEST_CONFIG] = "best_config",
	[AT_FMT_OUTPUT_CODE] = "inductor_output_code",
	[AT_FMT_TRITON_CACHE] = "triton_cache",
	[AT_FMT_NAME] = "kernel_name",
};

const char *at_format_name(enum at_format f)
{
	return (unsigned)f < AT_FMT_COUNT ? format_names[f] : "none";
}

const char *at_method_name(enum at_method m)
{
	return (unsigned)m < AT_METHOD_COUNT ? at_method_names[m] : "benchmark";
}

void autotune_set_init(struct autotune_set *s)
{
	memset(s, 0, sizeof(*s));
	s->device.warp_size = -1;
	s->device.multiprocessors = -1;
}

void at_config_init(struct at_config *c, struct at_src src)
{
	memset(c, 0, sizeof(*c));
	c->num_warps = c->num_stages = c->num_ctas = c->maxnreg = -1;
	c->n_regs = c->n_spills = c->shared_bytes = -1;
	c->time_ms = NAN;
	c->pct_of_best = NAN;
	c->src = src;
}

void at_config_release(struct at_config *c)
{
	size_t i;

	for (i = 0; i < c->nkw; i++) {
		free(c->kw[i].name);
		free(c->kw[i].value);
	}
	free(c->kw);
	free(c->label);
	free(c->text);
	free(c->error);
	free(c->cache_hash);
	memset(c, 0, sizeof(*c));
}

void at_config_copy(struct at_config *to, const struct at_config *from)
{
	size_t i;

	*to = *from;
	to->kw = NULL;
	to->nkw = to->kw_alloc = 0;
	to->label = from->label ? xstrdup(from->label) : NULL;
	to->text = from->text ? xstrdup(from->text) : NULL;
	to->error = from->error ? xstrdup(from->error) : NULL;
	to->cache_hash = from->cache_hash ? xstrdup(from->cache_hash) : NULL;
	for (i = 0; i < from->nkw; i++)
		at_kwarg_add(to, from->kw[i].name, strlen(from->kw[i].name),
			     from->kw[i].value, strlen(from->kw[i].value));
}

static void release_configs(struct at_config *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		at_config_release(&c[i]);
	free(c);
}

static void release_notes(struct at_note *n, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(n[i].text);
	free(n);
}

static void tuning_free(struct at_tuning *t)
{
	release_configs(t->configs, t->nr);
	free(t->key);
	free(t->saved_to);
	free(t->cache_file);
	free(t);
}

static void kernel_free(struct at_kernel *k)
{
	size_t i;

	free(k->name);
	free(k->kind);
	free(k->compile_id);
	free(k->source_file);
	free(k->source_local);
	free(k->source_hash);
	free(k->kernel_dir);
	release_configs(k->declared, k->ndeclared);
	for (i = 0; i < k->ntunings; i++)
		tuning_free(k->tunings[i]);
	free(k->tunings);
	release_notes(k->errors, k->nerrors);
	at_launch_free(k->launch);
	free(k);
}

void autotune_set_release(struct autotune_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		kernel_free(s->kernels[i]);
	free(s->kernels);
	for (i = 0; i < s->ninputs; i++) {
		free(s->inputs[i].path);
		free(s->inputs[i].note);
	}
	free(s->inputs);
	free(s->device.name);
	free(s->device.backend);
	free(s->device.arch);
	free(s->device.torch);
	free(s->device.triton);
	release_notes(s->errors, s->nerrors);
	release_notes(s->refused, s->nrefused);
	strmap_each_ptr(&s->names, free);
	strmap_release(&s->names);
	strmap_release(&s->saved);
	strmap_release(&s->by_hash);
	autotune_set_init(s);
}

unsigned at_input_add(struct autotune_set *s, const char *path)
{
	struct at_input *in;

	ALLOC_GROW(s->inputs, s->ninputs + 1, s->inputs_alloc);
	in = &s->inputs[s->ninputs];
	memset(in, 0, sizeof(*in));
	in->path = xstrdup(path);
	return (unsigned)s->ninputs++;
}

void at_input_malformed(struct autotune_set *s, unsigned file, size_t line)
{
	struct at_input *in = &s->inputs[file];
	size_t keep = sizeof(in->bad_lines) / sizeof(in->bad_lines[0]);

	if (in->malformed < keep)
		in->bad_lines[in->malformed] = line;
	in->malformed++;
}

static struct at_name_slot *slot_find(const struct autotune_set *s,
				      const char *name, size_t len)
{
	return strmap_get_ptr(&s->names, name, len);
}

static struct at_kernel *kernel_new(struct autotune_set *s,
				    struct at_name_slot *slot, const char *name,
				    size_t len, struct at_src src)
{
	struct at_kernel *k = xcalloc(1, sizeof(*k));

	k->name = xstrndup(name, len);
	k->name_src = src;
	k->num_configs = -1;
	k->launches = -1;
	k->launch_signatures = -1;
	ALLOC_GROW(s->kernels, s->nr + 1, s->alloc);
	s->kernels[s->nr++] = k;
	if (!slot->first)
		slot->first = k;
	else
		slot->last->next_instance = k;
	k->instance = slot->last ? slot->last->instance + 1 : 1;
	k->first_instance = slot->first;
	slot->first->ninstances = k->instance;
	slot->last = k;
	return k;
}

/*
 * The k-th instance of a name, created (with those before it) as needed;
 * *slotp is the name's index entry.
 */
static struct at_kernel *instance_at(struct autotune_set *s, const char *name,
				     size_t len, unsigned want, struct at_src src,
				     struct at_name_slot **slotp)
{
	void **v = strmap_put_ptr(&s->names, name, len);
	struct at_name_slot *slot = *v;
	struct at_kernel *k;

	if (!slot)
		*v = slot = xcalloc(1, sizeof(*slot));
	*slotp = slot;
	while (!slot->last || slot->last->instance < want)
		kernel_new(s, slot, name, len, src);
	if (slot->last->instance == want)
		return slot->last;
	k = slot->cur && slot->cur->instance <= want ? slot->cur : slot->first;
	while (k->instance != want)
		k = k->next_instance;
	return k;
}

static unsigned position(struct autotune_set *s, const char *name, size_t len,
			 unsigned file)
{
	struct at_name_slot *slot = slot_find(s, name, len);

	return slot && slot->cur_file == file + 1 ? slot->cur_k : 0;
}

static struct at_kernel *move_to(struct autotune_set *s, const char *name,
				 size_t len, unsigned k, struct at_src src)
{
	struct at_name_slot *slot;
	struct at_kernel *kernel = instance_at(s, name, len, k, src, &slot);

	slot->cur_file = src.file + 1;
	slot->cur_k = k;
	slot->cur = kernel;
	return kernel;
}

struct at_kernel *at_kernel_current(struct autotune_set *s, const char *name,
				    size_t len, struct at_src src)
{
	unsigned k = position(s, name, len, src.file);

	return move_to(s, name, len, k ? k : 1, src);
}

struct at_kernel *at_kernel_next(struct autotune_set *s, const char *name,
				 size_t len, struct at_src src)
{
	return move_to(s, name, len, position(s, name, len, src.file) + 1, src);
}

struct at_kernel *at_kernel_instance(struct autotune_set *s, const char *name,
				     size_t len, unsigned want, struct at_src src)
{
	return move_to(s, name, len, want ? want : 1, src);
}

struct at_kernel *at_kernel_latest(const struct autotune_set *s,
				   const char *name, size_t len)
{
	struct at_name_slot *slot = slot_find(s, name, len);

	return slot ? slot->last : NULL;
}

unsigned at_kernel_instances(const struct at_kernel *k)
{
	return k->first_instance->ninstances;
}

char *at_kernel_id(const struct at_kernel *k)
{
	if (at_kernel_instances(k) > 1)
		return xstrfmt("%s#%u", k->name, k->instance);
	return xstrdup(k->name);
}

/*
 * The by_hash key: a 64-bit FNV-1a of the whole pair first, then the pair
 * itself. strmap hashes only a key's first and last eight bytes, which
 * hashes that differ in the middle would share; the digest in front makes
 * every byte count.
 */
static char *hash_key(const char *name, const char *hash, size_t *len)
{
	size_t nn = strlen(name), nh = strlen(hash);
	char *key = xmalloc(8 + nn + 1 + nh + 1);
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	memcpy(key + 8, name, nn + 1);
	memcpy(key + 8 + nn + 1, hash, nh + 1);
	for (i = 8; i < 8 + nn + 1 + nh; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ull;
	memcpy(key, &h, 8);
	*len = 8 + nn + 1 + nh;
	return key;
}

struct at_kernel *at_kernel_by_hash(const struct autotune_set *s, const char *name,
				    const char *hash)
{
	size_t len;
	char *key = hash_key(name, hash, &len);
	struct at_kernel *k = strmap_get_ptr(&s->by_hash, key, len);

	free(key);
	return k;
}

void at_hash_set(struct autotune_set *s, struct at_kernel *k, const char *hash,
		 struct at_src src)
{
	size_t len;
	char *key;

	if (!at_set_str(&k->source_hash, NULL, hash, strlen(hash), src))
		return;
	key = hash_key(k->name, hash, &len);
	*strmap_put_ptr(&s->by_hash, key, len) = k;
	free(key);
}

size_t autotune_set_find(const struct autotune_set *s, const char *id,
			 const struct at_kernel **out)
{
	const char *hash = strrchr(id, '#');
	struct at_name_slot *slot;
	struct at_kernel *k;

	*out = NULL;
	if (hash && hash[1]) {
		char *end;
		unsigned long want = strtoul(hash + 1, &end, 10);

		slot = slot_find(s, id, (size_t)(hash - id));
		if (slot && !*end)
			for (k = slot->first; k; k = k->next_instance)
				if (k->instance == want) {
					*out = k;
					return 1;
				}
	}
	slot = slot_find(s, id, strlen(id));
	if (!slot || !slot->first)
		return 0;
	*out = slot->first;
	return slot->last->instance;	/* instances are numbered 1..n in order */
}

int at_set_str(char **field, struct at_src *field_src, const char *v,
	       size_t len, struct at_src src)
{
	if (*field || !v)
		return 0;
	*field = xstrndup(v, len);
	if (field_src)
		*field_src = src;
	return 1;
}

struct at_tuning *at_tuning_add(struct at_kernel *k, enum at_method m,
				struct at_src src)
{
	struct at_tuning *t = xcalloc(1, sizeof(*t));

	t->kernel = k;
	t->method = m;
	t->best = -1;
	t->elapsed_ms = NAN;
	t->precompile_ms = NAN;
	t->speedup = NAN;
	t->num_choices = -1;
	t->src = src;
	ALLOC_GROW(k->tunings, k->ntunings + 1, k->tunings_alloc);
	k->tunings[k->ntunings++] = t;
	return t;
}

void at_tuning_remove(struct at_kernel *k, size_t i)
{
	tuning_free(k->tunings[i]);
	memmove(&k->tunings[i], &k->tunings[i + 1],
		(k->ntunings - i - 1) * sizeof(*k->tunings));
	k->ntunings--;
}

void at_tuning_saved_to(struct autotune_set *s, struct at_tuning *t,
			const char *path, size_t len)
{
	const char *tail = rd_tail2(path, len);

	free(t->saved_to);
	t->saved_to = xstrndup(path, len);
	*strmap_put_ptr(&s->saved, tail, len - (size_t)(tail - path)) = t;
}

struct at_tuning *at_saved_find(const struct autotune_set *s, const char *path)
{
	const char *tail = rd_tail2(path, strlen(path));

	return strmap_get_ptr(&s->saved, tail, strlen(tail));
}

struct at_config *at_config_push(struct at_config **arr, size_t *nr,
				 size_t *alloc, struct at_src src)
{
	ALLOC_GROW(*arr, *nr + 1, *alloc);
	at_config_init(&(*arr)[*nr], src);
	return &(*arr)[(*nr)++];
}

void at_kwarg_add(struct at_config *c, const char *name, size_t nlen,
		  const char *value, size_t vlen)
{
	ALLOC_GROW(c->kw, c->nkw + 1, c->kw_alloc);
	c->kw[c->nkw].name = xstrndup(name, nlen);
	c->kw[c->nkw].value = xstrndup(value, vlen);
	c->nkw++;
}

long at_tuning_find(const struct at_tuning *t, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->configs[i].text && strlen(t->configs[i].text) == len &&
		    !memcmp(t->configs[i].text, text, len))
			return (long)i;
	return -1;
}

void at_note_add(struct at_note **arr, size_t *nr, size_t *alloc,
		 const char *text, size_t len, struct at_src src)
{
	ALLOC_GROW(*arr, *nr + 1, *alloc);
	(*arr)[*nr].text = xstrndup(text, len);
	(*arr)[*nr].src = src;
	(*nr)++;
}

const struct at_config *at_kernel_best(const struct at_kernel *k,
				       enum at_method *method)
{
	size_t i = k->ntunings;

	while (i-- > 0) {
		const struct at_tuning *t = k->tunings[i];

		if (t->best >= 0 && (size_t)t->best < t->nr) {
			if (method)
				*method = t->method;
			return &t->configs[t->best];
		}
	}
	if (k->ndeclared == 1 && (k->num_configs < 0 || k->num_configs == 1)) {
		if (method)
			*method = AT_SINGLE_CONFIG;
		return &k->declared[0];
	}
	return NULL;
}

size_t at_kernel_timed(const struct at_kernel *k)
{
	size_t i, j, n = 0;

	for (i = 0; i < k->ntunings; i++)
		for (j = 0; j < k->tunings[i]->nr; j++)
			if (!isnan(k->tunings[i]->configs[j].time_ms))
				n++;
	return n;
}

const char *at_kind_from_name(const char *name)
{
	enum kernel_kind k = kind_from_symbol(name);

	return k == KIND_NONE ? NULL : kind_names[k];
}
