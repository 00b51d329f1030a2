/*
 * The normalised autotune model that `tko summarize` builds and that
 * `tko report` / `tko investigate` read in-process: one entry per kernel,
 * whatever log or cache the facts came from.
 *
 * A kernel (struct at_kernel) has the configs it was built with
 * ("declared": what CachingAutotuner was given), zero or more tunings
 * (struct at_tuning: one benchmark of several configs, one coordinate
 * descent session, one max-autotune table, one @triton.autotune run), each
 * with the configs it timed (struct at_config) and the one it chose, and
 * the final choice (at_kernel_best). Every fact carries a struct at_src:
 * the input file, the line, and the format that stated it.
 *
 * USAGE (the library API; src/parse/summarize.h reads files into a set):
 *
 *	struct autotune_set set;
 *	struct buf err = BUF_INIT;
 *	const char *paths[] = { "RUN", "extra.log" };
 *
 *	autotune_set_init(&set);
 *	if (summarize_paths(paths, 2, &set, &err) < 0)
 *		... err.buf names the file and the problem ...
 *	for (i = 0; i < set.nr; i++) {
 *		const struct at_kernel *k = set.kernels[i];
 *		const struct at_config *best = at_kernel_best(k, NULL);
 *		...
 *	}
 *	json = autotune_set_to_json(&set, NULL);	(see report/summarize_json.h)
 *	autotune_set_release(&set);
 *
 * Kernel identity. Inductor reuses names: "triton_" is the placeholder
 * name of every kernel it compiles to benchmark a fusion, "triton_mm" of
 * every max-autotune template choice, and two graphs may each have a
 * "triton_poi_fused_add_0". So a name may have several instances, numbered
 * from 1 in the order they appear; at_kernel_id() is "name" for a unique
 * name and "name#2" otherwise. Readers decide when a line starts a new
 * instance (inductor_log.c: a second "CachingAutotuner gets" for the same
 * name; capture_events.c: a new source_hash). Several inputs describing
 * the same run (events.jsonl and model.log of one RUN) are merged: the
 * k-th instance of a name in one input is the k-th instance in the set.
 *
 * Ownership: the set owns every string and array below; pointers returned
 * by the functions here stay valid until autotune_set_release() (kernels
 * and tunings are individually allocated, so adding more never moves them).
 */
#ifndef TKO_PARSE_AUTOTUNE_H
#define TKO_PARSE_AUTOTUNE_H

#include <stddef.h>

#include "model/names.h"
#include "util/strmap.h"

/* The formats tko reads; at_format_name() gives the names used in JSON. */
enum at_format {
	AT_FMT_NONE,		/* not known (yet) */
	AT_FMT_EVENTS,		/* tko capture's events.jsonl (docs/capture-events.md) */
	AT_FMT_INDUCTOR_LOG,	/* TORCH_LOGS=+inductor lines */
	AT_FMT_MAX_AUTOTUNE,	/* max-autotune "AUTOTUNE op(...)" tables */
	AT_FMT_TRITON_PRINT,	/* TRITON_PRINT_AUTOTUNING=1 lines */
	AT_FMT_SEED_LOG,	/* the seed skill's autotune.log */
	AT_FMT_BEST_CONFIG,	/* Inductor's .best_config cache files */
	AT_FMT_OUTPUT_CODE,	/* Inductor's output (wrapper) module */
	AT_FMT_TRITON_CACHE,	/* Triton's cache directory (kernel names) */
	AT_FMT_NAME,		/* derived from the kernel's name, not read */
	AT_FMT_COUNT
};

const char *at_format_name(enum at_format f);

/* Where a fact came from. */
struct at_src {
	unsigned file;		/* index into autotune_set.inputs; meaningless when fmt is AT_FMT_NONE */
	size_t line;		/* 1-based line, 0 for a whole file (JSON files) */
	enum at_format fmt;	/* how that file was read; AT_FMT_NONE: fact unknown */
};

/* A keyword argument of a config, as printed ("XBLOCK" = "1024"). */
struct at_kwarg {
	char *name;		/* the constexpr's name */
	char *value;		/* its value as text, quotes kept ("'tl.float32'", "True") */
};

/* One Triton config, possibly timed. Unknown integers are -1, unknown times NAN. */
struct at_config {
	char *label;		/* the choice's name in a max-autotune table ("triton_mm_18", "mm"), or NULL */
	char *text;		/* the config as the input printed it, or NULL */
	struct at_kwarg *kw;	/* block sizes and other constexprs, in printed order */
	size_t nkw, kw_alloc;
	long num_warps;		/* -1: not stated */
	long num_stages;	/* -1: not stated */
	long num_ctas;		/* -1: not stated */
	long maxnreg;		/* -1: not stated or None */
	double time_ms;		/* measured time; NAN: not timed; INFINITY: the config failed */
	double pct_of_best;	/* max-autotune's "% of best"; NAN elsewhere */
	long n_regs;		/* registers per thread (Inductor "nreg"), -1 unknown */
	long n_spills;		/* spilled registers (Inductor "nspill"), -1 unknown */
	long shared_bytes;	/* shared memory (Inductor "#shared-mem"), -1 unknown */
	char *error;		/* why the config failed, or NULL */
	char *cache_hash;	/* the Triton cache directory of its compiled binary, or NULL */
	struct at_src src;	/* the line that gave it */
};

