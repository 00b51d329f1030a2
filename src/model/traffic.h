/*
 * traffic: the one definition of the bytes a launch moves, and of the
 * rates tko derives from it. `tko run`, `tko tune`, `tko investigate` /
 * report and the benchmarks (bench/tune_gpu/criteria.py reads the figure
 * from tko's JSON) all call this; docs/json.md "Bytes and rates" says the
 * same in prose.
 *
 * bytes = read bytes + written bytes, over the launch's tensor arguments
 * (capture.json "args": shape, stride, storage offset, element size,
 * storage), where
 *   - an argument is read when the kernel source loads (or atomically
 *     updates) through it, written when it stores (or atomically updates)
 *     through it or Inductor lists it in mutated_arg_names; without the
 *     source Inductor's names say it (in_ptr read, out_ptr written,
 *     in_out_ptr both) and a mutated argument counts both ways;
 *   - a read argument is charged the bytes its view spans (a stride-0,
 *     broadcast dimension spans nothing), and views of one storage are
 *     charged their union once for reading and once for writing: an
 *     in-place update (AdamW's foreach kernel: 4 fp32 tensors read, 3
 *     written) moves its tensors twice;
 *   - an argument every load of which goes through a loaded index (a
 *     gather: cross-entropy's one logit per row) is charged at most one
 *     element per lane the kernel runs (the product of the xnumel /
 *     r0_numel-style size arguments), not its span; likewise a scattered
 *     store. That bound is an estimate, and so is an argument whose access
 *     neither the source nor its name tells (charged once, as read).
 * A figure with any estimate in it has estimate = 1 and says why in note;
 * every output labels it "estimate".
 *
 * Rates: GB/s = bytes / time, 10^9 bytes per second; the fraction of the
 * measured copy rate (a device-to-device copy, read + written bytes).
 * A rate above TRAFFIC_OVER_COPY of the copy rate is not a fact: callers
 * print traffic_rate_doubt()'s cause instead of the percentage.
 *
 * How the source uses each argument comes in a plain struct (struct
 * traffic_source) that a reader above model/ fills from kernel.py:
 * parse/kernel_uses.h's kernel_uses_read(), which callers pass in.
 *
 *	struct traffic t;
 *	if (traffic_of_files(&t, cap_json, kernel_py, kernel_uses_read, &err) == 0)
 *		printf("%.0f GB/s%s\n", traffic_gbps(t.bytes, ms), t.estimate ? " (estimate)" : "");
 *	traffic_release(&t);
 */
#ifndef TKO_MODEL_TRAFFIC_H
#define TKO_MODEL_TRAFFIC_H

#include <jansson.h>

#include "model/capture.h"
#include "util/buf.h"

/* A rate above this fraction of the measured copy rate is flagged, not printed as a fact. */
#define TRAFFIC_OVER_COPY 1.05
/* Under this many bytes a launch's data can stay in the last-level cache (H200: 50 MB L2). */
#define TRAFFIC_CACHE_BYTES (64.0 * 1024 * 1024)

struct traffic {
	double bytes;		/* read + written; < 0 when unknown */
	double read_bytes, write_bytes;
	long reads, writes;	/* tensors read / written: disjoint byte ranges, aliases merged */
	long gathered;		/* arguments charged by their gather or scatter bound */
	int estimate;		/* 1: some part is a bound or an assumption (see note) */
	char *note;		/* how it was counted, one phrase; never NULL after a count */
};

/* How a kernel's source uses one of its arguments. */
struct traffic_use {
	char *name;			/* the parameter */
	unsigned loads, stores, atomics;	/* memory ops whose pointer starts from it */
	int indirect;			/* 1: the next three are known */
	long gathers, scatters;		/* its tl.load / tl.store sites through a loaded index */
	long atomic_scatters;		/* its tl.atomic_* sites through a loaded index */
};

/* The uses of one kernel's arguments, as its source says them. */
struct traffic_source {
	struct traffic_use *v;
	size_t nr, alloc;
};
#define TRAFFIC_SOURCE_INIT { NULL, 0, 0 }

/* The use of argument `name`, the first of that name; NULL when there is none. */
struct traffic_use *traffic_source_get(const struct traffic_source *s, const char *name);
/* The same, appended (zeroed) when there is none. */
struct traffic_use *traffic_source_add(struct traffic_source *s, const char *name);
void traffic_source_release(struct traffic_source *s);

/*
 * Fills *s (empty) with how kernel `kernel` of the file kernel_py uses its
 * arguments (the first kernel when `kernel` is NULL): 1, or 0 when the file
 * is missing or unreadable or holds no such kernel. tko's is
 * parse/kernel_uses.h's kernel_uses_read(); NULL reads nothing.
 */
typedef int traffic_reader(struct traffic_source *s, const char *kernel_py, const char *kernel);

/*
 * Counts the bytes of one launch from a capture.json document and how the
 * kernel's source uses its arguments (NULL when there is no source). 0, or
 * -1 when the arguments cannot be read or no tensor argument has elements
 * (t->bytes < 0, note says why): callers fall back to Inductor's estimate.
 */
int traffic_count(struct traffic *t, const struct capture_doc *c, const struct traffic_source *src);

/*
 * The same with the source read by `read` from the file kernel_py (the
 * kernel folder's kernel.py, rundir/layout.h's RD_K_KERNEL_PY; NULL reads
 * none), the kernel capture.json names; when tko cannot count,
 * capture.json's inductor_num_bytes, marked an estimate.
 */
int traffic_of_capture(struct traffic *t, const struct capture_doc *c, const char *kernel_py,
		       traffic_reader *read);

/*
 * The same from the files of a captured kernel folder, their paths given
 * by the caller (rd_kernel_path: model/ does not know the layout). -1 with
 * err when capture.json is unreadable or not a capture (model/capture.h's
 * line); a kernel.py that is missing or unreadable only makes the count
 * rely on argument names.
 */
int traffic_of_files(struct traffic *t, const char *capture_json, const char *kernel_py,
		     traffic_reader *read, struct buf *err);

void traffic_release(struct traffic *t);

/*
 * The footprint: the union of the tensor arguments' spans, each storage's
 * bytes once (what a launch can touch, not what it moves); -1 when an
 * argument is unreadable. capture.json's "args".
 */
long long traffic_footprint(const struct capture_doc *c);

/* bytes / (ms * 1e-3) / 1e9; < 0 when either is unknown or not positive. */
double traffic_gbps(double bytes, double ms);

/*
 * NULL when a rate of `gbps` can be printed as a fact (it is at most
 * TRAFFIC_OVER_COPY of copy_gbps, or there is no copy rate); else the
 * cause, a new string ("bytes over-counted: ...", "L2-resident reuse: ...").
 */
char *traffic_rate_doubt(const struct traffic *t, double gbps, double copy_gbps);

/* "estimate: " when t is an estimate, else "" (for labels). */
const char *traffic_label(const struct traffic *t);

/* {bytes, read_bytes, write_bytes, estimate, note} for a JSON document. */
json_t *traffic_json(const struct traffic *t);

#endif
