/* Finding and gathering one kernel's artifacts (see collect.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live/collect.h"
#include "live/collect_logs.h"
#include "live/collect_related.h"
#include "live/outdir.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/walk.h"
#include "banned.h"

/* Inductor modules and capture dirs larger than this are not kernel sources. */
#define MAX_MODULE_BYTES (64u << 20)

/* Roles of Triton cache files by extension, in collect.json. */
static const struct {
	const char *ext;
	const char *role;
} triton_roles[] = {
	{ ".source", "source" }, { ".ttir", "ttir" }, { ".ttgir", "ttgir" },
	{ ".llir", "llir" }, { ".ptx", "ptx" }, { ".amdgcn", "amdgcn" },
	{ ".cubin", "cubin" }, { ".hsaco", "hsaco" }, { ".json", "metadata" },
};

/* IR files that name their Python source file in their debug locations. */
static const char *const ir_exts[] = { ".ttir", ".ttgir", ".llir", ".source", NULL };

int collect_valid_name(const char *s)
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

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static struct kernel_candidate *candidate(struct collect *col, const char *hash8)
{
	struct kernel_candidate *c;
	size_t i;

	for (i = 0; i < col->nr; i++)
		if (!strcmp(col->c[i].hash8, hash8))
			return &col->c[i];
	ALLOC_GROW(col->c, col->nr + 1, col->alloc);
	c = &col->c[col->nr++];
	memset(c, 0, sizeof(*c));
	memcpy(c->hash8, hash8, 8);
	return c;
}

/* 1 when the module text defines `def name(` at the start of a line. */
static int defines(const char *p, size_t n, const char *name)
{
	char *needle = xstrfmt("\ndef %s(", name);
	size_t k = strlen(needle);
	int found = (n >= k - 1 && !memcmp(p, needle + 1, k - 1)) ||
		    memmem(p, n, needle, k) != NULL;

	free(needle);
	return found;
}

/* A kernel module, not the wrapper that embeds its source in a string. */
static void consider_module(struct collect *col, const char *path)
{
	struct mapped_file m;
	struct buf err = BUF_INIT;
	struct kernel_candidate *c;
	struct sha256 h;
	char hex[65], hash8[9];

	if (outdir_is_link(path) || file_map(path, MAX_MODULE_BYTES, &m, &err) < 0) {
		buf_release(&err);
		return;
	}
	if (defines(m.data, m.len, col->name) && memmem(m.data, m.len, "@triton.jit", 11) &&
	    !memmem(m.data, m.len, "async_compile.triton(", 21)) {
		sha256_init(&h);
		sha256_update(&h, m.data, m.len);
		sha256_hex(&h, hex);
		memcpy(hash8, hex, 8);
		hash8[8] = '\0';
		c = candidate(col, hash8);
		if (!c->module) {
			c->module = xstrdup(path);
			free(c->source_hash);
			c->source_hash = xstrdup(hex);
		} else {
			strlist_push(&c->twins, xstrdup(path));
		}
	}
	file_unmap(&m);
	buf_release(&err);
}

/*
 * RUN/rel when it is there and inside the RUN (rundir/layout.h); one a
 * link leads out of is not read, and is listed in collect.json's
 * "skipped" with the links inside the RUN.
 */
static char *run_part(struct collect *col, const char *rel)
{
	struct buf why = BUF_INIT;
	char *p = rd_inside(col->run, rel, &why);

	if (!p && why.len)
		strlist_push(&col->refused, path_join(col->run, rel));
	buf_release(&why);
	return p;
}

static int find_modules(struct collect *col, struct buf *err)
{
	char *dir = run_part(col, "cache/inductor");
	struct strlist files = STRLIST_INIT;
	size_t i;
	int ret = 0;

	if (dir && is_dir(dir) && !outdir_is_link(dir)) {
		ret = rd_walk(col->run, dir, &files, err);
		for (i = 0; !ret && i < files.nr; i++)
			if (ends_with(files.v[i], ".py"))
				consider_module(col, files.v[i]);
	}
	walk_release(&files);
	free(dir);
	return ret;
}

