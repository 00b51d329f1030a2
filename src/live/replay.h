/*
 * Driving replays for `tko run`: one child Python (`python -m tko.replay
 * DIR... --json FILE`, python/tko/replay.py) replays the captured kernels
 * under a time limit; this side checks the kernel directories first, then
 * adds to the replay's JSON what needs no GPU: the bytes each kernel's
 * arguments occupy, the rate that makes per config ("footprint rate",
 * bytes / median time) and its fraction of the measured copy bandwidth.
 *
 * Footprint: per distinct storage, the union of the byte ranges the
 * tensor arguments viewing it span (a view of shape s, stride t, storage
 * offset o and element size e spans [o*e, (o + sum((s_i-1)*t_i) + 1)*e)).
 * It is what the arguments occupy, not measured DRAM traffic.
 */
#ifndef TKO_LIVE_REPLAY_H
#define TKO_LIVE_REPLAY_H

#include <jansson.h>

#include "util/buf.h"
#include "util/opts.h"

/*
 * The "tko run" document's schema_version: 2 since its rates come from
 * model/traffic.h (bytes, gbps, copy_fraction, rate_doubt replaced
 * footprint_gbps and footprint_fraction_of_peak).
 */
#define REPLAY_SCHEMA_VERSION 2

struct replay_opts {
	double timeout_s;	/* for the whole child */
	long reps;		/* timed repetitions per config, 0: automatic */
	double peak_gbps;	/* the peak to compare against; 0: from env.json */
	const char *env_json;	/* an env.json to read the peak from, or NULL */
};

enum replay_status {
	REPLAY_OK,		/* every kernel replayed, outputs agree */
	REPLAY_FAILED,		/* a kernel failed or its outputs disagree */
	REPLAY_NO_RUNTIME,	/* no python / torch / GPU (child exit 3) */
	REPLAY_CRASHED,		/* the child died or wrote no result */
	REPLAY_TIMEOUT,		/* the child ran past timeout_s */
};

/* {kernels, failed, mismatched, configs} of a "tko run" kernels array. */
json_t *replay_summary(const json_t *kernels);

/*
 * Checks every field tko reads from a replay document (the child's, or a
 * "tko run" document such as RUN/analysis/replay.json): types, and times
 * that are numbers >= 0. 0, or -1 with one line naming `file` and the field.
 */
int replay_doc_check(const json_t *doc, const char *file, struct buf *err);

/*
 * Replays `dirs`. On REPLAY_OK / REPLAY_FAILED, *doc is the "tko run"
 * document (docs/json.md); otherwise err says what happened. Returns -1
 * (with err) only for bad input found before starting the child.
 */
int replay_run(const struct strlist *dirs, const struct replay_opts *o, json_t **doc,
	       enum replay_status *status, struct buf *err);

#endif
