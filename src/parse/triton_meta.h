/*
 * triton_meta: what one Triton kernel's source says about it, read without
 * running Python. Input: the text of one Python module, either a
 * TorchInductor kernel module (`@triton_heuristics.pointwise(...,
 * triton_meta={...}, inductor_meta={...})` over `@triton.jit def ...`) or a
 * hand-written file with any number of `@triton.jit` kernels, possibly
 * under `@triton.autotune(...)` and `@triton.heuristics(...)`.
 * Output: one struct meta_kernel per kernel:
 *   - name, kind (table `kinds` in triton_meta.c: pointwise, reduction,
 *     persistent_reduction, template, user_autotune, foreach, autotune,
 *     jit, ...), decorators with their lines;
 *   - the arguments in order, with the triton_meta signature type, the
 *     def's annotation and default, pointer / constexpr status, and the
 *     hints from triton_meta['configs'] (tt.divisibility, tt.equal_to_1,
 *     tt.pointer_range; also the older AttrsDescriptor forms);
 *   - the device (DeviceProperties: backend, arch, warp size, SM/CU count);
 *   - constexprs declared in the body (`R0_BLOCK: tl.constexpr = 1024`);
 *   - the uses of tl.load, store, atomic_*, assume, multiple_of, max_contiguous,
 *     where and dot with their lines, masks and pointer bases (tl_uses.h);
 *   - the address patterns of its loads and stores (tl_addr.h).
 * The decorator trees (struct pylit) stay attached, so callers reach any
 * other field through pylit_get(k->inductor_meta, "...").
 *
 * Entry point: triton_meta_scan(). Sets of files, directories and the
 * ATen attribution from wrapper modules live one level up, in meta.h.
 */
#ifndef TKO_TRITON_META_H
#define TKO_TRITON_META_H

#include <stddef.h>
#include <jansson.h>

#include "parse/pylit.h"
#include "parse/tl_addr.h"
#include "util/buf.h"

/* One hint on one argument, as Triton names it ("tt.divisibility", 16). */
struct meta_hint {
	char *name;		/* "tt.divisibility", "tt.pointer_range", "tt.equal_to_1", ... */
	long long value;	/* its value (16, 32, 1) */
};

struct meta_arg {
	char *name;		/* the parameter's name */
	char *type;		/* triton_meta signature type ("*fp32", "i32", "constexpr"), or NULL */
	char *annotation;	/* the def's annotation text ("tl.constexpr"), or NULL */
	char *default_text;	/* the def's default value text, or NULL */
	int pointer;		/* 1 pointer, 0 not, -1 unknown (no signature, never a load/store base) */
	int is_constexpr;	/* constexpr by signature, annotation or triton_meta['constants'] */
	const struct pylit *constant;	/* its value in triton_meta['constants'], or NULL */
	struct meta_hint *hints;	/* from triton_meta['configs'][0] */
	size_t nhints;
	unsigned loads, stores, atomics;	/* memory ops whose pointer starts from this argument */
};

/* A tl.* call in the body; the ops are the table in tl_uses.c. */
struct meta_use {
	const char *op;		/* "tl.load", "tl.atomic_add", ... (static) */
	size_t line;		/* file line of the call */
	char *base;		/* the argument its pointer operand starts from, or NULL */
	char *mask;		/* the mask argument's text; NULL when absent or None */
	size_t nargs;		/* arguments, in order: */
	char **kw;		/* keyword of each, NULL when positional */
	char **text;		/* text of each, whitespace runs across lines folded to one space */
};

/* A constexpr declared in the body, as Inductor templates and persistent reductions do. */
struct meta_body_constexpr {
	char *name;		/* "R0_BLOCK" */
	struct pylit *value;	/* its value, read leniently */
	size_t line;		/* file line of the declaration */
};

struct meta_decorator {
	char *name;		/* "triton_heuristics.pointwise", "triton.jit" */
	size_t line;		/* file line of the '@' */
	struct pylit *expr;	/* the decorator as a NAME or CALL tree (lenient) */
};

/* What DeviceProperties(...) in triton_meta['device'] says. */
struct meta_device {
	const char *backend;	/* "cuda", "hip", "xpu" (borrowed from the tree), or NULL */
	char *arch;		/* "gfx936", "sm_90"; NULL when unknown */
	long long warp_size;	/* -1 when unknown */
	long long multi_processor_count;	/* SMs or CUs; -1 when unknown */
	const struct pylit *props;	/* the DeviceProperties call, or NULL */
};

struct meta_kernel {
	char *name;		/* the def's name */
	char *file;		/* the file its source was read from */
	size_t line;		/* file line of the `def` */
	size_t end_line;	/* file line where the body's last statement ends */
	size_t embed_line;	/* non-zero: the source is the string starting at this line of
				 * `file`, a wrapper module; `line` is counted in file lines too */
	const char *kind;	/* from the decorator table (static) */
	struct meta_decorator *decorators;
	size_t ndecorators;
	struct meta_arg *args;
	size_t nargs;
	size_t nparams;		/* args[0..nparams) are the def's; the rest only the signature names */
	const char *signature_source;	/* "triton_meta" or "def" (static) */
	int hints_known;	/* triton_meta had 'configs': a missing hint is a fact, not a gap */
	const struct pylit *triton_meta;	/* borrowed from a decorator tree, or NULL */
	const struct pylit *inductor_meta;	/* likewise */
	const struct pylit *heuristic;	/* the Inductor heuristic decorator call, or NULL */
	const struct pylit *autotune;	/* the @triton.autotune call, or NULL */
	const struct pylit *heuristics;	/* the @triton.heuristics call, or NULL */
	const struct pylit *jit;	/* the @triton.jit decorator (NAME or CALL) */
	struct meta_device device;
	struct meta_body_constexpr *body_constexprs;
	size_t nbody_constexprs;
	struct meta_use *uses;	/* in source order */
	size_t nuses;
	json_t *aten;		/* ATen attribution from a wrapper module (meta.h), or NULL */
	struct tl_addr addr;	/* the address patterns of its loads and stores (tl_addr.h) */
};

/* A growable list of kernels; the list owns them. */
struct meta_kernel_list {
	struct meta_kernel **v;
	size_t nr, alloc;
};
#define META_KERNEL_LIST_INIT { NULL, 0, 0 }

/*
 * Appends every Triton kernel of the module s[0..n) to `out`; `path` is
 * recorded as each kernel's file. `line_base` is added to every line
 * number (0 for a file; for a module embedded in a wrapper, the wrapper
 * line just above the source's first line). Returns the number of kernels
 * found (0 is not an error), or -1 with one line in err ("line L column C:
 * <why>") when the module cannot be tokenized or a decorator of a kernel
 * cannot be read.
 */
int triton_meta_scan(struct meta_kernel_list *out, const char *path,
		     const char *s, size_t n, size_t line_base, struct buf *err);

struct pysrc;
/* The same over a module pysrc_scan() has already read; never fails on tokens. */
int triton_meta_scan_src(struct meta_kernel_list *out, const char *path,
			 const struct pysrc *src, size_t line_base, struct buf *err);

void meta_kernel_free(struct meta_kernel *k);
void meta_kernel_list_release(struct meta_kernel_list *l);

/* The argument named `name`, or NULL. */
struct meta_arg *meta_kernel_arg(const struct meta_kernel *k, const char *name);
/* The value of hint `name` on `a`, or 0 when it has none. */
long long meta_arg_hint(const struct meta_arg *a, const char *name);

#endif
