/*
 * The GPUs of `tko tune --gpus` (gpus.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "tune/gpus.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

/* More workers than this is a typo, not a node. */
#define GPUS_MAX 64

static size_t count_entries(const char *dir, const char *need)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char *p, *file;
		struct buf text = BUF_INIT, err = BUF_INIT;

		if (e->d_name[0] == '.')
			continue;
		p = path_join(dir, e->d_name);
		file = need ? path_join(p, need) : NULL;
		/* a kfd node with gpu_id 0 is a CPU */
		if (!file)
			n++;
		else if (file_read(file, 64, &text, &err) == 0 && strtol(text.buf, NULL, 10) != 0)
			n++;
		buf_release(&text);
		buf_release(&err);
		free(file);
		free(p);
	}
	if (d)
		closedir(d);
	return n;
}

void tune_gpus_env_read(struct tune_gpus_env *e)
{
	e->cuda = getenv("CUDA_VISIBLE_DEVICES");
	e->hip = getenv("HIP_VISIBLE_DEVICES");
	e->rocr = getenv("ROCR_VISIBLE_DEVICES");
	e->nvidia = count_entries("/proc/driver/nvidia/gpus", NULL);
	e->amd = count_entries("/sys/class/kfd/kfd/topology/nodes", "gpu_id");
}

/* The entries of a comma-separated list. */
static void split(const char *list, struct strlist *out)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len)
			strlist_push(out, xstrndup(p, len));
		p += len + (p[len] == ',');
	}
}

/* The visible GPUs' ids, and the variable that pins one. */
static void visible(const struct tune_gpus_env *e, struct strlist *ids, const char **var)
{
	const char *list = e->cuda ? e->cuda : e->hip;
	size_t i, n;

	*var = e->cuda ? "CUDA_VISIBLE_DEVICES" :
	       e->hip || e->rocr || (e->amd && !e->nvidia) ? "HIP_VISIBLE_DEVICES" :
	       "CUDA_VISIBLE_DEVICES";
	if (list) {
		split(list, ids);
		return;
	}
	if (e->rocr) {
		struct strlist r = STRLIST_INIT;

		split(e->rocr, &r);
		n = r.nr;
		for (i = 0; i < r.nr; i++)
			free((char *)r.v[i]);
		strlist_release(&r);
	} else {
		n = e->nvidia ? e->nvidia : e->amd;
	}
	for (i = 0; i < n; i++)
		strlist_push(ids, xstrfmt("%zu", i));
}

static int add(struct tune_gpus *g, const char *id, struct buf *err)
{
	if (g->n >= GPUS_MAX) {
		buf_addf(err, "--gpus lists more than %d workers", GPUS_MAX);
		return -1;
	}
	g->id = xrealloc(g->id, (g->n + 1) * sizeof(*g->id));
	g->id[g->n++] = xstrdup(id);
	return 0;
}

static int pick(const char *spec, const struct strlist *ids, struct tune_gpus *g, struct buf *err)
{
	const char *p = spec;

	while (*p) {
		size_t len = strcspn(p, ",");
		char *word = xstrndup(p, len);
		long k;
		int bad = parse_long(word, &k) < 0 || k < 0;

		if (bad || (size_t)k >= ids->nr) {
			buf_addf(err, bad ? "--gpus '%s': '%s' is not a GPU number" :
				 "--gpus '%s': GPU %s is not visible (%zu visible)", spec, word, ids->nr);
			free(word);
			return -1;
		}
		free(word);
		if (add(g, ids->v[k], err) < 0)
			return -1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int tune_gpus_select(const char *spec, const struct tune_gpus_env *e, struct tune_gpus *g,
		     struct buf *err)
{
	struct strlist ids = STRLIST_INIT;
	size_t i;
	int ret = 0;

	visible(e, &ids, &g->var);
	if (!spec || !strcmp(spec, "all")) {
		for (i = 0; !ret && i < ids.nr; i++)
			ret = add(g, ids.v[i], err);
	} else if (!*spec) {
		buf_adds(err, "--gpus is empty: give all, or GPU numbers (0,1)");
		ret = -1;
	} else {
		ret = pick(spec, &ids, g, err);
	}
	for (i = 0; i < ids.nr; i++)
		free((char *)ids.v[i]);
	strlist_release(&ids);
	if (ret < 0)
		tune_gpus_release(g);
	return ret;
}

void tune_gpus_release(struct tune_gpus *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->id[i]);
	free(g->id);
	g->id = NULL;
	g->n = 0;
}
