/*
 * The targets tko tune compiles for: a table of GPU architectures with
 * what the planner and the worker need to know about each (backend, wave
 * size, shared memory, whether upstream Triton can compile for it).
 *
 * Entry point: tune_arch_find("gfx942") returns the row, or NULL.
 */
#ifndef TKO_TUNE_ARCH_H
#define TKO_TUNE_ARCH_H

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
 * Checks that `name` can be compiled here. Appends a one-line reason
 * (unknown arch with the list of known ones; a Hygon arch that needs DTK
 * and triton-das) to err and returns -1 when it cannot. `das` says a
 * triton-das build is in use (the worker reported a "hcu" backend).
 */
int tune_arch_check(const char *name, int das, struct buf *err);

/* Appends the known arch names, comma separated. */
void tune_arch_list(struct buf *out);

#endif
