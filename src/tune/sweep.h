/*
 * One kernel's sweep: from a kernel file (or a captured kernel directory)
 * to a result per variant. It wires the other tune modules together:
 *
 *   input      KERNEL.py, or KERNEL_DIR with kernel.py and capture.json
 *   kernel     its def and decorators, read from the source (kernel.c)
 *   plan       the search space and the base config (space.c, plan.c)
 *   per variant: the source rewrites (rewrite.c), a compile or bench
 *              request to the worker for its environment (pool.c, over
 *              py/worker.c), its result (result.c)
 *   output     the JSON entry (output.c), the winner's files (winner.c);
 *              the table is report/tune_text.c's
 *
 * Every variant's files go under OUT/variants/NNN/: kernel.py (its
 * source), request.json (what was asked of the worker, grid included) and
 * what Triton produced (.ttir .ttgir .llir .amdgcn/.ptx .hsaco/.cubin
 * .json). The workers are a struct tune_pool shared by every sweep of a
 * run (pool.h); when they have compile processes to spare, the variants
 * queued in the plan are sent ahead to be compiled in parallel while
 * earlier ones are timed (variant.c).
 */
#ifndef TKO_TUNE_SWEEP_H
#define TKO_TUNE_SWEEP_H

#include <jansson.h>

#include "model/capture.h"
#include "model/traffic.h"
#include "model/tune.h"

#include "target/target.h"
#include "tune/confirm.h"
#include "tune/kernel.h"
#include "tune/plan.h"
#include "tune/pool.h"
#include "tune/result.h"
#include "tune/workspace.h"
#include "util/buf.h"
#include "util/opts.h"
#include "util/strmap.h"

struct tune_opts {
	const char *target;		/* --target ("gfx942"), or NULL: the GPU's */
	int compile_only;		/* compile, never launch */
	double budget_s;		/* --budget */
	size_t max_variants;		/* --max-variants */
	double timeout_s;		/* per variant */
	const char *out_dir;		/* --out: files go to OUT/<kernel>-<target>/; NULL: the default */
	const char *kernel;		/* --kernel NAME, or NULL */
	const char *config;		/* --config "XBLOCK=1024,num_warps=4" */
	const char *signature;		/* --signature for hand-written kernels */
	const struct strlist *consts;	/* --const NAME=VALUE, repeatable */
	double peak_gbps;		/* --peak-gbps, or 0: measure on the GPU */
	double noise;			/* a winner must beat the base by this */
	long confirm_rounds;		/* --confirm-rounds: rounds of the confirmation, 0 none */
	int no_source, no_search;	/* leave out source variants / config search */
};
/* tko tune's defaults (its --help): 60 s of search, 40 variants, 300 s a variant, 7 rounds. */
#define TUNE_OPTS_INIT { NULL, 0, 60, 40, 300, NULL, NULL, NULL, NULL, NULL, 0, TUNE_SWEEP_MARGIN, 7, 0, 0 }

/* Why a sweep could not start, for the command's exit code. */
enum tune_fail {
	TUNE_FAIL_INPUT,	/* bad input or a failed step */
	TUNE_FAIL_NOMATCH,	/* --kernel matched no kernel, or several */
	TUNE_FAIL_TOOL,		/* no Python or worker */
	TUNE_FAIL_CHILD,	/* the worker failed */
	TUNE_FAIL_TARGET,	/* a target that cannot be compiled here */
};

/*
 * The base variant's outputs, saved by the worker that ran it, so that
 * every other worker (another environment, or one restarted after a
 * timeout) compares against them. Removed when a sweep starts.
 */
#define TUNE_REFERENCE_FILE "reference.pt"

/* A variant's request, built ahead of its turn when it is sent to be precompiled. */
struct tune_prep {
	json_t *req;		/* the request (owned), or NULL */
	int env;		/* the worker environment it runs in */
	int sent;		/* sent to be precompiled */
};

struct tune_sweep {
	const struct tune_opts *o;		/* borrowed */
	char *input;				/* as given */
	char *source;				/* the kernel file */
	char *capture_path;			/* capture.json, or NULL */
	struct capture_doc *capture;		/* its contents, or NULL */
	struct buf text;			/* the kernel file's text */
	const struct target *arch;		/* the target */
	struct tune_kernel k;			/* the kernel */
	struct tune_plan plan;			/* the variants */
	struct tune_results res;		/* their results */
	struct tune_pool *pool;			/* the workers (borrowed) */
	const json_t *hello;			/* the pool's hello reply (borrowed) */
	struct tune_prep *prep;			/* per variant, indexed like the plan */
	size_t prep_alloc;
	struct strmap known;			/* ISA fingerprint -> index of the first variant with it */
	struct strlist known_order;		/* those fingerprints (the map's keys), as met */
	int jobs;				/* the worker's parallel compile processes */
	char *grid_note;			/* why the grid parameters are frozen, or NULL */
	struct tune_workspace ws;		/* a mix-order reduction's workspace, arg -1 if none */
	char *out_dir;				/* where files go */
	const char *base_note;			/* where the base config came from */
	long winner;				/* the winning variant, or -1 */
	double peak_gbps;			/* for the fraction-of-peak column, or 0 */
	double num_gb;				/* bytes the kernel moves / 1e9, or -1 */
	struct traffic traffic;			/* how num_gb was counted (model/traffic.h) */
	double wall_s;				/* seconds the sweep took */
	struct tune_confirm confirm;		/* the winner's confirmation (confirm.h) */
	char *refused;				/* why tko does not tune this kind, or NULL */
	const char *plan_note;			/* what the plan of this kind leaves out, or NULL */
};

/*
 * Resolves the input, starts the pool's first worker if needed, reads and
 * plans the kernel. Returns 0, or -1 with a line in err and *fail saying
 * why.
 */
int tune_sweep_init(struct tune_sweep *s, const char *input, const struct tune_opts *o,
		    struct tune_pool *pool, enum tune_fail *fail, struct buf *err);

/*
 * Runs every planned variant, with progress lines. A variant's failure is
 * its result, never the sweep's; then decides the winner (not in
 * compile-only mode).
 */
void tune_sweep_run(struct tune_sweep *s);

void tune_sweep_release(struct tune_sweep *s);

struct rewrite;
/*
 * The source edits of variant v (its source flags and a template's block
 * sizes) appended to r. 0, or -1 with the reason in why when a rewrite it
 * asks for does not apply to this kernel.
 */
int tune_sweep_edits(const struct tune_sweep *s, const struct tune_variant *v,
		     struct rewrite *r, struct buf *why);

/* The environment entries ("NAME=value") a variant's worker runs with. */
const char *const *tune_sweep_env(unsigned src);
/* The pool environment (TUNE_ENV_*) of a variant's source flags. */
int tune_sweep_env_index(unsigned src);

/* -1 with err when dir is a symbolic link: tune writes only into real folders. */
int tune_refuse_link(const char *dir, struct buf *err);

/*
 * Runs variant v into its result (variant.c): its source, request, the
 * worker's reply, the ISA scan. Variants queued after it may be sent ahead
 * to be compiled in parallel, which grows s->res: a result pointer taken
 * before the call is stale after it.
 */
void tune_variant_run(struct tune_sweep *s, struct tune_variant *v);
/* Frees the prepared requests and the fingerprints met. */
void tune_variant_release(struct tune_sweep *s);

#endif
