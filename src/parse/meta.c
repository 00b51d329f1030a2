/*
 * Sets of kernel files for `tko meta` and its callers (see meta.h): reading
 * files and directories, recording bad files, and linking wrapper modules
 * to the kernel files they name.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/meta.h"
#include "parse/pysrc.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

static struct meta_file *add_file(struct meta_set *set, const char *path)
{
	struct meta_file *f;

	ALLOC_GROW(set->files, set->nfiles + 1, set->files_alloc);
	f = &set->files[set->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->role = "other";
	return f;
}

/* Marks the last file bad; its message goes both to the record and to err. */
static int file_error(struct meta_set *set, struct buf *err, size_t start)
{
	struct meta_file *f = &set->files[set->nfiles - 1];

	f->role = "error";
	free(f->error);
	f->error = xstrdup(err->buf + start);
	set->nerrors++;
	return -1;
}

static int parse_error(struct meta_set *set, const char *path, struct buf *why,
		       struct buf *err)
{
	size_t start = err->len;

	buf_addf(err, "cannot parse '%s' %s", path, why->buf);
	buf_release(why);
	return file_error(set, err, start);
}

static int scan_module(struct meta_set *set, const char *path, const char *s,
		       size_t n, struct buf *err)
{
	struct pysrc src = PYSRC_INIT;
	struct buf why = BUF_INIT;
	struct meta_file *f;
	size_t start = err->len, wrapped = set->wrapped.nr, i;
	int k, w;

	add_file(set, path)->first_kernel = set->kernels.nr;
	if (text_input_check(path, s, n, err) < 0)
		return file_error(set, err, start);
	/* Kernel and wrapper modules all say "triton"; skip the rest unparsed. */
	if (!memmem(s, n, "triton", 6))
		return 0;
	if (pysrc_scan(&src, s, n, &why) < 0) {
		pysrc_release(&src);
		return parse_error(set, path, &why, err);
	}
	k = triton_meta_scan_src(&set->kernels, path, &src, 0, &why);
	w = k < 0 ? 0 : wrapper_scan(&set->wrapped, path, &src, &why);
	pysrc_release(&src);
	if (k < 0 || w < 0)
		return parse_error(set, path, &why, err);
	f = &set->files[set->nfiles - 1];
	f->nkernels = (size_t)k;
	f->nwrapped = (size_t)w;
	f->role = w ? "wrapper" : k ? "kernel" : "other";
	for (i = wrapped; i < set->wrapped.nr; i++)
		set->wrapped.v[i].file = set->nfiles - 1;
	return 0;
}

int meta_scan_span(struct meta_set *set, const char *path, const char *s,
		   size_t n, struct buf *err)
{
	return scan_module(set, path, s, n, err);
}

/*
 * Files are read into one reused buffer rather than mapped: a RUN holds
 * thousands of small modules, and a map, its page faults and its unmap
 * cost more than copying 5 KB from the page cache.
 */
