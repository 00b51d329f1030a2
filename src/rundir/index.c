/* One kernel -> every artifact the RUN holds for it (index.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/capture.h"
#include "rundir/cachematch.h"
#include "rundir/index.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/outdir.h"
#include "util/sha256.h"
#include "util/walk.h"
#include "banned.h"

/* IR files that name their Python source file in their debug locations, in the order read. */
static const char *const ir_exts[] = { ".ttir", ".ttgir", ".llir", ".source", NULL };

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

int rd_kernel_spec_ok(const char *s)
{
	size_t i, n = strlen(s), dash;

	if (!n || n > 200 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 0; i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'); i++)
		;
	if (i == n)
		return 1;
	dash = i;
	if (s[dash] != '-' || n - dash - 1 != 8)
		return 0;
	for (i = dash + 1; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return 1;
}

static int wanted(const struct rd_index *ix, const char *name)
{
	return !ix->name || !strcmp(ix->name, name);
}

/* The kernel (name, hash8), added when new. */
static struct rd_kernel *kernel_of(struct rd_index *ix, const char *name, const char *hash8)
{
	struct rd_kernel *k;
	size_t i;

	for (i = 0; i < ix->nr; i++)
		if (!strcmp(ix->v[i].name, name) && !strcmp(ix->v[i].hash8, hash8))
			return &ix->v[i];
	ALLOC_GROW(ix->v, ix->nr + 1, ix->alloc);
	k = &ix->v[ix->nr++];
	memset(k, 0, sizeof(*k));
	k->name = xstrdup(name);
	memcpy(k->hash8, hash8, 8);
	return k;
}

static size_t kernels_named(const struct rd_index *ix, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < ix->nr; i++)
		n += !strcmp(ix->v[i].name, name);
	return n;
}

/* A part of the RUN when it is there and inside it; one a link leads out of is refused. */
static char *part(struct rd_index *ix, enum rd_part p)
{
	struct buf why = BUF_INIT;
	char *path = rd_part(ix->root, p, &why);

	if (!path && why.len)
		strlist_push(&ix->refused, rd_path_in(ix->root, p));
	buf_release(&why);
	return path;
}

/* The names of the functions defined at line starts (`def NAME(`), each once. */
static void module_defs(const char *p, size_t n, struct strlist *names)
{
	const char *end = p + n, *at = p;

	while (at < end) {
		const char *eol = memchr(at, '\n', (size_t)(end - at)), *s = at + 4, *e;
		size_t i;

		if (!eol)
			eol = end;
		if (eol - at > 4 && !memcmp(at, "def ", 4)) {
			for (e = s; e < eol && (isalnum((unsigned char)*e) || *e == '_'); e++)
				;
			if (e > s && e < eol && *e == '(') {
				char *name = xstrndup(s, (size_t)(e - s));

				for (i = 0; i < names->nr && strcmp(names->v[i], name); i++)
					;
				if (i < names->nr)
					free(name);
				else
					strlist_push(names, name);
			}
		}
		at = eol + 1;
	}
}

static void add_module_kernel(struct rd_index *ix, const char *name, const char *path,
			      const char *hex)
{
	char hash8[9];
	struct rd_kernel *k;

	memcpy(hash8, hex, 8);
	hash8[8] = '\0';
	k = kernel_of(ix, name, hash8);
	if (!k->module) {
		k->module = xstrdup(path);
		free(k->source_hash);
		k->source_hash = xstrdup(hex);
	} else if (strcmp(k->module, path)) {
		strlist_push(&k->twins, xstrdup(path));
	}
}

/* A kernel module, not the wrapper that embeds its source in a string. */
static void consider_module(struct rd_index *ix, const char *path)
{
	struct strlist defs = STRLIST_INIT;
	struct mapped_file m;
	struct buf err = BUF_INIT;
	char hex[65] = "";
	size_t i;

	if (outdir_is_link(path) || file_map(path, RD_MODULE_MAX, &m, &err) < 0) {
		buf_release(&err);
		return;
	}
	if (memmem(m.data, m.len, "@triton.jit", 11) &&
	    !memmem(m.data, m.len, "async_compile.triton(", 21))
		module_defs(m.data, m.len, &defs);
	for (i = 0; i < defs.nr; i++) {
		if (!wanted(ix, defs.v[i]))
			continue;
		if (!*hex) {
			struct sha256 h;

			sha256_init(&h);
			sha256_update(&h, m.data, m.len);
			sha256_hex(&h, hex);
		}
		add_module_kernel(ix, defs.v[i], path, hex);
	}
	walk_release(&defs);
	file_unmap(&m);
	buf_release(&err);
}

static int build_modules(struct rd_index *ix, struct buf *err)
{
	char *dir = part(ix, RD_INDUCTOR_CACHE);
	struct strlist files = STRLIST_INIT;
	size_t i;
	int ret = 0;

	if (dir && is_dir(dir) && !outdir_is_link(dir)) {
		ret = rd_walk(ix->root, dir, &files, err);
		for (i = 0; !ret && i < files.nr; i++) {
			if (!ends_with(files.v[i], ".py"))
				continue;
			strlist_push(&ix->pyfiles, xstrdup(files.v[i]));
			consider_module(ix, files.v[i]);
		}
	}
	walk_release(&files);
	free(dir);
	return ret;
}

/* The capture's source hash and the cache hashes it recorded for its configs. */
static void read_capture(struct rd_kernel *k, const char *kdir)
{
	char *path = rd_kernel_path(kdir, RD_K_CAPTURE_JSON);
	struct buf err = BUF_INIT;
	struct capture_doc cap;
	size_t i;

	capture_init(&cap);
	if (capture_load(&cap, path, &err) == 0) {
		if (!k->source_hash && cap.source_hash)
			k->source_hash = xstrdup(cap.source_hash);
		for (i = 0; i < cap.nconfigs; i++)
			if (cap.configs[i].cache_hash)
				strlist_push(&k->recorded_hashes, xstrdup(cap.configs[i].cache_hash));
	}
	capture_release(&cap);
	buf_release(&err);
	free(path);
}

/* capture/kernels/<name>-<hash8>/ folders holding a capture.json (a file, not a link). */
static int build_captures(struct rd_index *ix)
{
	char *dir = part(ix, RD_KERNELS_DIR);
	struct strlist dirs = STRLIST_INIT;
	size_t i;

	if (dir && is_dir(dir))
		rd_kernel_dirs(ix->root, &dirs);
	for (i = 0; i < dirs.nr; i++) {
		const char *base = path_base(dirs.v[i]), *dash = strrchr(base, '-');
		char *cap = rd_kernel_path(dirs.v[i], RD_K_CAPTURE_JSON), *name;
		struct rd_kernel *k;

		if (dash && dash > base && strlen(dash + 1) == 8 && is_file(cap) &&
		    !outdir_is_link(cap)) {
			name = xstrndup(base, (size_t)(dash - base));
			k = wanted(ix, name) ? kernel_of(ix, name, dash + 1) : NULL;
			if (k && !k->capture_dir) {
				k->capture_dir = xstrdup(dirs.v[i]);
				read_capture(k, dirs.v[i]);
			}
			free(name);
		}
		free(cap);
	}
	walk_release(&dirs);
	free(dir);
	return 0;
}

/* The Triton cache entries of the RUN, for cachematch; strings owned by `own`. */
struct entries {
	struct rd_centry *v;
	size_t nr, alloc;
	struct strlist own;
};

/* The module an entry's IR names, or NULL. */
static char *entry_module_key(const char *dir, const char *name)
{
	char *key = NULL;
	size_t i;

	for (i = 0; ir_exts[i] && !key; i++) {
		char *p = xstrfmt("%s/%s%s", dir, name, ir_exts[i]);
		struct mapped_file m;
		struct buf err = BUF_INIT;

		if (!outdir_is_link(p) && !file_map(p, 0, &m, &err)) {
			key = rd_module_key_of_text(m.data, m.len);
			file_unmap(&m);
		}
		buf_release(&err);
		free(p);
	}
	return key;
}

/* f is <entry>/<NAME>.json with "name": NAME: the entry of kernel NAME. */
static void consider_entry(struct rd_index *ix, struct entries *es, const char *f)
{
	const char *base = path_base(f);
	char *name = xstrndup(base, strlen(base) - 5), *dir;
	struct buf err = BUF_INIT;
	json_t *meta;
	struct rd_centry *e;

	if (!strncmp(name, "__grp__", 7) || !wanted(ix, name) || outdir_is_link(f)) {
		free(name);
		return;
	}
	meta = json_load_path(f, &err);
	buf_release(&err);
	if (!json_str(meta, "name") || strcmp(json_str(meta, "name"), name)) {
		json_decref(meta);
		free(name);
		return;
	}
	json_decref(meta);
	dir = xstrndup(f, (size_t)(base - 1 - f));
	ALLOC_GROW(es->v, es->nr + 1, es->alloc);
	e = &es->v[es->nr++];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->dir = path_base(dir);
	e->module_key = entry_module_key(dir, name);
	e->num_warps = e->num_stages = -1;
	e->data = dir;
	strlist_push(&es->own, name);
	strlist_push(&es->own, dir);
	if (e->module_key)
		strlist_push(&es->own, e->module_key);
}

static void find_entries(struct rd_index *ix, struct entries *es)
{
	static const enum rd_part roots[] = { RD_TRITON_CACHE, RD_INDUCTOR_TRITON_CACHE };
	size_t r, i;

	for (r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		char *root = part(ix, roots[r]);
		struct strlist files = STRLIST_INIT;
		struct buf err = BUF_INIT;

		if (root && is_dir(root) && !outdir_is_link(root) &&
		    !rd_walk(ix->root, root, &files, &err))
			for (i = 0; i < files.nr; i++)
				if (ends_with(files.v[i], ".json"))
					consider_entry(ix, es, files.v[i]);
		walk_release(&files);
		buf_release(&err);
		free(root);
	}
}

/* same_source for rd_cache_all: a module of the kernel's name whose text is the kernel's. */
struct twin_ctx {
	const struct rd_index *ix;
	const struct rd_kernel *k;
};

static int module_same(const struct rd_kernel *k, const char *path, const char *key)
{
	char *other = rd_module_key(path);
	int same = !strcmp(other, key) && rd_same_source_files(k->module, path);

	free(other);
	return same;
}

static int same_source(void *data, const char *key)
{
	const struct twin_ctx *c = data;
	size_t i, t;

	if (!c->k->module)
		return 0;
	for (i = 0; i < c->ix->nr; i++) {
		const struct rd_kernel *o = &c->ix->v[i];

		if (strcmp(o->name, c->k->name))
			continue;
		if (o->module && module_same(c->k, o->module, key))
			return 1;
		for (t = 0; t < o->twins.nr; t++)
			if (module_same(c->k, o->twins.v[t], key))
				return 1;
	}
	return 0;
}

static int build_cache(struct rd_index *ix)
{
	struct entries es = { NULL, 0, 0, STRLIST_INIT };
	const struct rd_centry **out;
	size_t i, j;

	find_entries(ix, &es);
	out = xcalloc(es.nr + 1, sizeof(*out));
	for (i = 0; i < ix->nr; i++) {
		struct rd_kernel *k = &ix->v[i];
		struct twin_ctx ctx = { ix, k };
		char *key = k->module ? rd_module_key(k->module) : NULL;
		struct rd_cquery q = { k->name, NULL, NULL, key, &k->recorded_hashes, -1, -1,
				       same_source, &ctx };
		size_t n = rd_cache_all(es.v, es.nr, &q, kernels_named(ix, k->name) == 1, out);

		for (j = 0; j < n; j++)
			strlist_push(&k->cache_dirs, xstrdup(out[j]->data));
		free(key);
	}
	free(out);
	free(es.v);
	walk_release(&es.own);
	return 0;
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

/* Whether the module at `path` compiles kernel `name` from `module_base`. */
static int launches(const char *path, const char *name, const char *module_base, int unique)
{
	struct mapped_file m;
	struct buf err = BUF_INIT;
	char *call;
	int yes = 0;

	if (outdir_is_link(path) || file_map(path, RD_MODULE_MAX, &m, &err) < 0) {
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

static int build_wrappers(struct rd_index *ix)
{
	size_t i, j;

	for (i = 0; i < ix->nr; i++) {
		struct rd_kernel *k = &ix->v[i];
		int unique = kernels_named(ix, k->name) == 1;

		for (j = 0; k->module && j < ix->pyfiles.nr; j++) {
			const char *f = ix->pyfiles.v[j];

			if (strcmp(f, k->module) && launches(f, k->name, path_base(k->module), unique))
				strlist_push(&k->wrappers, xstrdup(f));
		}
	}
	return 0;
}

static int in_list(const struct strlist *l, const char *s)
{
	size_t i;

	for (i = 0; s && i < l->nr; i++)
		if (!strcmp(path_base(l->v[i]), s))
			return 1;
	return 0;
}

/* The .py and .best_config files directly in dir. */
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
	strlist_sort(best);
}

static void best_configs(struct rd_kernel *k)
{
	const char *slash = strrchr(k->module, '/');
	char *dir = slash ? xstrndup(k->module, (size_t)(slash - k->module)) : xstrdup(".");
	char *old = xstrfmt("%.*s.best_config", (int)(strlen(k->module) - 3), k->module);
	struct strlist py = STRLIST_INIT, best = STRLIST_INIT;
	size_t i;

	if (is_file(old))
		k->best_config = xstrdup(old);
	list_dir(dir, &py, &best);
	for (i = 0; i < best.nr; i++) {
		const char *b = best.v[i], *h;
		struct buf err = BUF_INIT;
		json_t *j;

		if (!strcmp(b, old) || outdir_is_link(b))
			continue;
		j = json_load_path(b, &err);
		h = json_str(j, "triton_cache_hash");
		if (h ? in_list(&k->cache_dirs, h) : (j && py.nr == 1))
			strlist_push(&k->best_configs, xstrdup(b));
		json_decref(j);
		buf_release(&err);
	}
	walk_release(&py);
	walk_release(&best);
	free(old);
	free(dir);
}

static int build_best(struct rd_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr; i++)
		if (ix->v[i].module)
			best_configs(&ix->v[i]);
	return 0;
}

static int build_tunes(struct rd_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr; i++) {
		struct rd_kernel *k = &ix->v[i];
		char *rel;

		if (!k->capture_dir)
			continue;
		rel = path_join(rd_parts[RD_KERNELS_DIR].rel, path_base(k->capture_dir));
		rd_kernel_tunes(ix->root, rel, &k->tunes, NULL);
		free(rel);
	}
	return 0;
}

static int build_profile(struct rd_index *ix)
{
	size_t i;

	rd_profile_files(ix->root, &ix->profiles);
	for (i = 0; i < ix->nr; i++)
		if (ix->v[i].module)
			ix->v[i].profile_key = rd_module_key(ix->v[i].module);
	return 0;
}

/* The parts in the order they are built, with the parts each needs. */
static const struct {
	unsigned part, needs;
	int (*build)(struct rd_index *ix);
} steps[] = {
	{ RD_IX_CAPTURES, 0, build_captures },
	{ RD_IX_CACHE, RD_IX_MODULES | RD_IX_CAPTURES, build_cache },
	{ RD_IX_WRAPPERS, RD_IX_MODULES | RD_IX_CAPTURES, build_wrappers },
	{ RD_IX_BEST, RD_IX_CACHE, build_best },
	{ RD_IX_TUNES, RD_IX_CAPTURES, build_tunes },
	{ RD_IX_PROFILE, RD_IX_MODULES, build_profile },
};
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

int rd_index_build(struct rd_index *ix, const struct rundir *rd, const char *name,
		   unsigned parts, struct buf *err)
{
	size_t i;

	if (!ix->root) {
		ix->root = xstrdup(rd->root);
		ix->name = name ? xstrdup(name) : NULL;
	}
	for (i = NSTEPS; i-- > 0;)
		if (parts & steps[i].part)
			parts |= steps[i].needs;
	/* modules first: a capture folder joins the module of its hash */
	if ((parts & RD_IX_MODULES) && !(ix->built & RD_IX_MODULES)) {
		if (build_modules(ix, err) < 0)
			return -1;
		ix->built |= RD_IX_MODULES;
	}
	for (i = 0; i < NSTEPS; i++) {
		if (!(parts & steps[i].part) || (ix->built & steps[i].part))
			continue;
		if (steps[i].build(ix) < 0)
			return -1;
		ix->built |= steps[i].part;
	}
	return 0;
}

size_t rd_index_find(const struct rd_index *ix, const char *name, const char *hash8,
		     struct rd_kernel **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < ix->nr; i++) {
		if (strcmp(ix->v[i].name, name) || (hash8 && strcmp(ix->v[i].hash8, hash8)))
			continue;
		if (n < max)
			out[n] = &ix->v[i];
		n++;
	}
	return n;
}

