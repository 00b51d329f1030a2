/* A kernel module's wrappers and .best_config records (collect_related.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "live/collect_related.h"
#include "live/outdir.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

/* A wrapper module is Python source; one over this is not one. */
#define MAX_WRAPPER_BYTES (64u << 20)

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* Whether text has a "# kernel path: .../<base>" line. */
static int names_path(const char *p, size_t n, const char *base)
{
	char *needle = xstrfmt("/%s\n", base);
	const char *at = p, *end = p + n;
	size_t k = strlen(needle);
	int found = 0;

	while (!found && (at = memmem(at, (size_t)(end - at), needle, k))) {
		const char *bol = at;

		while (bol > p && bol[-1] != '\n')
			bol--;
		found = !strncmp(bol, "# kernel path: ", 15);
		at += k;
	}
	free(needle);
	return found;
}

static int launches(const char *path, const char *name, const char *module_base, int unique)
{
	struct mapped_file m;
	struct buf err = BUF_INIT;
	char *call;
	int yes = 0;

	if (outdir_is_link(path) || file_map(path, MAX_WRAPPER_BYTES, &m, &err) < 0) {
		buf_release(&err);
		return 0;
	}
	call = xstrfmt("async_compile.triton('%s',", name);
	if (memmem(m.data, m.len, call, strlen(call)))
		yes = names_path(m.data, m.len, module_base) ||
		      (unique && !memmem(m.data, m.len, "# kernel path: ", 15));
	free(call);
	file_unmap(&m);
	return yes;
}

int collect_wrappers(const char *run, const char *name, const char *module, int unique,
		     struct strlist *out, struct buf *err)
{
	char *dir = path_join(run, "cache/inductor");
	struct strlist files = STRLIST_INIT;
	size_t i;
	int ret = 0;

	if (module && is_dir(dir) && !outdir_is_link(dir)) {
		ret = walk_files(dir, &files, err);
		for (i = 0; !ret && i < files.nr; i++)
			if (ends_with(files.v[i], ".py") && strcmp(files.v[i], module) &&
			    launches(files.v[i], name, path_base(module), unique))
				strlist_push(out, xstrdup(files.v[i]));
	}
	walk_release(&files);
	free(dir);
	return ret;
}

static int in_list(const struct strlist *l, const char *s)
{
	size_t i;

	for (i = 0; s && i < l->nr; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* The .py and .best_config files directly in dir (sorted by walk order). */
static void list_dir(const char *dir, struct strlist *py, struct strlist *best)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (ends_with(de->d_name, ".py"))
			strlist_push(py, path_join(dir, de->d_name));
		else if (ends_with(de->d_name, ".best_config"))
			strlist_push(best, path_join(dir, de->d_name));
	}
	if (d)
		closedir(d);
}

void collect_best_configs(const char *module, const struct strlist *hashes,
			  struct strlist *out)
{
	const char *slash = strrchr(module, '/');
	char *dir = slash ? xstrndup(module, (size_t)(slash - module)) : xstrdup(".");
	char *old = xstrfmt("%.*s.best_config", (int)(strlen(module) - 3), module);
	struct strlist py = STRLIST_INIT, best = STRLIST_INIT;
	size_t i;

	list_dir(dir, &py, &best);
	for (i = 0; i < best.nr; i++) {
		const char *b = best.v[i];
		struct buf err = BUF_INIT;
		json_t *j;
		const char *h;

		if (!strcmp(b, old) || outdir_is_link(b))
			continue;
		j = json_load_path(b, &err);
		h = json_str(j, "triton_cache_hash");
		if (h ? in_list(hashes, h) : (j && py.nr == 1))
			strlist_push(out, xstrdup(b));
		json_decref(j);
		buf_release(&err);
	}
	collect_paths_release(&py);
	collect_paths_release(&best);
	free(old);
	free(dir);
}

void collect_paths_release(struct strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free((char *)l->v[i]);
	strlist_release(l);
}
