/*
 * Inductor's output ("wrapper") modules, read for one fact: which file
 * each kernel's source lives in. The log names the module ("Output code
 * written to: <cache>/te/cte....py", graph.py); inside, every kernel is
 * introduced by
 *
 *	# kernel path: /tmp/w/cache/inductor/sk/csk....py
 *	...
 *	triton_poi_fused_add_gelu_mul_view_1 = async_compile.triton('triton_poi_fused_add_gelu_mul_view_1', '''
 *
 * (corpus/h200-run1/cache/inductor/te/cteuwjnf....py). Only those two line
 * shapes at column 0 are read; the kernel sources between them are not.
 */
#ifndef TKO_PARSE_OUTPUT_CODE_H
#define TKO_PARSE_OUTPUT_CODE_H

#include <stddef.h>

#include "parse/autotune.h"

struct oc_kernel {
	char *name;		/* the kernel's name */
	char *path;		/* its "# kernel path:" as written */
	size_t line;		/* the line of that comment */
};

struct oc_module {
	char *logged;		/* the module's path as the log printed it */
	unsigned input;		/* its index in set->inputs, when it was read */
	int found;		/* 1 when a local copy was read */
	struct oc_kernel *k;	/* its kernels, in file order */
	size_t nr, alloc;
};

/* Modules already read in this run, so a log naming one often reads it once. */
struct output_code_cache {
	struct oc_module **m;
	size_t nr, alloc;
};

/* Appends the kernels of a module's text to m; returns its number of lines. */
size_t output_code_scan(struct oc_module *m, const char *data, size_t len);

/*
 * The module a log line names (path[0..len)): looked up in the cache, else
 * found with rd_resolve_logged(root, ...), read, registered as an input of
 * `set` and cached. A module that is not on this machine is cached with
 * found = 0 and no kernels.
 */
const struct oc_module *output_code_get(struct output_code_cache *c,
					struct autotune_set *set,
					const char *root, const char *path,
					size_t len);

void output_code_cache_release(struct output_code_cache *c);

#endif
