/* Inductor .best_config records (see best_config.h). */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/jsonio.h"
#include "parse/best_config.h"
#include "parse/config_json.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "banned.h"

/* Keys that are not config kwargs. */
static const char *const meta_keys[] = {
	"num_warps", "num_stages", "num_ctas", "maxnreg", "configs_hash",
	"found_by_coordesc", "time_taken_ms", "triton_cache_hash",
};

static int is_meta(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(meta_keys) / sizeof(meta_keys[0]); i++)
		if (!strcmp(meta_keys[i], key))
			return 1;
	return 0;
}

int best_config_sniff(const char *data, size_t len)
{
	json_t *j;
	int yes;

	while (len && (*data == ' ' || *data == '\n' || *data == '\t' || *data == '\r')) {
		data++;
		len--;
	}
	if (!len || *data != '{' || !span_find(data, len, "\"num_warps\""))
		return 0;
	j = json_loadb(data, len, 0, NULL);
	yes = json_is_object(j) && (json_has(j, "configs_hash") ||
				    json_has(j, "found_by_coordesc") ||
				    json_has(j, "time_taken_ms"));
	json_decref(j);
	return yes;
}

/* The kernel named by <triton_dir>/<hash>/<kernel>.json, or NULL. */
static char *triton_name(const char *triton_dir, const char *hash)
{
	char *dir, *name = NULL;
	struct dirent *de;
	DIR *d;

	if (!triton_dir || !hash || strchr(hash, '/'))
		return NULL;
	dir = path_join(triton_dir, hash);
	d = opendir(dir);
	free(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".json") &&
		    strncmp(de->d_name, "__grp__", 7) &&
		    (!name || strcmp(de->d_name, name) < 0)) {
			free(name);
			name = xstrndup(de->d_name, n - 5);
		}
	}
	closedir(d);
	return name;
}

struct name_list {
	char **v;		/* owned names */
	size_t nr, alloc;
};

/* Appends the @triton.jit functions one module defines to *names. */
static void jit_names(const char *path, struct name_list *names)
{
	struct mapped_file f;
	struct buf err = BUF_INIT;
	struct lines it;
	const char *s;
	size_t n;
	int after_jit = 0;

	if (file_map(path, 0, &f, &err) < 0) {
		buf_release(&err);
		return;
	}
	it = (struct lines)LINES_INIT(f.data, f.len);
	while (lines_next(&it, &s, &n)) {
		if (span_starts(s, n, "@triton.jit")) {
			after_jit = 1;
		} else if (after_jit && span_starts(s, n, "def ")) {
			const char *paren = memchr(s, '(', n);

			if (paren) {
				ALLOC_GROW(names->v, names->nr + 1, names->alloc);
				names->v[names->nr++] = xstrndup(s + 4, (size_t)(paren - s - 4));
			}
			after_jit = 0;
		}
	}
	file_unmap(&f);
}

/* The one jit kernel defined by the .py files beside `path`, or NULL. */
static char *sibling_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	struct name_list names = { NULL, 0, 0 };
	const char *one = NULL;
	char *found = NULL;
	struct dirent *de;
	size_t i;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 3 && !strcmp(de->d_name + n - 3, ".py")) {
			char *p = path_join(dir, de->d_name);

			jit_names(p, &names);
			free(p);
		}
	}
	if (d)
		closedir(d);
	for (i = 0; i < names.nr && (!one || !strcmp(one, names.v[i])); i++)
		one = names.v[i];
	if (one && i == names.nr)
		found = xstrdup(one);
	for (i = 0; i < names.nr; i++)
		free(names.v[i]);
	free(names.v);
	free(dir);
	return found;
}

static void fill_config(struct at_config *c, json_t *j)
{
	const char *hash = json_str(j, "triton_cache_hash");

	at_config_from_json(c, j, is_meta, j);
	if (hash)
		c->cache_hash = xstrdup(hash);
}

/* Finds the record's kernel by the log, the Triton cache or its directory. */
static struct at_kernel *find_kernel(struct autotune_set *set, unsigned file,
				     json_t *j, const char *triton_dir,
				     struct at_tuning **t)
{
	const char *path = set->inputs[file].path;
	struct at_src src = { file, 0, AT_FMT_BEST_CONFIG };
	struct at_kernel *k = NULL;
	char *name;

	*t = at_saved_find(set, path);
	if (*t)
		return (*t)->kernel;
	name = triton_name(triton_dir, json_str(j, "triton_cache_hash"));
	if (!name)
		name = sibling_name(path);
	if (!name)
		return NULL;
	k = at_kernel_latest(set, name, strlen(name));
	if (!k)
		k = at_kernel_current(set, name, strlen(name), src);
	free(name);
	return k;
}

int best_config_read(struct autotune_set *set, unsigned file,
		     const char *data, size_t len, const char *triton_dir,
		     struct buf *err)
{
	struct at_input *in = &set->inputs[file];
	struct at_src src = { file, 0, AT_FMT_BEST_CONFIG };
	json_t *j = json_load_span(in->path, data, len, err);
	struct at_tuning *t;
	struct at_kernel *k;
	double took;

	if (!j)
		return -1;
	if (!json_is_object(j)) {
		buf_addf(err, "'%s' is not a .best_config record (not a JSON object)",
			 in->path);
		json_decref(j);
		return -1;
	}
	in->format = AT_FMT_BEST_CONFIG;
	in->formats |= 1u << AT_FMT_BEST_CONFIG;
	in->used = 1;
	took = json_num(j, "time_taken_ms", NAN);
	k = find_kernel(set, file, j, triton_dir, &t);
	if (!k) {
		in->note = xstrdup("kernel not identified (no log line, Triton cache entry or single kernel module names it)");
		json_decref(j);
		return 0;
	}
	if (!t) {
		t = at_tuning_add(k, json_is_true(json_object_get(j, "found_by_coordesc")) ?
				     AT_COORDESC : AT_BENCHMARK, src);
		fill_config(at_config_push(&t->configs, &t->nr, &t->alloc, src), j);
		t->best = 0;
		t->best_src = src;
		t->complete = 1;
	}
	if (isnan(t->elapsed_ms) && !isnan(took)) {
		t->elapsed_ms = took;
		t->elapsed_src = src;
	}
	/* which Triton cache directory holds the chosen config's binary */
	if (t->best >= 0 && !t->configs[t->best].cache_hash &&
	    json_str(j, "triton_cache_hash"))
		t->configs[t->best].cache_hash = xstrdup(json_str(j, "triton_cache_hash"));
	free(t->cache_file);
	t->cache_file = xstrdup(in->path);
	json_decref(j);
	return 0;
}