static void kernel_release(struct rd_kernel *k)
{
	size_t i;

	free(k->name);
	free(k->source_hash);
	free(k->module);
	walk_release(&k->twins);
	free(k->capture_dir);
	walk_release(&k->recorded_hashes);
	walk_release(&k->cache_dirs);
	free(k->best_config);
	walk_release(&k->best_configs);
	walk_release(&k->wrappers);
	walk_release(&k->tunes);
	free(k->profile_key);
	for (i = 0; i < k->nlogs; i++) {
		free(k->logs[i].path);
		free(k->logs[i].line);
	}
	free(k->logs);
}

void rd_index_release(struct rd_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr; i++)
		kernel_release(&ix->v[i]);
	free(ix->v);
	free(ix->root);
	free(ix->name);
	walk_release(&ix->refused);
	walk_release(&ix->pyfiles);
	walk_release(&ix->profiles);
	*ix = (struct rd_index)RD_INDEX_INIT;
}

/* Adds root/doc to out when it is a file inside the RUN; a link out of it, to refused. */
static void push_tune_doc(const char *root, const char *doc, struct strlist *out,
			  struct strlist *refused)
{
	struct buf why = BUF_INIT;
	char *p = rd_inside(root, doc, &why);

	if (why.len && refused)
		strlist_push(refused, buf_detach(&why, NULL));
	if (p && is_file(p))
		strlist_push(out, p);
	else
		free(p);
	buf_release(&why);
}

