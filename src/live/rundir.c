/* RUN directory skeleton and capture summary (see rundir.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live/rundir.h"
#include "parse/runpath.h"
#include "util/file.h"
#include "util/jsonio.h"
#include "util/lines.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

const char *const rundir_skeleton[] = {
	"log", "capture", "capture/kernels", "cache", "cache/inductor", "cache/triton", NULL,
};

static int dir_is_empty(const char *path, struct buf *err)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d) {
		buf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/* The folder `path` is in ("." for a bare name), newly allocated. */
static char *parent_dir(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n && path[n - 1] != '/')
		n--;
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n ? xstrndup(path, n) : xstrdup(".");
}

/*
 * Claims `run` for this capture. mkdir() succeeds for one caller only, so
 * of several captures given the same --out exactly one gets it: the RUN
 * itself when it is new, its log/ folder when it is an empty folder made
 * beforehand (a check for emptiness alone would let two captures share it).
 */
static int claim(const char *run, struct buf *err)
{
	char *log = path_join(run, "log"), *parent = parent_dir(run);
	int ret = -1, empty;

	if (mkdir(run, 0777) < 0 && errno == ENOENT) {
		struct buf ignore = BUF_INIT;

		mkdir_p(parent, &ignore);
		buf_release(&ignore);
		mkdir(run, 0777);
	}
	if (!is_dir(run) && access(run, F_OK) < 0) {
		buf_addf(err, "cannot create directory '%s': %s", run, strerror(errno));
		goto out;
	}
	if (!is_dir(run)) {
		buf_addf(err, "'%s' exists and is not a directory", run);
		goto out;
	}
	if ((empty = dir_is_empty(run, err)) < 0)
		goto out;
	if (!empty || mkdir(log, 0777) < 0) {
		if (empty && errno != EEXIST)
			buf_addf(err, "cannot create directory '%s': %s", log, strerror(errno));
		else
			buf_addf(err, "'%s' already exists and is not empty (choose another --out)", run);
		goto out;
	}
	ret = 0;
out:
	free(log);
	free(parent);
	return ret;
}

int rundir_create(const char *run, struct buf *err)
{
	size_t i;

	if (claim(run, err) < 0)
		return -1;
	for (i = 0; rundir_skeleton[i]; i++) {
		char *p = path_join(run, rundir_skeleton[i]);
		int ret = mkdir_p(p, err);

		free(p);
		if (ret < 0)
			return -1;
	}
	return 0;
}

char *rundir_default_name(time_t t)
{
	struct tm tm;
	char s[64];

	localtime_r(&t, &tm);
	strftime(s, sizeof(s), "tko-run-%Y%m%d-%H%M%S", &tm);
	return xstrdup(s);
}

char *rundir_make_default(time_t t, struct buf *err)
{
	char *base = rundir_default_name(t);
	int i;

	for (i = 1; i <= 1000; i++) {
		char *name = i == 1 ? xstrdup(base) : xstrfmt("%s-%d", base, i);

		if (mkdir(name, 0777) == 0) {
			free(base);
			return name;
		}
		if (errno != EEXIST) {
			buf_addf(err, "cannot create directory '%s': %s", name, strerror(errno));
			free(name);
			break;
		}
		free(name);
	}
	if (i > 1000)
		buf_addf(err, "'%s' and its next 999 numbered names all exist", base);
	free(base);
	return NULL;
}

void rundir_iso_time(time_t t, char *out, size_t n)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

size_t rundir_kernel_dirs(const char *run, struct strlist *out)
{
	char *kernels = runpath_part(run, "capture/kernels", NULL);
	char *real = realpath(run, NULL);
	DIR *d = kernels && real ? opendir(kernels) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')	/* ., .., and .tmp-* dirs being written */
			continue;
		p = path_join(kernels, e->d_name);
		if (is_dir(p) && path_within(real, p))	/* not a link out of the RUN */
			strlist_push(out, p);	/* owned: walk_release */
		else
			free(p);
	}
	if (d)
		closedir(d);
	free(kernels);
	free(real);
	strlist_sort(out);
	return out->nr;
}

static long count_dirs(const char *run)
{
	struct strlist dirs = STRLIST_INIT;
	long n = (long)rundir_kernel_dirs(run, &dirs);

	walk_release(&dirs);
	return n;
}

json_t *rundir_capture_summary(const char *run)
{
	char *events = path_join(run, "capture/events.jsonl");
	json_t *sum = json_object(), *by = json_object();
	struct mapped_file m;
	struct buf err = BUF_INIT;
	long total = 0, bad = 0;

	if (!file_map(events, 0, &m, &err)) {
		struct lines it = LINES_INIT(m.data, m.len);
		const char *s;
		size_t n;

		while (lines_next(&it, &s, &n)) {
			json_t *e = n ? json_loadb(s, n, 0, NULL) : NULL;
			const char *type = json_str(e, "event");

			if (!type) {
				bad += n > 0;
			} else {
				total++;
				json_set_int(by, type, json_int(by, type, 0) + 1);
			}
			json_decref(e);
		}
		file_unmap(&m);
	}
	json_set_int(sum, "events", total);
	json_set_int(sum, "errors", json_int(by, "error", 0));
	json_set_int(sum, "kernel_dirs", count_dirs(run));
	json_set_int(sum, "unreadable_lines", bad);
	json_set_new(sum, "by_type", by);
	buf_release(&err);
	free(events);
	return sum;
}
