/*
 * tune: the typed model of a tune document (tune.json, `tko tune --json`;
 * docs/json.md, "tko tune") and of a winner's config.json, for the readers
 * of tko tune's results (analyse/measured.c, apply/plan.c), its writers
 * (tune/tune.c, tune/output.c, tune/winner.c) and its text
 * (report/tune_text.c), described by reflect tables (json/reflect.h) whose
 * rows are the document's keys in order: the document, a kernel, its
 * variants, its winner and the winner's confirmation. A variant's status is
 * an enum whose names are the ones tune writes (tune/result.c uses this table).
 *
 *	struct tune_doc_kernel k;
 *	rf_init(&tune_doc_kernel_desc, &k);
 *	if (rf_read(&tune_doc_kernel_desc, &k, json, "tune.json", &err) < 0)
 *		...
 *	rf_release(&tune_doc_kernel_desc, &k);
 */
#ifndef TKO_MODEL_TUNE_H
#define TKO_MODEL_TUNE_H

#include <jansson.h>
#include <stddef.h>

#include "json/reflect.h"
#include "model/names.h"
#include "util/buf.h"

/*
 * The tune document's schema_version, raised when a field changes meaning
 * or disappears (docs/json.md, "tko tune": what 2 changed).
 */
#define TUNE_SCHEMA_VERSION 2

/*
 * How much faster than the base the sweep's fastest variant must be timed
 * (one timing each) to be its pick: 0.02, 2% (tune/result.c, tune_winner).
 * tune.json does not record it; tko apply holds the autotuner's candidates
 * to the same margin before pinning one over the base (apply/plan.c).
 */
#define TUNE_SWEEP_MARGIN 0.02

enum tune_status {
	TUNE_ST_PENDING,
	TUNE_ST_COMPILED,
	TUNE_ST_OK,
	TUNE_ST_WRONG,
	TUNE_ST_COMPILE_ERROR,
	TUNE_ST_LAUNCH_ERROR,
	TUNE_ST_TIMEOUT,
	TUNE_ST_SKIPPED,
	TUNE_ST_DUPLICATE,
	TUNE_ST_ERROR,
	TUNE_ST_NR
};

/* "pending", "compiled", "ok", ...: the JSON name of each status, NULL-terminated. */
extern const char *const tune_status_names[TUNE_ST_NR + 1];

/* One variant of the sweep, as tune.json lists it (keys in this order). */
struct tune_doc_variant {
	char *id;			/* "v003" */
	char *label;
	char *origin;			/* how the plan came to it (tune/plan.h) */
	char **source_variants;		/* "hints", "twopass", ... */
	size_t nsource_variants;
	json_t *config;			/* its launch config */
	struct rf_pair *env;		/* the worker's environment ("AMDGCN_USE_BUFFER_OPS") */
	size_t nenv;
	int status;			/* enum tune_status, -1 unknown */
	char *error;			/* a failure's line, or NULL */
	char *error_signature, *error_explained;	/* a known failure (model/errsig.h), or NULL */
	double time_ms, inductor_ms, speedup;		/* NAN unknown */
	double gbps, peak_fraction;	/* NAN unknown */
	char *rate_doubt;		/* why gbps is no fact, or NULL */
	double compile_ms;
	long shared_bytes;		/* -1 unknown */
	char *source;			/* its kernel source file */
	json_t *files;			/* stage -> path ({} when none) */
	json_t *checks;			/* the output comparisons ([] when none) */
	char *traceback;		/* the worker's traceback, or NULL */
	long n_regs, n_spills;		/* -1 unknown */
	char *fingerprint;		/* the ISA's hash, or NULL */
	char *same_as;			/* the variant with the same ISA, or NULL */
	json_t *isa, *isa_delta;	/* the ISA summary and its change from the base, or NULL */
	char *isa_text;			/* the table's ISA cell, or NULL */
};

/* A ratio over the base with its interval (winner.confirmation.vs_config_only.vs_base). */
struct tune_doc_ratio {
	double ratio;			/* NAN unknown */
	json_t *ci95;			/* [lo, hi], or NULL (tune_doc_ci) */
};

