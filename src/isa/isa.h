/*
 * tko's ISA scanner: reads what a GPU compiler emitted -- AMDGCN assembly
 * (Triton .amdgcn, hipcc -save-temps .s and offload bundles, DTK / DCU
 * "hcu" output, hand-written Tensile-style .s, llvm-objdump and dccobjdump
 * listings), PTX, and SASS text (cuobjdump -sass, nvdisasm) -- plus the
 * binaries that disassemble to them (.hsaco/.co, .cubin), and turns each
 * kernel symbol into:
 *
 *  - instruction families with their widths (global/buffer/flat/scratch/
 *    scalar/LDS loads and stores, direct-to-LDS copies, atomics returning
 *    or not, matrix instructions, waits and barriers), from one shared
 *    family table (isa_families[]) that all three ISAs map onto;
 *  - resources (VGPR/AGPR/SGPR, scratch, spills, LDS, occupancy, wave
 *    size; registers and shared memory on NVIDIA), each with the place it
 *    was read from (enum isa_src);
 *  - the Python (or C++) source line of every memory, atomic and matrix
 *    instruction, from .file/.loc (AMDGCN, PTX) and nvdisasm line info;
 *  - findings that name the numbers they came from (facts.c). Which of
 *    them deserve a warning is decided by tko's rules, not by the scanner:
 *    decide/isa_scope.h runs the rules that read one kernel alone
 *    (docs/rules.md, "The ISA rules of tko isa"), sets each finding's
 *    severity and lists the rules that fired in the kernel's `rules`.
 *
 * USAGE (this is what `tko isa`, `tko investigate` and `tko report` call):
 *
 *	struct isa_result res = ISA_RESULT_INIT;
 *	struct isa_options opts = ISA_OPTIONS_INIT;
 *	struct buf err = BUF_INIT;
 *	int ret = isa_scan_path(path, &opts, &res, &err);
 *	if (ret < 0)
 *		... ret is ISA_ERR_INPUT or ISA_ERR_TOOL; err holds one line
 *	decide_isa_result(&res, &rule_limits_default);	(severities, rules)
 *	for (i = 0; i < res.files_nr; i++)
 *		for (j = 0; j < res.files[i]->kernels_nr; j++)
 *			... res.files[i]->kernels[j]
 *	json_t *j = isa_result_to_json(&res);	(report/isa_json.h, docs/json.md)
 *	isa_result_release(&res);
 *
 * isa_scan_path() appends to `res`, so several paths can be scanned into
 * one result. A directory is walked recursively: files that are not
 * assembly (LLVM IR, MLIR, Python, JSON, ...) land in res.skipped with
 * the reason, and a bad file inside a directory becomes a skip, not an
 * error; a bad file named directly is an error.
 *
 * Ownership: everything reachable from an isa_result belongs to it and is
 * freed by isa_result_release(). Strings in the static tables are static.
 */
#ifndef TKO_ISA_H
#define TKO_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "util/strmap.h"
#include "util/buf.h"

enum isa_kind {
	ISA_NONE,
	ISA_AMDGCN,
	ISA_PTX,
	ISA_SASS,
};
const char *isa_kind_name(enum isa_kind kind);

/* What a family is about; findings and tables group by it. */
enum isa_group {
	ISA_GROUP_MEMORY,	/* global, buffer, flat, scratch, scalar memory */
	ISA_GROUP_LDS,		/* LDS / shared memory */
	ISA_GROUP_ATOMIC,	/* read-modify-write on global, flat or LDS memory */
	ISA_GROUP_MATRIX,	/* matrix-core instructions and their register moves */
	ISA_GROUP_SYNC,		/* waits and barriers */
};
const char *isa_group_name(enum isa_group group);

