/* The RUN layout as one table, and the rules for reading and making a RUN (layout.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

const struct rd_part_info rd_parts[RD_NPARTS] = {
	[RD_MANIFEST] = { "tko-run.json", 0, 0 },
	[RD_ENV] = { "env.json", 0, 0 },
	[RD_LOG_DIR] = { "log", 1, 1 },
	[RD_MODEL_LOG] = { "log/model.log", 0, 0 },
	[RD_CAPTURE_DIR] = { "capture", 1, 1 },
	[RD_EVENTS] = { "capture/events.jsonl", 0, 0 },
	[RD_SEED_LOG] = { "capture/autotune.log", 0, 0 },
	[RD_KERNELS_DIR] = { "capture/kernels", 1, 1 },
	[RD_CACHE_DIR] = { "cache", 1, 1 },
	[RD_INDUCTOR_CACHE] = { "cache/inductor", 1, 1 },
	[RD_TRITON_CACHE] = { "cache/triton", 1, 1 },
	[RD_INDUCTOR_TRITON_CACHE] = { "cache/inductor/triton", 1, 0 },
	[RD_PROFILE_DIR] = { "profile", 1, 0 },
	[RD_ANALYSIS_DIR] = { "analysis", 1, 0 },
	[RD_KERNELS_JSON] = { "analysis/kernels.json", 0, 0 },
	[RD_SUMMARIZE_JSON] = { "analysis/summarize.json", 0, 0 },
	[RD_META_JSON] = { "analysis/meta.json", 0, 0 },
	[RD_ISA_JSON] = { "analysis/isa.json", 0, 0 },
	[RD_REPLAY_JSON] = { "analysis/replay.json", 0, 0 },
	[RD_REPORT_DIR] = { "report", 1, 0 },
	[RD_CLUSTER_DIR] = { "cluster", 1, 0 },
};

const char *const rd_kparts[RD_K_NPARTS] = {
	[RD_K_CAPTURE_JSON] = "capture.json",
	[RD_K_KERNEL_PY] = "kernel.py",
	[RD_K_INPUTS] = "inputs",
	[RD_K_TUNE_DIR] = "tune",
};

#define BIT(p) (1u << (p))
#define SUMMARIZE_PARTS (BIT(RD_LOG_DIR) | BIT(RD_EVENTS) | BIT(RD_SEED_LOG) | \
			 BIT(RD_INDUCTOR_CACHE) | BIT(RD_MANIFEST))

const struct rd_need rd_need_summarize = {
	SUMMARIZE_PARTS, NULL,
	"'%s' is a directory but not a RUN directory (no log/, capture/, cache/inductor/ or tko-run.json)",
};
const struct rd_need rd_need_analyse = {
	SUMMARIZE_PARTS | BIT(RD_TRITON_CACHE) | BIT(RD_ENV) | BIT(RD_PROFILE_DIR),
	"'%s' is not a directory",
	"'%s' is not a RUN directory (no log/, capture/, cache/inductor/ or cache/triton/)",
};
const struct rd_need rd_need_diff = {
	BIT(RD_CACHE_DIR) | BIT(RD_CAPTURE_DIR) | BIT(RD_LOG_DIR), NULL, NULL,
};
const struct rd_need rd_need_any_dir = { 0, "'%s' is not a RUN directory", NULL };
const struct rd_need rd_need_cluster = {
	BIT(RD_KERNELS_DIR), "'%s' is not a directory",
	"'%s' is not a RUN directory (no capture/kernels/)",
};

unsigned rd_probe(const char *dir)
{
	unsigned have = 0;
	int p;

	for (p = 0; p < RD_NPARTS; p++) {
		char *path = path_join(dir, rd_parts[p].rel);

		if (rd_parts[p].dir ? is_dir(path) : is_file(path))
			have |= BIT(p);
		free(path);
	}
	return have;
}

int rd_meets(unsigned have, const struct rd_need *need)
{
	return !need->parts || (have & need->parts);
}

int rd_open(struct rundir *rd, const char *dir, const struct rd_need *need, struct buf *err)
{
	unsigned have;

	*rd = (struct rundir)RUNDIR_INIT;
	if (!is_dir(dir)) {
		buf_addf(err, need->not_dir ? need->not_dir : "'%s' is not a directory", dir);
		return -1;
	}
	have = rd_probe(dir);
	if (!rd_meets(have, need)) {
		buf_addf(err, need->missing ? need->missing : "'%s' is not a RUN directory", dir);
		return -1;
	}
	rd->root = xstrdup(dir);
	rd->real = realpath(dir, NULL);
	rd->have = have;
	return 0;
}

void rd_release(struct rundir *rd)
{
	free(rd->root);
	free(rd->real);
	*rd = (struct rundir)RUNDIR_INIT;
}

char *rd_path_in(const char *root, enum rd_part p)
{
	return path_join(root, rd_parts[p].rel);
}

char *rd_path(const struct rundir *rd, enum rd_part p)
{
	return rd_path_in(rd->root, p);
}

char *rd_kernel_path(const char *kernel_dir, enum rd_kpart p)
{
	return path_join(kernel_dir, rd_kparts[p]);
}

char *rd_kernel_beside(const char *part_path, enum rd_kpart p)
{
	char *dir = xstrdup(part_path), *slash = strrchr(dir, '/'), *ret;

	if (slash)
		*slash = '\0';
	ret = rd_kernel_path(slash ? dir : ".", p);
	free(dir);
	return ret;
}

char *rd_kernel_tune_doc(const char *kernel_dir, const char *target)
{
	return xstrfmt("%s/%s/%s/%s", kernel_dir, rd_kparts[RD_K_TUNE_DIR], target, RD_TUNE_DOC);
}

int rd_rel_ok(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return 0;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!slash)
			return 1;
		p = slash + 1;
	}
}

char *rd_inside(const char *root, const char *rel, struct buf *why)
{
	char *p, *real;

	if (!rd_rel_ok(rel)) {
		if (why)
			buf_addf(why, "'%s' is not a path inside the RUN; not read", rel);
		return NULL;
	}
	p = path_join(root, rel);
	if (access(p, F_OK) < 0) {
		free(p);
		return NULL;
	}
	real = realpath(root, NULL);
	if (!real || !path_within(real, p)) {
		if (why)
			buf_addf(why, "'%s' leads out of the RUN (a symbolic link); not read", p);
		free(p);
		p = NULL;
	}
	free(real);
	return p;
}

char *rd_part(const char *root, enum rd_part p, struct buf *why)
{
	return rd_inside(root, rd_parts[p].rel, why);
}

int rd_walk(const char *root, const char *path, struct strlist *out, struct buf *err)
{
	char *real = realpath(root, NULL);
	int ret;

	if (!real || !path_within(real, path)) {
		buf_addf(err, "'%s' leads out of '%s' (a symbolic link); not read", path, root);
		ret = -1;
	} else {
		ret = walk_files_below(path, real, out, err);
	}
	free(real);
	return ret;
}

int rd_mkdir(const char *root, enum rd_part p, char ***made, size_t *nmade, struct buf *err)
{
	return mkdir_in(root, rd_parts[p].rel, made, nmade, err);
}

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
	char *log = rd_path_in(run, RD_LOG_DIR), *parent = parent_dir(run);
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

int rd_create(const char *run, struct buf *err)
{
	int p;

	if (claim(run, err) < 0)
		return -1;
	for (p = 0; p < RD_NPARTS; p++) {
		char *path;
		int ret;

		if (!rd_parts[p].skeleton)
			continue;
		path = rd_path_in(run, p);
		ret = mkdir_p(path, err);
		free(path);
		if (ret < 0)
			return -1;
	}
	return 0;
}

char *rd_default_name(time_t t)
{
	struct tm tm;
	char s[64];

	localtime_r(&t, &tm);
	strftime(s, sizeof(s), "tko-run-%Y%m%d-%H%M%S", &tm);
	return xstrdup(s);
}

char *rd_make_default(time_t t, struct buf *err)
{
	char *base = rd_default_name(t);
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

void rd_iso_time(time_t t, char *out, size_t n)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

size_t rd_kernel_dirs(const char *root, struct strlist *out)
{
	char *kernels = rd_part(root, RD_KERNELS_DIR, NULL);
	char *real = realpath(root, NULL);
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

/* The directory part of `path` (a new string; "" becomes "/"). */
static char *dir_part(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* RUN of the path RUN/capture/kernels/<name>, read as a string; NULL when it is not one. */
static char *run_above(const char *dir)
{
	const char *kernels_rel = rd_parts[RD_KERNELS_DIR].rel;
	size_t n = strlen(dir), k = strlen(kernels_rel);
	char *trimmed, *kernels, *run = NULL;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	trimmed = xstrndup(dir, n);
	kernels = dir_part(trimmed);
	n = strlen(kernels);
	if (n > k && kernels[n - k - 1] == '/' && !strcmp(kernels + n - k, kernels_rel))
		run = n - k - 1 ? xstrndup(kernels, n - k - 1) : xstrdup("/");
	free(kernels);
	free(trimmed);
	return run;
}

/* RUN of RUN/capture/kernels/<name> both as named and as really placed, or NULL. */
static char *run_of_dir(const char *dir)
{
	char *real = realpath(dir, NULL), *phys = real ? run_above(real) : NULL;
	char cwd[4096], *abs = NULL, *named = NULL, *named_real = NULL;

	if (dir[0] == '/')
		abs = xstrdup(dir);
	else if (getcwd(cwd, sizeof(cwd)))
		abs = path_join(cwd, dir);
	if (abs && (named = run_above(abs)))
		named_real = realpath(named, NULL);
	if (!phys || !named_real || strcmp(phys, named_real)) {
		free(phys);
		phys = NULL;
	}
	free(real);
	free(abs);
	free(named);
	free(named_real);
	return phys;
}

char *rd_run_of_kernel_dirs(const struct strlist *dirs)
{
	char *run = NULL, *other;
	size_t i;

	for (i = 0; i < dirs->nr; i++) {
		other = run_of_dir(dirs->v[i]);
		if (!other || (run && strcmp(run, other))) {
			free(other);
			free(run);
			return NULL;
		}
		free(run);
		run = other;
	}
	return run;
}

const char *rd_tail2(const char *path, size_t len)
{
	size_t i = len, slashes = 0;

	while (i > 0) {
		if (path[i - 1] == '/' && ++slashes == 2)
			return path + i;
		i--;
	}
	return path;
}

/* `p` when it is a file whose real location is inside `root`; frees it otherwise. */
static char *inside_or_free(const char *root, char *p)
{
	char *real = realpath(root, NULL);
	int ok = real && is_file(p) && path_within(real, p);

	free(real);
	if (ok)
		return p;
	free(p);
	return NULL;
}

char *rd_resolve_logged(const char *root, const char *path, size_t len)
{
	const char *tail = rd_tail2(path, len);
	char *q;

	if (!root) {
		q = xstrndup(path, len);
		if (is_file(q))
			return q;
		free(q);
		return NULL;
	}
	/* The RUN's own copy first; the logged path only when it is inside the RUN too. */
	if (tail != path) {
		q = xstrfmt("%s/%s/%.*s", root, rd_parts[RD_INDUCTOR_CACHE].rel,
			    (int)(len - (size_t)(tail - path)), tail);
		if ((q = inside_or_free(root, q)))
			return q;
	}
	return inside_or_free(root, xstrndup(path, len));
}

static int has_inductor_cache(const char *dir)
{
	char *p = rd_path_in(dir, RD_INDUCTOR_CACHE);
	int yes = is_dir(p);

	free(p);
	return yes;
}

/* The directory holding `path`; ".." steps are kept literal, not resolved. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	if (!strcmp(base, ".") || !strcmp(base, ".."))
		return path_join(path, "..");
	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

char *rd_root_of_file(const char *file)
{
	char *dir = dir_of(file), *up;

	if (has_inductor_cache(dir))
		return dir;
	up = dir_of(dir);
	free(dir);
	if (has_inductor_cache(up))
		return up;
	free(up);
	return NULL;
}

char *rd_triton_cache_for(const char *inductor_file)
{
	/*
	 * From <inductor cache>/<xx>/: up two to the folder holding
	 * cache/inductor, whose cache/triton is the RUN's; else Inductor's own
	 * <inductor cache>/triton/0.
	 */
	static const char *const rel[] = { "../../triton", "../triton/0" };
	const char *slash = strrchr(inductor_file, '/');
	int len = slash ? (int)(slash - inductor_file) : 1;
	const char *dir = slash ? inductor_file : ".";
	size_t i;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char *t = xstrfmt("%.*s/%s", len, dir, rel[i]);

		if (is_dir(t))
			return t;
		free(t);
	}
	return NULL;
}

char *rd_module_key(const char *path)
{
	const char *b = path_base(path);
	size_t n = strlen(b);

	if (n > 3 && !strcmp(b + n - 3, ".py"))
		n -= 3;
	return xstrndup(b, n);
}