/* RUN/capture/kernels/NAME-<hash8>/ directories. */
static void find_captures(struct collect *col)
{
	char *dir = run_part(col, "capture/kernels");
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i, n = strlen(col->name);

	if (dir && is_dir(dir) && !rd_walk(col->run, dir, &files, &err)) {
		for (i = 0; i < files.nr; i++) {
			const char *base, *f = files.v[i];
			char *kdir;
			struct kernel_candidate *c;

			if (!ends_with(f, "/capture.json") || outdir_is_link(f))
				continue;
			kdir = xstrndup(f, strlen(f) - strlen("/capture.json"));
			base = path_base(kdir);
			if (strncmp(base, col->name, n) || base[n] != '-' ||
			    strlen(base + n + 1) != 8 || strchr(kdir + strlen(dir) + 1, '/') ||
			    (c = candidate(col, base + n + 1))->capture_dir) {
				free(kdir);
				continue;
			}
			c->capture_dir = kdir;
			c->capture = json_load_path(f, &err);
			buf_reset(&err);
			if (!c->source_hash && json_str(c->capture, "source_hash"))
				c->source_hash = xstrdup(json_str(c->capture, "source_hash"));
		}
	}
	walk_release(&files);
	buf_release(&err);
	free(dir);
}

static void candidate_release(struct kernel_candidate *c)
{
	size_t i;

	for (i = 0; i < c->twins.nr; i++)
		free((char *)c->twins.v[i]);
	strlist_release(&c->twins);
	free(c->source_hash);
	free(c->module);
	free(c->capture_dir);
	json_decref(c->capture);
}

/* Drops the candidates whose hash is not the -hash8 asked for. */
static void keep_wanted(struct collect *col)
{
	size_t i, kept = 0;

	for (i = 0; i < col->nr; i++) {
		if (!strcmp(col->c[i].hash8, col->want))
			col->c[kept++] = col->c[i];
		else
			candidate_release(&col->c[i]);
	}
	col->nr = kept;
}

int collect_find(struct collect *col, const char *run, const char *spec, struct buf *err)
{
	const char *dash;

	if (!collect_valid_name(spec)) {
		buf_addf(err, "'%s' is not a kernel name (letters, digits and '_', "
			 "optionally -<8 hex digits>)", spec);
		return -1;
	}
	if (!is_dir(run)) {
		buf_addf(err, "'%s' is not a RUN directory", run);
		return -1;
	}
	col->run = xstrdup(run);
	dash = strchr(spec, '-');
	col->name = dash ? xstrndup(spec, (size_t)(dash - spec)) : xstrdup(spec);
	if (dash)
		memcpy(col->want, dash + 1, 9);
	if (find_modules(col, err) < 0)
		return -1;
	find_captures(col);
	col->total = col->nr;
	if (*col->want)
		keep_wanted(col);
	return 0;
}

void collect_release(struct collect *col)
{
	size_t i;

	for (i = 0; i < col->nr; i++)
		candidate_release(&col->c[i]);
	free(col->c);
	free(col->run);
	free(col->name);
	walk_release(&col->refused);
	*col = (struct collect)COLLECT_INIT;
}

/* Cache hashes a capture recorded for the kernel's configs. */
static int recorded_hash(const json_t *capture, const char *hash)
{
	const json_t *cfg;
	size_t i;

	json_array_foreach(json_object_get(capture, "configs"), i, cfg)
		if (json_str(cfg, "cache_hash") && !strcmp(json_str(cfg, "cache_hash"), hash))
			return 1;
	return 0;
}

