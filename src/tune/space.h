/*
 * A kernel's search space for tko tune: its tunable parameters (struct
 * tune_param), one value per parameter (struct tune_config), the rules a
 * config must respect, and configs to and from text and JSON.
 *
 * Parameters come from a rule table by kernel kind and target: Inductor's
 * block sizes (XBLOCK, YBLOCK, ZBLOCK, R0_BLOCK, R1_BLOCK, constexpr
 * arguments), a template's BLOCK_M/N/K (constexpr lines of its body, so
 * set by rewriting the source), a hand-written kernel's *BLOCK* constexprs,
 * num_warps, num_stages, and on AMD/DCU waves_per_eu, matrix_instr_nonkdim
 * and triton-das's schedule_hint. Validity rules: threads per block,
 * elements per thread, a template's accumulators and shared memory, and
 * size hints (a block past the next power of two of its dim is not tried).
 *
 * Entry point: tune_space_build(); the space borrows the kernel's strings,
 * so the kernel must outlive it.
 */
#ifndef TKO_TUNE_SPACE_H
#define TKO_TUNE_SPACE_H

#include <jansson.h>

#include "target/target.h"
#include "tune/kernel.h"
#include "util/buf.h"

#define TUNE_MAXP 16

enum tune_pkind {
	TUNE_POW2,	/* powers of two, stepped by x2 and /2 */
	TUNE_STEP,	/* integers, stepped by +1 and -1 */
	TUNE_CHOICE,	/* an index into `choices` */
};

enum tune_at {
	TUNE_AT_CONSTEXPR,	/* a constexpr argument, passed as a constant */
	TUNE_AT_BODY,		/* a `NAME : tl.constexpr = N` line, rewritten */
	TUNE_AT_WARPS,		/* the num_warps compile option */
	TUNE_AT_STAGES,		/* the num_stages compile option */
	TUNE_AT_OPTION,		/* another backend option (waves_per_eu ...) */
};

struct tune_param {
	const char *name;		/* "XBLOCK", "num_warps", "waves_per_eu" */
	enum tune_pkind kind;		/* how it steps */
	enum tune_at at;		/* how a value reaches the compiler */
	int min, max;			/* value range; for TUNE_CHOICE, indices */
	const char *const *choices;	/* TUNE_CHOICE values as text, NULL-terminated */
	int dim;			/* the tune_dim of an Inductor block, else -1 */
	int tuned;			/* 0: kept at its base value */
	int split;			/* rows per program (RSPLIT_SIZE), not a block dimension */
};

struct tune_space {
	struct tune_param p[TUNE_MAXP];	/* the parameters */
	size_t n;
	enum tune_kind kind;		/* the kernel's kind */
	const struct target *arch;	/* the target */
	int elt_bytes;			/* a template's input element size, for shared memory */
	long fixed_numel;		/* block elements fixed in the body (persistent R0_BLOCK), 1 if none */
	long tmpl_k;			/* a template's K when its EVEN_K needs BLOCK_K to divide it, else 0 */
};

struct tune_config {
	int v[TUNE_MAXP];	/* one value per space parameter (choice index for TUNE_CHOICE) */
};

/* Builds the space of `k` on `arch` (possibly empty). */
void tune_space_build(struct tune_space *s, const struct tune_kernel *k,
		      const struct target *arch);

/*
 * Keeps the parameters that decide a launch grid (`grid_param` says which)
 * at their base values: used when tko cannot compute the grid of another
 * block size for this kernel, so every variant reuses the captured grid.
 * Returns how many parameters it froze.
 */
int tune_space_freeze(struct tune_space *s, int (*grid_param)(const struct tune_param *p,
							      void *ctx), void *ctx);

/* The space's parameter named `name`, or -1. */
int tune_space_find(const struct tune_space *s, const char *name);

/* 1 when `cfg` respects every rule of the space; else 0 and, if why, a reason. */
int tune_config_valid(const struct tune_space *s, const struct tune_config *cfg,
		      struct buf *why);

/* tko's starting guess when no autotuned config is known. */
void tune_config_default(const struct tune_space *s, const struct tune_kernel *k,
			 struct tune_config *cfg);

/*
 * Reads "XBLOCK=1024,num_warps=4" over `cfg` (names the space does not
 * have are an error). 0 or -1 with a line in err.
 */
int tune_config_parse(const struct tune_space *s, const char *text,
		      struct tune_config *cfg, struct buf *err);

/*
 * Reads Inductor's config shape, {"kwargs": {"XBLOCK": 1024}, "num_warps":
 * 4, "num_stages": 1} (capture events, .best_config files put the kwargs at
 * the top level: both are accepted), over `cfg`. Unknown kwargs are ignored.
 */
void tune_config_from_json(const struct tune_space *s, const json_t *j,
			   struct tune_config *cfg);

/*
 * The config as JSON: {"kwargs": {...constexpr arguments...}, "body":
 * {...rewritten constexpr lines...}, "num_warps", "num_stages", "options":
 * {...}}. A new reference.
 */
json_t *tune_config_to_json(const struct tune_space *s, const struct tune_config *cfg);

/* Appends "NAME=V,NAME=V" of the parameters where a and b differ (all when b is NULL). */
void tune_config_diff(const struct tune_space *s, const struct tune_config *a,
		      const struct tune_config *b, struct buf *out);

/* The text of a parameter's value ("local-prefetch" for a choice). */
void tune_param_value(const struct tune_param *p, int v, struct buf *out);

#endif
