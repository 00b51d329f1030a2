/*
 * `tko tune --gpus`: a run's kernels spread over several GPUs of one node.
 * One `tko tune` per GPU (this binary, the command line as given less the
 * kernels, --gpus, --json and --md), its environment pinned to its GPU
 * (gpus.h), so that timings never share a device unless asked (--gpus
 * 0,0). Each serves one kernel at a time and keeps its Python workers from
 * one kernel to the next, as one `tko tune` does. Triton's compile cache is
 * on disk and shared by them all.
 *
 * The kernels are handed out longest first (tune/cost.h's prediction),
 * each to the first GPU that is free. A `tko tune` that dies (killed by the
 * OOM killer, a GPU fault that takes the process down) loses only the
 * kernel it was tuning, which is tried once more on another GPU; the GPU
 * gets a fresh `tko tune` for its next kernel. The kernels' JSON documents
 * are merged in the order given: the tune.json (and --md) a one-GPU `tko
 * tune` of the same kernels writes, tables printed in that order too, and
 * the same exit status.
 *
 * The serving `tko tune` (TUNE_SERVE_ENV set, cmd/tune.c) reads one JSON
 * request a line on its stdin, {"input": KERNEL, "json": FILE, "md": FILE
 * or null, "out": FILE}, tunes that kernel into those files (the document,
 * the Markdown section and the table its run would print) and answers
 * {"exit":STATUS,"ran":0|1} on one line of its stdout; EOF on stdin ends it.
 */
#ifndef TKO_TUNE_DISPATCH_H
#define TKO_TUNE_DISPATCH_H

#include <stddef.h>

#include "tune/gpus.h"

#define TUNE_SERVE_ENV "TKO_TUNE_SERVE"

struct tune_dispatch {
	const struct tune_gpus *gpus;
	const char *const *args;	/* tko tune's arguments as given (after "tune") */
	size_t nargs;
	const char *const *inputs;	/* the kernels (each one of args) */
	size_t ninputs;
	const char *json, *md;		/* --json and --md, or NULL */
	double budget_s;		/* for the cost prediction */
	long max_variants;
	int compile_only;
};

/* Tunes every input; returns tko tune's exit status. */
int tune_dispatch_run(const struct tune_dispatch *d);

/*
 * What cmd_tune calls with --gpus (NULL: all): 1 with *ret set when it
 * ran the kernels over several GPUs or failed (a bad --gpus: *ret is
 * EXIT_USAGE), 0 when one tko tune process is to tune them itself, on
 * the one GPU selected (its variable is then set in this process, for
 * the workers) or on the default device (none visible, --compile-only,
 * a single kernel).
 */
int tune_dispatch_maybe(const char *spec, struct tune_dispatch *d, int *ret);

#endif