void rd_kernel_tunes(const char *root, const char *kernel_dir, struct strlist *out,
		     struct strlist *refused)
{
	char *rel = rd_kernel_path(kernel_dir, RD_K_TUNE_DIR);
	struct buf why = BUF_INIT;
	char *tdir = rd_inside(root, rel, &why);
	struct strlist targets = STRLIST_INIT;
	DIR *d = tdir ? opendir(tdir) : NULL;
	struct dirent *e;
	size_t i;

	if (why.len && refused)
		strlist_push(refused, buf_detach(&why, NULL));
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			strlist_push(&targets, xstrdup(e->d_name));
	if (d)
		closedir(d);
	strlist_sort(&targets);
	for (i = 0; i < targets.nr; i++) {
		char *doc = rd_kernel_tune_doc(kernel_dir, targets.v[i]);

		push_tune_doc(root, doc, out, refused);
		free(doc);
	}
	/* where `tko tune KERNEL_DIR` writes without --out: tune/tune.json */
	if (targets.nr) {
		char *doc = xstrfmt("%s/%s", rel, RD_TUNE_DOC);

		push_tune_doc(root, doc, out, refused);
		free(doc);
	}
	walk_release(&targets);
	buf_release(&why);
	free(tdir);
	free(rel);
}

int rd_tune_matches(const char *tune_path, const char *doc_kernel, const char *doc_source,
		    const char *name, const char *kernel_dir, const char *module)
{
	if (!doc_kernel || strcmp(doc_kernel, name))
		return 0;
	if (kernel_dir && tune_path && strstr(tune_path, path_base(kernel_dir)))
		return 1;
	if (kernel_dir && doc_source && strstr(doc_source, path_base(kernel_dir)))
		return 1;
	return module && doc_source && !strcmp(path_base(doc_source), path_base(module));
}

const char *rd_replay_key(const char *kernel_dir)
{
	return path_base(kernel_dir);
}

void rd_profile_files(const char *root, struct strlist *out)
{
	char *dir = rd_path_in(root, RD_PROFILE_DIR);
	struct strlist all = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	if (is_dir(dir) && walk_files(dir, &all, &err) == 0)
		for (i = 0; i < all.nr; i++) {
			const char *b = path_base(all.v[i]);

			if (strncmp(b, "window", 6) && strcmp(b, "README.md"))
				strlist_push(out, xstrdup(all.v[i]));
		}
	walk_release(&all);
	buf_release(&err);
	free(dir);
}
