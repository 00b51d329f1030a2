/*
 * model/replay: the "tko run" document (`tko run --json`,
 * RUN/analysis/replay.json; docs/json.md) as a typed struct with its
 * reflect table. Keys, in order: schema_version, tool, peak {copy_gbps,
 * source}, replay (the child's versions), kernels[], summary {kernels,
 * failed, mismatched, configs}.
 *
 * A kernel and a config are the child's objects (python/tko/replay.py)
 * plus what tko adds to them: their tables are RF_OPEN, so the child's
 * keys stay in its order with the values it wrote, and the added keys
 * follow. The members typed here are the ones C reads or adds; the
 * child's optional keys are RF_OMIT_NULL, so a key the child left out
 * stays out. Its booleans (captured, outputs_match, outputs_exact) are
 * kept as the JSON values they were, because a missing one is neither
 * true nor false (replay_true()).
 */
#ifndef TKO_MODEL_REPLAY_H
#define TKO_MODEL_REPLAY_H

#include <jansson.h>

#include "json/reflect.h"
#include "util/buf.h"

/*
 * The "tko run" document's schema_version: 2 since its rates come from
 * model/traffic.h (bytes, gbps, copy_fraction, rate_doubt replaced
 * footprint_gbps and footprint_fraction_of_peak).
 */
#define REPLAY_SCHEMA_VERSION 2

/* One replayed config. */
struct replay_config {
	json_t *captured;		/* JSON true: the config the model ran */
	json_t *config;			/* {kwargs, num_warps, ...} as the child wrote it */
	double time_ms;			/* median of device-event timings; NAN unknown */
	double min_ms;			/* the fastest of them */
	double recorded_time_ms;	/* the autotuner's */
	double autotuner_method_ms;	/* timed as the autotuner does */
	double autotuner_method_no_cpu_copy_ms;	/* the same without its host copies */
	json_t *cpu_copy_args;		/* autotuner_method_cpu_copy_args [{name, bytes}] */
	json_t *outputs_match, *outputs_exact;	/* JSON booleans, or NULL */
	char *error;
	double gbps;			/* added: bytes / time */
	double copy_fraction;		/* added: of the peak */
	char *rate_doubt;		/* added: why a rate over the copy rate is not a fact */
	double vs_recorded;		/* added: autotuner_method_vs_recorded */
	json_t *kept;			/* RF_OPEN: the object read */
};

/* One replayed kernel directory. */
struct replay_kernel {
	char *kernel_dir;
	char *kernel;
	char *error;			/* the replay of this directory failed */
	struct replay_config *configs;
	size_t nconfigs;
	long long footprint_bytes;	/* added: the arguments' span; RF_I64_NONE unknown */
	json_t *inductor_num_bytes;	/* added: capture.json's, as it was */
	double bytes;			/* added: model/traffic.h's count; NAN unknown */
	int bytes_estimate;
	char *bytes_note;
	json_t *kept;			/* RF_OPEN: the object read */
};

struct replay_peak {
	double copy_gbps;		/* NAN: the document's peak had no rate */
	char *source;
};

struct replay_summary {
	long long kernels, failed, mismatched, configs;
};

struct replay_doc {
	int have_peak;			/* peak is null when 0 */
	struct replay_peak peak;
	/*
	 * Without a peak, why none was measured when env.json says so (its
	 * bandwidth_error, and where it was read), else NULL. For the text
	 * alone: neither read nor written as JSON.
	 */
	char *peak_missing;
	json_t *replay;			/* the child's versions {python, torch, ...} */
	struct replay_kernel *kernels;
	size_t nkernels;
	struct replay_summary summary;
};

extern const struct rf_struct replay_kernel_desc;

void replay_doc_init(struct replay_doc *d);
void replay_doc_release(struct replay_doc *d);

/* 1 when a kept JSON boolean is true. */
int replay_true(const json_t *v);
/* Whether a kernel has a config that failed or whose outputs disagree. */
int replay_kernel_disagrees(const struct replay_kernel *k);
/* Sets d->summary from d->kernels. */
void replay_doc_summarise(struct replay_doc *d);

/*
 * Reads a document (the child's, or a "tko run" one such as
 * RUN/analysis/replay.json): the kernels, the peak and the versions
 * ("replay", or the child's "versions"). Every field tko reads is checked
 * on the way (types; times and rates that are numbers >= 0; "kernels"
 * must be there). 0, or -1 with one line naming `what` and the field
 * ("'f.json': kernels[2].configs[0].time_ms: not a time (a number >= 0)").
 */
int replay_doc_read(struct replay_doc *d, const json_t *j, const char *what, struct buf *err);
/* The document as a JSON tree (new reference), keys in the order above. */
json_t *replay_doc_to_json(const struct replay_doc *d);
/* Written to `path` atomically ("-": standard output). 0 or -1 + err. */
int replay_doc_save(const struct replay_doc *d, const char *path, struct buf *err);

#endif
