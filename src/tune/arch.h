/*
 * The targets tko tune compiles for: a table of GPU architectures with
 * what the planner and the worker need to know about each (backend, wave
 * size, shared memory, whether upstream Triton can compile for it), and
 * the mapping from what a GPU reports to a row.
 *
 * A GPU is named by its architecture, never by its marketing name: NVIDIA
 * by compute capability (torch.cuda.get_device_capability() (9, 0) is
 * sm_90; PTX spellings such as sm_90a are the same row), AMD and Hygon by
 * gcnArchName with its feature suffixes stripped ("gfx942:sramecc+:xnack-"
 * is gfx942, DTK's "gfx936:sramecc-" is gfx936).
 *
 * Entry points: tune_arch_find("gfx942") returns the row, or NULL;
 * tune_arch_of_gpu() turns the worker's description of its GPU into one.
 */
#ifndef TKO_TUNE_ARCH_H
#define TKO_TUNE_ARCH_H

#include <jansson.h>

#include "util/buf.h"

enum tune_backend {
	TUNE_HIP,	/* AMD ROCm and Hygon DCU (Triton backend "hip") */
	TUNE_CUDA,	/* NVIDIA */
};

struct tune_arch {
	const char *name;		/* "gfx942", "sm_90" */
	enum tune_backend backend;	/* which Triton backend compiles it */
	int cc;				/* CUDA compute capability (90), 0 on HIP */
	int warp_size;			/* threads per wave/warp */
	int max_threads;		/* threads per block (1024 everywhere today) */
	int lds_bytes;			/* shared memory (LDS) per block usable by one kernel */
	int max_stages;			/* num_stages worth trying for loops with tl.dot */
	int hcu;			/* a Hygon DCU arch: triton-das options apply */
	int upstream;			/* upstream Triton 3.6 can compile for it */
};

/* The row for `name`, or NULL. */
const struct tune_arch *tune_arch_find(const char *name);

/*
 * The canonical spelling of an architecture name, appended to out:
 * "gfx942:sramecc+:xnack-" -> "gfx942", "sm_90a" -> "sm_90", "SM90" ->
 * "sm_90", "9.0" and "90" -> "sm_90". 0, or -1 when `name` is none of
 * these forms (a marketing name such as "NVIDIA H200").
 */
int tune_arch_normalize(const char *name, struct buf *out);

/*
 * The row of the GPU the tune worker describes (its hello reply's "gpu":
 * {"name", "backend", "arch", "cc": [major, minor], "arch_name"}): "arch"
 * when it names an architecture, else the compute capability on CUDA or
 * the gcnArchName on HIP. NULL with a line in err naming the GPU when
 * none of them is a known row.
 */
const struct tune_arch *tune_arch_of_gpu(const json_t *gpu, struct buf *err);

/*
 * Checks that `name` can be compiled here. Appends a one-line reason
 * (unknown arch with the list of known ones; a Hygon arch that needs DTK
 * and triton-das) to err and returns -1 when it cannot. `das` says a
 * triton-das build is in use (the worker reported a "hcu" backend).
 */
int tune_arch_check(const char *name, int das, struct buf *err);

/* Appends the known arch names, comma separated. */
void tune_arch_list(struct buf *out);

#endif
