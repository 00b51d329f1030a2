/*
 * summarize_paths(): expands RUN directories into the files to read,
 * orders them (events, logs, cache records), detects each loose file's
 * format and hands it to its reader (see summarize.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "parse/autotune_twins.h"
#include "parse/best_config.h"
#include "parse/capture_events.h"
#include "parse/logscan.h"
#include "parse/output_code.h"
#include "rundir/layout.h"
#include "parse/summarize.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/walk.h"
#include "banned.h"

/* What a file is read as; also the order files are read in. */
enum item_kind {
	ITEM_EVENTS,
	ITEM_LOG,
	ITEM_BEST,
	ITEM_REFUSED,	/* a part of a RUN that leads out of it: listed, not read */
};

struct item {
	char *path;		/* the file */
	char *why;		/* ITEM_REFUSED: why it is not read */
	char *root;		/* its RUN directory, or NULL */
	enum item_kind kind;
	int in_run;		/* found inside a RUN (lenient) rather than named */
	size_t order;		/* position among items, for a stable sort */
};

struct plan {
	struct item *v;
	size_t nr, alloc;
};

static void plan_add(struct plan *p, const char *path, const char *root,
		     enum item_kind kind, int in_run)
{
	struct item *it;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	it = &p->v[p->nr];
	it->path = xstrdup(path);
	it->why = NULL;
	it->root = root ? xstrdup(root) : NULL;
	it->kind = kind;
	it->in_run = in_run;
	it->order = p->nr++;
}

static void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->v[i].path);
		free(p->v[i].why);
		free(p->v[i].root);
	}
	free(p->v);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A part of the RUN that a link leads out of: listed with why, not read. */
static void plan_refused(struct plan *p, const char *path, struct buf *why)
{
	plan_add(p, path, NULL, ITEM_REFUSED, 1);
	p->v[p->nr - 1].why = buf_detach(why, NULL);
}

/* A part of the RUN when it is there and inside the RUN; a refused one is planned as such. */
static char *plan_part(struct plan *p, const char *run, enum rd_part part)
{
	struct buf why = BUF_INIT;
	char *path = rd_part(run, part, &why);

	if (!path && why.len) {
		char *full = rd_path_in(run, part);

		plan_refused(p, full, &why);
		free(full);
	}
	buf_release(&why);
	return path;
}

/* The *.log and *.txt files directly in dir, sorted, as logs of the RUN. */
static void plan_logs_in(struct plan *p, const char *dir, const char *run)
{
	DIR *d = dir ? opendir(dir) : NULL;
	char *run_real = realpath(run, NULL);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;

	while (d && run_real && (de = readdir(d))) {
		char *full;

		if (!ends_with(de->d_name, ".log") && !ends_with(de->d_name, ".txt"))
			continue;
		full = path_join(dir, de->d_name);
		if (is_file(full) && !path_within(run_real, full)) {
			struct buf why = BUF_INIT;

			buf_addf(&why, "'%s' leads out of the RUN (a symbolic link); not read", full);
			plan_refused(p, full, &why);
			buf_release(&why);
			free(full);
		} else if (is_file(full)) {
			ALLOC_GROW(names, nr + 1, alloc);
			names[nr++] = full;
		} else {
			free(full);
		}
	}
	if (d)
		closedir(d);
	free(run_real);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++) {
		plan_add(p, names[i], run, ITEM_LOG, 1);
		free(names[i]);
	}
	free(names);
}

static int plan_run(struct plan *p, const char *run, struct buf *err)
{
	char *events = plan_part(p, run, RD_EVENTS);
	char *logdir = plan_part(p, run, RD_LOG_DIR);
	char *seed = plan_part(p, run, RD_SEED_LOG);
	char *cache = plan_part(p, run, RD_INDUCTOR_CACHE);
	struct strlist files = STRLIST_INIT;
	size_t i;
	int ret = 0;

	if (events && is_file(events))
		plan_add(p, events, run, ITEM_EVENTS, 1);
	plan_logs_in(p, logdir, run);
	plan_logs_in(p, run, run);
	if (!(events && is_file(events)) && seed && is_file(seed))
		plan_add(p, seed, run, ITEM_LOG, 1);
	if (cache && is_dir(cache) && (ret = rd_walk(run, cache, &files, err)) == 0)
		for (i = 0; i < files.nr; i++)
			if (ends_with(files.v[i], ".best_config"))
				plan_add(p, files.v[i], run, ITEM_BEST, 1);
	walk_release(&files);
	free(events);
	free(logdir);
	free(seed);
	free(cache);
	return ret;
}

