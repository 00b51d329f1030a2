/*
 * The peak a kernel's footprint rate is compared against: one resolver
 * for the copy bandwidth that the analysis, tko run and tko tune each
 * found their own way before.
 *
 * A peak comes from one of four sources, tried in the caller's order:
 *
 *   PEAK_OPTION      --peak-gbps, when > 0;
 *   PEAK_ENV_JSON    env.json's bandwidth.copy_gbps (tko env --measure,
 *                    tko capture): the loaded document (model/env.h),
 *                    else the file env_path names, when it is there and
 *                    reads as JSON (its bandwidth alone is read, as
 *                    env_doc_read_bandwidth() reads it);
 *   PEAK_REPLAY_DOC  a replay document's peak.copy_gbps (tko run);
 *   PEAK_MEASURED    a copy timed now (tko tune's worker), asked for only
 *                    when no earlier source gave a peak.
 *
 * A recorded rate counts when it is > 0. With `zero_counts` a recorded 0
 * counts too: the analysis has always taken any rate its reader accepted
 * (a number >= 0), tko run only one > 0, and keeping each as it was is
 * this module's contract (making the orders and limits the same is a
 * change of behaviour for another issue). Each caller keeps its order:
 *
 *	struct peak_inputs in = PEAK_INPUTS_INIT;
 *	struct peak p = PEAK_INIT;
 *	in.option = o->peak_gbps;
 *	in.env = env; in.env_path = path;
 *	in.order = peak_order_analyse;
 *	if (peak_resolve(&in, &p)) ... p.gbps, p.source, p.where
 *	peak_release(&p);
 */
#ifndef TKO_ENV_PEAK_H
#define TKO_ENV_PEAK_H

#include <math.h>

#include "model/env.h"

enum peak_source { PEAK_NONE, PEAK_OPTION, PEAK_ENV_JSON, PEAK_REPLAY_DOC, PEAK_MEASURED };

struct peak {
	double gbps;			/* 0 with PEAK_NONE */
	enum peak_source source;
	char *where;			/* "--peak-gbps", env.json's path, "replay document",
					   "tune worker"; NULL with PEAK_NONE */
};
#define PEAK_INIT { 0, PEAK_NONE, NULL }

struct peak_inputs {
	double option;			/* --peak-gbps; 0 none */
	const struct env_doc *env;	/* a loaded env.json, or NULL */
	const char *env_path;		/* its path (named in texts); read when env is NULL */
	double replay_gbps;		/* a replay document's peak.copy_gbps; NAN none */
	double (*measure)(void *data);	/* times a copy now: GB/s, <= 0 failed; or NULL */
	void *measure_data;
	int zero_counts;		/* a recorded rate of 0 is a peak (the analysis) */
	const enum peak_source *order;	/* the caller's order, PEAK_NONE-terminated */
};
#define PEAK_INPUTS_INIT { 0, NULL, NULL, NAN, NULL, NULL, 0, NULL }

/* option, env.json, the replay document (analyse/share.c, with zero_counts). */
extern const enum peak_source peak_order_analyse[];
/* option, env.json (tko run). */
extern const enum peak_source peak_order_replay[];
/* option, a copy timed by the worker (tko tune). */
extern const enum peak_source peak_order_tune[];

/* Tries in->order; 1 with *out set (out->where newly allocated), 0 when no source gave a peak. */
int peak_resolve(const struct peak_inputs *in, struct peak *out);

/*
 * Where the peak came from, newly allocated, as the analysis documents
 * say it ("--peak-gbps", "<env.json>: a device-to-device copy, read +
 * written bytes", "the replay document's peak (tko run)"); NULL with
 * PEAK_NONE. tko run's document names p->where alone.
 */
char *peak_source_text(const struct peak *p);

void peak_release(struct peak *p);

#endif
