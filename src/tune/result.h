/*
 * The results of a sweep: one struct tune_result per planned variant, read
 * from the worker's replies; the winner; and the files a user applies.
 *
 * Status of a variant (tune_status_name gives the JSON spelling):
 *   compiled       compiled, not timed (--compile-only)
 *   ok             compiled, timed and equal to the base variant's outputs
 *   wrong          its outputs differ from the base's: it can never win
 *   compile_error  Triton rejected it: recorded with the error and skipped
 *   launch_error   it compiled but the launch failed
 *   timeout        it ran past the per-variant time limit
 *   skipped        the source rewrite does not apply to this kernel
 *   duplicate      it compiled to the same ISA as an earlier variant
 *                  (line information aside), so it was not timed again
 *   error          the worker failed on it (crash, bad reply)
 *
 * The winner is the fastest "ok" variant, and only if it beats the base by
 * more than the noise; otherwise the base stays (tune_winner).
 */
#ifndef TKO_TUNE_RESULT_H
#define TKO_TUNE_RESULT_H

#include <jansson.h>
#include <stddef.h>

#include "model/tune.h"
#include "tune/isasum.h"
#include "tune/plan.h"
#include "util/buf.h"

/* enum tune_status and its names are model/tune.h's: tune.json's readers share them. */

struct tune_result {
	enum tune_status status;	/* see above */
	char *error;			/* one line for failures and skips, or NULL */
	char *traceback;		/* the tail of the worker's Python traceback, or NULL */
	double time_ms;			/* median device time, or -1 */
	double compile_ms;		/* the worker's compile time, or -1 */
	long shared_bytes;		/* shared memory / LDS from Triton's metadata, or -1 */
	json_t *files;			/* stage -> path of what the worker wrote (owned), or NULL */
	json_t *checks;			/* the worker's output comparisons (owned), or NULL */
	char *source;			/* the variant's source file, or NULL */
	long n_regs, n_spills;		/* what the GPU driver reported on loading it, or -1 */
	char *fingerprint;		/* the worker's hash of its ISA without line info, or NULL */
	char *same_as;			/* a duplicate's earlier variant ("v003"), or NULL */
	struct tune_isa *isa;		/* its ISA summary (owned), or NULL when not scanned */
};

struct tune_results {
	struct tune_result *r;	/* indexed like the plan's variants */
	size_t nr, alloc;
};
#define TUNE_RESULTS_INIT { NULL, 0, 0 }

/* The result slot of variant `index`, grown (and zeroed) as needed. */
struct tune_result *tune_results_at(struct tune_results *rs, size_t index);
void tune_results_release(struct tune_results *rs);

/*
 * Fills `r` from a worker reply (compile or bench). An unknown status is
 * an "error" naming it.
 */
void tune_result_from_reply(struct tune_result *r, const json_t *reply);
/* Marks `r` as failed with a status and a message. */
void tune_result_fail(struct tune_result *r, enum tune_status st, const char *msg);

/* 1 when the variant may win (timed and correct). */
int tune_result_usable(const struct tune_result *r);
const char *tune_status_name(enum tune_status st);

/*
 * The winning variant's index: the fastest usable one if it is faster
 * than the base by more than `noise` (0.02 = 2%), else the base if it is
 * usable, else -1 (nothing was timed).
 */
long tune_winner(const struct tune_plan *p, const struct tune_results *rs, double noise);

#endif