/* A named file: its kind from its first bytes. */
static int plan_file(struct plan *p, const char *path, struct buf *err)
{
	struct mapped_file m;
	enum item_kind kind = ITEM_LOG;
	char *root;

	if (file_map(path, 0, &m, err) < 0)
		return -1;
	if (capture_events_sniff(m.data, m.len))
		kind = ITEM_EVENTS;
	else if (best_config_sniff(m.data, m.len))
		kind = ITEM_BEST;
	file_unmap(&m);
	root = rd_root_of_file(path);
	plan_add(p, path, root, kind, 0);
	free(root);
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* A problem with a file found in a RUN: noted, not fatal. */
static int skip_or_fail(struct autotune_set *set, unsigned file,
			const struct item *it, struct buf *why, struct buf *err)
{
	if (!it->in_run) {
		buf_add(err, why->buf, why->len);
		buf_release(why);
		return -1;
	}
	free(set->inputs[file].note);
	set->inputs[file].note = buf_detach(why, NULL);
	return 0;
}

static int read_text(struct autotune_set *set, unsigned file,
		     const struct item *it, const struct mapped_file *m,
		     struct output_code_cache *wrappers, struct buf *why)
{
	struct log_ctx ctx;

	if (text_input_check(it->path, m->data, m->len, why) < 0)
		return -1;
	if (it->kind == ITEM_EVENTS) {
		capture_events_read(set, file, m->data, m->len);
		return 0;
	}
	ctx.set = set;
	ctx.file = file;
	ctx.root = it->root;
	ctx.wrappers = wrappers;
	if (!logscan_run(&ctx, m->data, m->len) && !it->in_run) {
		size_t lines = set->inputs[file].lines;

		buf_addf(why, "no autotune records in '%s' (%zu line%s, none recognised)",
			 it->path, lines, plural(lines));
		return -1;
	}
	return 0;
}

static int read_item(struct autotune_set *set, const struct item *it,
		     struct output_code_cache *wrappers, struct buf *err)
{
	unsigned file = at_input_add(set, it->path);
	struct buf why = BUF_INIT;
	struct mapped_file m;
	int ret = 0;

	if (it->kind == ITEM_REFUSED) {
		struct at_src src = { file, 0, AT_FMT_NONE };

		at_note_add(&set->refused, &set->nrefused, &set->refused_alloc, it->why,
			    strlen(it->why), src);
		buf_adds(&why, it->why);
		return skip_or_fail(set, file, it, &why, err);
	}
	if (file_map(it->path, 0, &m, &why) < 0)
		return skip_or_fail(set, file, it, &why, err);
	set->inputs[file].bytes = m.len;
	if (it->kind == ITEM_BEST) {
		char *triton = rd_triton_cache_for(it->path);

		if (best_config_read(set, file, m.data, m.len, triton, &why) < 0)
			ret = -1;
		free(triton);
	} else {
		ret = read_text(set, file, it, &m, wrappers, &why);
	}
	file_unmap(&m);
	if (ret < 0)
		return skip_or_fail(set, file, it, &why, err);
	return 0;
}

static int plan_paths(struct plan *p, const char *const *paths, size_t n,
		      struct buf *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (is_dir(paths[i])) {
			if (!rd_meets(rd_probe(paths[i]), &rd_need_summarize)) {
				buf_addf(err, rd_need_summarize.missing, paths[i]);
				return -1;
			}
			if (plan_run(p, paths[i], err) < 0)
				return -1;
		} else if (plan_file(p, paths[i], err) < 0) {
			return -1;
		}
	}
	return 0;
}

/*
 * What is left once every input is read: one tuning told by several
 * inputs becomes one (autotune_twins.h), and the facts no reader stated
 * but a kernel's name implies (Inductor's naming).
 */
static void finish(struct autotune_set *set)
{
	size_t i;

	autotune_set_merge_twins(set);
	for (i = 0; i < set->nr; i++) {
		struct at_kernel *k = set->kernels[i];
		const char *kind = at_kind_from_name(k->name);
		struct at_src src = k->name_src;

		src.fmt = AT_FMT_NAME;
		if (kind)
			at_set_str(&k->kind, &k->kind_src, kind, strlen(kind), src);
	}
}

int summarize_paths(const char *const *paths, size_t n,
		    struct autotune_set *out, struct buf *err)
{
	struct output_code_cache wrappers = { NULL, 0, 0 };
	struct plan p = { NULL, 0, 0 };
	size_t i;
	int ret = plan_paths(&p, paths, n, err);

	if (!ret && !p.nr) {
		buf_addf(err, "nothing to read in '%s'", n ? paths[0] : "");
		ret = -1;
	}
	if (!ret)
		qsort(p.v, p.nr, sizeof(*p.v), cmp_item);
	for (i = 0; !ret && i < p.nr; i++)
		ret = read_item(out, &p.v[i], &wrappers, err);
	if (!ret && !out->nr) {
		if (n == 1)
			buf_addf(err, "no autotune records in '%s'", paths[0]);
		else
			buf_addf(err, "no autotune records in the %zu inputs given", n);
		ret = -1;
	}
	finish(out);
	output_code_cache_release(&wrappers);
	plan_release(&p);
	return ret;
}
