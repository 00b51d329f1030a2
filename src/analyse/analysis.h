/*
 * The analysis of a RUN directory: the library behind `tko investigate`
 * and `tko diff`. It reads every kind of evidence a RUN holds with the
 * other modules' library calls (summarize.h for autotune logs, capture
 * events and .best_config records; meta.h for kernel and wrapper modules;
 * isa.h for the Triton cache's assembly; fx_graph.h for the user's source
 * lines; capture.json, analysis/replay.json, tune.json and env.json with
 * jansson), joins it per kernel (join.c), computes time shares (share.c,
 * then from a whole-step profile when there is one: stepprof.c), and
 * fills one struct an_run (model/analysis.h). Deciding is the next step:
 * decide/decide.h's decide_run() calls analysis_build(), then applies
 * the rules (decide/rules.c) and lists what is missing (decide/gaps.c).
 *
 * Usage:
 *
 *	struct an_run run;
 *	struct an_opts o = AN_OPTS_INIT;
 *	struct an_raw raw;
 *	an_raw_init(&raw);
 *	o.raw = &raw;		(optional: keep the tools' own models, for
 *				 analysis/{summarize,meta,isa}.json: report/raw_docs.h)
 *	an_run_init(&run);
 *	if (decide_run("RUN", &o, &run, &err) < 0)
 *		... err: "'RUN' is not a RUN directory (no log/, capture/, ...)"
 *	... run.kernels[0] is the kernel with the largest share
 *	doc = an_run_to_json(&run, "tko investigate");	(model/analysis_desc.h)
 *	an_run_release(&run);
 *	an_raw_release(&raw);
 *
 * A RUN may lack any part (a colleague's RUN without capture/, a RUN with
 * no Triton cache): what is missing becomes a gap, not an error. Only a
 * path that is not a directory holding any RUN part, or a broken
 * replay/tune/env JSON file, is an error.
 */
#ifndef TKO_ANALYSE_ANALYSIS_H
#define TKO_ANALYSE_ANALYSIS_H

#include <stddef.h>

#include "isa/isa.h"
#include "model/analysis.h"
#include "parse/autotune.h"
#include "parse/meta.h"
#include "util/buf.h"

struct rd_need;

/*
 * The tools' own models of a RUN as the analysis read them: what `tko
 * summarize`, `tko meta` and `tko isa` would print for it, kept for the
 * raw documents analysis/{summarize,meta,isa}.json.
 */
struct an_raw {
	struct autotune_set at;	/* summarize's */
	struct meta_set meta;	/* meta's */
	struct isa_result isa;	/* the Triton cache's assembly, judged by an_opts.judge_isa */
};
void an_raw_init(struct an_raw *raw);
void an_raw_release(struct an_raw *raw);

struct an_opts {
	double peak_gbps;	/* the peak to compare against; 0: from env.json or the replay */
	const char *replay;	/* a `tko run` JSON document; NULL: RUN/analysis/replay.json if present */
	const char *const *tunes;	/* extra `tko tune` JSON documents ... */
	size_t ntunes;			/* ... this many */
	int isa_tools;		/* let the ISA scanner run disassemblers on binaries */
	struct an_raw *raw;	/* or NULL: an_raw_init'ed, filled with the tools' models on success */
	/* progress: called with a short phrase before each step, or NULL */
	void (*progress)(void *data, const char *step);
	void *progress_data;	/* passed to progress */
	const char *profile;	/* a whole-step profile (stepprof.h); NULL: the RUN's profile/ if any */
	/* judge_isa: called on the scanned Triton cache before it is used or
	   written, to set the findings' severities and rules (decide_run() passes
	   decide/isa_scope.h's; analyse may not include decide), or NULL */
	void (*judge_isa)(struct isa_result *res);
	/* what makes the directory a RUN (the command's need: cmd_need()), or NULL: rd_need_analyse */
	const struct rd_need *need;
};
#define AN_OPTS_INIT { 0, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL }

/*
 * What tko-run.json (and env.json) say the captured command did, so that a
 * RUN without captured inputs can say why: the command did not start,
 * failed, or ran and launched no Triton kernel.
 */
struct an_capture_outcome {
	int recorded;		/* a tko-run.json was read; the rest is unknown without */
	int command_found;	/* 0: it could not be started */
	long long exit_status;	/* the command's (128+N after signal N) */
	long long signal;	/* N, or RF_I64_NONE */
	long long launches;	/* "launch" events of capture/events.jsonl */
	long long errors;	/* "error" events: the capture hook's own failures */
	int torch;		/* torch was importable when tko looked (versions.torch) */
	long gpus;		/* GPUs env.json lists; -1: no env.json */
	char *kernels_regex;	/* --kernels, or NULL */
	/* what tko capture set for the command (env_set) or left as the user had it (env_kept) */
	char *torch_logs_set;	/* the TORCH_LOGS tko set, or NULL */
	char *torch_logs_kept;	/* the user's own TORCH_LOGS, or NULL */
	int triton_cache_set;	/* tko set TRITON_CACHE_DIR (to RUN/cache/triton) */
	int profile_set;	/* tko set TKO_PROFILE_DIR (no --no-profile) */
	char *log_error;	/* why RUN/log/model.log is incomplete, or NULL */
};

/* What the RUN had, for the gaps (decide/decide.c); an_facts_release() frees it. */
struct an_facts {
	int have_log;		/* a TORCH_LOGS=+inductor log was read */
	int have_triton_cache;	/* RUN/cache/triton was read */
	int have_replay;	/* a replay document was read */
	int have_disassembler;	/* cuobjdump or nvdisasm is on PATH (and may be run) */
	struct an_capture_outcome capture;
	char *bandwidth_error;	/* env.json's: why --measure measured nothing, or NULL */
};

void an_facts_release(struct an_facts *f);

/*
 * Analyses `run_dir` into `out` (initialised by the caller, released by
 * the caller in every case), up to the shares: no decisions, no gaps;
 * *facts says what the RUN had. With o->raw set, the models summarize,
 * meta and isa read are moved there (the caller writes them). Returns 0,
 * or -1 with one line in err.
 */
int analysis_build(const char *run_dir, const struct an_opts *o, struct an_run *out,
		   struct an_facts *facts, struct buf *err);

#endif
