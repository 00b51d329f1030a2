/*
 * rundir/index: one kernel -> every artifact a RUN holds for it.
 *
 * A kernel is a name plus the 8 hex digits of its source's sha256 (the
 * suffix of its capture folder, capture/kernels/<name>-<hash8>), because
 * Inductor reuses names ("triton_mm" for every max-autotune choice). The
 * index is built by parts, each asking for the parts it needs:
 *
 *   RD_IX_MODULES   the Inductor kernel modules under cache/inductor that
 *                   define it (`def NAME(` at a line start in a module with
 *                   @triton.jit that is not a wrapper), and their twins
 *                   (byte-identical modules under another name);
 *   RD_IX_CAPTURES  its capture folder and the cache hashes its capture.json
 *                   recorded;
 *   RD_IX_CACHE     the Triton cache entries compiled from it
 *                   (cachematch.h's rd_cache_all over cache/triton and
 *                   cache/inductor/triton, each entry's module read from its IR);
 *   RD_IX_WRAPPERS  the output-code modules that launch it: they compile
 *                   it (async_compile.triton('NAME', ...)) and name its
 *                   module in a "# kernel path: ..." comment (or have no such
 *                   comment, when no other kernel has the name);
 *   RD_IX_BEST      its .best_config records: <module>.best_config, and the
 *                   records beside the module (named by a hash of the autotune
 *                   key: corpus h200-run1 4o/cfdc6500... beside 4o/c4ozvdwl...py)
 *                   whose triton_cache_hash is one of its entries, or that record
 *                   none when the module is the only .py of its folder;
 *   RD_IX_TUNES     capture/kernels/<dir>/tune/<target>/tune.json;
 *   RD_IX_PROFILE   its key in the RUN's whole-step profiles (profile/):
 *                   Inductor's kernel hash, its module's key;
 *   RD_IX_LOGS      its lines of the RUN's logs: what tko summarize
 *                   attributes to it. Filled by analyse/collect_logs.h, which
 *                   needs summarize (a reader above this layer).
 *
 * Only what is inside the RUN is indexed (layout.h's rules); a part that a
 * link leads out of is listed in `refused`. The analysis does not build an
 * index: it asks the same questions of one kernel at a time through the
 * lookups at the end (its kernels come from the evidence, not the disk).
 */
#ifndef TKO_RUNDIR_INDEX_H
#define TKO_RUNDIR_INDEX_H

#include <stddef.h>

#include "rundir/layout.h"
#include "util/buf.h"
#include "util/opts.h"

enum {
	RD_IX_MODULES = 1,
	RD_IX_CAPTURES = 2,
	RD_IX_CACHE = 4,
	RD_IX_WRAPPERS = 8,
	RD_IX_BEST = 16,
	RD_IX_TUNES = 32,
	RD_IX_PROFILE = 64,
	RD_IX_LOGS = 128,
};

/* The lines of one log that are a kernel's (1-based, ascending). */
struct rd_loglines {
	char *path;		/* the log, as found in the RUN */
	size_t *line;
	size_t nr;
};

/* Strings and lists are owned; paths are the RUN's root joined with their place in it. */
struct rd_kernel {
	char *name;			/* the Triton function name */
	char hash8[9];			/* first 8 hex digits of source_hash */
	char *source_hash;		/* sha256 of the module, or the capture's; NULL unknown */
	char *module;			/* cache/inductor/<xx>/<key>.py, or NULL */
	struct strlist twins;		/* modules with the same bytes */
	char *capture_dir;		/* capture/kernels/<name>-<hash8>, or NULL */
	struct strlist recorded_hashes;	/* capture.json configs[].cache_hash */
	struct strlist cache_dirs;	/* Triton cache entry folders compiled from it */
	char *best_config;		/* <module>.best_config when it is there, or NULL */
	struct strlist best_configs;	/* its records beside the module */
	struct strlist wrappers;	/* output-code modules launching it */
	struct strlist tunes;		/* tune.json files of its capture folder, by target */
	char *profile_key;		/* its key in profile/ (its module key), or NULL */
	struct rd_loglines *logs;	/* its lines per log (RD_IX_LOGS) */
	size_t nlogs;
};

struct rd_index {
	char *root;			/* the RUN, as given */
	char *name;			/* only kernels of this name, or NULL: all */
	struct rd_kernel *v;		/* in the order found: modules, then capture-only folders */
	size_t nr, alloc;
	unsigned built;			/* RD_IX_* parts built */
	struct strlist refused;		/* RUN parts a link leads out of (root/part), not read */
	struct strlist pyfiles;		/* every .py under cache/inductor (RD_IX_MODULES) */
	struct strlist profiles;	/* the RUN's profiles (RD_IX_PROFILE) */
};
#define RD_INDEX_INIT { NULL, NULL, NULL, 0, 0, 0, STRLIST_INIT, STRLIST_INIT, STRLIST_INIT }

/*
 * Builds `parts` (and the parts they need) of the index of the opened RUN
 * `rd` (layout.h's rd_open) for kernels named `name` (NULL: every kernel),
 * adding to what an earlier call built. 0, or -1 + err when a folder of
 * the RUN cannot be read.
 */
int rd_index_build(struct rd_index *ix, const struct rundir *rd, const char *name,
		   unsigned parts, struct buf *err);
/*
 * The kernels named `name` (with `hash8`, when not NULL), up to max of them
 * into out; returns how many there are.
 */
size_t rd_index_find(const struct rd_index *ix, const char *name, const char *hash8,
		     struct rd_kernel **out, size_t max);
void rd_index_release(struct rd_index *ix);

/* 1 when `spec` is a kernel tko accepts: [A-Za-z_][A-Za-z0-9_]*, optionally -<8 lowercase hex>. */
int rd_kernel_spec_ok(const char *spec);

/*
 * The tune documents of the kernel folder `kernel_dir` (relative to the
 * RUN `root`): <kernel_dir>/tune/<target>/tune.json, sorted by target,
 * then <kernel_dir>/tune/tune.json (what `tko tune KERNEL_DIR` writes), as
 * root/<path>; each part a link leads out of adds its line to `refused`
 * (owned strings) instead.
 */
void rd_kernel_tunes(const char *root, const char *kernel_dir, struct strlist *out,
		     struct strlist *refused);
/*
 * Whether the kernel entry of a tune document (`doc_kernel`, `doc_source`,
 * read from `tune_path`) is the kernel `name` of capture folder
 * `kernel_dir` and module `module` (each may be NULL): the same name, and
 * the capture folder's name in the document's path or source, else the
 * same module file name.
 */
int rd_tune_matches(const char *tune_path, const char *doc_kernel, const char *doc_source,
		    const char *name, const char *kernel_dir, const char *module);
/* The key a kernel's entry of analysis/replay.json is filed under: its capture folder's name. */
const char *rd_replay_key(const char *kernel_dir);
/*
 * The profiles of the RUN's profile/ (sorted, owned strings): not tko's
 * own window notes (window-<pid>.json) nor a README.md.
 */
void rd_profile_files(const char *root, struct strlist *out);

#endif
