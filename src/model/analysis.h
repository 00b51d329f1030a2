/*
 * The analysis model: what `tko investigate` knows about a RUN, kernel by
 * kernel, once every source of evidence has been joined (analyse/join.c),
 * every time share computed (analyse/share.c) and every rule applied
 * (decide/rules.c). It is
 * also the report model: the report writers (src/report/) render it, and
 * RUN/analysis/kernels.json is it, written and read back through the
 * field tables of analysis_desc.c (docs/json.md, "tko investigate").
 *
 * Unknown numbers are -1 (counts) or NAN (measurements); unknown strings
 * NULL. Every string is owned by the struct holding it; an_run_release()
 * frees everything.
 *
 * Which kernels are here. `kernels` holds the kernels the model ran: those
 * a TorchInductor wrapper (output code) module launches, the hand-written
 * kernels the capture saw launched, and, in a RUN without wrapper modules,
 * every kernel the logs name except autotuning's own candidates. The
 * candidates (max-autotune's `triton_mm` choices, the `triton_` kernels
 * Inductor compiles to benchmark a fusion) never run in the model: they
 * are counted in `candidates`, one row per name. Library calls the
 * wrappers make (extern_kernels.mm, ...) are in `libcalls`.
 */
#ifndef TKO_MODEL_ANALYSIS_H
#define TKO_MODEL_ANALYSIS_H

#include <stddef.h>

#include "model/names.h"

/* One config the autotuner considered. */
struct an_config {
	char *text;		/* "XBLOCK=1024 num_warps=4 num_stages=1" */
	char *label;		/* a max-autotune choice's name ("triton_mm_18"), or NULL */
	enum at_method method;	/* how it was timed (AT_DECLARED: it was not), AT_METHOD_NONE unknown */
	double time_ms;		/* the autotuner's time, NAN untimed */
	double replay_ms;	/* tko run's time for the same config, NAN */
	int failed;		/* it failed to compile or run */
	int chosen;		/* the config the kernel ran with */
	long n_regs;		/* registers per thread the log or capture stated */
	long n_spills;		/* spilled registers the log or capture stated */
	long shared_bytes;	/* shared memory / LDS the log or capture stated */
};

/* One argument of the kernel, from its signature and the captured launch. */
struct an_arg {
	char *name;		/* parameter name */
	char *type;		/* signature type ("*fp32", "i32"), or NULL */
	char *dtype;		/* captured tensor dtype ("float32"), or NULL */
	char *shape;		/* "[100000, 256]", or NULL */
	char *stride;		/* "[256, 1]", or NULL */
	char *value;		/* a captured scalar's value as text, or NULL */
	char *hints;		/* "tt.divisibility=16 tt.pointer_range=32", or NULL */
	long storage_offset;	/* elements, -1 unknown */
	int pointer;		/* a pointer argument */
};

/* A place in the user's model code (from the post-grad graph in the log). */
struct an_origin {
	char *file;		/* "/work/main/tests/gpu/model.py" */
	long line;		/* its line */
	char *function;		/* the function ("forward"), or NULL */
	char *code;		/* the line's code as the log quotes it */
};

struct an_width {
	long bits;		/* bits per lane (8..512), or 0 for no width */
	long count;		/* instructions of that width */
};

/* One instruction family of the ISA scanner's shared table. */
struct an_family {
	char *name;		/* "global_load", "mma", "global_atomic" */
	char *group;		/* memory, lds, atomic, matrix, sync */
	long count;		/* instructions */
	long returning;		/* atomics that return the old value, -1 for others */
	struct an_width *widths;	/* by width, widest first */
	size_t nwidths;
};

/* A source line of the kernel and the memory, atomic or matrix instructions it became. */
struct an_srcline {
	char *file;		/* the source file (the kernel's module when the ISA did not say) */
	long line;		/* its line */
	char *code;		/* the line's text, trimmed, or NULL when the file is not here */
	char *ops;		/* "ld.global.v4.b32 x2, atom.global.gpu.relaxed.add.v4.f32 x4" */
	long count;		/* those instructions */
	int narrow;		/* a global/buffer access of 32 bits or less per lane */
	int atomic;		/* an atomic */
};

