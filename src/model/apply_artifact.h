/*
 * model/apply_artifact: the plain artifact's DIR/tko_winners.json
 * (docs/apply.md, "The plain artifact") as a typed struct with its reflect
 * tables. Keys, in order: schema_version (no tool: the loader reads it
 * without tko), torch, triton, left_out (model/apply_left.h),
 * inductor_settings, autotune_lookup_table {lookup hash: {BLOCK kwargs,
 * num_warps, num_stages}}, template_lookup_table {}, configs {lookup hash:
 * {kwargs, num_warps, num_stages}}, triton_autotune [{kernel,
 * source_hash, config}], not_carried [{id, kernel, reason}]. The tables
 * keyed by hash hold configs as tune wrote them: JSON passed through.
 *
 * apply/artifact.h fills it from the plan; python/tko/winners_loader.py
 * (copied as tko_winners.py) reads it.
 */
#ifndef TKO_MODEL_APPLY_ARTIFACT_H
#define TKO_MODEL_APPLY_ARTIFACT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "json/reflect.h"
#include "model/apply_left.h"
#include "util/buf.h"

#define APPLY_ARTIFACT_SCHEMA 1

/* A @triton.autotune kernel narrowed to its winner. */
struct apply_artifact_triton {
	char *kernel, *source_hash;
	json_t *config;
};

/* A winner no table can carry whole, and why. */
struct apply_artifact_not_carried {
	char *id, *kernel, *reason;
};

struct apply_artifact_doc {
	char *torch, *triton;		/* the capture's versions, or NULL */
	struct apply_left_outs left_out;
	json_t *inductor_settings;	/* the carried winners' settings */
	json_t *autotune_lookup_table, *template_lookup_table, *configs;
	struct apply_artifact_triton *triton_autotune;
	size_t ntriton_autotune;
	struct apply_artifact_not_carried *not_carried;
	size_t nnot_carried;
};

extern const struct rf_struct apply_artifact_doc_desc;

/* An empty document: the three tables {} and the settings {}. */
void apply_artifact_doc_init(struct apply_artifact_doc *d);
void apply_artifact_doc_release(struct apply_artifact_doc *d);
/* Appends to triton_autotune / not_carried (the strings copied, config referenced). */
void apply_artifact_add_triton(struct apply_artifact_doc *d, const char *kernel,
			       const char *source_hash, json_t *config);
void apply_artifact_add_not_carried(struct apply_artifact_doc *d, const char *id,
				    const char *kernel, const char *reason);

/* The document as JSON text (schema_version first, no tool). 0, or -1 when writing failed. */
int apply_artifact_doc_write(FILE *fp, const struct apply_artifact_doc *d);
/* Read back from a JSON tree (`what` names it in messages): 0, or -1 + err. */
int apply_artifact_doc_read(struct apply_artifact_doc *d, const json_t *j, const char *what,
			    struct buf *err);

#endif
