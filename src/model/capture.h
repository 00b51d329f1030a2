/*
 * model/capture: a captured kernel folder's capture.json (written by the
 * Python hook, python/tko/capture.py; docs/capture-events.md) as a typed
 * struct with its reflect tables, so that the traffic count, the analysis,
 * tune and apply read one checked document instead of looking keys up
 * each on its own.
 *
 * Typed here are the members C reads: kernel, kind, source_hash, args
 * (name, kind, dtype, shape, stride, storage_offset, element_size,
 * storage), mutated_arg_names, grid, configs (cache_hash, time_ms),
 * best_index, inductor_num_bytes, versions {torch, triton, python}.
 * The parts that stay open are kept as the JSON read, because their
 * consumer is Python or a verbatim copy: an argument's scalar `value`
 * (any JSON value; tune's constants and its compact text in the
 * analysis), `storages` (the worker's input list), each config (RF_OPEN:
 * tune's base config is the object as written) and "args" itself
 * (capture_args_json(): the worker's request carries it as written).
 *
 *	struct capture_doc c;
 *	if (capture_load(&c, "RUN/capture/kernels/k-1234abcd/capture.json", &err) < 0)
 *		... err: "'.../capture.json': args[2].shape: not a list of integers"
 *	capture_release(&c);
 */
#ifndef TKO_MODEL_CAPTURE_H
#define TKO_MODEL_CAPTURE_H

#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

/* One launch argument: a tensor, a scalar or None. */
struct capture_arg {
	char *name;
	char *kind;			/* "tensor", "scalar", "none" */
	char *dtype;			/* tensor: torch's name, "float32" */
	json_t *shape, *stride;		/* tensor: lists of integers (or null) as written;
					   NULL when missing */
	long long storage_offset;	/* in elements; RF_I64_NONE unknown */
	long long element_size;		/* bytes; RF_I64_NONE unknown */
	long long storage;		/* index into storages; RF_I64_NONE unknown */
	json_t *value;			/* scalar: the value as written (null included),
					   NULL when missing */
};

/* One autotuned config, the object as written (kept) and what C reads of it. */
struct capture_config {
	char *cache_hash;		/* its Triton cache entry, or NULL */
	double time_ms;			/* the autotuner's time; NAN unknown */
	json_t *kept;			/* RF_OPEN: the object read */
};

struct capture_versions {
	char *torch, *triton, *python;
};

struct capture_doc {
	char *kernel;			/* the kernel's name */
	char *kind;			/* "inductor", "user_autotune" or "user_jit" */
	char *source_hash;
	struct capture_arg *args;
	size_t nargs;
	char **mutated;			/* mutated_arg_names */
	size_t nmutated;
	int have_mutated;		/* the document has the key (an empty list too) */
	json_t *grid;			/* [x, y, z] as written, or NULL */
	json_t *storages;		/* the worker's inputs, as written, or NULL */
	struct capture_config *configs;
	size_t nconfigs;
	long long best_index;		/* RF_I64_NONE unknown */
	double inductor_num_bytes;	/* NAN unknown (null or missing) */
	int have_versions;		/* versions was an object */
	struct capture_versions versions;
	json_t *args_json;		/* "args" as read (a reference), or NULL */
};

extern const struct rf_struct capture_doc_desc;

void capture_init(struct capture_doc *c);
void capture_release(struct capture_doc *c);

/*
 * Fills an initialised doc from a JSON tree, every member above checked
 * for its type (shape and stride: lists of integers). 0, or -1 with one
 * line naming `what` and the field; c then holds what was read.
 */
int capture_read(struct capture_doc *c, const json_t *j, const char *what, struct buf *err);
/* capture_read of the file at `path` (not JSON: json_load_path's line). */
int capture_load(struct capture_doc *c, const char *path, struct buf *err);

/* Whether the argument is a tensor. */
int capture_arg_is_tensor(const struct capture_arg *a);
/* Whether `name` is among mutated_arg_names. */
int capture_mutates(const struct capture_doc *c, const char *name);
/* The autotuner's chosen config, configs[best_index], or NULL. */
const struct capture_config *capture_best(const struct capture_doc *c);
/* "args" as written, for the worker's request (borrowed; NULL when missing). */
const json_t *capture_args_json(const struct capture_doc *c);

#endif
