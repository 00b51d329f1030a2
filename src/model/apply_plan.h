/*
 * model/apply_plan: the plan `tko apply` gives the in-process hook
 * (DIR/plan.json; docs/apply.md, "The plan") as a typed struct with its
 * reflect tables. Keys, in order: schema_version, tool ("tko apply"),
 * backend, target, versions, inductor_settings, source_variants, proof
 * {launches_per_kernel, max_kernels}, kernels [...], skipped [{id, kernel,
 * reason, detail}]. A planned kernel: kernel, config, inductor_settings
 * (only when the winner needs some), predicted {speedup, time_ms, and
 * warm_speedup, warm_ci95 where tune timed it warm}, fallback
 * ("config_only", "pinned_base" or "pinned_candidate", only when the entry is not tune's winner), id, source {path}
 * (a source variant), then its identity: launcher "triton" and
 * source_hash (a @triton.autotune kernel), or lookup_hash, size_hints,
 * fused, and for a template launcher "template" and mechanisms ["hook"],
 * or ["template_lookup", "hook"] and its template {lookup_key,
 * template_id, params} when the winner changed the template's body.
 *
 * The launcher key stands where each kind has always had it (before
 * source_hash, after fused): two rows of the table, one member each, kept
 * apart by apply_plan_kernel_set_launcher() and apply_plan_read().
 * apply/plan.h fills it from the tune results; the hook
 * (python/tko/apply_hook.py) reads the file.
 */
#ifndef TKO_MODEL_APPLY_PLAN_H
#define TKO_MODEL_APPLY_PLAN_H

#include <stddef.h>
#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

#define APPLY_PLAN_SCHEMA 1
#define APPLY_DOC_TOOL "tko apply"

/* What tune measured for the winner. */
struct apply_predicted {
	double speedup, time_ms;	/* -1 unknown (written as -1) */
	double warm_speedup;		/* NAN: not timed warm (the key left out) */
	json_t *warm_ci95;		/* [lo, hi], or NULL (left out) */
};

/* A source variant's kernel file. */
struct apply_plan_source {
	char *path;
};

/* apply_plan_kernel.fallback's values (above). */
#define APPLY_FALLBACK_CONFIG_ONLY "config_only"
#define APPLY_FALLBACK_PINNED_BASE "pinned_base"
#define APPLY_FALLBACK_PINNED_CANDIDATE "pinned_candidate"

/* One planned winner (the plan's "kernels"). */
struct apply_plan_kernel {
	char *kernel;
	json_t *config;			/* the winner's launch config, as tune wrote it */
	json_t *inductor_settings;	/* NULL: none needed (left out) */
	struct apply_predicted predicted;
	char *fallback;			/* "config_only": tune's config-only variant in place of
					 * a source-variant winner; "pinned_base": the base
					 * that won, pinned; "pinned_candidate": where the base
					 * won, the autotuner's candidate tune's sweep timed
					 * fastest, beyond its margin, pinned; NULL (left
					 * out): the winner */
	char *id;			/* the kernel folder's name */
	struct apply_plan_source source;	/* path NULL: the key left out */
	char *launcher_head;		/* "triton" (before source_hash); see above */
	char *source_hash;		/* a @triton.autotune kernel's */
	char *lookup_hash, *size_hints;	/* an Inductor kernel's */
	int fused;			/* RF_TRI: unknown (left out) for @triton.autotune */
	char *launcher_tail;		/* "template" (after fused) */
	char **mechanisms;
	size_t nmechanisms;
	json_t *template;		/* a template winner's {lookup_key, template_id, params}
					 * (apply/tmplkey.h); NULL: left out */
};

/* A kernel not planned, and why. */
struct apply_plan_skip {
	char *id, *kernel;
	char *reason;			/* "no_winner", "not_confirmed", ... */
	char *detail;			/* or NULL */
};

/* The capture's versions: {} when the capture had none, else both keys (null: unknown). */
struct apply_plan_versions {
	char *torch, *triton;
	int known;			/* the keys are there */
};

struct apply_plan_proof {
	long launches_per_kernel, max_kernels;
};

struct apply_plan_doc {
	char *backend;			/* "cuda" or "hip" */
	char *target;
	struct apply_plan_versions versions;
	json_t *inductor_settings;	/* the planned winners' merged settings */
	int source_variants;
	struct apply_plan_proof proof;
	struct apply_plan_kernel *kernels;
	size_t nkernels;
	struct apply_plan_skip *skipped;
	size_t nskipped;
};

extern const struct rf_struct apply_plan_kernel_desc;
extern const struct rf_struct apply_plan_doc_desc;

/* A new planned kernel, every member unknown; apply_plan_kernel_free() frees it. */
struct apply_plan_kernel *apply_plan_kernel_new(void);
void apply_plan_kernel_free(struct apply_plan_kernel *k);
/* Sets the launcher ("triton", "template"): in the row its kind has it in. */
void apply_plan_kernel_set_launcher(struct apply_plan_kernel *k, const char *launcher);
/* The launcher, or NULL (Inductor's own). */
const char *apply_plan_kernel_launcher(const struct apply_plan_kernel *k);

/* plan.json at `path`, atomically. 0, or -1 + err (one line naming it). */
int apply_plan_doc_save(const char *path, const struct apply_plan_doc *d, struct buf *err);
/* Read back from a JSON tree (`what` names it in messages): 0, or -1 + err. */
int apply_plan_doc_read(struct apply_plan_doc *d, const json_t *j, const char *what, struct buf *err);

#endif
