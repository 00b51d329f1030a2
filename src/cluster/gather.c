/*
 * Merging the tasks' tune.json documents (gather.h), through the typed
 * model of model/tune, as tko tune --gpus merges its children's.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/gather.h"
#include "rundir/layout.h"
#include "util/mem.h"
#include "banned.h"

struct tune_doc *cluster_doc_load(const char *path, struct buf *err)
{
	struct tune_doc *d = xmalloc(sizeof(*d));

	rf_init(&tune_doc_desc, d);
	if (tune_doc_load_current(path, d, err) < 0) {
		cluster_doc_free(d);
		return NULL;
	}
	return d;
}

void cluster_doc_free(struct tune_doc *d)
{
	if (!d)
		return;
	rf_release(&tune_doc_desc, d);
	free(d);
}

/* The kernel of task t whose source `src` is, or -1. */
static long kernel_of(const struct cluster_plan *p, size_t t, const char *src)
{
	size_t i;

	for (i = 0; src && i < p->t[t].nr; i++) {
		const char *dir = p->k[p->t[t].k[i]].dir;
		char *kpy = rd_kernel_path(dir, RD_K_KERNEL_PY);
		int same = !strcmp(src, kpy) || !strcmp(src, dir);

		free(kpy);
		if (same)
			return (long)p->t[t].k[i];
	}
	return -1;
}

/* Files task t's entries under their kernels in got[]. */
static int take(const struct cluster_plan *p, size_t t, struct tune_doc *doc, const char *name,
		struct tune_doc_kernel **got, struct buf *err)
{
	size_t i;

	for (i = 0; i < doc->nkernels; i++) {
		const char *src = doc->kernels[i].source;
		long k = kernel_of(p, t, src);

		if (k < 0) {
			buf_addf(err, "'%s': kernels[%zu]: source '%s' is not a kernel of task %zu",
				 name, i, src ? src : "(none)", t);
			return -1;
		}
		if (got[k]) {
			buf_addf(err, "'%s': kernels[%zu]: '%s' appears twice", name, i, src);
			return -1;
		}
		got[k] = &doc->kernels[i];
	}
	return 0;
}

/* 1 when d's mode is that of the documents before it (*mode, or the first's). */
static int same_mode(const struct tune_doc *d, const char *name, enum tune_mode *mode,
		     struct buf *err)
{
	if (*mode != TUNE_MODE_NONE && *mode != d->mode) {
		buf_addf(err, "'%s' is of mode '%s', the other tasks' of '%s'", name,
			 NAME_OF(tune_mode_names, d->mode), NAME_OF(tune_mode_names, *mode));
		return 0;
	}
	*mode = d->mode;
	return 1;
}

struct tune_doc *cluster_gather(const struct cluster_plan *p, struct tune_doc *const *docs,
				const char *const *names, size_t *missing, size_t *nmissing,
				struct buf *err)
{
	struct tune_doc_kernel **got = xcalloc(p->nk, sizeof(*got));
	struct tune_doc *out = NULL;
	enum tune_mode mode = TUNE_MODE_NONE;
	size_t t, i;

	*nmissing = 0;
	for (t = 0; t < p->nt; t++)
		if (docs[t] && (!same_mode(docs[t], names[t], &mode, err) ||
				take(p, t, docs[t], names[t], got, err) < 0))
			goto out;
	out = xmalloc(sizeof(*out));
	rf_init(&tune_doc_desc, out);
	out->mode = mode;
	for (i = 0; i < p->nk; i++) {
		if (got[i])
			tune_doc_take_kernel(out, got[i]);
		else
			missing[(*nmissing)++] = i;
	}
out:
	free(got);
	return out;
}
