/*
 * rundir/layout: the RUN directory of docs/design.md as one table. Every path
 * tko reads or writes in a RUN is a row of rd_parts[] (or, inside one
 * capture/kernels/<name>-<hash8>/ folder, of rd_kparts[]), so a file's
 * place is spelled once:
 *
 *   RUN/
 *     tko-run.json  env.json  log/model.log
 *     capture/events.jsonl  capture/autotune.log  capture/kernels/<dir>/
 *         capture.json  kernel.py  inputs/  tune/<target>/tune.json
 *     cache/inductor/  cache/triton/  (cache/inductor/triton/: Inductor's default)
 *     profile/  analysis/{kernels,summarize,meta,isa,replay}.json  report/
 *     cluster/plan.json  cluster/tasks/<index>/  (tko cluster)
 *
 * It also owns the rules for reading a RUN that may have come from
 * someone else (issue 22): a part is read only when its real location is
 * inside the RUN (rd_inside), a folder is listed without following links
 * out of it (rd_walk), folders tko adds are never links (rd_mkdir), and a
 * path a log names on another machine is found in the RUN's own copy
 * (rd_resolve_logged). What makes a directory a RUN for a command is a
 * struct rd_need, with the message that says what is missing.
 *
 * Paths are built from the root as given (outputs quote them as the user
 * typed them); containment is judged on real paths.
 */
#ifndef TKO_RUNDIR_LAYOUT_H
#define TKO_RUNDIR_LAYOUT_H

#include <stddef.h>
#include <time.h>

#include "util/buf.h"
#include "util/opts.h"

enum rd_part {
	RD_MANIFEST,		/* tko-run.json: tko capture's manifest */
	RD_ENV,			/* env.json: tko env's document */
	RD_LOG_DIR,		/* log/ */
	RD_MODEL_LOG,		/* log/model.log: the command's output */
	RD_CAPTURE_DIR,		/* capture/ */
	RD_EVENTS,		/* capture/events.jsonl (docs/capture-events.md) */
	RD_SEED_LOG,		/* capture/autotune.log: the seed skill's log */
	RD_KERNELS_DIR,		/* capture/kernels/: one folder per captured kernel */
	RD_CACHE_DIR,		/* cache/ */
	RD_INDUCTOR_CACHE,	/* cache/inductor/: TORCHINDUCTOR_CACHE_DIR */
	RD_TRITON_CACHE,	/* cache/triton/: TRITON_CACHE_DIR */
	RD_INDUCTOR_TRITON_CACHE, /* cache/inductor/triton/: Triton's cache when only Inductor's was set */
	RD_PROFILE_DIR,		/* profile/: whole-step profiles (issue 19) */
	RD_ANALYSIS_DIR,	/* analysis/ */
	RD_KERNELS_JSON,	/* analysis/kernels.json: the analysis model */
	RD_SUMMARIZE_JSON,	/* analysis/summarize.json */
	RD_META_JSON,		/* analysis/meta.json */
	RD_ISA_JSON,		/* analysis/isa.json */
	RD_REPLAY_JSON,		/* analysis/replay.json: tko run's results */
	RD_REPORT_DIR,		/* report/ */
	RD_CLUSTER_DIR,		/* cluster/: tko cluster plan's default folder (docs/cluster.md) */
	RD_NPARTS
};

struct rd_part_info {
	const char *rel;	/* the path below the RUN: "capture/events.jsonl" */
	unsigned dir:1;		/* a folder (else a file) */
	unsigned skeleton:1;	/* made by rd_create() */
};
extern const struct rd_part_info rd_parts[RD_NPARTS];

/* Parts of one capture/kernels/<name>-<hash8>/ folder. */
enum rd_kpart {
	RD_K_CAPTURE_JSON,	/* capture.json: arguments, configs, grid */
	RD_K_KERNEL_PY,		/* kernel.py: the kernel's source */
	RD_K_INPUTS,		/* inputs/: the arguments' storages */
	RD_K_TUNE_DIR,		/* tune/: tko tune's default output, tune/<target>/tune.json */
	RD_K_NPARTS
};
extern const char *const rd_kparts[RD_K_NPARTS];
/* The file tko tune writes in tune/<target>/. */
#define RD_TUNE_DOC "tune.json"

/*
 * What makes a directory a RUN for a command: one of `parts` present (0:
 * any directory), with the messages of that command, each with one %s for
 * the directory. NULL messages: the caller says it (or falls back).
 */
struct rd_need {
	unsigned parts;		/* bit (1u << enum rd_part) per part; one present is enough */
	const char *not_dir;	/* when it is not a directory */
	const char *missing;	/* when none of the parts is there */
};
/* tko summarize: log/, capture/events.jsonl, capture/autotune.log, cache/inductor/, tko-run.json. */
extern const struct rd_need rd_need_summarize;
/* tko investigate: summarize's, or cache/triton/, env.json, profile/. */
extern const struct rd_need rd_need_analyse;
/* tko diff reads a folder as a RUN when it has cache/, capture/ or log/ (else as assembly). */
extern const struct rd_need rd_need_diff;
/* tko collect, apply, report: any directory (what they read in it, they check themselves). */
extern const struct rd_need rd_need_any_dir;
/* tko cluster: a RUN has capture/kernels/ (else its arguments are kernel directories). */
extern const struct rd_need rd_need_cluster;

/* A RUN directory opened for a command. */
struct rundir {
	char *root;		/* as given: outputs quote it as given */
	char *real;		/* its realpath, for containment */
	unsigned have;		/* bit per enum rd_part present (rd_probe) */
};
#define RUNDIR_INIT { NULL, NULL, 0 }

