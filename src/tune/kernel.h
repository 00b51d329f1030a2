/*
 * struct tune_kernel: what tko tune knows about one kernel before it plans
 * a sweep: its name and source file, its kind (pointwise, reduction,
 * persistent reduction, template, hand-written), its arguments with their
 * Triton types and specialisation hints, Inductor's size hints and grid
 * type, and a template's block sizes.
 *
 * Input: one kernel parse/triton_meta.h read from the source: the
 * function's parameters, the arguments of its Inductor heuristics
 * decorator (triton_meta, inductor_meta, size_hints) and the
 * `NAME : tl.constexpr = N` lines of its body. A hand-written kernel has no
 * such decorator: its argument types come from a signature the caller
 * gives (tune_kernel_set_signature) or from its capture.
 *
 * Entry points: tune_kernel_from_meta(), tune_kernel_release().
 */
#ifndef TKO_TUNE_KERNEL_H
#define TKO_TUNE_KERNEL_H

#include <jansson.h>
#include <stddef.h>

#include "model/capture.h"
#include "model/names.h"
#include "parse/triton_meta.h"
#include "util/buf.h"

/* model/names.h's tune classes, under tune's names. */
enum tune_kind {
	TUNE_KIND_POINTWISE = KIND_TUNE_POINTWISE,
	TUNE_KIND_REDUCTION = KIND_TUNE_REDUCTION,
	TUNE_KIND_PERSISTENT = KIND_TUNE_PERSISTENT,	/* R0_BLOCK fixed in the body */
	TUNE_KIND_TEMPLATE = KIND_TUNE_TEMPLATE,	/* mm/conv templates: block sizes in the body */
	TUNE_KIND_USER = KIND_TUNE_USER,		/* a hand-written @triton.jit kernel */
	TUNE_KIND_FOREACH = KIND_TUNE_FOREACH,		/* block sizes fixed in the body */
	TUNE_KIND_SPLIT_SCAN = KIND_TUNE_SPLIT_SCAN,	/* block sizes kept (kindplan.h says why) */
	TUNE_KIND_FIXED = KIND_TUNE_FIXED,		/* fixed_config: block sizes kept */
	TUNE_KIND_OTHER = KIND_TUNE_OTHER,		/* a heuristic tko does not know: not tuned */
};

/* Inductor's tiling dimensions, in size_hints order. */
enum tune_dim { TUNE_DIM_X, TUNE_DIM_Y, TUNE_DIM_Z, TUNE_DIM_R0, TUNE_DIM_R1, TUNE_NDIMS };

struct tune_arg {
	char *name;		/* the parameter's name */
	char *type;		/* Triton signature type: "*bf16", "i32", "fp32", "constexpr" */
	int divisibility;	/* tt.divisibility from triton_meta's configs (0: none) */
	int pointer_range;	/* tt.pointer_range from triton_meta's configs (0: none) */
};

struct tune_kernel {
	char *name;			/* the @triton.jit function's name */
	char *source;			/* the file it is in */
	enum tune_kind kind;		/* from the heuristics decorator */
	char *heuristic;		/* the decorator's name ("pointwise"), or NULL */
	struct tune_arg *args;		/* parameters, in order */
	size_t nargs, alloc;
	json_t *constants;		/* triton_meta "constants" (owned; {} when none) */
	long size_hint[TUNE_NDIMS];	/* Inductor size_hints per dim, 0 when absent */
	json_t *body_consts;		/* NAME : tl.constexpr = N lines of the body (owned) */
	char *grid_type;		/* inductor_meta grid_type ("Grid1D"), or NULL */
	json_t *mutated;		/* inductor_meta mutated_arg_names (owned; [] when none) */
	double num_gb;			/* inductor_meta kernel_num_gb, or -1 */
	int num_warps, num_stages;	/* a template decorator's values, 0 when absent */
	int fp_fusion;			/* triton_meta enable_fp_fusion: 1, 0, or -1 unknown */
	int assert_indexing;		/* inductor_meta assert_indirect_indexing: 1, 0, or -1 absent */
	int launch_pdl;			/* triton_meta launch_pdl is True (CUDA launch option) */
	int disable_ftz;		/* triton_meta disable_ftz is True: no libdevice flush-to-zero */
	long tmpl_dims[3];		/* a template's M, N, K from its body (`M = 2048`), 0 unknown */
	int even_k;			/* a template's EVEN_K is True: BLOCK_K must divide K */
	long def_line, end_line;	/* first line (decorators) and last line of the function */
	int two_pass;			/* an online softmax rewrite_two_pass applies to */
};

void tune_kernel_init(struct tune_kernel *k);
void tune_kernel_release(struct tune_kernel *k);

/*
 * Fills `k` (initialised) from the kernel `mk` of `source`: its def's
 * parameters, the last decorator called with arguments other than
 * @triton.jit (its kind by model/names.h, its triton_meta, size_hints,
 * inductor_meta), the hints of triton_meta's first config and the body's
 * constexprs.
 */
void tune_kernel_from_meta(const struct meta_kernel *mk, const char *source,
			   struct tune_kernel *k);

/*
 * Sets argument types from "name=type,name=type" (a hand-written kernel's
 * signature, e.g. "x_ptr=*fp32,n=i32:16"); parameters annotated
 * tl.constexpr need no entry. ":N" gives the argument tt.divisibility=N,
 * as Triton's JIT does for an integer divisible by 16. Pointer arguments
 * get tt.divisibility=16, as the JIT gives a 16-byte aligned tensor.
 * Returns 0 or -1 with a line in err.
 */
int tune_kernel_set_signature(struct tune_kernel *k, const char *spec,
			      struct buf *err);

/*
 * A hand-written kernel's argument types and constexpr values from the
 * "args" of its capture.json, specialised as Triton's JIT does it: a
 * tensor whose start is 16-byte aligned and an integer that is a multiple
 * of 16 get tt.divisibility=16; constexpr arguments become constants.
 */
void tune_kernel_from_capture(struct tune_kernel *k, const struct capture_doc *cap);

/*
 * Calls fn(ctx, item, err) for each comma-separated item of `list` (a
 * --signature or --config value); stops at the first that returns < 0.
 * Returns 0 or -1.
 */
int tune_each_item(const char *list, int (*fn)(void *ctx, const char *item, struct buf *err),
		   void *ctx, struct buf *err);

/* The argument named `name`, or NULL. */
const struct tune_arg *tune_kernel_arg(const struct tune_kernel *k, const char *name);
/* 1 when the argument's type is a pointer ("*..."). */
int tune_arg_is_ptr(const struct tune_arg *a);

/* "pointwise", "reduction", ... */
const char *tune_kind_name(enum tune_kind kind);
/* The block constexpr of a dim ("XBLOCK", "R0_BLOCK") and its size_hints key ("x", "r0_"). */
const char *tune_dim_block(enum tune_dim d);
const char *tune_dim_hint(enum tune_dim d);

#endif
