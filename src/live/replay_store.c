/* RUN/analysis/replay.json: tko run's results kept in the RUN (see replay_store.h). */
#include <stdlib.h>
#include <string.h>

#include "live/replay.h"
#include "live/replay_store.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "banned.h"

/* The kernel directory's name: the last component, trailing slashes ignored. */
static char *dir_name(const json_t *kernel)
{
	const char *d = json_str(kernel, "kernel_dir");
	size_t n;
	char *name, *base;

	if (!d)
		return NULL;
	n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		n--;
	name = xstrndup(d, n);
	base = xstrdup(path_base(name));
	free(name);
	return base;
}

/* Adds `doc`'s kernels to `by_name`, each with its kernel_dir made RUN-relative. */
static void index_kernels(json_t *by_name, const json_t *doc)
{
	const json_t *k;
	size_t i;

	json_array_foreach(json_object_get(doc, "kernels"), i, k) {
		char *name = dir_name(k), *rel;
		json_t *copy;

		if (!name)
			continue;
		copy = json_deep_copy(k);
		rel = path_join(rd_parts[RD_KERNELS_DIR].rel, name);
		json_set_str(copy, "kernel_dir", rel);
		json_object_set_new(by_name, name, copy);
		free(rel);
		free(name);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* by_name's values as an array, sorted by kernel directory name. */
static json_t *sorted_kernels(const json_t *by_name)
{
	size_t n = json_object_size(by_name), i = 0;
	const char **keys = xcalloc(n + 1, sizeof(*keys));
	json_t *out = json_array(), *v;
	const char *key;

	json_object_foreach((json_t *)by_name, key, v)
		keys[i++] = key;
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < n; i++)
		json_array_append(out, json_object_get(by_name, keys[i]));
	free(keys);
	return out;
}

/* The stored document, if `path` holds one; NULL otherwise. */
static json_t *load_stored(const char *path)
{
	struct buf err = BUF_INIT;
	json_t *old = is_file(path) ? json_load_path(path, &err) : NULL;
	const char *tool = json_str(old, "tool");

	buf_release(&err);
	/* an older version's entries lack this version's fields: replaced, not merged */
	if (old && (json_int(old, "schema_version", 0) != REPLAY_SCHEMA_VERSION || !tool ||
		    strcmp(tool, "tko run") ||
		    !json_is_array(json_object_get(old, "kernels")))) {
		json_decref(old);
		return NULL;
	}
	return old;
}

int replay_store_write(const char *run, const json_t *doc, char **path, struct buf *err)
{
	char *file = rd_path_in(run, RD_REPLAY_JSON);
	json_t *old, *merged = json_deep_copy(doc), *by_name = json_object(), *kernels;
	int ret = -1;

	old = load_stored(file);
	/* An update in place: the old document was read to be merged and replaced. */
	file_forget_input(file);
	if (old)
		index_kernels(by_name, old);
	index_kernels(by_name, doc);
	kernels = sorted_kernels(by_name);
	json_set_new(merged, "summary", replay_summary(kernels));
	json_set_new(merged, "kernels", kernels);
	if (rd_mkdir(run, RD_ANALYSIS_DIR, NULL, NULL, err) == 0 &&
	    json_write_path(merged, file, err) == 0) {
		*path = file;
		file = NULL;
		ret = 0;
	}
	json_decref(old);
	json_decref(merged);
	json_decref(by_name);
	free(file);
	return ret;
}