struct an_res {
	long vgprs;		/* AMD: VGPRs against the budget (arch + AGPR) */
	long agprs;		/* AMD: accumulation VGPRs */
	long sgprs;		/* AMD: SGPRs */
	long spills;		/* VGPRs + SGPRs spilled (AMD), or Inductor's nspill */
	long scratch_bytes;	/* AMD: private bytes per lane */
	long lds_bytes;		/* AMD LDS or NVIDIA shared memory per block */
	long occupancy;		/* AMD: waves per SIMD */
	long registers;		/* NVIDIA registers per thread (or Inductor's nreg) */
	long local_bytes;	/* NVIDIA local memory per thread */
	long num_warps;		/* Triton num_warps of the compiled binary */
	long num_stages;	/* Triton num_stages */
	long workgroup;		/* threads per block */
};

/* The ISA of the compiled binary the kernel ran with. */
struct an_isa {
	char *file;		/* the scanned file (RUN-relative when inside the RUN); NULL: no ISA */
	char *isa;		/* amdgcn, ptx, sass */
	char *arch;		/* gfx942, sm_90a */
	char *cache_dir;	/* the Triton cache entry (launcher.cache_hash) */
	char *match;		/* how the entry was found: cache_hash, module, module+warps/stages, same_source */
	long candidates;	/* compiled entries of this kernel for this arch */
	long instructions;	/* instructions counted */
	long mem_ops;		/* global/buffer/flat loads and stores */
	long mem_wide;		/* of those, 128 bits or more per lane */
	long mem_narrow;	/* of those, 32 bits or fewer per lane */
	double vector_share;	/* mem_wide / mem_ops, NAN without memory ops */
	long global_ops;	/* global (and PTX ld/st.global) loads and stores */
	long buffer_ops;	/* AMD buffer loads and stores */
	long flat_ops;		/* flat loads and stores */
	long atomics;		/* atomic instructions (global, buffer, flat, LDS) */
	long atomics_returning;	/* of those, returning the old value */
	long lds_ops;		/* LDS / shared memory instructions */
	long matrix_ops;	/* MFMA / MMAC / WMMA / MMA / WGMMA instructions */
	struct an_res res;	/* resources */
	struct an_family *families;	/* every family seen, in table order */
	size_t nfamilies;
	struct an_srcline *lines;	/* source lines with memory/atomic/matrix instructions */
	size_t nlines;
	char **findings;	/* the scanner's findings, one sentence each */
	size_t nfindings;
	/*
	 * 1: a device function, not a kernel entry (`tko isa` on a code object
	 * that links helpers in). Not in kernels.json: a RUN's kernels are
	 * always entries.
	 */
	int device_function;
};

/*
 * How the kernel's loads and stores address memory, read from its source
 * (parse/tl_addr.h). Counts are access sites, -1 when the source was not
 * read; lines are the first such site's, -1 when there is none.
 */
struct an_addr {
	long loads, stores;	/* tl.load / tl.store sites */
	long divmod;		/* accesses whose offset is built with // or % */
	long divmod_line;
	long gathers;		/* loads through a loaded index */
	long gather_elems;	/* ... with no stride-1 index term: one element per lane */
	long gather_line;
	long scatters;		/* plain stores through a loaded index */
	long scatter_line;
	long strided;		/* accesses whose index terms all have a stride other than 1 */
	long strided_line;
	long strided_stride;	/* that access's smallest stride, -2 symbolic */
	long zero_stores;	/* stores of a constant zero */
	char *zero_param;	/* the pointer argument they write, or NULL */
	char *zero_consumer;	/* the next call the wrapper passes that buffer to, or NULL */
};

