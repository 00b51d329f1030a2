/* RUN/analysis/replay.json: tko run's results kept in the RUN (see store.h). */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "run/replay.h"
#include "run/store.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* The kernel directory's name: the last component, trailing slashes ignored. */
static char *dir_name(const char *d)
{
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

/* The merged kernels, by directory name; a later entry replaces an earlier one. */
struct by_name {
	char **names;
	const struct replay_kernel **v;
	size_t nr, alloc;
};

static void index_kernels(struct by_name *b, const struct replay_doc *doc)
{
	size_t i, j;

	for (i = 0; i < doc->nkernels; i++) {
		char *name = dir_name(doc->kernels[i].kernel_dir);

		if (!name)
			continue;
		for (j = 0; j < b->nr && strcmp(b->names[j], name); j++)
			;
		if (j < b->nr) {
			free(name);
			b->v[j] = &doc->kernels[i];
			continue;
		}
		ALLOC_GROW(b->names, b->nr + 1, b->alloc);
		b->v = xrealloc(b->v, b->alloc * sizeof(*b->v));
		b->names[b->nr] = name;
		b->v[b->nr++] = &doc->kernels[i];
	}
}

/* Sorts entries by name (names are unique, so the order is total). */
static void sort_by_name(struct by_name *b)
{
	size_t i, j;

	for (i = 1; i < b->nr; i++)
		for (j = i; j > 0 && strcmp(b->names[j - 1], b->names[j]) > 0; j--) {
			char *n = b->names[j];
			const struct replay_kernel *k = b->v[j];

			b->names[j] = b->names[j - 1];
			b->v[j] = b->v[j - 1];
			b->names[j - 1] = n;
			b->v[j - 1] = k;
		}
}

/* The stored document, if `path` holds one of this version; 0 with d filled, else -1. */
static int load_stored(const char *path, struct replay_doc *d)
{
	struct buf err = BUF_INIT;
	json_t *old = is_file(path) ? json_load_path(path, &err) : NULL;
	const char *tool = json_str(old, "tool");
	int ret = -1;

	/* an older version's entries lack this version's fields: replaced, not merged */
	if (old && json_int(old, "schema_version", 0) == REPLAY_SCHEMA_VERSION && tool &&
	    !strcmp(tool, "tko run") && json_is_array(json_object_get(old, "kernels")) &&
	    replay_doc_read(d, old, path, &err) == 0)
		ret = 0;
	json_decref(old);
	buf_release(&err);
	return ret;
}

/* `doc` with `b`'s kernels, each copied with its kernel_dir made RUN-relative. */
static void merged_doc(struct replay_doc *out, const struct replay_doc *doc, const struct by_name *b)
{
	size_t i;

	out->have_peak = doc->have_peak;
	out->peak.copy_gbps = doc->peak.copy_gbps;
	out->peak.source = doc->peak.source ? xstrdup(doc->peak.source) : NULL;
	out->replay = doc->replay ? json_incref(doc->replay) : NULL;
	for (i = 0; i < b->nr; i++) {
		json_t *j = rf_to_json(&replay_kernel_desc, b->v[i]);
		char *rel = path_join(rd_parts[RD_KERNELS_DIR].rel, b->names[i]);
		struct buf ignored = BUF_INIT;

		json_set_str(j, "kernel_dir", rel);
		out->kernels = rf_grow(out->kernels, out->nkernels, sizeof(*out->kernels));
		rf_init(&replay_kernel_desc, &out->kernels[out->nkernels]);
		rf_read(&replay_kernel_desc, &out->kernels[out->nkernels++], j, "replay.json", &ignored);
		buf_release(&ignored);
		json_decref(j);
		free(rel);
	}
	replay_doc_summarise(out);
}

int replay_store_write(const char *run, const struct replay_doc *doc, char **path, struct buf *err)
{
	char *file = rd_path_in(run, RD_REPLAY_JSON);
	struct replay_doc old, merged;
	struct by_name b = { NULL, NULL, 0, 0 };
	int have_old, ret = -1;
	size_t i;

	replay_doc_init(&old);
	replay_doc_init(&merged);
	have_old = load_stored(file, &old) == 0;
	/* An update in place: the old document was read to be merged and replaced. */
	file_forget_input(file);
	if (have_old)
		index_kernels(&b, &old);
	index_kernels(&b, doc);
	sort_by_name(&b);
	merged_doc(&merged, doc, &b);
	if (rd_mkdir(run, RD_ANALYSIS_DIR, NULL, NULL, err) == 0 &&
	    replay_doc_save(&merged, file, err) == 0) {
		*path = file;
		file = NULL;
		ret = 0;
	}
	for (i = 0; i < b.nr; i++)
		free(b.names[i]);
	free(b.names);
	free(b.v);
	replay_doc_release(&old);
	replay_doc_release(&merged);
	free(file);
	return ret;
}
