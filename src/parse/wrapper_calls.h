/*
 * wrapper_calls: what a TorchInductor wrapper (output code) module
 * launches when its graph runs. Outside the kernel sources (which are
 * string literals there), a launch reads `<kernel>.run(...)` and a
 * library call `extern_kernels.<op>(...)`:
 *
 *	triton_per_fused_native_layer_norm_native_layer_norm_backward_view_7.run(buf13, buf14, 1024, 32, stream=stream0)
 *	extern_kernels.mm(reinterpret_tensor(buf1, (1024, 4096), (1, 1024), 0), view_2, out=buf3)
 *
 * (corpus/h200-run1/cache/inductor/l3/cl3rax....py, which launches that
 * layer-norm kernel twice per call). Each call site is one launch per
 * call of the compiled graph; a loop around one would not be seen, and
 * Inductor does not emit such loops for Triton kernels.
 *
 * Entry point: wrapper_calls_scan().
 */
#ifndef TKO_PARSE_WRAPPER_CALLS_H
#define TKO_PARSE_WRAPPER_CALLS_H

#include <stddef.h>

#include "util/strmap.h"

struct wcall {
	char *name;	/* the kernel's name, or "extern_kernels.mm" */
	size_t line;	/* line of the call */
	int library;	/* an extern_kernels call, not a Triton kernel */
	char **args;	/* the arguments' text: positional first ("buf0", "1280000"), then keyword values */
	size_t nargs;	/* all of them */
	size_t npos;	/* the positional ones */
};

struct wcall_list {
	struct wcall *v;
	size_t nr, alloc;
};
#define WCALL_LIST_INIT { NULL, 0, 0 }

/*
 * Appends the call sites of s[0..n) to out: `<name>.run(` for every name
 * in `kernels` (the module's async_compile.triton block names; a map with
 * any values) and `extern_kernels.<op>(`. Returns how many were added.
 */
size_t wrapper_calls_scan(struct wcall_list *out, const char *s, size_t n,
			  const struct strmap *kernels);

void wcall_list_release(struct wcall_list *l);

/*
 * The first call after l->v[i] whose arguments name `buf` as a whole
 * word (a buffer passed on, or viewed with reinterpret_tensor), or NULL.
 */
const struct wcall *wcall_next_use(const struct wcall_list *l, size_t i, const char *buf);

#endif
