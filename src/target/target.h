/*
 * The one table of GPU targets: every architecture tko names, with what
 * the ISA scanner judges resources against (wave size, VGPR budget and
 * file, granule, wave limit, AGPR mode, LDS), what tko tune plans with
 * (backend, compute capability, threads and shared memory per block,
 * stages), the ELF machine number of an AMDGPU code object, and for the
 * Hygon DCUs the brief's HCU table (name, triton-das support, what tko
 * has verified on files of that arch).
 *
 * It also owns the spelling of an arch name. A GPU is named by its
 * architecture, never by its marketing name: NVIDIA by compute capability
 * (torch's (9, 0) is sm_90; PTX's sm_90a is the same row), AMD and Hygon
 * by gcnArchName with its feature suffixes stripped ("gfx942:sramecc+:
 * xnack-" is gfx942). Python reports raw device facts (python/tko/gpu.py)
 * and C decides the name here (target_gpu_arch), once.
 *
 *	struct buf name = BUF_INIT;
 *	if (!target_norm("sm_90a", &name) && (t = target_find(name.buf)))
 *		... t->wave, t->smem_block
 *
 * Where each number comes from is in target.c, above its row.
 */
#ifndef TKO_TARGET_TARGET_H
#define TKO_TARGET_TARGET_H

#include <stddef.h>

#include <jansson.h>

#include "util/buf.h"

enum target_vendor { TARGET_AMD, TARGET_HYGON, TARGET_NVIDIA };

/* The Triton backend that compiles for it; tune keeps bit masks of (1u << backend). */
enum target_backend {
	TARGET_HIP,	/* AMD ROCm and Hygon DCU */
	TARGET_CUDA,	/* NVIDIA */
};

/* A Hygon DCU's row of the brief's HCU table (issue 21; src/env/hcu.c prints it). */
struct target_hcu {
	const char *name;	/* "伯温 a0 (Bowen a0), BW" */
	unsigned das:1;		/* in triton-das's is_hcu set (it compiles for it) */
	const char *verified;	/* what tko's tests checked on files of this arch, or NULL */
	const char *not_verified;	/* what they have not */
};

struct target {
	const char *name;		/* canonical: "gfx942", "sm_90" */
	enum target_vendor vendor;
	enum target_backend backend;
	int cc;				/* CUDA compute capability (90); 0 on HIP */
	unsigned elf_mach;		/* EF_AMDGPU_MACH of its code objects; 0 unknown */
	int wave;			/* threads per wave/warp */
	/* what the ISA scanner judges (isa: 1); 0 = not judged */
	int vgpr_max;			/* most VGPRs one wave may use */
	int vgpr_file;			/* VGPRs per lane a SIMD's waves share; 0: no occupancy */
	int granule;			/* VGPR allocation granule */
	int max_waves;			/* waves per SIMD */
	int agprs;			/* 0: none; 1: in the unified VGPR budget; 2: a separate file */
	long lds_bytes;			/* LDS a workgroup may allocate */
	/* what tko tune plans with (tunable: 1) */
	int smem_block;			/* shared memory one kernel may use per block */
	int max_threads;		/* threads per block */
	int max_stages;			/* num_stages worth trying for loops with tl.dot */
	unsigned isa:1;			/* the ISA scanner judges its resources */
	unsigned tunable:1;		/* a tko tune target ("known: ..." lists these, in order) */
	unsigned upstream:1;		/* upstream Triton 3.6 compiles for it */
	const struct target_hcu *hcu;	/* Hygon: its HCU table row; else NULL */
};

/*
 * The canonical spelling of an arch name, appended to out:
 * "gfx942:sramecc+:xnack-" -> "gfx942", "sm_90a" -> "sm_90", "SM90" ->
 * "sm_90", "9.0" and "90" -> "sm_90". 0, or -1 when `name` is none of
 * these forms (a marketing name such as "NVIDIA H200").
 */
