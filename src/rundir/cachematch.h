/*
 * rundir/cachematch: which Triton cache entries a kernel was compiled
 * into. One policy for the two questions tko asks:
 *
 *   rd_cache_pick()  the entry the kernel ran with (the analysis: its ISA);
 *   rd_cache_all()   every entry compiled from the kernel (tko collect).
 *
 * A RUN's Triton cache holds one entry per config compiled (corpus
 * h200-run1: 133 entries for 51 kernel modules), and, after
 * cross-compiles, the same module for other targets, so a kernel is found
 * by what it is known by, strongest first: the cache hash a launcher or a
 * capture recorded (the entry folder's name is Triton's cache key), the
 * Inductor module it was compiled from (the first .py a line table or IR
 * location names outside site-packages), or a module with the same source
 * but for whitespace (Inductor writes one source under two names).
 *
 * Callers describe entries with facts (struct rd_centry), so this module
 * needs no scanner: the analysis fills them from `tko isa`'s scan
 * (analyse/tcache.h), collect from the entry's IR text
 * (rd_module_key_of_text).
 */
#ifndef TKO_RUNDIR_CACHEMATCH_H
#define TKO_RUNDIR_CACHEMATCH_H

#include <stddef.h>

#include "util/opts.h"

/* Inductor modules larger than this are not kernel sources (not compared). */
#define RD_MODULE_MAX (64u << 20)

/* One compiled kernel of a Triton cache entry. */
struct rd_centry {
	const char *name;	/* the kernel symbol */
	const char *dir;	/* the entry folder's name: Triton's cache key (launchers' cache_hash) */
	const char *module_key;	/* the module it was compiled from (rd_module_key), or NULL */
	const char *arch;	/* normalised target ("sm_90", "gfx942"), or NULL */
	long num_warps;		/* -1 unknown */
	long num_stages;	/* -1 unknown */
	const void *data;	/* the caller's: what the entry stands for */
};

/* How rd_cache_pick() found the entry; rd_how_names[] are kernels.json's isa.match strings. */
enum rd_how {
	RD_HOW_NONE,		/* no entry of the name and arch */
	RD_HOW_CACHE_HASH,	/* the recorded cache hash */
	RD_HOW_MODULE,		/* the only entry of its module */
	RD_HOW_MODULE_WS,	/* of its module's entries, the one with its num_warps/num_stages */
	RD_HOW_SAME_SOURCE,	/* the only entry of a module with the same source */
	RD_HOW_SAME_SOURCE_WS,	/* of those, the one with its num_warps/num_stages */
	RD_HOW_AMBIGUOUS,	/* several left: no entry */
	RD_HOW_NR
};
extern const char *const rd_how_names[RD_HOW_NR];

/* What is known about the kernel whose entries are wanted. */
struct rd_cquery {
	const char *name;	/* the Triton function name */
	const char *arch;	/* the target it ran on, or NULL: any */
	const char *cache_hash;	/* the chosen config's cache entry, or NULL (pick) */
	const char *module_key;	/* its module's key, or NULL */
	const struct strlist *recorded_hashes;	/* capture.json configs' cache hashes, or NULL (all) */
	long num_warps;		/* the chosen config's, -1 unknown (pick) */
	long num_stages;	/* -1 unknown (pick) */
	/* whether the module `module_key` is the kernel's own source but for whitespace; may be NULL */
	int (*same_source)(void *data, const char *module_key);
	void *data;		/* passed to same_source */
};

struct rd_cmatch {
	const struct rd_centry *entry;	/* the one, or NULL */
	enum rd_how how;
	size_t candidates;	/* entries of that hash, module or source for the arch */
};

/*
 * The entry the kernel ran with: the entries of its name (and arch) with
 * its cache hash; else those of its module; else those whose module is
 * the same source. Several are narrowed by num_warps/num_stages; several
 * left is RD_HOW_AMBIGUOUS and no entry.
 */
void rd_cache_pick(const struct rd_centry *v, size_t n, const struct rd_cquery *q,
		   struct rd_cmatch *m);

/*
 * Every entry of the kernel's name compiled from it: all of them when no
 * other kernel has the name (`name_unique`), else those with a recorded
 * hash, of its module, or of a module with the same source. `out` must
 * hold n pointers; returns how many it got, in v's order.
 */
size_t rd_cache_all(const struct rd_centry *v, size_t n, const struct rd_cquery *q,
		    int name_unique, const struct rd_centry **out);

/*
 * The key of the first Python file p[0..n) names in quotes outside
 * site-packages: a PTX `.file 1 "/tmp/w/cache/inductor/4o/c4oz....py"`,
 * an AMDGCN `.file 1 "/tmp/w/cache/inductor/4o" "c4oz....py"`, a TTIR
 * `loc("/tmp/w/.../c4oz....py":12:0)`. A new string, or NULL.
 */
char *rd_module_key_of_text(const char *p, size_t n);

/*
 * 1 when the two files hold the same text but for spaces, tabs and
 * newlines (what makes two modules twins); 0 when not, or when one
 * cannot be read.
 */
int rd_same_source_files(const char *a, const char *b);

#endif