/* Whether an IR file of the Triton entry `dir` names the module file. */
static int ir_names(const char *dir, const char *kernel, const char *module_base)
{
	size_t i, k = strlen(module_base);
	int found = 0;

	for (i = 0; ir_exts[i] && !found; i++) {
		char *p = xstrfmt("%s/%s%s", dir, kernel, ir_exts[i]);
		struct mapped_file m;
		struct buf err = BUF_INIT;

		if (!outdir_is_link(p) && !file_map(p, 0, &m, &err)) {
			found = memmem(m.data, m.len, module_base, k) != NULL;
			file_unmap(&m);
		}
		buf_release(&err);
		free(p);
	}
	return found;
}

/* Whether the entry's IR names the candidate's module or one of its twins. */
static int names_module(const char *dir, const char *kernel, const struct kernel_candidate *c)
{
	size_t i;

	if (c->module && ir_names(dir, kernel, path_base(c->module)))
		return 1;
	for (i = 0; i < c->twins.nr; i++)
		if (ir_names(dir, kernel, path_base(c->twins.v[i])))
			return 1;
	return 0;
}

/* The Triton cache entries (folders holding NAME.json with "name": NAME). */
static void triton_entries(struct collect *col, const struct kernel_candidate *c,
			   struct strlist *dirs)
{
	const char *roots[] = { "cache/triton", "cache/inductor/triton", NULL };
	char *want = xstrfmt("/%s.json", col->name);
	size_t r, i;

	for (r = 0; roots[r]; r++) {
		char *root = run_part(col, roots[r]);
		struct strlist files = STRLIST_INIT;
		struct buf err = BUF_INIT;

		if (root && is_dir(root) && !outdir_is_link(root) &&
		    !rd_walk(col->run, root, &files, &err)) {
			for (i = 0; i < files.nr; i++) {
				const char *f = files.v[i];
				char *dir;
				json_t *meta;
				int ok;

				if (!ends_with(f, want) || outdir_is_link(f))
					continue;
				dir = xstrndup(f, strlen(f) - strlen(want));
				meta = json_load_path(f, &err);
				buf_reset(&err);
				ok = json_str(meta, "name") && !strcmp(json_str(meta, "name"), col->name) &&
				     (col->total == 1 || recorded_hash(c->capture, path_base(dir)) ||
				      names_module(dir, col->name, c));
				json_decref(meta);
				if (ok)
					strlist_push(dirs, dir);
				else
					free(dir);
			}
		}
		walk_release(&files);
		buf_release(&err);
		free(root);
	}
	free(want);
}

static const char *triton_role(const char *file)
{
	size_t i;

	if (!strncmp(file, "__grp__", 7))
		return "group";
	for (i = 0; i < sizeof(triton_roles) / sizeof(triton_roles[0]); i++)
		if (ends_with(file, triton_roles[i].ext))
			return triton_roles[i].role;
	return "other";
}

/* Copies the regular files under `src` into OUT/<prefix>/<relative path>. */
static int copy_tree(struct outdir *o, const char *src, const char *prefix,
		     const char *role, struct buf *err)
{
	struct strlist files = STRLIST_INIT;
	size_t i, n = strlen(src);
	int ret = walk_files(src, &files, err);

	for (i = 0; !ret && i < files.nr; i++) {
		const char *f = files.v[i];
		char *rel = xstrfmt("%s/%s", prefix, f + n + 1);

		if (outdir_is_link(f))
			outdir_skip(o, f, "a symbolic link");
		else
			ret = outdir_copy(o, f, rel, role ? role : triton_role(path_base(f)), err);
		free(rel);
	}
	walk_release(&files);
	return ret;
}

static int copy_module(struct outdir *o, const char *module, struct buf *err)
{
	char *rel = xstrfmt("inductor/%s", path_base(module));
	char *best = xstrfmt("%.*s.best_config", (int)(strlen(module) - 3), module);
	int ret = outdir_copy(o, module, rel, "kernel_module", err);

	free(rel);
	if (!ret && is_file(best)) {
		rel = xstrfmt("inductor/%s", path_base(best));
		if (outdir_is_link(best))
			outdir_skip(o, best, "a symbolic link");
		else
			ret = outdir_copy(o, best, rel, "best_config", err);
		free(rel);
	}
	free(best);
	return ret;
}