int meta_scan_file(struct meta_set *set, const char *path, struct buf *err)
{
	size_t start = err->len;

	buf_reset(&set->scratch);
	if (file_read(path, META_MAX_FILE, &set->scratch, err) < 0) {
		add_file(set, path);
		return file_error(set, err, start);
	}
	return scan_module(set, path, set->scratch.buf, set->scratch.len, err);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

int meta_scan_path(struct meta_set *set, const char *path, struct buf *err)
{
	struct strlist files = STRLIST_INIT;
	struct buf one = BUF_INIT;
	size_t i;

	if (!is_dir(path))
		return meta_scan_file(set, path, err);
	if (walk_files(path, &files, err) < 0) {
		walk_release(&files);
		return -1;
	}
	for (i = 0; i < files.nr; i++) {
		if (!ends_with(files.v[i], ".py"))
			continue;
		meta_scan_file(set, files.v[i], &one);
		buf_reset(&one);
	}
	buf_release(&one);
	walk_release(&files);
	return 0;
}

/* The last two components of `path` ("d6/cd6t....py"), or NULL. */
static const char *last_two(const char *path)
{
	const char *slash = strrchr(path, '/'), *p;

	if (!slash || slash == path)
		return NULL;
	for (p = slash - 1; p > path && *p != '/'; p--)
		;
	return *p == '/' ? p + 1 : path;
}

/*
 * Where the wrapper's block says its kernel file is, under the same cache
 * root as the wrapper: Inductor keeps both in <root>/<2 chars>/<hash>.py,
 * and a copied RUN keeps that shape while the absolute path changes.
 */
static char *expected_path(const struct wrapped_kernel *w)
{
	const char *tail = w->kernel_path ? last_two(w->kernel_path) : NULL;
	const char *wtail = last_two(w->wrapper);

	if (!tail || !wtail)
		return NULL;
	return xstrfmt("%.*s%s", (int)(wtail - w->wrapper), w->wrapper, tail);
}

static int cmp_file_path(const void *a, const void *b)
{
	return strcmp((*(const struct meta_file *const *)a)->path,
		      (*(const struct meta_file *const *)b)->path);
}

/* The kernel file a block names: by its place in the cache, else by a unique basename. */
static const struct meta_file *find_kernel_file(const struct meta_file **index, size_t n,
						const struct wrapped_kernel *w)
{
	char *want = expected_path(w);
	struct meta_file key, *kp = &key;
	const struct meta_file *const *hit = NULL, *found = NULL;
	const char *base;
	size_t i;

	if (want) {
		key.path = want;
		hit = bsearch(&kp, index, n, sizeof(*index), cmp_file_path);
		free(want);
		if (hit)
			return *hit;
	}
	if (!w->kernel_path)
		return NULL;
	base = path_base(w->kernel_path);
	for (i = 0; i < n; i++)
		if (!strcmp(path_base(index[i]->path), base)) {
			if (found)
				return NULL;	/* ambiguous: say nothing rather than guess */
			found = index[i];
		}
	return found;
}

/*
 * Gives the kernels set->kernels.v[begin..end) (one file's, or one block's
 * embedded ones) the block's attribution: those named like the block, or
 * all of them when none is (a template file's def is named after the
 * template, triton_mm, not after the kernel).
 */
static void attribute(struct meta_set *set, size_t begin, size_t end,
		      const struct wrapped_kernel *w)
{
	size_t i, named = 0;

	for (i = begin; i < end; i++)
		named += !strcmp(set->kernels.v[i]->name, w->name);
	for (i = begin; i < end; i++) {
		struct meta_kernel *k = set->kernels.v[i];

		if (!k->aten && (!named || !strcmp(k->name, w->name)))
			k->aten = json_deep_copy(w->aten);
	}
}

/* Reads the kernel a wrapper block holds, when no file of its own was read. */
static void read_embedded(struct meta_set *set, struct wrapped_kernel *w)
{
	struct buf why = BUF_INIT;
	size_t len, first = set->kernels.nr, i;
	const char *code = wrapped_source(w, &len);
	struct meta_file *f = &set->files[w->file];
	int k = triton_meta_scan(&set->kernels, w->wrapper, code, len, w->source_line - 1, &why);

	if (k < 0) {
		if (!f->error) {
			f->error = xstrfmt("cannot parse the kernel '%s' in '%s' (source string at line %zu): %s",
					   w->name, w->wrapper, w->source_line, why.buf);
			set->nerrors++;
		}
		buf_release(&why);
		return;
	}
	for (i = first; i < set->kernels.nr; i++)
		set->kernels.v[i]->embed_line = w->source_line;
	f->nkernels += (size_t)k;
	attribute(set, first, set->kernels.nr, w);
	buf_release(&why);
}

static int cmp_kernel(const void *a, const void *b)
{
	const struct meta_kernel *x = *(const struct meta_kernel *const *)a;
	const struct meta_kernel *y = *(const struct meta_kernel *const *)b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

void meta_link(struct meta_set *set)
{
	const struct meta_file **index = xcalloc(set->nfiles ? set->nfiles : 1, sizeof(*index));
	size_t i, n = 0;

	if (set->linked) {
		free(index);
		return;
	}
	for (i = 0; i < set->nfiles; i++)
		if (set->files[i].nkernels && !set->files[i].nwrapped)
			index[n++] = &set->files[i];
	qsort(index, n, sizeof(*index), cmp_file_path);
	for (i = 0; i < set->wrapped.nr; i++) {
		struct wrapped_kernel *w = &set->wrapped.v[i];
		const struct meta_file *kf = find_kernel_file(index, n, w);

		if (kf) {
			w->resolved = xstrdup(kf->path);
			attribute(set, kf->first_kernel, kf->first_kernel + kf->nkernels, w);
		} else {
			read_embedded(set, w);
		}
	}
	free(index);
	if (set->kernels.nr)
		qsort(set->kernels.v, set->kernels.nr, sizeof(*set->kernels.v), cmp_kernel);
	set->linked = 1;
}

size_t meta_find(const struct meta_set *set, const char *name,
		 const struct meta_kernel **out, size_t max)
{
	size_t i, found = 0;

	for (i = 0; i < set->kernels.nr; i++) {
		const struct meta_kernel *k = set->kernels.v[i];
		const char *iname = pylit_str(pylit_get(k->inductor_meta, "kernel_name"));

		if (strcmp(k->name, name) && (!iname || strcmp(iname, name)))
			continue;
		if (found < max)
			out[found] = k;
		found++;
	}
	return found;
}

void meta_set_release(struct meta_set *set)
{
	size_t i;

	meta_kernel_list_release(&set->kernels);
	wrapped_list_release(&set->wrapped);
	for (i = 0; i < set->nfiles; i++) {
		free(set->files[i].path);
		free(set->files[i].error);
	}
	free(set->files);
	buf_release(&set->scratch);
	memset(set, 0, sizeof(*set));
	buf_init(&set->scratch);
}
