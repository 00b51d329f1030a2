/*
 * The profile model: what a GPU profile says about where a step's GPU time
 * went, whichever profiler wrote it. One reader per format fills it
 * (chrome.c: torch.profiler / Kineto Chrome traces; rocprof.c: rocprofv3
 * and rocprof v1 / DTK CSV; nsys.c: nsys stats CSV and SQLite exports),
 * attrib.c then classifies and groups its GPU activities, and tojson.c /
 * report/profile_text.c show it.
 *
 *	struct prof p;
 *	prof_init(&p);
 *	if (prof_read_path(&p, "trace.json.gz", &err) < 0)
 *		... err: "'trace.json.gz': truncated at byte 1048576 (inside an event)"
 *	prof_attribute(&p);		(attrib.h: groups, busy time, steps)
 *	... p.groups[0] is the group with the largest share of busy time
 *	prof_release(&p);
 *
 * Times are microseconds (double) whatever the format's own unit; a start
 * of NAN means the format has no timeline (a statistics table). Strings
 * (kernel and op names, Inductor's kernel hash and file) are interned in
 * p.strings: an id is an index into p.strv, 0 meaning "none".
 *
 * Memory is bounded by the activities kept, never by the file's size:
 * every event is parsed from a window of the input and only its typed
 * fields stay (about 80 bytes a GPU activity, 56 an op).
 */
#ifndef TKO_PROFILE_PROF_H
#define TKO_PROFILE_PROF_H

#include <stddef.h>
#include <stdint.h>

#include "model/names.h"
#include "util/buf.h"
#include "util/strmap.h"

/* The formats tko reads, each told from its content (detect.c). */
enum prof_format {
	PROF_FMT_NONE,
	PROF_FMT_KINETO,		/* torch.profiler Chrome trace JSON (.json, .json.gz) */
	PROF_FMT_ROCPROFV3_TRACE,	/* rocprofv3 kernel_trace.csv */
	PROF_FMT_ROCPROFV3_STATS,	/* rocprofv3 kernel_stats.csv (also rocprof/hipprof stats) */
	PROF_FMT_ROCPROF_V1,		/* rocprof v1 / DTK results.csv with BeginNs/EndNs */
	PROF_FMT_NSYS_TRACE,		/* nsys stats -r cuda_gpu_trace --format csv */
	PROF_FMT_NSYS_SUM,		/* nsys stats -r cuda_gpu_kern_sum --format csv */
	PROF_FMT_NSYS_SQLITE,		/* nsys export --type sqlite */
	PROF_FMT_COUNT
};
extern const char *const prof_format_names[PROF_FMT_COUNT];

/*
 * No profiled window of a model's steps sits a minute with its GPU idle:
 * a stretch that long between activities is a clock that jumped (two
 * traces concatenated, a timestamp in another epoch), not idle time.
 */
#define PROF_CLOCK_JUMP_US 60e6

/*
 * No clock a profiler uses reads past 1e18 us (31,700 years): a time or a
 * duration beyond it is a damaged row or event, skipped like one, so that
 * sums over millions of activities stay finite.
 */
#define PROF_TIME_MAX 1e18

/* What a GPU activity is: enum prof_class, in model/names.h (the analysis keeps it too). */

/* One GPU activity (a kernel, copy or fill), or one row of a statistics table. */
struct prof_act {
	double start;		/* us; NAN: no timeline (a statistics row) */
	double dur;		/* us: one activity's duration, or a row's total */
	double busy;		/* us of the busy time it is given (attrib.c) */
	int64_t correlation;	/* launch correlation id, -1 unknown */
	int64_t external;	/* the launching op's External id, -1 unknown */
	uint32_t name;		/* string id */
	int32_t device;		/* device index, -1 unknown */
	int32_t stream;		/* stream / queue, -1 unknown */
	int32_t grid[3];	/* blocks (CUDA) or work-items (AMD); 0 unknown */
	int32_t block[3];	/* threads per block; 0 unknown */
	uint32_t calls;		/* activities it stands for: 1, or a statistics row's count */
	uint32_t op;		/* index+1 of the launching op in p.ops, 0 none (attrib.c) */
	uint32_t group;		/* index of its group in p.groups (attrib.c) */
	uint8_t cls;		/* enum prof_class */
	uint8_t kind;		/* enum prof_act_kind */
};

enum prof_act_kind { PROF_ACT_KERNEL, PROF_ACT_MEMCPY, PROF_ACT_MEMSET };

/* One CPU op (an ATen op, Inductor's Triton launch, a user annotation). */
struct prof_op {
	double start;		/* us */
	double dur;		/* us */
	int64_t external;	/* External id, -1 unknown */
	uint32_t name;		/* string id */
	uint32_t kernel_hash;	/* Inductor's launch: the kernel module's hash (string id) */
	uint32_t kernel_file;	/* ... its file */
	uint32_t kernel_kwargs;	/* ... "XBLOCK=1024,R0_BLOCK=8" */
	uint32_t dtype;		/* first "Input type" ("float", "c10::BFloat16"), string id */
	uint32_t outer;		/* index+1 of the outermost ATen op enclosing it (attrib.c) */
	int32_t tid;		/* thread */
	int16_t num_warps;	/* Inductor's launch, -1 */
	int16_t num_stages;	/* Inductor's launch, -1 */
	uint8_t annotation;	/* a user_annotation (ProfilerStep#N, ...) */
};

