/*
 * A scanned Triton cache as rundir/cachematch's entries (tcache.h): the
 * facts it matches on come from the scan, the policy is cachematch's.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse/tcache.h"
#include "rundir/layout.h"
#include "target/target.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* The kernel module among the file's sources: a .py outside site-packages. */
static char *module_key_of(const struct isa_file_result *f)
{
	size_t i;

	for (i = 0; i < f->srcfiles_nr; i++) {
		const char *p = f->srcfiles[i], *b = path_base(p);
		size_t n = strlen(b);

		if (n > 3 && !strcmp(b + n - 3, ".py") && !strstr(p, "-packages/"))
			return rd_module_key(b);
	}
	return NULL;
}

static char *dir_name_of(const char *path)
{
	const char *slash = strrchr(path, '/'), *start;

	if (!slash)
		return xstrdup(".");
	start = slash;
	while (start > path && start[-1] != '/')
		start--;
	return xstrndup(start, (size_t)(slash - start));
}

static long res(const struct isa_kernel *k, enum isa_res r)
{
	return k->res[r].src == ISA_SRC_NONE ? -1 : (long)k->res[r].value;
}

/* The entries for rd_cache_pick(), once v no longer moves. */
static void describe(struct tcache *tc)
{
	size_t i;

	ALLOC_GROW(tc->c, tc->nr, tc->calloc);
	for (i = 0; i < tc->nr; i++) {
		const struct tc_entry *e = &tc->v[i];

		tc->c[i] = (struct rd_centry){ e->kernel->name, e->cache_dir, e->module_key, e->arch,
					       res(e->kernel, ISA_RES_NUM_WARPS),
					       res(e->kernel, ISA_RES_NUM_STAGES), e };
	}
}

void tcache_build(struct tcache *tc, const struct isa_result *res)
{
	size_t i, j;

	for (i = 0; i < res->files_nr; i++) {
		const struct isa_file_result *f = res->files[i];

		for (j = 0; j < f->kernels_nr; j++) {
			struct tc_entry *e;

			if (!f->kernels[j]->is_kernel)
				continue;
			ALLOC_GROW(tc->v, tc->nr + 1, tc->alloc);
			e = &tc->v[tc->nr++];
			e->file = f;
			e->kernel = f->kernels[j];
			e->cache_dir = dir_name_of(f->path);
			e->module_key = module_key_of(f);
			e->arch = e->kernel->arch ? target_norm_dup(e->kernel->arch, strlen(e->kernel->arch)) : NULL;
		}
	}
	describe(tc);
}

void tcache_release(struct tcache *tc)
{
	size_t i;

	for (i = 0; i < tc->nr; i++) {
		free(tc->v[i].cache_dir);
		free(tc->v[i].module_key);
		free(tc->v[i].arch);
	}
	free(tc->v);
	free(tc->c);
	*tc = (struct tcache)TCACHE_INIT;
}
