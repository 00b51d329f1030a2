/*
 * The analysis of a RUN directory: the library behind `tko investigate`
 * and `tko diff`. It reads every kind of evidence a RUN holds with the
 * other modules' library calls (summarize.h for autotune logs, capture
 * events and .best_config records; meta.h for kernel and wrapper modules;
 * isa.h for the Triton cache's assembly; fx_graph.h for the user's source
 * lines; capture.json, analysis/replay.json, tune.json and env.json with
 * jansson), joins it per kernel (join.c), computes time shares (share.c,
 * then from a whole-step profile when there is one: stepprof.c), and
 * fills one struct an_run (model.h). Deciding is the next step:
 * decide/decide.h's decide_run() calls analysis_build(), then applies
 * the rules (rules.c) and lists what is missing (gaps.c).
 *
 * Usage:
 *
 *	struct an_run run;
 *	struct an_opts o = AN_OPTS_INIT;
 *	o.analysis_dir = "RUN/analysis";	(optional: keep the tools' JSON,
 *	o.outputs = &set;			 opened in an atomic_set the caller commits)
 *	an_run_init(&run);
 *	if (decide_run("RUN", &o, &run, &err) < 0)
 *		... err: "'RUN' is not a RUN directory (no log/, capture/, ...)"
 *	... run.kernels[0] is the kernel with the largest share
 *	doc = an_run_to_json(&run, "tko investigate");	(schema.h)
 *	an_run_release(&run);
 *
 * A RUN may lack any part (a colleague's RUN without capture/, a RUN with
 * no Triton cache): what is missing becomes a gap, not an error. Only a
 * path that is not a directory holding any RUN part, or a broken
 * replay/tune/env JSON file, is an error.
 */
#ifndef TKO_ANALYSE_ANALYSIS_H
#define TKO_ANALYSE_ANALYSIS_H

#include <stddef.h>

#include "analyse/model.h"
#include "isa/isa.h"
#include "util/buf.h"
#include "util/file.h"

struct an_opts {
	double peak_gbps;	/* the peak to compare against; 0: from env.json or the replay */
	const char *replay;	/* a `tko run` JSON document; NULL: RUN/analysis/replay.json if present */
	const char *const *tunes;	/* extra `tko tune` JSON documents ... */
	size_t ntunes;			/* ... this many */
	int isa_tools;		/* let the ISA scanner run disassemblers on binaries */
	const char *analysis_dir;	/* where to write the tool outputs (summarize/meta/isa JSON), or NULL */
	struct atomic_set *outputs;	/* with analysis_dir: the set they are written into */
	/* progress: called with a short phrase before each step, or NULL */
	void (*progress)(void *data, const char *step);
	void *progress_data;	/* passed to progress */
	const char *profile;	/* a whole-step profile (stepprof.h); NULL: the RUN's profile/ if any */
	/* judge_isa: called on the scanned Triton cache before it is used or
	   written, to set the findings' severities and rules (decide_run() passes
	   decide/isa_scope.h's; analyse may not include decide), or NULL */
	void (*judge_isa)(struct isa_result *res);
};
#define AN_OPTS_INIT { 0, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL }

/* What the RUN had, for the gaps (decide/decide.c). */
struct an_facts {
	int have_log;		/* a TORCH_LOGS=+inductor log was read */
	int have_triton_cache;	/* RUN/cache/triton was read */
	int have_replay;	/* a replay document was read */
	int have_disassembler;	/* cuobjdump or nvdisasm is on PATH (and may be run) */
};

/*
 * Analyses `run_dir` into `out` (initialised by the caller, released by
 * the caller in every case), up to the shares: no decisions, no gaps;
 * *facts says what the RUN had. With o->analysis_dir and o->outputs
 * set, the raw outputs of summarize, meta and isa are written into the
 * set as analysis_dir's summarize.json, meta.json and isa.json,
 * published when the caller commits the set with the rest of its
 * outputs. Returns 0, or -1 with one line in err.
 */
int analysis_build(const char *run_dir, const struct an_opts *o, struct an_run *out,
		   struct an_facts *facts, struct buf *err);

/*
 * analysis_build() then the decisions and the gaps: decide_run()'s old
 * name. NEEDSWORK: defined in decide/decide.c and kept only for
 * cmd/investigate.c, which calls decide_run() once its package (P4.5)
 * rebuilds it on the libraries; then this goes.
 */
int analysis_run(const char *run_dir, const struct an_opts *o, struct an_run *out,
		 struct buf *err);

#endif
