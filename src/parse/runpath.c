/* Local copies of logged paths, and RUN directory layout (see runpath.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/runpath.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

const char *runpath_tail2(const char *path, size_t len)
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

char *runpath_resolve(const char *root, const char *path, size_t len)
{
	const char *tail = runpath_tail2(path, len);
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
		q = xstrfmt("%s/cache/inductor/%.*s", root, (int)(len - (size_t)(tail - path)), tail);
		if ((q = inside_or_free(root, q)))
			return q;
	}
	return inside_or_free(root, xstrndup(path, len));
}

int runpath_rel_ok(const char *rel)
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

char *runpath_part(const char *run, const char *rel, struct buf *why)
{
	char *p, *real;

	if (!runpath_rel_ok(rel)) {
		if (why)
			buf_addf(why, "'%s' is not a path inside the RUN; not read", rel);
		return NULL;
	}
	p = path_join(run, rel);
	if (access(p, F_OK) < 0) {
		free(p);
		return NULL;
	}
	real = realpath(run, NULL);
	if (!real || !path_within(real, p)) {
		if (why)
			buf_addf(why, "'%s' leads out of the RUN (a symbolic link); not read", p);
		free(p);
		p = NULL;
	}
	free(real);
	return p;
}

int runpath_is_run(const char *dir)
{
	static const char *const parts[] = {
		"log", "capture/events.jsonl", "capture/autotune.log",
		"cache/inductor", "tko-run.json",
	};
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]) && !found; i++) {
		char *p = path_join(dir, parts[i]);

		found = is_dir(p) || is_file(p);
		free(p);
	}
	return found;
}

static int has_cache(const char *dir)
{
	char *p = path_join(dir, "cache/inductor");
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

char *runpath_root_of(const char *file)
{
	char *dir = dir_of(file), *up;

	if (has_cache(dir))
		return dir;
	up = dir_of(dir);
	free(dir);
	if (has_cache(up))
		return up;
	free(up);
	return NULL;
}