/* The best result `tko tune` recorded for the kernel. */
struct an_tune {
	char *file;		/* the tune.json read; NULL: no tuning */
	enum tune_mode mode;	/* gpu or compile-only (tune_mode_names), TUNE_MODE_NONE unknown */
	char *target;		/* the arch tuned for */
	char *winner;		/* the winning variant's label */
	double time_ms;		/* its time */
	double speedup;		/* base time / winner time */
	long variants;		/* variants tried */
	long correct;		/* variants whose outputs matched */
	long split_size;	/* the RSPLIT_SIZE the winner needs set in Inductor, -1: none */
	int online_softmax_off;	/* 1: the winner is a two-pass softmax (Inductor's online_softmax off) */
	char *failure;		/* the first variant that failed with a known signature
				 * (model/errsig.h): "<label>: <what it means>", or NULL */
	int buffer_ops_failed;	/* a variant with AMDGCN_USE_BUFFER_OPS=1 failed that way */
	double twopass_speedup;	/* the best correct two-pass softmax variant's base / its time, NAN: none */
	long hints_variants;	/* variants with source hints (tl.multiple_of / max_contiguous) */
	long hints_same_isa;	/* ... of them compiled to the ISA of a variant without hints */
	int winner_is_base;	/* 1: no variant beat the base config (tune.json's winner.is_base) */
	double wall_s;		/* the sweep's wall time, NAN unknown */
};

/* A number a rule used. */
struct an_evidence {
	char *key;		/* "share", "peak_fraction", "atomics" */
	double value;		/* its value */
};

/* A rule that fired, with the numbers it used. */
struct an_fired {
	char *rule;		/* the rule's name (docs/rules.md) */
	enum decision decision;	/* what it argues for */
	char *why;		/* one sentence naming the numbers */
	char *knobs;		/* for tune: what to try first, or NULL */
	struct an_evidence *ev;
	size_t nev;
};

/* Evidence that is missing, and what would fill it. */
struct an_gap {
	char *what;		/* "no replay time: ..." */
	char *command;		/* the command to run, or NULL */
};

struct an_kernel {
	char *id;		/* unique in the run: the name, or name@<8 chars of its module or hash> */
	char *name;		/* the Triton function name */
	enum kernel_kind kind;	/* pointwise, reduction, ...; KIND_NONE unknown */
	char *module;		/* the kernel's Python file (RUN-relative when inside the RUN) */
	char *module_key;	/* Inductor's kernel hash (the module's basename), or the kernel dir name */
	char *source_hash;	/* capture's sha256 of the source, or NULL */
	char *kernel_dir;	/* capture's kernel directory, RUN-relative, or NULL */
	char *autotune_id;	/* the kernel's id in tko summarize ("triton_#2"), or NULL */
	char *graph;		/* Dynamo's compile id of the graph launching it ("0/0"), or NULL */
	char *wrapper;		/* the wrapper module launching it, or NULL */
	char *arch;		/* the device arch it was compiled for */

	char **aten;		/* ATen ops it computes ("aten.index_add") */
	size_t naten;
	char **nodes;		/* the FX nodes it fuses ("index_put") */
	size_t nnodes;
	struct an_origin *origins;	/* the user's source lines behind those nodes */
	size_t norigins;

	enum at_method chosen_by;	/* how the autotuner chose, AT_METHOD_NONE unknown */
	char *best;		/* the chosen config's text */
	long configs_timed;	/* configs the autotuner timed */
	struct an_config *configs;	/* the configs, chosen one marked */
	size_t nconfigs;

	long launches;		/* launches counted (see launch_basis) */
	long signatures;	/* distinct argument signatures the capture saw launched, -1 unknown */
	enum launch_basis launch_basis;	/* where launches came from */
	double time_ms;		/* time per launch (see time_basis) */
	enum time_basis time_basis;	/* where time_ms came from, TIME_NONE: no time */
	char *time_note;	/* one sentence saying where time_ms came from */
	double total_ms;	/* launches x time_ms */
	double share;		/* total_ms / the run's measured total, NAN without a time */
	long rank;		/* 1 = most time, -1 without a time */

