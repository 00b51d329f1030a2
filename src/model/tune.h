/*
 * tune: the typed model of a tune document (tune.json, `tko tune --json`;
 * docs/json.md, "tko tune"), for the readers of tko tune's results
 * (analyse/measured.c). It holds the fields they read, described by a
 * reflect table (analyse/reflect.h): a kernel's identity, each variant's
 * status, times and source flags, and the winner. A variant's status is an
 * enum whose names are the ones tune writes (tune/result.c uses this table).
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

#include "analyse/reflect.h"

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

struct tune_doc_variant {
	char *id;			/* "v003" */
	char *label;
	int status;			/* enum tune_status, -1 unknown */
	char *error, *traceback;	/* a failure's line and the worker's traceback, or NULL */
	char *same_as;			/* the variant with the same ISA, or NULL */
	double time_ms, speedup;	/* NAN unknown */
	char **source_variants;		/* "hints", "twopass", ... */
	size_t nsource_variants;
	struct rf_pair *env;		/* the worker's environment ("AMDGCN_USE_BUFFER_OPS") */
	size_t nenv;
};

struct tune_doc_winner {
	char *label;			/* NULL: no winner */
	double time_ms, speedup;	/* NAN unknown */
	json_t *inductor_settings;	/* Inductor settings it needs, or NULL */
};

struct tune_doc_kernel {
	char *kernel, *source, *target;
	struct tune_doc_variant *variants;
	size_t nvariants;
	struct tune_doc_winner winner;
};

extern const struct rf_struct tune_doc_variant_desc;
extern const struct rf_struct tune_doc_winner_desc;
extern const struct rf_struct tune_doc_kernel_desc;

/* The variant whose id is `id`, or NULL. */
const struct tune_doc_variant *tune_doc_variant(const struct tune_doc_kernel *k, const char *id);
/* 1 when the variant's source flags name `what` ("hints", "twopass"). */
int tune_doc_made_with(const struct tune_doc_variant *v, const char *what);
/* The value of the variant's environment variable `name`, or NULL. */
const char *tune_doc_env(const struct tune_doc_variant *v, const char *name);

#endif