/* The shared family table's rows; isa_families[] describes each. */
enum isa_family {
	ISA_FAM_GLOBAL_LOAD,
	ISA_FAM_GLOBAL_STORE,
	ISA_FAM_BUFFER_LOAD,
	ISA_FAM_BUFFER_STORE,
	ISA_FAM_FLAT_LOAD,
	ISA_FAM_FLAT_STORE,
	ISA_FAM_SCRATCH_LOAD,
	ISA_FAM_SCRATCH_STORE,
	ISA_FAM_SCALAR_LOAD,
	ISA_FAM_SCALAR_STORE,
	ISA_FAM_LDS_READ,
	ISA_FAM_LDS_WRITE,
	ISA_FAM_LDS_MATRIX_READ,
	ISA_FAM_LDS_MATRIX_WRITE,
	ISA_FAM_LDS_PERMUTE,
	ISA_FAM_GLOBAL_TO_LDS,
	ISA_FAM_BULK_COPY,
	ISA_FAM_GLOBAL_ATOMIC,
	ISA_FAM_BUFFER_ATOMIC,
	ISA_FAM_FLAT_ATOMIC,
	ISA_FAM_LDS_ATOMIC,
	ISA_FAM_MFMA,
	ISA_FAM_MMAC,
	ISA_FAM_WMMA,
	ISA_FAM_MMA,
	ISA_FAM_WGMMA,
	ISA_FAM_ACC_MOVE,
	ISA_FAM_SCALED_CVT,
	ISA_FAM_WAITCNT,
	ISA_FAM_ASYNC_WAIT,
	ISA_FAM_BARRIER,
	ISA_FAM_FENCE,
	ISA_FAM_NR,
	ISA_FAM_NONE = 255	/* an instruction no family claims */
};

struct isa_family_info {
	const char *name;	/* stable name used in JSON and tables ("global_load") */
	enum isa_group group;	/* what it is about */
	const char *what;	/* the instructions it covers, per ISA (for docs) */
};
extern const struct isa_family_info isa_families[ISA_FAM_NR];

/*
 * Slots subdivide a family's count: memory families by access width per
 * lane/thread, s_waitcnt by the counters it waits on.
 */
enum isa_slot {
	ISA_W8,
	ISA_W16,
	ISA_W32,
	ISA_W64,
	ISA_W96,
	ISA_W128,
	ISA_W256,
	ISA_W512,
	ISA_W2X32,	/* ds_read2_b32 / ds_write2_b32: two 32-bit accesses */
	ISA_W2X64,	/* ds_read2_b64 / ds_write2_b64 */
	ISA_C_VMCNT,
	ISA_C_LGKMCNT,
	ISA_C_EXPCNT,
	ISA_C_VSCNT,
	ISA_SLOT_NR,
	ISA_SLOT_NONE = 255	/* no width (matrix, barrier) */
};

struct isa_slot_info {
	const char *name;	/* JSON key: "128", "2x64", "vmcnt" */
	unsigned bits;		/* bits moved per lane (0 for counters) */
	int counter;		/* 1: an s_waitcnt counter, not a width */
};
extern const struct isa_slot_info isa_slots[ISA_SLOT_NR];
/* The slot of a width in bits (8..512), or ISA_SLOT_NONE. */
unsigned isa_slot_of_bits(unsigned bits);

struct isa_family_count {
	uint64_t count;			/* instructions of the family */
	uint64_t returning;		/* atomics that return the old value */
	uint64_t slot[ISA_SLOT_NR];	/* by width, or by s_waitcnt counter */
};

/* Where a resource number was read; higher values are trusted more. */
enum isa_src {
	ISA_SRC_NONE,		/* unknown */
	ISA_SRC_ARCH,		/* a fact of the architecture (tko's arch table) */
	ISA_SRC_COMPUTED,	/* computed by tko from other numbers */
	ISA_SRC_PTX,		/* a PTX directive (.reqntid, .maxntid) */
	ISA_SRC_RES_USAGE,	/* cuobjdump -res-usage */
	ISA_SRC_TRITON_JSON,	/* Triton's <kernel>.json beside the file */
	ISA_SRC_AMDHSA,		/* an .amdhsa_* directive */
	ISA_SRC_SYMBOL,		/* a .set <kernel>.num_vgpr-style symbol */
	ISA_SRC_KERNEL_INFO,	/* the "; Kernel info:" comment block */
	ISA_SRC_METADATA,	/* the .amdgpu_metadata YAML (amdhsa.kernels) */
};
const char *isa_src_name(enum isa_src src);

