/*
 * Which GPUs `tko tune --gpus` spreads a run's kernels over, and how a
 * worker is pinned to one: the value of one environment variable that
 * the worker's PyTorch and Triton read (CUDA_VISIBLE_DEVICES on NVIDIA,
 * HIP_VISIBLE_DEVICES on AMD and DCU), so that each worker sees one
 * device, its own, as device 0.
 *
 *   --gpus all (the default)  every visible GPU, one worker each
 *   --gpus 0,2                the visible GPUs 0 and 2 (ordinals among
 *                             the visible ones, as torch.cuda numbers them)
 *   --gpus 0,0                two workers sharing GPU 0 (a simulation of
 *                             two GPUs on one; docs/PERFORMANCE.md)
 *
 * Visible: when CUDA_VISIBLE_DEVICES (or else HIP_VISIBLE_DEVICES) is set,
 * its entries, in order, and a worker gets the entry itself; else when
 * ROCR_VISIBLE_DEVICES is set (Slurm sets it on AMD nodes), as many GPUs
 * as it lists, numbered 0..N-1 as HIP numbers them below it; otherwise
 * the GPUs the driver lists (/proc/driver/nvidia/gpus/, or the kfd
 * topology nodes with a gpu_id for AMD and DCU), numbered 0..N-1.
 */
#ifndef TKO_TUNE_GPUS_H
#define TKO_TUNE_GPUS_H

#include <stddef.h>

#include "util/buf.h"

struct tune_gpus {
	const char *var;	/* the pinning variable (static) */
	char **id;		/* per worker: the variable's value */
	size_t n;		/* workers */
};
#define TUNE_GPUS_INIT { NULL, NULL, 0 }

/* What is visible, as main() finds it (or a test gives it). */
struct tune_gpus_env {
	const char *cuda;	/* CUDA_VISIBLE_DEVICES, or NULL when unset */
	const char *hip;	/* HIP_VISIBLE_DEVICES, or NULL when unset */
	const char *rocr;	/* ROCR_VISIBLE_DEVICES, or NULL when unset */
	size_t nvidia;		/* GPUs the NVIDIA driver lists */
	size_t amd;		/* GPUs the kfd driver lists */
};

/* The process's environment and drivers. */
void tune_gpus_env_read(struct tune_gpus_env *e);

/*
 * The workers for `spec` (NULL: "all"). 0, or -1 with a line in err when
 * spec is not "all" or a list of ordinals, names a GPU that is not
 * visible, or lists more than 64.
 */
int tune_gpus_select(const char *spec, const struct tune_gpus_env *e, struct tune_gpus *g,
		     struct buf *err);
void tune_gpus_release(struct tune_gpus *g);

#endif
