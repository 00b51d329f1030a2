/* Copying one kernel's artifacts out of a RUN (collect.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rundir/collect.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/outdir.h"
#include "util/walk.h"
#include "banned.h"

/* Roles of Triton cache files by extension, in collect.json. */
static const struct {
	const char *ext;
	const char *role;
} triton_roles[] = {
	{ ".source", "source" }, { ".ttir", "ttir" }, { ".ttgir", "ttgir" },
	{ ".llir", "llir" }, { ".ptx", "ptx" }, { ".amdgcn", "amdgcn" },
	{ ".cubin", "cubin" }, { ".hsaco", "hsaco" }, { ".json", "metadata" },
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
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

/* outdir's log: into the document. */
static void log_file(void *data, const char *path, const char *from, long long bytes,
		     const char *role)
{
	collect_doc_add_file(data, path, from, bytes, role);
}

static void log_skip(void *data, const char *from, const char *why)
{
	collect_doc_add_skip(data, from, why);
}

/* Copies `src` to OUT/rel with `role`; a link is skipped. */
static int copy_one(struct outdir *o, const char *src, const char *rel, const char *role,
		    struct buf *err)
{
	if (outdir_is_link(src)) {
		outdir_skip(o, src, "a symbolic link");
		return 0;
	}
	return outdir_copy(o, src, rel, role, err);
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

		ret = copy_one(o, f, rel, role ? role : triton_role(path_base(f)), err);
		free(rel);
	}
	walk_release(&files);
	return ret;
}

/* Copies each path of l into inductor/ with `role`. */
static int copy_into_inductor(struct outdir *o, const struct strlist *l, const char *role,
			      struct buf *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->nr; i++) {
		char *rel = xstrfmt("inductor/%s", path_base(l->v[i]));

		ret = copy_one(o, l->v[i], rel, role, err);
		free(rel);
	}
	return ret;
}

/* The module and its <module>.best_config. */
static int copy_module(struct outdir *o, const struct rd_kernel *k, struct buf *err)
{
	char *rel = xstrfmt("inductor/%s", path_base(k->module));
	int ret = outdir_copy(o, k->module, rel, "kernel_module", err);

	free(rel);
	if (!ret && k->best_config) {
		rel = xstrfmt("inductor/%s", path_base(k->best_config));
		ret = copy_one(o, k->best_config, rel, "best_config", err);
		free(rel);
	}
	return ret;
}

/* One log's lines of the kernel, as "<line number>:<text>", into logs/<its path in the RUN>. */
static int write_log_lines(struct outdir *o, const char *root, const struct rd_loglines *l,
			   struct buf *err)
{
	struct buf text = BUF_INIT, why = BUF_INIT;
	struct mapped_file m;
	struct lines it;
	const char *line;
	size_t len, rn = strlen(root), next = 0;
	int ret = 0;

	if (file_map(l->path, 0, &m, &why) < 0) {
		buf_release(&why);
		return 0;
	}
	it = (struct lines)LINES_INIT(m.data, m.len);
	while (next < l->nr && lines_next(&it, &line, &len)) {
		if (it.lineno != l->line[next])
			continue;
		buf_addf(&text, "%zu:%.*s\n", it.lineno, (int)len, line);
		next++;
	}
	if (text.len) {
		const char *rel = !strncmp(l->path, root, rn) && l->path[rn] == '/' ?
				  l->path + rn + 1 : path_base(l->path);
		char *out = xstrfmt("logs/%s", rel);

		ret = outdir_write(o, out, text.buf, text.len, "log_lines", l->path, err);
		free(out);
	}
	file_unmap(&m);
	buf_release(&text);
	return ret;
}

static int copy_artifacts(struct outdir *o, const struct rd_index *ix, const struct rd_kernel *k,
			  struct collect_doc *doc, struct buf *err)
{
	size_t i;
	int ret = k->module ? copy_module(o, k, err) : 0;

	if (!ret && k->capture_dir)
		ret = copy_tree(o, k->capture_dir, "capture", "capture", err);
	for (i = 0; i < ix->refused.nr; i++)
		outdir_skip(o, ix->refused.v[i], "leads out of the RUN (a symbolic link)");
	for (i = 0; !ret && i < k->cache_dirs.nr; i++) {
		const char *key = path_base(k->cache_dirs.v[i]);
		char *prefix = xstrfmt("triton/%s", key);

		doc->entries = rf_grow(doc->entries, doc->nentries, sizeof(*doc->entries));
		doc->entries[doc->nentries++] = xstrdup(key);
		ret = copy_tree(o, k->cache_dirs.v[i], prefix, NULL, err);
		free(prefix);
	}
	if (!ret && k->module)
		ret = copy_into_inductor(o, &k->wrappers, "wrapper_module", err);
	if (!ret && k->module)
		ret = copy_into_inductor(o, &k->best_configs, "best_config", err);
	for (i = 0; !ret && i < k->nlogs; i++)
		ret = write_log_lines(o, ix->root, &k->logs[i], err);
	return ret;
}

/* The document's own fields, and its text written into OUT last. */
static int commit(struct outdir *o, const struct rd_kernel *k, struct collect_doc *doc,
		  struct buf *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int ret = -1;

	doc->kernel = xstrdup(k->name);
	doc->kernel_id = xstrdup(k->hash8);
	doc->source_hash = k->source_hash ? xstrdup(k->source_hash) : NULL;
	doc->inductor_module = k->module ? xstrdup(k->module) : NULL;
	doc->capture_dir = k->capture_dir ? xstrdup(k->capture_dir) : NULL;
	fp = open_memstream(&text, &len);
	if (!fp) {
		buf_addf(err, "cannot write '%s/collect.json': %s", o->root, strerror(errno));
		return -1;
	}
	if (collect_doc_write(fp, doc) < 0 || fclose(fp) != 0)
		buf_addf(err, "cannot write '%s/collect.json'", o->root);
	else
		ret = outdir_commit(o, "collect.json", text, len, err);
	free(text);
	return ret;
}

int rd_collect_write(const struct rd_index *ix, const struct rd_kernel *k, const char *out,
		     struct collect_doc *doc, struct buf *err)
{
	const struct outdir_log log = { log_file, log_skip, doc };
	struct outdir o;
	int ret;

	if (outdir_open(&o, out, ix->root, &log, err) < 0)
		return -1;
	ret = copy_artifacts(&o, ix, k, doc, err);
	if (!ret)
		ret = commit(&o, k, doc, err);
	if (ret)
		outdir_abort(&o);
	outdir_release(&o);
	return ret;
}