/* Copies each path of l into inductor/ with `role`, links skipped. */
static int copy_into_inductor(struct outdir *o, const struct strlist *l, const char *role,
			      struct buf *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->nr; i++) {
		char *rel = xstrfmt("inductor/%s", path_base(l->v[i]));

		if (outdir_is_link(l->v[i]))
			outdir_skip(o, l->v[i], "a symbolic link");
		else
			ret = outdir_copy(o, l->v[i], rel, role, err);
		free(rel);
	}
	return ret;
}

/* The wrapper modules launching the kernel and its .best_config records (collect_related.h). */
static int copy_related(struct outdir *o, const struct collect *col,
			const struct kernel_candidate *c, const struct strlist *dirs,
			struct buf *err)
{
	struct strlist wrappers = STRLIST_INIT, best = STRLIST_INIT, hashes = STRLIST_INIT;
	size_t i;
	int ret;

	if (!c->module)
		return 0;
	for (i = 0; i < dirs->nr; i++)
		strlist_push(&hashes, path_base(dirs->v[i]));
	ret = collect_wrappers(col->run, col->name, c->module, col->total == 1, &wrappers, err);
	collect_best_configs(c->module, &hashes, &best);
	if (!ret)
		ret = copy_into_inductor(o, &wrappers, "wrapper_module", err);
	if (!ret)
		ret = copy_into_inductor(o, &best, "best_config", err);
	collect_paths_release(&wrappers);
	collect_paths_release(&best);
	strlist_release(&hashes);
	return ret;
}

int collect_write(struct collect *col, size_t which, const char *out,
		  json_t **manifest, struct buf *err)
{
	const struct kernel_candidate *c = &col->c[which];
	struct strlist dirs = STRLIST_INIT;
	struct outdir o;
	json_t *hashes = json_array();
	size_t i;
	int ret;

	if (outdir_open(&o, out, col->run, err) < 0) {
		json_decref(hashes);
		return -1;
	}
	ret = c->module ? copy_module(&o, c->module, err) : 0;
	if (!ret && c->capture_dir)
		ret = copy_tree(&o, c->capture_dir, "capture", "capture", err);
	triton_entries(col, c, &dirs);
	for (i = 0; i < col->refused.nr; i++)
		outdir_skip(&o, col->refused.v[i], "leads out of the RUN (a symbolic link)");
	for (i = 0; !ret && i < dirs.nr; i++) {
		char *prefix = xstrfmt("triton/%s", path_base(dirs.v[i]));

		json_array_append_new(hashes, json_string(path_base(dirs.v[i])));
		ret = copy_tree(&o, dirs.v[i], prefix, NULL, err);
		free(prefix);
	}
	if (!ret)
		ret = copy_related(&o, col, c, &dirs, err);
	if (!ret)
		ret = collect_log_lines(&o, col->run, col->name, c->module, c->capture_dir,
					col->total > 1, err);
	if (!ret) {
		*manifest = outdir_manifest(&o);
		json_set_str(*manifest, "kernel", col->name);
		json_set_str(*manifest, "kernel_id", c->hash8);
		json_set_str(*manifest, "source_hash", c->source_hash);
		json_set_str(*manifest, "inductor_module", c->module);
		json_set_str(*manifest, "capture_dir", c->capture_dir);
		json_set_new(*manifest, "triton_cache_entries", json_incref(hashes));
		ret = outdir_commit(&o, *manifest, err);
		if (ret) {
			json_decref(*manifest);
			*manifest = NULL;
		}
	}
	if (ret)
		outdir_abort(&o);
	outdir_release(&o);
	json_decref(hashes);
	for (i = 0; i < dirs.nr; i++)
		free((char *)dirs.v[i]);
	strlist_release(&dirs);
	return ret;
}