/* The config-only variant a source-patch candidate was held against. */
struct tune_doc_config_only {
	char *id, *label;
	double ratio;			/* it over the candidate; NAN: not timed */
	json_t *ci95;
	struct tune_doc_ratio vs_base;
	int has_vs_base;
	json_t *kept;			/* RF_OPEN: the rest (round_ratios) in the document's order */
};

/*
 * winner.confirmation.warm: base / `variant` timed with no L2 flush in the
 * confirmation's turns (tune/confirm.h), the rest (round_ratios, times_ms)
 * kept as written.
 */
struct tune_doc_warm {
	char *variant;			/* the final winner, or the candidate when the base stays */
	double ratio;			/* NAN unknown */
	json_t *ci95;			/* [lo, hi], or NULL */
	long rounds;
	json_t *kept;
};

/*
 * winner.confirmation (tune/confirm.h): the members tko reads, the rest
 * (method, round_ratios, times_ms, wall_s) kept as written (RF_OPEN).
 */
struct tune_doc_confirm {
	char *candidate, *candidate_label;	/* "v003" */
	long rounds;			/* 0: not timed */
	int accepted;			/* RF_TRI: unknown when left out */
	char *winner, *reason;
	double sweep_speedup, ratio;	/* NAN unknown */
	json_t *ci95;			/* [lo, hi] of ratio, or NULL */
	struct tune_doc_config_only vs_config_only;
	int has_vs_config_only;
	struct tune_doc_warm warm;
	int has_warm;			/* 0: no warm times (a worker older than them) */
	char *error;
	json_t *kept;
};

/*
 * winner.config_only: the fastest variant without source variants that a
 * source-variant candidate was held against (tune/confirm.h), with its own
 * figure over the base, what tko apply plans when source variants are not
 * applied (docs/apply.md).
 */
struct tune_doc_winner_config_only {
	char *id, *label;
	double speedup;			/* over the base: the confirmed ratio, else the sweep's; NAN unknown */
	json_t *ci95;			/* [lo, hi] of the confirmed ratio, or NULL */
	int confirmed;			/* ci95 lies above 1 */
	json_t *inductor_settings;	/* Inductor settings it needs, or NULL */
};

/* The winner: has_winner 0 when the document's winner is null or missing. */
struct tune_doc_winner {
	char *id, *label;
	double time_ms, speedup, sweep_speedup;	/* NAN unknown */
	int confirmed;			/* RF_TRI: unknown in results older than the key */
	json_t *ci95;			/* [lo, hi] of the confirmed ratio, or NULL */
	int is_base;
	json_t *inductor_settings;	/* Inductor settings it needs, or NULL */
	struct tune_doc_winner_config_only config_only;
	int has_config_only;		/* 0: left out (the candidate had no source variant) */
	struct tune_doc_confirm confirmation;
	int has_confirmation;		/* 0: none ran */
};

/* One kernel's entry of the document's "kernels". */
struct tune_doc_kernel {
	char *kernel, *source, *kind, *target, *out_dir;
	char *base_from;		/* where the base config came from */
	json_t *space;			/* the search space's parameters */
	char *plan;			/* "search" or "refused" */
	char *plan_note, *stopped;
	double wall_s, num_gb;		/* NAN unknown */
	int bytes_estimate;
	char *bytes_note;
	double peak_gbps;		/* NAN unknown */
	json_t *device;			/* the worker's device, or NULL */
	char *grid_note;
	struct tune_doc_variant *variants;
	size_t nvariants;
	struct tune_doc_winner winner;
	int has_winner;			/* 0: null (no variant could be timed) */
};

/* The whole document; rf_save_doc puts schema_version and tool first (tune_doc_save). */
struct tune_doc {
	enum tune_mode mode;		/* "gpu" or "compile-only"; TUNE_MODE_NONE unknown */
	struct tune_doc_kernel *kernels;
	size_t nkernels;
};

/*
 * A winner's OUT/winner/config.json (docs/json.md, "winner/config.json"):
 * its launch config, also as Inductor's triton.Config, and what applying
 * it takes beyond that, the last four keys as in tune.json's winner.
 */
