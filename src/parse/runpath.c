/* Local copies of logged paths, and RUN directory layout (see runpath.h). */
#include <stdlib.h>
#include <string.h>

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

char *runpath_resolve(const char *root, const char *path, size_t len)
{
	char *p = xstrndup(path, len), *q;
	const char *tail;

	if (is_file(p))
		return p;
	free(p);
	tail = runpath_tail2(path, len);
	if (!root || tail == path)
		return NULL;
	q = xstrfmt("%s/cache/inductor/%.*s", root, (int)(len - (size_t)(tail - path)),
		    tail);
	if (is_file(q))
		return q;
	free(q);
	return NULL;
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