/* The name of an autotuner method (model/names.h); "benchmark" for any other value. */
const char *at_method_name(enum at_method m);

struct at_kernel;
struct at_launch;	/* autotune_launch.h */

struct at_tuning {
	struct at_kernel *kernel;	/* the kernel it tuned */
	enum at_method method;
	struct at_config *configs;	/* in the order the input listed them */
	size_t nr, alloc;
	long best;		/* index into configs of the chosen one, -1 unknown */
	struct at_src best_src;	/* the line that named the choice */
	double elapsed_ms;	/* wall time of the tuning, NAN unknown */
	struct at_src elapsed_src;
	double precompile_ms;	/* max-autotune precompile time, NAN unknown */
	double speedup;		/* coordinate descent: baseline time / best time, NAN unknown */
	long num_choices;	/* max-autotune: choices benchmarked (the table shows the top ones), -1 */
	char *key;		/* @triton.autotune key, or max-autotune "strides/dtypes", or NULL */
	char *saved_to;		/* the .best_config the log says it wrote (at_tuning_saved_to), or NULL */
	char *cache_file;	/* the .best_config file read that records it, or NULL */
	int complete;		/* 1 once the line closing the record was read */
	struct at_src src;	/* the line that opened it */
	struct at_src twin_src;	/* the same tuning as another input told it, merged in (autotune_twins.h) */
};

/* A problem a reader saw (an autotune error, an unknown config). */
struct at_note {
	char *text;		/* one line */
	struct at_src src;
};

struct at_kernel {
	char *name;		/* the Triton function name, or the max-autotune op ("mm(2048x2048, 2048x2048)") */
	unsigned instance;	/* 1.. among kernels of this name */
	struct at_kernel *first_instance;	/* instance 1 of this name (itself, for instance 1) */
	struct at_kernel *next_instance;	/* the next instance of this name, or NULL */
	unsigned ninstances;	/* on instance 1 only: how many this name has (see at_kernel_instances) */
	struct at_src name_src;	/* first mention */
	char *kind;		/* pointwise, reduction, persistent_reduction, template, user_autotune, max_autotune... */
	struct at_src kind_src;
	char *compile_id;	/* Dynamo's "frame/compile" id from the glog prefix ("0/0"), or NULL */
	char *source_file;	/* the kernel's Python module, as the input printed it */
	char *source_local;	/* the same file found on this machine (or in the RUN), or NULL */
	struct at_src source_src;
	char *source_hash;	/* capture's sha256 of the source, or NULL */
	char *kernel_dir;	/* capture's kernel directory, relative to the RUN, or NULL */
	long num_configs;	/* configs it was built with, -1 unknown */
	struct at_src num_configs_src;
	struct at_config *declared;	/* those configs, when listed */
	size_t ndeclared, declared_alloc;
	struct at_tuning **tunings;	/* in the order they happened (inputs read in order) */
	size_t ntunings, tunings_alloc;
	long launches;		/* launches counted by capture, -1 unknown */
	struct at_src launches_src;
	long launch_signatures;	/* distinct argument signatures launched (capture), -1 unknown */
	struct at_launch *launch;	/* the arguments and estimates a log printed (seed log), or NULL */
	struct at_note *errors;
	size_t nerrors, errors_alloc;
	unsigned codegen_file;	/* 1 + index of the input whose "Generating kernel code" named it, 0: none */
};

/* One input file and what became of its lines. */
struct at_input {
	char *path;		/* as given, or joined from a RUN directory */
	enum at_format format;	/* the main format detected */
	unsigned formats;	/* bit (1 << enum at_format) per format seen in it */
	size_t bytes;
	size_t lines;		/* lines read (JSON files: 0) */
	size_t used;		/* lines that were part of an autotune record */
	size_t ignored;		/* lines about something else */
	size_t malformed;	/* lines that looked like autotune records but could not be read */
	size_t bad_lines[8];	/* the first malformed line numbers */
	size_t unknown_events;	/* events.jsonl: events of types this tko does not know */
	size_t unknown_fields;	/* events.jsonl: fields this tko does not know */
	int truncated;		/* the last line was cut off mid-record */
	char *note;		/* why a file was skipped or what was unresolved, or NULL */
};

/* Facts about the run as a whole (from capture's session_start). */
struct at_device {
	char *name;		/* "NVIDIA H200", or NULL */
	char *backend;		/* "cuda" or "hip" */
	char *arch;		/* "sm_90", "gfx936" */
	long warp_size;		/* -1 unknown */
	long multiprocessors;	/* -1 unknown */
	char *torch;		/* versions, or NULL */
	char *triton;
	struct at_src src;
};

