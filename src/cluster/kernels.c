/*
 * A RUN's kernel directories, sorted (kernels.h). rundir/layout lists them
 * and decides what is inside the RUN; here only those with a kernel.py
 * (a folder a capture left without one has nothing to tune) are kept.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/kernels.h"
#include "rundir/layout.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

int cluster_run_kernels(const char *run, struct strlist *out, struct buf *err)
{
	char *kdir = rd_part(run, RD_KERNELS_DIR, err);
	struct strlist dirs = STRLIST_INIT;
	size_t i, before = out->nr;

	if (!kdir) {
		if (!err->len)
			buf_addf(err, "'%s' has no capture/kernels/ folder to read", run);
		return -1;
	}
	rd_kernel_dirs(run, &dirs);
	for (i = 0; i < dirs.nr; i++) {
		char *kpy = rd_kernel_path(dirs.v[i], RD_K_KERNEL_PY);

		if (is_file(kpy))
			strlist_push(out, xstrdup(dirs.v[i]));
		free(kpy);
	}
	walk_release(&dirs);
	if (out->nr == before)
		buf_addf(err, "'%s' holds no kernel directory (a folder with kernel.py)", kdir);
	free(kdir);
	return out->nr == before ? -1 : 0;
}
