/*
 * The files around one Inductor kernel module that `tko collect` gathers
 * with it (collect.h):
 *
 * - the wrapper (output code) modules that launch it: a module of the
 *   Inductor cache that compiles the kernel (async_compile.triton('NAME', ...))
 *   and names the module in its "# kernel path: ..." comment;
 * - its .best_config records: Inductor writes them beside the kernel module,
 *   named by a hash of the autotune key (corpus/h200-run1 4o/cfdc6500...
 *   beside 4o/c4ozvdwl...py); one belongs to the kernel when its
 *   "triton_cache_hash" is one of the kernel's Triton cache entries, or when
 *   it records none and the module is the only .py in that folder. The
 *   older "<module>.best_config" form is copied with the module itself.
 *
 * Both return paths in a strlist the caller releases (strings owned).
 */
#ifndef TKO_LIVE_COLLECT_RELATED_H
#define TKO_LIVE_COLLECT_RELATED_H

#include "util/buf.h"
#include "util/opts.h"

/*
 * The wrapper modules under run/cache/inductor launching kernel `name`
 * from `module`; `unique` accepts a wrapper without "# kernel path"
 * comments when only one module defines the name. 0 or -1 + err.
 */
int collect_wrappers(const char *run, const char *name, const char *module, int unique,
		     struct strlist *out, struct buf *err);

/* The .best_config records beside `module` that belong to it (hashes: its Triton entries). */
void collect_best_configs(const char *module, const struct strlist *hashes,
			  struct strlist *out);

/* Frees the strings of a strlist these functions filled, and the list. */
void collect_paths_release(struct strlist *l);

#endif
