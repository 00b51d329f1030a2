/*
 * Gathering one kernel's artifacts from a RUN directory, for `tko collect`.
 *
 * Input: a RUN directory and a kernel name, either exact ("triton_mm") or
 * with the capture's source-hash suffix ("triton_mm-1a2b3c4d", the name of
 * its capture/kernels/ directory). Candidates are the Inductor kernel
 * modules under RUN/cache/inductor that define `def NAME(` (the hash is
 * sha256 of the module file, as the capture computes it) and the capture
 * directories RUN/capture/kernels/NAME-<hash8>/.
 *
 * Output, under OUT only: inductor/<module>.py, the wrapper modules that
 * launch it and its .best_config records (collect_related.h), its log
 * lines as logs/<log's path in the RUN> (collect_logs.h),
 * triton/<cache hash>/<every file of that Triton cache entry> (.source,
 * .ttir, .ttgir, .llir, .ptx/.amdgcn, .cubin/.hsaco, .json, __grp__*.json),
 * capture/<the capture directory's files>, and collect.json listing them.
 * A Triton cache entry belongs to the kernel when the capture recorded its
 * hash, when its IR names the module file (or a file with the same content:
 * Inductor may write one source under two names), or when the name is
 * unambiguous.
 *
 * Inputs that are symbolic links are skipped (and listed as such), file
 * names are checked before use, and every output file is created new
 * (O_EXCL|O_NOFOLLOW) inside OUT, which must be new or empty: nothing is
 * ever written outside OUT, and a failed collect removes what it wrote.
 */
#ifndef TKO_LIVE_COLLECT_H
#define TKO_LIVE_COLLECT_H

#include <jansson.h>

#include "util/buf.h"
#include "util/opts.h"

struct kernel_candidate {
	char hash8[9];		/* first 8 hex digits of the source hash */
	char *source_hash;	/* the full sha256, or NULL when only a capture dir knows it */
	char *module;		/* the Inductor kernel module, or NULL */
	struct strlist twins;	/* other module files with the same content (owned) */
	char *capture_dir;	/* RUN/capture/kernels/NAME-<hash8>, or NULL */
	json_t *capture;	/* its capture.json, or NULL */
};

struct collect {
	char *run;		/* the RUN directory */
	char *name;		/* the kernel name, without a -hash8 suffix */
	char want[9];		/* the -hash8 suffix asked for, or "" */
	struct kernel_candidate *c;	/* matching candidates */
	size_t nr, alloc;
	size_t total;		/* candidates for the name, before the -hash8 filter */
	struct strlist refused;	/* parts of the RUN a link leads out of (owned), not read */
};
#define COLLECT_INIT { NULL, NULL, "", NULL, 0, 0, 0, STRLIST_INIT }

/*
 * Finds the candidates for `spec` in `run`. Returns 0 (col->nr may be 0 or
 * more than 1: the caller reports no match / ambiguity), or -1 with a line
 * in err for a bad name or an unreadable RUN.
 */
int collect_find(struct collect *col, const char *run, const char *spec, struct buf *err);

/*
 * Copies candidate `which`'s artifacts into `out`; *manifest receives
 * collect.json's content (a new reference). 0 or -1 + err.
 */
int collect_write(struct collect *col, size_t which, const char *out,
		  json_t **manifest, struct buf *err);

void collect_release(struct collect *col);

/* 1 when `spec` is a kernel name tko accepts: [A-Za-z_][A-Za-z0-9_]*, optionally -<8 hex>. */
int collect_valid_name(const char *spec);

#endif
