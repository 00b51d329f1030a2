/*
 * The evidence of one RUN as the other modules' libraries return it,
 * before it is joined per kernel: the internal interface between
 * gather.c (reads it), join.c (pairs it up) and evidence.c (copies the
 * facts into the model). Not used outside src/analyse/.
 */
#ifndef TKO_ANALYSE_INPUTS_H
#define TKO_ANALYSE_INPUTS_H

#include <jansson.h>

#include "analyse/analysis.h"
#include "analyse/tcache.h"
#include "isa/isa.h"
#include "parse/autotune.h"
#include "parse/fx_graph.h"
#include "parse/meta.h"
#include "rundir/layout.h"
#include "util/strmap.h"

/* What one model kernel was joined from; refs[i] belongs to run->kernels[i]. */
struct join_ref {
	const struct at_kernel *ak;		/* summarize's kernel, or NULL */
	const struct meta_kernel *mk;		/* meta's kernel, or NULL */
	const struct wrapped_kernel *block;	/* the wrapper block launching it, or NULL */
	const char *wrapper;			/* that wrapper's path, or NULL */
	long sites;				/* launch sites in wrapper modules */
	char *zero_consumer;			/* the call the wrapper next passes the buffer it
						 * zeroes to ("name (line N)"), or NULL (owned) */
};

struct replay_doc;
struct run_manifest;
struct env_doc;

struct an_inputs {
	const char *run;		/* the RUN directory as given */
	struct rundir rd;		/* it, opened (rundir/layout.h) */
	const struct an_opts *opts;	/* the caller's options */
	struct autotune_set at;		/* tko summarize's model */
	int have_at;			/* summarize read something */
	struct meta_set meta;		/* tko meta's kernels, files and wrapper blocks */
	struct isa_result isa;		/* the Triton cache's assembly */
	struct tcache tc;		/* its kernels, indexed */
	struct fx_graphs fx;		/* post-grad graphs of the logs */
	struct env_doc *env;		/* env.json (model/env.h), or NULL */
	struct run_manifest *manifest;	/* tko-run.json (model/manifest.h), or NULL */
	struct replay_doc *replay_doc;	/* a `tko run` document (model/replay.h), or NULL */
	char *replay_path;		/* where it came from */
	json_t *tunes;			/* array of {"path", "doc"} for `tko tune` documents */
	struct strmap module_files;	/* module key (basename without .py) -> meta file path */
	struct strmap at_by_module;	/* module key -> struct at_kernel * */
	struct strmap at_by_dir;	/* capture kernel dir basename -> struct at_kernel * */
	struct strmap used_at;		/* at_kernel ids joined to a model kernel */
	long logs;			/* log files read */
	struct join_ref *refs;		/* parallel to the run's kernels, after inputs_join */
	size_t nrefs;
	char **notes;			/* what went wrong while reading, for the run's notes */
	size_t nnotes;
};

/* Reads everything (gather.c). 0, or -1 with one line in err. */
int inputs_gather(struct an_inputs *in, const char *run, const struct an_opts *o,
		  struct buf *err);
void inputs_release(struct an_inputs *in);
/* Moves the summarize, meta and isa models into `raw` (what it held is released). */
void inputs_take_raw(struct an_inputs *in, struct an_raw *raw);

/*
 * Builds out->kernels (with in->refs), candidates and libcalls (join.c):
 * which kernels the model ran, and what each was joined from.
 */
void inputs_join(struct an_inputs *in, struct an_run *out);

/* Copies every fact into the kernels (evidence.c). */
void inputs_evidence(struct an_inputs *in, struct an_run *out);

/* A file under the RUN, newly allocated. */
char *inputs_path(const struct an_inputs *in, const char *rel);
/*
 * RUN/rel when it is there and inside the RUN (rundir/layout.h's
 * rd_inside), newly allocated; NULL when missing, and when a link
 * leads it out of the RUN, with a note saying so in in->notes.
 */
char *inputs_part(struct an_inputs *in, const char *rel);
/* `path` relative to the RUN when it lies inside it; newly allocated. */
char *inputs_relative(const struct an_inputs *in, const char *path);

#endif
