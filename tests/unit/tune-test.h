/*
 * Helpers for the tune module's unit tests: building a struct tune_kernel
 * by hand, argument by argument, as tune_kernel_from_meta() would.
 */
#ifndef TKO_TEST_TUNE_H
#define TKO_TEST_TUNE_H

#include <string.h>

#include "tune/kernel.h"
#include "util/mem.h"

/* Appends argument `name` of Triton type `type` to k. */
static inline void add_arg(struct tune_kernel *k, const char *name, const char *type)
{
	ALLOC_GROW(k->args, k->nargs + 1, k->alloc);
	memset(&k->args[k->nargs], 0, sizeof(k->args[0]));
	k->args[k->nargs].name = xstrdup(name);
	k->args[k->nargs].type = xstrdup(type);
	k->nargs++;
}

#endif
