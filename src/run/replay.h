/*
 * Driving replays for `tko run`: one child Python (`python -m tko.replay
 * DIR... --json FILE`, python/tko/replay.py) replays the captured kernels
 * under a time limit; this side checks the kernel directories first, then
 * adds to the replay's document (model/replay.h) what needs no GPU: the
 * bytes each launch moves and its arguments' footprint (model/traffic.h),
 * the rate per config (bytes / median time) and its fraction of the
 * measured copy bandwidth (env/peak.h). replay_into_run() is the whole of
 * `tko run` but its text, for tko run and tko investigate.
 */
#ifndef TKO_RUN_REPLAY_H
#define TKO_RUN_REPLAY_H

#include <jansson.h>

#include "model/replay.h"
#include "model/traffic.h"
#include "util/buf.h"
#include "util/opts.h"

struct replay_opts {
	double timeout_s;	/* for the whole child */
	long reps;		/* timed repetitions per config, 0: automatic */
	double peak_gbps;	/* the peak to compare against; 0: from env.json */
	const char *env_json;	/* an env.json to read the peak from, or NULL */
	/*
	 * Reads kernel.py's argument uses for the bytes a launch moves
	 * (model/traffic.h): parse/kernel_uses.h's kernel_uses_read, which
	 * run/ ranks below and so takes from its caller; NULL counts from
	 * the arguments' names alone.
	 */
	traffic_reader *read_uses;
};
/*
 * tko run's defaults: 600 s, automatic repetitions, the peak from the
 * RUN's env.json; the caller sets read_uses.
 */
#define REPLAY_OPTS_INIT { 600, 0, 0, NULL, NULL }

enum replay_status {
	REPLAY_OK,		/* every kernel replayed, outputs agree */
	REPLAY_FAILED,		/* a kernel failed or its outputs disagree */
	REPLAY_NO_RUNTIME,	/* no python / torch / GPU (child exit 3) */
	REPLAY_CRASHED,		/* the child died or wrote no result */
	REPLAY_TIMEOUT,		/* the child ran past timeout_s */
};

/*
 * Replays `dirs`. On REPLAY_OK / REPLAY_FAILED, *doc is the "tko run"
 * document (model/replay.h; docs/json.md), newly allocated (free it with
 * replay_doc_free()); otherwise NULL and err says what happened. Returns
 * -1 (with err) only for bad input found before starting the child.
 */
int replay_run(const struct strlist *dirs, const struct replay_opts *o, struct replay_doc **doc,
	       enum replay_status *status, struct buf *err);
void replay_doc_free(struct replay_doc *doc);

/* What replay_into_run() gave; report/replay_text.h shows it as `tko run` does. */
struct replay_outcome {
	enum replay_status status;
	struct replay_doc *doc;	/* the "tko run" document with REPLAY_OK / REPLAY_FAILED, else NULL */
	char *kept;		/* RUN/analysis/replay.json when the document was kept there, else NULL */
	char *keep_error;	/* why it could not be kept there, else NULL */
	char *error;		/* with no document: what happened, one line; else NULL */
	int exit_code;		/* tko run's exit status for all of it (docs/exit-codes.md) */
};
#define REPLAY_OUTCOME_INIT { REPLAY_CRASHED, NULL, NULL, NULL, NULL, 1 }

/*
 * `tko run DIR...` as a library call, for tko run and tko investigate:
 * replays `dirs` (replay_run) and, when `keep` and every dir is a
 * RUN/capture/kernels/<name> of one RUN, merges the document into
 * RUN/analysis/replay.json (run/store.h). It prints nothing but
 * the child's progress lines; report/replay_text.h's replay_text_show()
 * prints *out as tko run does, its messages under a step name of the
 * caller's choice ("run"). Returns out->exit_code: 0 every kernel replayed
 * and agreed; 1 bad input, a kernel failed, outputs disagree or the kept
 * copy could not be written; 3 no python/torch/GPU; 5 the replay died;
 * 124 it ran past o->timeout_s. *out starts as REPLAY_OUTCOME_INIT; free
 * it with replay_outcome_release().
 *
 *	struct replay_opts ro = REPLAY_OPTS_INIT;
 *	struct replay_outcome out = REPLAY_OUTCOME_INIT;
 *	int status = replay_into_run(&dirs, &ro, 1, &out);
 *	replay_text_show(&out, 1, "run");
 *	replay_outcome_release(&out);
 */
int replay_into_run(const struct strlist *dirs, const struct replay_opts *o, int keep,
		    struct replay_outcome *out);
void replay_outcome_release(struct replay_outcome *out);

#endif