int target_norm(const char *name, struct buf *out);
/*
 * target_norm's spelling as a new string, or, for a name it does not
 * recognise, the name up to its first ':' (what a cache entry or a
 * DeviceProperties call wrote, kept as written). NULL for "" or ":...".
 */
char *target_norm_dup(const char *name, size_t n);

/* A CUDA compute capability as an arch name, appended to out: 90 -> "sm_90". */
void target_cuda_arch(long long cc, struct buf *out);

/* The row named exactly `name` (canonical), or NULL. */
const struct target *target_find(const char *name);
/*
 * The row the ISA scanner judges for a processor name as an assembly
 * file writes it (features after ':' ignored, no other respelling), or
 * NULL: NVIDIA rows and names tko only knows by their ELF number are not
 * judged.
 */
const struct target *target_isa_find(const char *name, size_t n);
/* The row of an AMDGPU code object's EF_AMDGPU_MACH, or NULL. */
const struct target *target_of_elf_mach(unsigned mach);
/* 1 when `name` (any spelling target_norm knows) is a Hygon DCU. */
int target_is_dcu(const char *name);
/* 1 when tko has facts for it beyond its name (an ISA or a tune row). */
int target_known(const struct target *t);

/* Waves per SIMD that `vgprs` VGPRs allow, or 0 when not computable. */
int target_vgpr_waves(const struct target *t, long long vgprs);

/*
 * Checks that `name` can be compiled here. Appends a one-line reason
 * (unknown arch with the list of known ones; a Hygon arch that needs DTK
 * and triton-das) to err and returns -1 when it cannot. `das` says a
 * triton-das build is in use (the worker reported a "hcu" backend).
 */
int target_check_tunable(const char *name, int das, struct buf *err);
/* Appends the tune targets' names, comma separated, in table order. */
void target_list_tunable(struct buf *out);

/* The Hygon rows in name order (the brief's HCU table's order); *n their count. */
const struct target *const *target_hygon(size_t *n);

/*
 * What a process reports about its GPU (python/tko/gpu.py facts(), the
 * tune worker's hello "gpu", tko.probe's devices, capture's session_start
 * "device"). Strings borrowed; NULL when absent.
 */
struct target_gpu_facts {
	const char *name;		/* the marketing name, "NVIDIA H200" */
	const char *backend;		/* "cuda" or "hip" */
	const char *gcn_arch_name;	/* torch's gcnArchName as reported ("gfx942:sramecc+:xnack-";
					   on CUDA builds, the marketing name) */
	const char *arch;		/* an arch a tool or an older tko already named, else NULL */
	int cc_major, cc_minor;		/* compute capability; -1 unknown */
};
#define TARGET_GPU_FACTS_INIT { NULL, NULL, NULL, NULL, -1, -1 }

/*
 * Reads facts from a JSON object: name, backend, gcn_arch_name (older
 * tune workers: arch_name), capability (older tune workers: cc) as
 * [major, minor], and an older writer's arch. Strings stay borrowed from gpu.
 */
void target_gpu_facts_read(const json_t *gpu, struct target_gpu_facts *f);

/*
 * The arch the facts name, appended to out: on HIP the gcnArchName
 * without its feature suffixes, else sm_<major><minor> from the compute
 * capability, else an `arch` already given (canonical when target_norm
 * knows it). Never the marketing name. 0, or -1 when the facts name none.
 */
int target_gpu_arch(const struct target_gpu_facts *g, struct buf *out);

/*
 * The row of that GPU: the first of the names the facts give (in
 * target_gpu_arch's order) that is a tune target. NULL with a line in err
 * naming the GPU and what it reports when none is.
 */
const struct target *target_of_gpu(const struct target_gpu_facts *g, struct buf *err);

/*
 * What tko tune asks the worker to compile for: {"backend", "arch" (the
 * compute capability as an int on CUDA, the name on HIP), "warp_size"}.
 * A new reference; python/tko/tune_compile.py uses it as given.
 */
json_t *target_compile_json(const struct target *t);

#endif
