/*
 * Merging the tasks' tune.json documents (gather.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/gather.h"
#include "json/jsonio.h"
#include "model/tune.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static int is_tune_doc(const json_t *doc)
{
	const char *tool = json_str(doc, "tool");

	return json_is_object(doc) &&
	       json_int(doc, "schema_version", 0) == TUNE_SCHEMA_VERSION &&
	       tool && !strcmp(tool, "tko tune") && json_str(doc, "mode") &&
	       json_is_array(json_object_get(doc, "kernels"));
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
static int take(const struct cluster_plan *p, size_t t, const json_t *doc, const char *name,
		json_t **got, struct buf *err)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "kernels"), i, e) {
		const char *src = json_str(e, "source");
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
		got[k] = e;
	}
	return 0;
}

json_t *cluster_gather(const struct cluster_plan *p, json_t *const *docs,
		       const char *const *names, size_t *missing, size_t *nmissing,
		       struct buf *err)
{
	json_t **got = xcalloc(p->nk, sizeof(*got)), *out = NULL, *list;
	const char *mode = NULL;
	size_t t, i;

	*nmissing = 0;
	for (t = 0; t < p->nt; t++) {
		if (!docs[t])
			continue;
		if (!is_tune_doc(docs[t])) {
			buf_addf(err, "'%s' is not a tko tune document (schema_version %d)", names[t],
				 TUNE_SCHEMA_VERSION);
			goto out;
		}
		if (mode && strcmp(mode, json_str(docs[t], "mode"))) {
			buf_addf(err, "'%s' is of mode '%s', the other tasks' of '%s'", names[t],
				 json_str(docs[t], "mode"), mode);
			goto out;
		}
		mode = json_str(docs[t], "mode");
		if (take(p, t, docs[t], names[t], got, err) < 0)
			goto out;
	}
	/* the fields and their order as tko tune writes them */
	list = json_array();
	out = json_pack("{s:i, s:s, s:s?, s:o}", "schema_version", TUNE_SCHEMA_VERSION,
			"tool", "tko tune",
			"mode", mode, "kernels", list);
	for (i = 0; i < p->nk; i++) {
		if (got[i])
			json_array_append(list, got[i]);
		else
			missing[(*nmissing)++] = i;
	}
out:
	free(got);
	return out;
}