struct tune_winner_file {
	char *kernel, *label;
	json_t *config;
	struct rf_pair *env;		/* as a variant's */
	size_t nenv;
	char *triton_config;		/* "triton.Config({'XBLOCK': 2048}, num_warps=4, ...)" */
	char **source_variants;
	size_t nsource_variants;
	json_t *inductor_settings;	/* or NULL */
	int confirmed;
	json_t *ci95;			/* or NULL */
	json_t *confirmation;		/* or NULL */
};

extern const struct rf_struct tune_doc_variant_desc;
extern const struct rf_struct tune_doc_confirm_desc;
extern const struct rf_struct tune_doc_winner_desc;
extern const struct rf_struct tune_doc_kernel_desc;
extern const struct rf_struct tune_doc_desc;
extern const struct rf_struct tune_winner_file_desc;

/* winner/config.json's schema version (tune.json's is TUNE_SCHEMA_VERSION) and both documents' tool. */
#define TUNE_WINNER_FILE_SCHEMA 1
#define TUNE_DOC_TOOL "tko tune"

/*
 * Reads the tune document at path into an initialised d: tune_doc_check's
 * checks, then the tables'. 0, or -1 with one line in err naming the file.
 */
int tune_doc_load(const char *path, struct tune_doc *d, struct buf *err);

/* 1 when the document's mode is "compile-only" (no timings). */
int tune_doc_compile_only(const struct tune_doc *d);

/*
 * tune_doc_load for a document this tko wrote (a tko cluster task's): it
 * must have schema_version TUNE_SCHEMA_VERSION, tool "tko tune" and a
 * mode, else -1 with "'PATH' is not a tko tune document (schema_version 2)".
 */
int tune_doc_load_current(const char *path, struct tune_doc *d, struct buf *err);

/* Appends an initialised kernel entry to d and returns it. */
struct tune_doc_kernel *tune_doc_add_kernel(struct tune_doc *d);
/*
 * Moves *k, another document's entry, to the end of d's kernels, and
 * leaves *k empty (rf_init'ed): merging tasks' documents (tko tune --gpus,
 * tko cluster gather) moves entries, it never copies them.
 */
void tune_doc_take_kernel(struct tune_doc *d, struct tune_doc_kernel *k);

/* Writes the document (or the winner's file) atomically at path ("-": stdout). 0, or -1 + err. */
int tune_doc_save(const char *path, const struct tune_doc *d, struct buf *err);
int tune_winner_file_save(const char *path, const struct tune_winner_file *f, struct buf *err);

/* The variant whose id is `id`, or NULL. */
const struct tune_doc_variant *tune_doc_variant(const struct tune_doc_kernel *k, const char *id);
/*
 * The base variant (the config tune started from: Inductor's choice), or
 * NULL: the one labelled "base", the label tune gives it alone
 * (tune/plan.c: every other label names what differs from it).
 */
const struct tune_doc_variant *tune_doc_base(const struct tune_doc_kernel *k);
/* 1 when the variant's source flags name `what` ("hints", "twopass"). */
int tune_doc_made_with(const struct tune_doc_variant *v, const char *what);
/* The value of the variant's environment variable `name`, or NULL. */
const char *tune_doc_env(const struct tune_doc_variant *v, const char *name);
/* The bounds of a ci95 member ([lo, hi]); NAN when it is NULL. */
void tune_doc_ci(const json_t *ci95, double *lo, double *hi);
/*
 * The RSPLIT_SIZE the winner's inductor_settings set with Inductor's
 * triton.mix_order_reduction_split_size (0: none), and whether they turn
 * its online_softmax off (the twopass variant).
 */
long tune_doc_split_size(const struct tune_doc_winner *w);
int tune_doc_two_pass(const struct tune_doc_winner *w);

/*
 * Checks every field tko investigate and tko apply read from a tune
 * document (tune.json) before they read it typed: types, and times and
 * speedups that are numbers >= 0. 0, or -1 with one line naming `file`
 * and the field.
 */
int tune_doc_check(const json_t *doc, const char *file, struct buf *err);

#endif