	double bytes;		/* bytes used for the rate (see bytes_basis) */
	enum bytes_basis bytes_basis;	/* which byte count bytes is, BYTES_NONE: none */
	int bytes_estimate;	/* bytes is an estimate (Inductor's, a gather's bound, ...) */
	char *bytes_note;	/* how bytes was counted, one phrase */
	double traffic_bytes;	/* tko's count of the bytes read and written (model/traffic.h) */
	long traffic_gathered;	/* arguments of it charged by a gather or scatter bound */
	double inductor_bytes;	/* Inductor's kernel_num_gb x 1e9 */
	double footprint_bytes;	/* bytes the captured arguments span */
	double seed_bytes;	/* the seed skill's "Total tensor bytes": numel x element size, mutated args twice */
	double gbps;		/* bytes / time_ms, 10^9 bytes per second */
	double peak_fraction;	/* gbps / the run's measured copy rate; NAN when rate_doubt */
	char *rate_doubt;	/* why gbps is over 105% of the copy rate and no fact, or NULL */

	struct an_arg *args;	/* signature and captured launch, in order */
	size_t nargs;
	int hints_known;	/* triton_meta lists hints: a missing one is a fact */
	long pointer_args;	/* pointer arguments */
	char **no_divisibility;	/* pointer arguments without tt.divisibility */
	size_t nno_divisibility;
	char **no_pointer_range;	/* pointer arguments without tt.pointer_range */
	size_t nno_pointer_range;
	long src_loads;		/* tl.load calls in the source */
	long src_stores;	/* tl.store calls */
	long src_atomics;	/* tl.atomic_* calls */
	long src_assume;	/* tl.assume calls */
	long src_multiple_of;	/* tl.multiple_of calls */
	long src_max_contiguous;	/* tl.max_contiguous calls */
	long src_dot;		/* tl.dot calls */
	struct an_addr addr;	/* address patterns of its loads and stores */

	struct an_isa isa;	/* the compiled binary's ISA (isa.file NULL: none) */
	struct an_tune tune;	/* tko tune's result (tune.file NULL: none) */

	enum decision decision;	/* DECISION_NONE before the rules ran */
	char *action;		/* one sentence: what to do */
	struct an_fired *fired;	/* every rule that fired, deciding one first */
	size_t nfired;
	struct an_gap *gaps;	/* missing evidence */
	size_t ngaps;
};

/* A kernel name autotuning compiled that the model never launched. */
struct an_candidate {
	char *name;		/* "triton_mm", "triton_" */
	char *why;		/* "max-autotune choices for mm(2048x2048, 2048x2048)" */
	long count;		/* instances */
	long timed;		/* configs timed over them */
	double best_ms;		/* the fastest time among them, NAN */
};

/* A library call a wrapper module makes (not a Triton kernel). */
struct an_libcall {
	char *op;		/* "extern_kernels.mm" */
	char *wrapper;		/* the wrapper module */
	char *graph;		/* its compile id, or NULL */
	long line;		/* line of the call */
	long calls;		/* call sites with this op in this wrapper */
};

/*
 * One group of the whole-step profile (src/profile/attrib.h): the library
 * kernels one ATen op launched, or one Triton kernel (kernel_id names the
 * model's kernel it was matched to).
 */
struct an_step_group {
	long rank;		/* 1 = the largest share of the busy time */
	enum prof_class cls;	/* triton, gemm, ... (prof_class_names), PROF_CLASS_NONE unknown */
	char *op;		/* the ATen op or wrapper call ("aten::mm"), or NULL */
	char *kernel;		/* its largest GPU kernel */
	char *dtype;		/* the op's first input type ("float", "c10::BFloat16"), or NULL */
	char *kernel_id;	/* Triton: the an_kernel id it is, or NULL */
	long calls;		/* GPU activities in the window */
	long kernels;		/* distinct kernel names */
	double total_ms;	/* their summed time */
	double busy_ms;		/* the busy time given to them (overlaps split) */
	double share;		/* busy_ms / the profile's busy time */
	enum decision decision;	/* from the library rules (docs/rules.md), or DECISION_NONE */
	char *action;		/* one sentence, or NULL */
	struct an_fired *fired;	/* the rules that fired, deciding one first */
	size_t nfired;
};

