/*
 * One launch of a kernel as the seed skill's capture logged it
 * (autotune_capture_patch.py, docs/seed-scripts.md section 2): the
 * arguments with their shapes, dtypes and strides or values, and the
 * capture's own estimates for the block: the bytes the tensors hold, the
 * best time, that "footprint rate", the hardware peak it printed
 * (triton.testing.get_dram_gbps(), a datasheet figure, not a measured
 * copy) and their ratio, plus where it saved the inputs.
 *
 * A struct at_kernel owns at most one (at_kernel.launch). seed_log.c
 * fills it; at_launch_same_args() is how it tells two kernels of one name
 * apart (the capture logs a name again only for another autotuner or
 * other arguments). Unknown numbers are NAN, unknown strings NULL.
 */
#ifndef TKO_PARSE_AUTOTUNE_LAUNCH_H
#define TKO_PARSE_AUTOTUNE_LAUNCH_H

#include <stddef.h>

#include "parse/autotune.h"

/* One argument line: a tensor (shape, dtype, stride) or any other value. */
struct at_arg {
	char *name;		/* the kernel parameter */
	char *shape;		/* a tensor's shape as printed ("[4096, 8192]"), NULL for a non-tensor */
	char *dtype;		/* "torch.float16", or NULL */
	char *stride;		/* "[8192, 1]", or NULL */
	char *value;		/* a non-tensor's str() ("33554432", "None"), NULL for a tensor */
};

struct at_launch {
	struct at_arg *args;	/* in the order logged: positional, then keyword */
	size_t nargs, args_alloc;
	double total_bytes;	/* "Total tensor bytes" (printed in MB of 10^6): numel x element size, mutated tensors twice */
	double best_ms;		/* "Best config time" */
	double rate_gbps;	/* "Footprint rate estimate" (v1 "Effective bandwidth"): total_bytes / best time */
	double peak_gbps;	/* "HW peak bandwidth" */
	double peak_pct;	/* "Footprint/peak ratio (not HBM utilization)" (v1 "Bandwidth utilization"), percent */
	char *inputs_saved;	/* "Inputs saved": the .pt file of the inputs */
	char *run_standalone;	/* "Run standalone": the command that replays it */
	struct at_src src;	/* the block's header line */
	size_t end_line;	/* the block's last line, in src.file */
	struct at_src metrics_src;	/* the first estimate line read */
};

/* A launch with nothing known; free with at_launch_free(). */
struct at_launch *at_launch_new(struct at_src src);
void at_launch_free(struct at_launch *l);

/* Appends an argument (name only, every other field NULL) and returns it. */
struct at_arg *at_launch_add_arg(struct at_launch *l, const char *name, size_t len);

/* Whether a and b list the same arguments with the same shapes, dtypes, strides and values. */
int at_launch_same_args(const struct at_launch *a, const struct at_launch *b);

/* Copies into `to` every estimate and path it lacks and `from` has. */
void at_launch_fill(struct at_launch *to, const struct at_launch *from);

/*
 * Reads a printed list of integers ("[4096, 8192]", "[]") into out[0..max);
 * returns how many, or -1 when it is not one (or has more than max).
 */
int at_dims_parse(const char *s, size_t n, long *out, size_t max);

#endif
