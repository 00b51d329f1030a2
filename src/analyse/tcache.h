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
 * Entry point: tcache_build(); tcache_match() picks the entry a kernel
 * ran with (see there).
 */
#ifndef TKO_ANALYSE_TCACHE_H
#define TKO_ANALYSE_TCACHE_H

#include <stddef.h>

#include "isa/isa.h"

struct tc_entry {
	const struct isa_file_result *file;	/* borrowed from the isa_result */
	const struct isa_kernel *kernel;	/* borrowed */
	char *cache_dir;	/* the directory name holding the file */
	char *module_key;	/* the module's basename without ".py", or NULL */
	char *arch;		/* the kernel's arch without feature suffix ("sm_90a" -> "sm_90") */
};

struct tcache {
	struct tc_entry *v;
	size_t nr, alloc;
};
#define TCACHE_INIT { NULL, 0, 0 }

void tcache_build(struct tcache *tc, const struct isa_result *res);
void tcache_release(struct tcache *tc);

/* What is known about the kernel whose binary is wanted. */
struct tc_query {
	const char *name;	/* the Triton function name */
	const char *arch;	/* normalised arch it ran on, or NULL: any */
	const char *cache_hash;	/* the chosen config's cache entry, or NULL */
	const char *module_key;	/* its module's basename without ".py", or NULL */
	long num_warps;		/* the chosen config's, -1 unknown */
	long num_stages;	/* -1 unknown */
	/* decides whether another module is the same source (whitespace aside); may be NULL */
	int (*same_source)(void *data, const char *other_module_key);
	void *data;		/* passed to same_source */
};

struct tc_match {
	const struct tc_entry *entry;	/* the one, or NULL */
	const char *how;	/* cache_hash, module, module+warps/stages, same_source, ambiguous, none */
	size_t candidates;	/* entries of that module (or name) for that arch */
};

/*
 * Finds the entry: by cache hash; else the entries compiled from the
 * same module for the arch, narrowed by num_warps/num_stages when there
 * are several; else entries of the same name whose module is the same
 * source. Several left means "ambiguous" and no entry.
 */
void tcache_match(const struct tcache *tc, const struct tc_query *q, struct tc_match *m);

#endif
