/*
 * inductor_wrapper: TorchInductor's wrapper ("output code") modules, the
 * files that launch a compiled graph's kernels. Each kernel appears there
 * as
 *
 *	# kernel path: /tmp/w/cache/inductor/d6/cd6tammr....py
 *	# Topologically Sorted Source Nodes: [out], Original ATen: [aten.zeros]
 *	# Source node to ATen node mapping:
 *	#   out => full_default
 *	# Graph fragment:
 *	#   %full_default : Tensor ... = call_function[target=torch.ops.aten.full.default](...)
 *	triton_poi_fused_zeros_0 = async_compile.triton('triton_poi_fused_zeros_0', '''
 *	<the kernel module's source>
 *	''', device_str='cuda')
 *
 * (corpus/h200-run1/cache/inductor/2y/c2y7l3....py; older PyTorch wrote
 * "# Source Nodes: [...]" instead of "Topologically Sorted Source Nodes").
 * This module finds those blocks and turns their comments into the ATen
 * attribution of the kernel, keeping the embedded source so the kernel can
 * still be read when its own file is gone.
 */
#ifndef TKO_INDUCTOR_WRAPPER_H
#define TKO_INDUCTOR_WRAPPER_H

#include <stddef.h>
#include <jansson.h>

#include "parse/pylit.h"
#include "parse/pysrc.h"
#include "util/buf.h"

/* One async_compile.triton(...) block. */
struct wrapped_kernel {
	char *name;		/* the kernel's name, its first argument */
	char *wrapper;		/* the wrapper file */
	size_t line;		/* line of the statement in the wrapper */
	size_t source_line;	/* wrapper line holding the source string's first line */
	char *kernel_path;	/* from "# kernel path:", or NULL */
	struct pylit *call;	/* the parsed call; call->items[1] holds the decoded source */
	json_t *aten;		/* the attribution (docs/json.md "aten"), never NULL */
	char *resolved;		/* the kernel file it was matched to, or NULL (set by meta.c) */
	size_t file;		/* the wrapper's index in its caller's file list (set by meta.c) */
};

struct wrapped_list {
	struct wrapped_kernel *v;
	size_t nr, alloc;
};
#define WRAPPED_LIST_INIT { NULL, 0, 0 }

/*
 * Appends the async_compile.triton blocks among the statements of `src`
 * (the module read from `path`) to `out`. Returns how many were found, or
 * -1 with one line in err when a block's call cannot be read.
 */
int wrapper_scan(struct wrapped_list *out, const char *path,
		 const struct pysrc *src, struct buf *err);

/* The embedded kernel source of a block (decoded), and its length. */
const char *wrapped_source(const struct wrapped_kernel *w, size_t *len);

void wrapped_list_release(struct wrapped_list *l);

#endif