/* A launch on the CPU: correlation -> External id and time, for kernels that lack them. */
struct prof_launch {
	int64_t correlation;
	int64_t external;	/* -1 unknown */
	double start;		/* us */
};

/* A group of activities: one Triton kernel, or the library kernels of one op. */
struct prof_group {
	uint8_t cls;		/* enum prof_class */
	uint32_t key;		/* string id: kernel name (Triton) or op name (library), or kernel name */
	uint32_t op;		/* string id of the op that launched it (ATen op / wrapper call), 0 */
	uint32_t top;		/* string id of the group's largest kernel */
	uint32_t kernel_hash;	/* Triton: Inductor's kernel hash, 0 */
	uint32_t kernel_file;	/* Triton: the module, 0 */
	uint32_t kernel_kwargs;	/* Triton: the launch config, 0 */
	uint32_t dtype;		/* the op's first input type, 0 */
	int num_warps, num_stages;	/* Triton: -1 */
	long calls;		/* activities */
	long kernels;		/* distinct kernel names */
	double total;		/* us: sum of durations */
	double busy;		/* us: busy time given to it */
	double share;		/* busy / the profile's busy time */
};

/* One ProfilerStep#N range and the GPU time its launches produced. */
struct prof_step {
	long number;		/* N */
	double cpu_start, cpu_dur;	/* us */
	double gpu_start, gpu_end;	/* us: first start and last end of its activities, NAN */
	long acts;		/* activities launched inside it */
};

struct prof {
	enum prof_format format;
	char *path;		/* the file read */
	char *device;		/* "NVIDIA H200" (deviceProperties, TARGET_INFO_GPU), or NULL */
	struct strmap strings;	/* text -> id */
	char **strv;		/* id -> text; strv[0] is "" */
	size_t nstrv, astrv;

	struct prof_act *acts;
	size_t nacts, aacts;
	struct prof_op *ops;
	size_t nops, aops;
	struct prof_launch *launches;
	size_t nlaunches, alaunches;

	/* Filled by prof_attribute() (attrib.h). */
	struct prof_group *groups;	/* most busy time first */
	size_t ngroups;
	struct prof_step *steps;	/* in order */
	size_t nsteps;
	int timeline;		/* activities have start times */
	double first, last;	/* us: the first start and the last end */
	double busy;		/* us: the union of all activity intervals (or the sum, without a timeline) */
	double total;		/* us: the sum of all durations */
	double idle;		/* us: last - first - busy */
	long gaps;		/* idle gaps of 1 us or more */
	double largest_gap;	/* us */
	long clock_jumps;	/* idle stretches over PROF_CLOCK_JUMP_US, left out of idle */
	double step_time;	/* us a step from the steps' GPU starts, NAN */
	long devices;		/* distinct devices */
	long streams;		/* distinct (device, stream) pairs */

	/* What was unusual; a partial profile is flagged, never silent. */
	int partial;		/* the input ended early: what was read is kept */
	char **notes;
	size_t nnotes;
	long skipped;		/* events or rows that could not be used */
	long not_utf8;		/* names whose bytes were not UTF-8 (shown with U+FFFD) */
};

void prof_init(struct prof *p);
void prof_release(struct prof *p);

/* Interns (s, n); returns its id (never 0 for a non-empty string; 0 for ""). */
uint32_t prof_intern(struct prof *p, const char *s, size_t n);
/* The text of an id ("" for 0). */
const char *prof_str(const struct prof *p, uint32_t id);

/* Appends a zeroed activity / op / launch with unknowns set, and returns it. */
struct prof_act *prof_add_act(struct prof *p);
struct prof_op *prof_add_op(struct prof *p);
struct prof_launch *prof_add_launch(struct prof *p);
void prof_note(struct prof *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Whether an activity's times can be kept: a duration in [0,
 * PROF_TIME_MAX], and a start within PROF_TIME_MAX of 0, or NAN for a
 * statistics row. Readers skip (and count) an activity that fails.
 */
int prof_times_ok(double start, double dur);
/*
 * v as an integer when it is a number in [lo, hi] (its fraction dropped),
 * else `unknown`: profiles hold any number where an id or a size belongs,
 * and a cast of one out of range is undefined.
 */
int64_t prof_int(double v, int64_t lo, int64_t hi, int64_t unknown);

/*
 * Reads a profile of any format tko knows, told from its content
 * (detect.c). 0, or -1 with one line naming the file in err. A truncated
 * input that still gave GPU activities is read with p->partial set and a
 * note, not an error; one with none is an error.
 */
int prof_read_path(struct prof *p, const char *path, struct buf *err);

#endif
