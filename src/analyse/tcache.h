/*
 * tcache: the compiled kernels of a Triton cache, indexed for joining.
 * Input: an isa_result from scanning RUN/cache/triton (isa.h). Each
 * kernel symbol becomes an entry keyed by its cache directory (Triton's
 * cache key, which Inductor's launchers call cache_hash and .best_config
 * records as triton_cache_hash), its name, its arch, and the Python
 * module it was compiled from: the first .py source file its line table
 * names (PTX `.file 1 "/tmp/w/cache/inductor/4o/c4oz....py"`), whose
 * basename is the kernel module's name in the RUN's Inductor cache.
 *
 * Entry point: tcache_build(). Its entries are described for
 * rundir/cachematch.h (tc->c), whose rd_cache_pick() finds the entry a
 * kernel ran with; each rd_centry's data is its struct tc_entry.
 */
#ifndef TKO_ANALYSE_TCACHE_H
#define TKO_ANALYSE_TCACHE_H

#include <stddef.h>

#include "isa/isa.h"
#include "rundir/cachematch.h"

struct tc_entry {
	const struct isa_file_result *file;	/* borrowed from the isa_result */
	const struct isa_kernel *kernel;	/* borrowed */
	char *cache_dir;	/* the directory name holding the file */
	char *module_key;	/* the module's basename without ".py", or NULL */
	char *arch;		/* the kernel's arch without feature suffix ("sm_90a" -> "sm_90") */
};

struct tcache {
	struct tc_entry *v;
	struct rd_centry *c;	/* v[i] as rundir/cachematch sees it (data: &v[i]) */
	size_t nr, alloc, calloc;
};
#define TCACHE_INIT { NULL, NULL, 0, 0, 0 }

void tcache_build(struct tcache *tc, const struct isa_result *res);
void tcache_release(struct tcache *tc);


#endif