/* The whole-step profile shares came from (file NULL: none). */
struct an_profile {
	char *file;		/* the profile read (RUN-relative when inside the RUN) */
	char *format;		/* kineto, rocprofv3_kernel_trace, nsys_sqlite, ... */
	char *device;		/* as the profile names it, or NULL */
	int partial;		/* the file ended early: the numbers cover what it holds */
	int timeline;		/* it has start times (a statistics table does not) */
	long activities;	/* GPU activities */
	long steps;		/* ProfilerStep#N ranges */
	double busy_ms;		/* union of the GPU activities */
	double span_ms;		/* first start to last end, NAN without a timeline */
	double idle_ms;		/* span - busy, clock jumps left out, NAN without a timeline */
	double kernel_ms;	/* summed durations (over busy when streams overlap) */
	double step_ms;		/* per step, from the steps' first GPU starts, NAN */
	struct an_evidence *classes;	/* share of busy time per class ("gemm": 0.87) */
	size_t nclasses;
	char **notes;		/* what the reader noted (partial, clock jumps, no timeline) */
	size_t nnotes;
};

struct an_run {
	char *tool;		/* "tko investigate" */
	char *tko_version;	/* tko's version */
	char *run;		/* the RUN directory as given */
	char *command;		/* the captured command line, or NULL */
	char *device;		/* "NVIDIA H200", or NULL */
	char *arch;		/* "sm_90", "gfx936" */
	char *backend;		/* cuda, hip */
	double peak_gbps;	/* measured copy bandwidth, NAN */
	char *peak_source;	/* where the peak came from */
	char *share_method;	/* one sentence: how shares were computed */
	double measured_ms;	/* sum of total_ms over the kernels with a time */
	long timed;		/* kernels with a time */
	long untimed;		/* kernels without */
	long logs;		/* log files read */
	long modules;		/* kernel modules read */
	long wrappers;		/* wrapper modules read */
	long isa_files;		/* ISA files scanned */
	long capture_dirs;	/* capture kernel directories read */
	long replays;		/* replay results read */
	long tunes;		/* tune results read */
	struct an_kernel *kernels;	/* ranked: most time first, untimed last */
	size_t nkernels;
	struct an_candidate *candidates;
	size_t ncandidates;
	struct an_libcall *libcalls;
	size_t nlibcalls;
	struct an_profile profile;	/* the whole-step profile (profile.file NULL: none) */
	struct an_step_group *step_groups;	/* its groups, largest share first */
	size_t nstep_groups;
	struct an_fired *step_rules;	/* rules about the whole step (library-bound, idle) */
	size_t nstep_rules;
	struct an_gap *gaps;	/* missing evidence for the whole run */
	size_t ngaps;
	char **notes;		/* what was unusual while reading */
	size_t nnotes;
};

void an_run_init(struct an_run *r);
void an_run_release(struct an_run *r);
void an_kernel_init(struct an_kernel *k);

/* Appends an initialised kernel / gap / note / ... and returns it. */
struct an_kernel *an_run_add_kernel(struct an_run *r);
void an_add_gap(struct an_gap **v, size_t *nr, const char *what, const char *command);
void an_add_str(char ***v, size_t *nr, const char *s);
void an_run_note(struct an_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The config the kernel ran with (the first marked chosen), or NULL. */
const struct an_config *an_kernel_chosen(const struct an_kernel *k);

/* The kernel with this id, or NULL. */
struct an_kernel *an_run_find(const struct an_run *r, const char *id);

#endif