/* The parts `dir` holds, a bit per enum rd_part (a folder part must be a folder, a file a file). */
unsigned rd_probe(const char *dir);
/* 1 when `have` (rd_probe) meets `need`. */
int rd_meets(unsigned have, const struct rd_need *need);
/*
 * Opens `dir` as a RUN that meets `need`. 0, or -1 with need's message in
 * err (rd stays empty).
 */
int rd_open(struct rundir *rd, const char *dir, const struct rd_need *need, struct buf *err);
void rd_release(struct rundir *rd);

/* root/<part> (newly allocated), whether it exists or not. */
char *rd_path_in(const char *root, enum rd_part p);
char *rd_path(const struct rundir *rd, enum rd_part p);
/* kernel_dir/<part> (newly allocated); kernel_dir may be RUN-relative. */
char *rd_kernel_path(const char *kernel_dir, enum rd_kpart p);
/*
 * The part `p` of the kernel folder that holds the file `part_path` (a
 * capture.json read from a path the caller resolved): its folder/<part>,
 * or ./<part> when the path has no folder (newly allocated).
 */
char *rd_kernel_beside(const char *part_path, enum rd_kpart p);
/* kernel_dir/tune/<target>/tune.json (newly allocated). */
char *rd_kernel_tune_doc(const char *kernel_dir, const char *target);

/* 1 when `rel` is a relative path of plain components (no "", ".", ".."). */
int rd_rel_ok(const char *rel);
/*
 * root/rel when it exists and its real location is inside the RUN; NULL
 * when it is missing, or (with a line in `why`, when given) when rel is
 * not a plain relative path or a link leads it out of the RUN. The one
 * gate for reading a RUN's parts (cache/, capture/kernels/, a kernel
 * folder named in events.jsonl).
 */
char *rd_inside(const char *root, const char *rel, struct buf *why);
/* rd_inside() for a part of the table. */
char *rd_part(const char *root, enum rd_part p, struct buf *why);
/*
 * The files under `path`, a part of the RUN `root` (util/walk.h's order):
 * `path` itself must lie inside the RUN once links are followed (else -1
 * and err says it leads out), and links to files outside it are left out.
 */
int rd_walk(const char *root, const char *path, struct strlist *out, struct buf *err);
/*
 * Makes part p (a folder: analysis/, report/) and the folders above it
 * below `root`, refusing any that is a symbolic link (util/file.h
 * mkdir_in: tko never writes through a link someone left in a RUN).
 * Folders made are appended to *made when made is not NULL. 0 or -1 + err.
 */
int rd_mkdir(const char *root, enum rd_part p, char ***made, size_t *nmade, struct buf *err);

/*
 * Creates `run` and its skeleton (log/, capture/kernels/, cache/inductor/,
 * cache/triton/). `run` must not exist, or be an empty directory (a
 * capture never mixes with an earlier one). The RUN is claimed with
 * mkdir(), which only one process can win, so two captures given the same
 * --out never share it. 0 or -1 + err.
 */
int rd_create(const char *run, struct buf *err);
/* "tko-run-YYYYmmdd-HHMMSS" for the local time `t`, newly allocated. */
char *rd_default_name(time_t t);
/*
 * Makes a new, empty folder for a default-named RUN in the current
 * directory: rd_default_name(t), or with "-2", "-3"... appended when that
 * exists (two captures started in the same second). Returns its name
 * (newly allocated), or NULL + err.
 */
char *rd_make_default(time_t t, struct buf *err);
/* "2026-12-02T15:29:32Z" for `t`, into out (at least 32 bytes). */
void rd_iso_time(time_t t, char *out, size_t n);

/*
 * Fills the empty list `out` with root/capture/kernels/<dir> for each
 * kernel folder, sorted, newly allocated (free with walk_release): not the
 * .tmp-* folders of a capture still writing, nor folders a link leads out
 * of the RUN. Returns how many.
 */
size_t rd_kernel_dirs(const char *root, struct strlist *out);
/*
 * The RUN that every one of `dirs` lies in as RUN/capture/kernels/<name>
 * (resolved through realpath, and the same RUN as the path names: a kernel
 * folder, capture/ or kernels/ that is a link into another tree does not
 * lead tko to write that tree's analysis/), newly allocated; NULL when
 * they are elsewhere or in different RUNs.
 */
char *rd_run_of_kernel_dirs(const struct strlist *dirs);

/*
 * Files a log names on the machine that wrote it. A log says
 * "/tmp/w/cache/inductor/sk/csk...py"; the RUN copied to a laptop holds it
 * at RUN/cache/inductor/sk/csk...py, because Inductor's code cache is
 * always <cache dir>/<2 chars>/<file> (torch/_inductor/codecache.py,
 * get_path). A readable local file for path[0..len): with a RUN `root`,
 * only inside the RUN (its own copy first, then the path itself when its
 * real location is inside the RUN); without one (a log on its own), the
 * path itself. A new string, or NULL.
 */
char *rd_resolve_logged(const char *root, const char *path, size_t len);
/* The last two components of path[0..len) ("sk/0ebd....best_config"). */
const char *rd_tail2(const char *path, size_t len);
/*
 * The RUN a file belongs to, judged by where cache/inductor is: the
 * file's own folder or its parent (RUN/log/model.log). A new string, or
 * NULL.
 */
char *rd_root_of_file(const char *file);
/*
 * The Triton cache for a file of <inductor cache>/<xx>/ (a .best_config):
 * the RUN's cache/triton beside cache/inductor, else Inductor's default
 * <inductor cache>/triton/0 (device 0). A new string, or NULL when neither
 * is a folder.
 */
char *rd_triton_cache_for(const char *inductor_file);
/*
 * A kernel module's key: its basename without ".py" (Inductor's kernel
 * hash, the name Triton's line tables and profiles know it by). New string.
 */
char *rd_module_key(const char *path);

#endif