enum isa_res {
	ISA_RES_VGPRS,		/* VGPRs counted against the per-wave budget (arch + AGPR on gfx90a+) */
	ISA_RES_ARCH_VGPRS,	/* architectural VGPRs alone */
	ISA_RES_AGPRS,		/* accumulation VGPRs (gfx90a/94x/95x) */
	ISA_RES_SGPRS,		/* SGPRs */
	ISA_RES_VGPR_SPILLS,	/* VGPRs spilled to scratch */
	ISA_RES_SGPR_SPILLS,	/* SGPRs spilled */
	ISA_RES_SCRATCH_BYTES,	/* private segment bytes per lane */
	ISA_RES_LDS_BYTES,	/* static LDS bytes per workgroup */
	ISA_RES_OCCUPANCY,	/* waves per SIMD */
	ISA_RES_WAVEFRONT,	/* wavefront size (AMD) */
	ISA_RES_WORKGROUP,	/* maximum threads per workgroup / block */
	ISA_RES_CODE_BYTES,	/* code length in bytes */
	ISA_RES_NEXT_FREE_VGPR,	/* .amdhsa_next_free_vgpr as written */
	ISA_RES_NEXT_FREE_SGPR,	/* .amdhsa_next_free_sgpr as written */
	ISA_RES_ACCUM_OFFSET,	/* .amdhsa_accum_offset: first AGPR in the unified file */
	ISA_RES_REGISTERS,	/* NVIDIA registers per thread */
	ISA_RES_SHARED_BYTES,	/* NVIDIA shared memory per block */
	ISA_RES_LOCAL_BYTES,	/* NVIDIA local memory per thread (spills, local arrays) */
	ISA_RES_STACK_BYTES,	/* NVIDIA stack bytes per thread */
	ISA_RES_NUM_WARPS,	/* Triton num_warps */
	ISA_RES_NUM_STAGES,	/* Triton num_stages */
	ISA_RES_NR
};

struct isa_res_info {
	const char *name;	/* JSON key */
	const char *label;	/* terminal label */
};
extern const struct isa_res_info isa_res_info[ISA_RES_NR];

struct isa_value {
	long long value;	/* the number; meaningless when src is ISA_SRC_NONE */
	enum isa_src src;	/* where it came from */
};

/* Count of one instruction (op) on one source line. */
struct isa_srcline {
	uint32_t file;		/* 1-based index into the file's srcfiles; 0: no file */
	uint32_t line;		/* source line; 0: none (compiler-generated) */
	uint32_t op;		/* index into the file's ops */
	uint64_t count;		/* instructions */
};

#define ISA_EVIDENCE_MAX 12

struct isa_evidence {
	const char *key;	/* static name of the number */
	long long value;	/* the number */
	enum isa_src src;	/* where a resource number came from; NONE for counts */
};

struct isa_finding {
	const char *id;		/* stable identifier ("vector_width", "spills", ...) */
	const char *severity;	/* static: "warning" when a rule that judges it fired, else
				   "info"; NULL until decide_isa_result() ran */
	char *message;		/* one sentence naming the numbers */
	struct isa_evidence ev[ISA_EVIDENCE_MAX];	/* the numbers */
	size_t ev_nr;		/* how many */
};

/* One number of a fired rule. */
struct isa_rule_ev {
	char *key;		/* "vector_share" */
	double value;
};