struct autotune_set {
	struct at_kernel **kernels;	/* in order of first mention */
	size_t nr, alloc;
	struct at_input *inputs;
	size_t ninputs, inputs_alloc;
	struct at_device device;
	struct at_note *errors;	/* problems not tied to a kernel */
	size_t nerrors, errors_alloc;
	struct at_note *refused;	/* paths the RUN named that lead out of it, not read */
	size_t nrefused, refused_alloc;
	struct strmap names;	/* kernel name -> its instances (struct at_name_slot) */
	struct strmap saved;	/* last two parts of a saved_to path -> the latest such tuning */
	struct strmap by_hash;	/* at_hash_key(name, source_hash) -> its instance */
};

void autotune_set_init(struct autotune_set *s);
void autotune_set_release(struct autotune_set *s);

/* Registers an input file; returns its index (for struct at_src.file). */
unsigned at_input_add(struct autotune_set *s, const char *path);
/* Counts a malformed line of input `file`, remembering its number. */
void at_input_malformed(struct autotune_set *s, unsigned file, size_t line);

/*
 * Instances as an input sees them. at_kernel_current() returns the
 * instance of `name` that input `file` is talking about (its first, until
 * at_kernel_next() moves it on), creating it when needed; at_kernel_next()
 * moves input `file` to the next instance and returns it. `src` is the
 * mention, kept as name_src when the instance is new.
 */
struct at_kernel *at_kernel_current(struct autotune_set *s, const char *name,
				    size_t len, struct at_src src);
struct at_kernel *at_kernel_next(struct autotune_set *s, const char *name,
				 size_t len, struct at_src src);
/* Moves input src.file to the want-th instance of `name` (from 1), creating it as needed. */
struct at_kernel *at_kernel_instance(struct autotune_set *s, const char *name,
				     size_t len, unsigned want, struct at_src src);
/* The latest instance of `name` in the set, or NULL; no input state changes. */
struct at_kernel *at_kernel_latest(const struct autotune_set *s,
				   const char *name, size_t len);

/*
 * The instance of `name` whose source_hash is `hash`, or NULL, in constant
 * time (capture events name thousands of instances of one kernel by their
 * hash); at_hash_set() records k's source_hash for it.
 */
struct at_kernel *at_kernel_by_hash(const struct autotune_set *s, const char *name,
				    const char *hash);
void at_hash_set(struct autotune_set *s, struct at_kernel *k, const char *hash,
		 struct at_src src);

/* How many instances the kernel's name has in the set. */
unsigned at_kernel_instances(const struct at_kernel *k);

/* "name", or "name#k" when the name has several instances; caller frees. */
char *at_kernel_id(const struct at_kernel *k);

/*
 * Finds kernels for --kernel NAME: an exact id ("triton_#2"), else every
 * instance of the name. Returns how many matched and stores the first.
 */
size_t autotune_set_find(const struct autotune_set *s, const char *id,
			 const struct at_kernel **out);

/* Sets a string fact when it is not known yet; returns 1 when it was set. */
int at_set_str(char **field, struct at_src *field_src, const char *v,
	       size_t len, struct at_src src);

struct at_tuning *at_tuning_add(struct at_kernel *k, enum at_method m,
				struct at_src src);
/* Removes and frees k's i-th tuning (the set's saved-to index must not name it). */
void at_tuning_remove(struct at_kernel *k, size_t i);
/* Records that t's result was saved to path[0..len) (a .best_config). */
void at_tuning_saved_to(struct autotune_set *s, struct at_tuning *t,
			const char *path, size_t len);
/* The latest tuning saved to a file with the same last two path parts, or NULL. */
struct at_tuning *at_saved_find(const struct autotune_set *s, const char *path);
/* Appends a config (initialised to "nothing known") and returns it. */
struct at_config *at_config_push(struct at_config **arr, size_t *nr,
				 size_t *alloc, struct at_src src);
void at_config_init(struct at_config *c, struct at_src src);
void at_config_release(struct at_config *c);
/* Deep copy of `from` into `to` (released first by the caller). */
void at_config_copy(struct at_config *to, const struct at_config *from);
void at_kwarg_add(struct at_config *c, const char *name, size_t nlen,
		  const char *value, size_t vlen);
/* The config of `t` whose printed text is `text`, or -1. */
long at_tuning_find(const struct at_tuning *t, const char *text, size_t len);

void at_note_add(struct at_note **arr, size_t *nr, size_t *alloc,
		 const char *text, size_t len, struct at_src src);

/*
 * The kernel's final config: the choice of its last tuning that made one,
 * else its only declared config (a single-config kernel). Sets *method to
 * how it was chosen when method is not NULL. NULL when nothing is known.
 */
const struct at_config *at_kernel_best(const struct at_kernel *k,
				       enum at_method *method);
/* Sum of configs with a measured time over all tunings. */
size_t at_kernel_timed(const struct at_kernel *k);

/*
 * The name of the kind an Inductor kernel name implies (triton_poi_ ->
 * pointwise, ...: model/names.h kind_from_symbol), or NULL.
 */
const char *at_kind_from_name(const char *name);

#endif
