/*
 * A RUN's kernel directories, sorted (kernels.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/kernels.h"
#include "parse/runpath.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

int cluster_is_run(const char *dir)
{
	char *p = path_join(dir, "capture/kernels");
	int yes = is_dir(p);

	free(p);
	return yes;
}

/* RUN/capture/kernels/<name> when it is a kernel directory inside the RUN. */
static char *kernel_dir(const char *run, const char *name)
{
	char *rel = xstrfmt("capture/kernels/%s/kernel.py", name), *kpy;
	struct buf why = BUF_INIT;

	kpy = runpath_part(run, rel, &why);
	free(rel);
	buf_release(&why);
	if (!kpy || !is_file(kpy)) {
		free(kpy);
		return NULL;
	}
	free(kpy);
	kpy = path_join(run, "capture/kernels");
	rel = path_join(kpy, name);
	free(kpy);
	return rel;
}

int cluster_run_kernels(const char *run, struct strlist *out, struct buf *err)
{
	char *kdir = runpath_part(run, "capture/kernels", err);
	struct strlist names = STRLIST_INIT;
	DIR *d = kdir ? opendir(kdir) : NULL;
	struct dirent *e;
	size_t i, before = out->nr;

	if (!d) {
		if (!err->len)
			buf_addf(err, "'%s' has no capture/kernels/ folder to read", run);
		free(kdir);
		return -1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			strlist_push(&names, xstrdup(e->d_name));
	closedir(d);
	strlist_sort(&names);
	for (i = 0; i < names.nr; i++) {
		char *k = kernel_dir(run, names.v[i]);

		if (k)
			strlist_push(out, k);
	}
	walk_release(&names);
	if (out->nr == before)
		buf_addf(err, "'%s' holds no kernel directory (a folder with kernel.py)", kdir);
	free(kdir);
	return out->nr == before ? -1 : 0;
}