/* A rule of tko's table that fired on the kernel alone (decide/isa_scope.h). */
struct isa_rule {
	char *rule;		/* its name (docs/rules.md) */
	const char *decision;	/* static: what it argues for ("tune") */
	char *why;		/* one sentence naming the numbers */
	char *knobs;		/* what to try first, or NULL */
	struct isa_rule_ev *ev;	/* the numbers */
	size_t ev_nr;
};

/* Per-kernel map (file, line, op) -> count while scanning; see result.c. */
struct isa_linemap {
	uint64_t *keys;		/* packed keys, 0 = empty */
	uint64_t *counts;	/* counts for the keys */
	size_t cap, nr;		/* slots, used */
};

struct isa_kernel {
	char *name;		/* the symbol, exactly as written */
	char *arch;		/* "gfx942", "sm_90a"; NULL when unknown */
	int is_kernel;		/* 1: an entry point; 0: a device function */
	size_t label_line;	/* line of the symbol in the scanned text; 0: none */
	uint64_t instructions;	/* instruction statements counted */
	uint64_t macro_instructions;	/* of those, written inside .macro bodies */
	uint64_t spill_stores;	/* stores the compiler commented as spills */
	uint64_t spill_reloads;	/* loads the compiler commented as reloads */
	uint64_t unattributed;	/* memory/atomic/matrix instructions with no .loc */
	struct isa_family_count fam[ISA_FAM_NR];	/* by family */
	uint64_t *ops;		/* count per op index of the file's ops */
	size_t ops_alloc;	/* entries in ops */
	struct isa_srcline *lines;	/* sorted by file, line, op (after the scan) */
	size_t lines_nr;	/* entries in lines */
	struct isa_linemap linemap;	/* scanning state, empty after the scan */
	struct isa_value res[ISA_RES_NR];	/* resources */
	struct isa_finding *findings;	/* after the scan */
	size_t findings_nr, findings_alloc;
	struct isa_rule *rules;		/* after decide_isa_result(), in table order */
	size_t rules_nr;
};

/* One distinct instruction spelling the scan met, with its family. */
struct isa_op {
	char *name;		/* mnemonic ("global_load_dwordx4", "buffer_load_dword lds") */
	size_t len;		/* strlen(name) */
	uint8_t family;		/* enum isa_family or ISA_FAM_NONE */
	uint8_t slot;		/* enum isa_slot or ISA_SLOT_NONE */
	uint8_t flags;		/* ISA_OPF_* */
	uint8_t counters;	/* s_waitcnt counter slots named by the mnemonic (bit per slot - ISA_C_VMCNT) */
};

enum {
	ISA_OPF_ATOMIC = 1,	/* an atomic: check whether it returns */
	ISA_OPF_RETURNS = 2,	/* returns by its spelling (_rtn, PTX atom, SASS ATOM) */
	ISA_OPF_LDS_MOD = 4,	/* a buffer load that becomes direct-to-LDS with "lds" */
	ISA_OPF_SPILLABLE = 8,	/* a load/store a spill comment may follow */
	ISA_OPF_WAITCNT = 16,	/* counters are read from the operands */
	ISA_OPF_DCU = 32,	/* Hygon DCU-only spelling */
};

struct isa_file_result {
	char *path;		/* the input as given (or "PATH (tool)" for tool output) */
	enum isa_kind isa;	/* which scanner read it */
	const char *format;	/* static: "assembly", "offload bundle", "disassembly", ... */
	char *via;		/* the command that produced the text, or NULL */
	struct isa_kernel **kernels;	/* in order of first appearance */
	size_t kernels_nr, kernels_alloc;
	struct isa_op *ops;	/* interned instruction spellings */
	size_t ops_nr, ops_alloc;
	char **srcfiles;	/* source files named by .file / line info */
	size_t srcfiles_nr, srcfiles_alloc;
	char **notes;		/* informative lines */
	size_t notes_nr, notes_alloc;
	char **warnings;	/* lines about a suspect input (truncated, ...) */
	size_t warnings_nr, warnings_alloc;
	struct strmap op_map;		/* op name -> index */
	struct strmap kernel_map;	/* name + arch -> kernel index */
	struct strmap srcfile_map;	/* source path -> 1-based index */
	struct buf key;			/* scratch for kernel keys */
};

