/*
 * What a tko tune variant compiled to, in a few numbers, and how that
 * differs from the base variant: the "ISA vs base" column.
 *
 * Input: the variant's AMDGCN (.amdgcn) or PTX (.ptx) file that the worker
 * wrote, read with the isa library (src/isa/isa.h), which also reads the
 * Triton <name>.json beside it and, for PTX, the registers of the .cubin
 * beside it when cuobjdump is there. Output: a struct tune_isa per variant
 * with the memory families that matter for a bandwidth-bound kernel
 * (global / buffer / flat loads and stores, direct-to-LDS copies, atomics,
 * LDS, scratch, matrix instructions), each with its access widths; the
 * share of global memory instructions moving 128 bits per lane; and the
 * registers, spills, scratch, occupancy and shared memory.
 *
 *	struct tune_isa a;
 *	tune_isa_scan(path, kernel_name, &a, &err);
 *	tune_isa_delta(&base, &a, &text, &json);	"gld 2x32->1x128; regs 26->30"
 */
#ifndef TKO_TUNE_ISASUM_H
#define TKO_TUNE_ISASUM_H

#include <jansson.h>
#include <stdint.h>

#include "isa/isa.h"
#include "util/buf.h"

/* The families kept, in table order. */
#define TUNE_ISA_NFAM 19

/* The resources kept, in table order. */
#define TUNE_ISA_NRES 10

struct tune_isa {
	struct isa_family_count fam[TUNE_ISA_NFAM];	/* by kept family */
	uint64_t global_ops;	/* global/buffer/flat loads and stores, global-to-LDS copies */
	uint64_t wide_ops;	/* of those, moving 128 bits or more per lane */
	long long res[TUNE_ISA_NRES];	/* kept resources; -1 unknown */
	char *isa;		/* "amdgcn" or "ptx" */
};

void tune_isa_init(struct tune_isa *a);
void tune_isa_release(struct tune_isa *a);

/*
 * Scans `path` and keeps the kernel named `kernel` (or the first entry
 * point when none has that name). 0, or -1 with a line in err.
 */
int tune_isa_scan(const char *path, const char *kernel, struct tune_isa *a,
		  struct buf *err);

/*
 * Fills registers and spills the scan did not find from what the GPU
 * driver reported when the worker loaded the kernel (n_regs, n_spills;
 * < 0 unknown). On AMD n_spills is scratch bytes / 4, so only NVIDIA's
 * are used.
 */
void tune_isa_add_driver(struct tune_isa *a, long n_regs, long n_spills);

/* {"isa", "families": {name: {"count", "by_width"}}, "global_ops", "vector_pct", "resources"}. */
json_t *tune_isa_json(const struct tune_isa *a);

/* The summary in words for a table cell: "gld 2x128 1x32, gst 1x128, vec 67%, regs 26". */
void tune_isa_text(const struct tune_isa *a, struct buf *out);

/*
 * What differs from base to v: appends "gld 2x32->1x128; vec 0->100%; regs
 * 26->30" to text (nothing when they agree) and sets *json (when not NULL)
 * to {"families": {name: [base, v]}, "vector_pct": [b, v], "resources":
 * {name: [b, v]}} with only the fields that differ (a new reference).
 * Returns the number of fields that differ.
 */
int tune_isa_delta(const struct tune_isa *base, const struct tune_isa *v,
		   struct buf *text, json_t **json);

#endif