/* A file that was not scanned, and why. */
struct isa_skip {
	char *path;		/* the file */
	const char *kind;	/* static: "mlir", "llvm-ir", "python", "json", "binary", "error", ... */
	char *reason;		/* one line */
};

struct isa_result {
	struct isa_file_result **files;	/* scanned files */
	size_t files_nr, files_alloc;
	struct isa_skip *skipped;	/* files not scanned */
	size_t skipped_nr, skipped_alloc;
};
#define ISA_RESULT_INIT { NULL, 0, 0, NULL, 0, 0 }

struct isa_options {
	int no_tools;		/* never run an external disassembler */
	double tool_timeout_s;	/* limit per tool run */
	int no_siblings;	/* do not read <name>.json / <name>.cubin beside a file */
};
#define ISA_OPTIONS_INIT { 0, 120.0, 0 }

/* Negative returns of the scanning functions. */
#define ISA_ERR_INPUT (-1)	/* bad input: missing, empty, binary, not assembly, ... */
#define ISA_ERR_TOOL (-2)	/* a tool the input needs is missing or cannot handle it */

/*
 * A scanner for one ISA's text (amdgcn.c, ptx.c, sass.c). detect() says
 * how sure it is (0..100) that p[0..n), the start of a file, is its text;
 * scan() reads the whole text into `out` (0, or -1 with a line in err).
 */
struct isa_scanner {
	const char *name;	/* "amdgcn", "ptx", "sass" */
	enum isa_kind kind;	/* what it reads */
	int (*detect)(const char *p, size_t n);
	int (*scan)(const char *p, size_t n, struct isa_file_result *out,
		    struct buf *err);
};
/* All scanners, NULL-terminated: the one list to edit to add an ISA. */
extern const struct isa_scanner *const isa_scanners[];
const struct isa_scanner *isa_scanner_for(enum isa_kind kind);

/*
 * Scans a file or a directory (recursively) into res: each file's result
 * is finished (resources derived, findings computed). 0 or ISA_ERR_*,
 * with one line in err.
 */
int isa_scan_path(const char *path, const struct isa_options *opts,
		  struct isa_result *res, struct buf *err);

/*
 * Scans text already in memory; `label` names it in messages and in
 * out->path. kind ISA_NONE detects the ISA from the content. The caller
 * initialises out with isa_file_init(). 0 or ISA_ERR_INPUT.
 */
int isa_scan_text(const char *label, const char *p, size_t n,
		  enum isa_kind kind, struct isa_file_result *out,
		  struct buf *err);

void isa_file_init(struct isa_file_result *f, const char *path);
/* Frees k's rules (decide_isa_result() replaces them). */
void isa_kernel_rules_release(struct isa_kernel *k);
void isa_file_release(struct isa_file_result *f);
void isa_result_release(struct isa_result *res);

/* The kernels named exactly `name` (and arch, when not NULL). */
size_t isa_result_count(const struct isa_result *res, const char *name,
			const char *arch);
/*
 * Drops every kernel except those named `name` (and arch when not NULL),
 * and files left with none. The results are then for reading only (their
 * name indexes no longer match).
 */
void isa_result_keep(struct isa_result *res, const char *name,
		     const char *arch);

/* The source file of a line entry, or NULL. */
const char *isa_srcfile(const struct isa_file_result *f, uint32_t id);
/*
 * Instructions of the global memory load/store families (global, buffer,
 * flat, global_to_lds) -- what the vector_width finding is about. *wide
 * (when not NULL) gets those moving 128 bits or more per lane, *narrow
 * those moving 32 or fewer.
 */
uint64_t isa_global_ops(const struct isa_kernel *k, uint64_t *wide,
			uint64_t *narrow);

#define ISA_JSON_SCHEMA_VERSION 1

#endif
