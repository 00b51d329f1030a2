/*
 * model/env: the document of `tko env` (docs/json.md, "tko env"), also
 * RUN/env.json, as a typed struct with its reflect table. env/probe.c
 * fills it, report/env_text.c prints it, and JSON appears only when it is
 * written (env_doc_write) or read back (env_doc_read).
 *
 * Keys, in order: schema_version, tool, tko_version, notes, host, python,
 * torch, triton, gpus, gpu_tools, dcu, cuda, hip, dtk, rocm, tools, env,
 * warnings, hcu_targets, bandwidth, bandwidth_error (only when --measure
 * measured nothing).
 *
 * Typed: notes, dcu, tools, env (the flags, in their order), warnings,
 * hcu_targets, bandwidth, and the keys tko reads of a "gpus" entry
 * (env_doc_gpu). Passed through as JSON values: what the Python
 * probe and the GPU tools reported (host, python, torch, triton, gpus,
 * gpu_tools, cuda, hip, dtk, rocm). A "gpus" entry keeps the keys of its
 * source in their order (the probe's device keys, rocminfo's or
 * nvidia-smi's fields), which one table cannot spell.
 */
#ifndef TKO_MODEL_ENV_H
#define TKO_MODEL_ENV_H

#include <stdio.h>

#include "json/reflect.h"
#include "util/buf.h"

#define ENV_SCHEMA_VERSION 1

/* A GPU tool: where it is and the version it printed. */
struct env_tool {
	char *name;
	char *path;		/* NULL: not found */
	char *version;		/* NULL: none parsed */
	json_t *version_line;	/* the line it came from, a string; left out when NULL, and
				   null when that line was not UTF-8 (as the tree had it) */
};

/* What tko has checked for one Hygon arch the GPUs report (env/hcu.h). */
struct env_hcu_target {
	char *arch;
	char *name;		/* Hygon's name of the chip */
	int triton_das;		/* triton-das lists it */
	long long das_vgprs;	/* the VGPR file; RF_I64_NONE unknown */
	char *verified;
	char *not_verified;
};

/*
 * The measured copy bandwidth (python/tko/bandwidth.py): JSON null when
 * every member is unknown; a member the probe did not give is left out.
 */
struct env_bandwidth {
	double copy_gbps;	/* read + written bytes per second, GB/s */
	long long buffer_bytes;
	long long repeats;
	double median_ms;
	long long device_index;
	char *method;
};

/* The keys of a "gpus" entry that tko reads (the entry keeps every key of its source). */
struct env_gpu {
	char *name;
	char *arch;		/* "sm_90", "gfx936" */
	char *backend;		/* "cuda", "hip" */
};

struct env_doc {
	char *tko_version;
	char **notes;		/* what is missing, and why */
	size_t nnotes;
	json_t *host;		/* {os, release, machine, cpus} */
	json_t *python;		/* the probe's; NULL (null) when it did not run */
	json_t *torch;		/* NULL when not importable */
	json_t *triton;
	json_t *gpus;		/* list of objects: index, name, backend, arch, ..., source */
	json_t *gpu_tools;	/* rocminfo / hy-smi / nvidia-smi as parsed */
	int dcu;		/* a Hygon DCU was seen */
	json_t *cuda;		/* {torch, nvcc, driver} */
	json_t *hip;		/* {torch, hipcc} */
	json_t *dtk;		/* {path, version} or NULL */
	json_t *rocm;
	struct env_tool *tools;
	size_t ntools;
	struct rf_pair *env;	/* the codegen flags, sorted by name */
	size_t nenv;
	char **warnings;
	size_t nwarnings;
	struct env_hcu_target *hcu_targets;
	size_t nhcu_targets;
	struct env_bandwidth bandwidth;
	char *bandwidth_error;	/* why --measure measured nothing; NULL (left out) otherwise */
};

extern const struct rf_struct env_doc_desc;

/* An empty document (rf_init). */
void env_doc_init(struct env_doc *d);
void env_doc_release(struct env_doc *d);

/*
 * Strings of the document are UTF-8, as JSON's are: the probe keeps a
 * string it found only when it is (env_utf8_dup), and leaves out a note or
 * warning that is not, as the jansson tree it filled before did.
 */
/* A copy of s, or NULL when s is NULL or not UTF-8. */
char *env_utf8_dup(const char *s);
/* Appends to notes or warnings (copied; dropped when not UTF-8). */
void env_doc_note(struct env_doc *d, const char *s);
void env_doc_warn(struct env_doc *d, const char *s);
/* Appends an empty tools entry and returns it. */
struct env_tool *env_doc_add_tool(struct env_doc *d);
/* The tool named `name`, or NULL. */
const struct env_tool *env_doc_tool(const struct env_doc *d, const char *name);
/* The value of flag `name` in env, or NULL. */
const char *env_doc_flag(const struct env_doc *d, const char *name);

/*
 * gpus[i]'s name, arch and backend into g (NULL when unknown, all NULL
 * when d is NULL or has no such entry); env_gpu_release frees them.
 */
void env_doc_gpu(const struct env_doc *d, size_t i, struct env_gpu *g);
void env_gpu_release(struct env_gpu *g);

/* The measured copy bandwidth in GB/s, or 0 when none (or not > 0) was measured. */
double env_doc_copy_gbps(const struct env_doc *d);
/* Whether the document has a bandwidth object (any member known). */
int env_doc_has_bandwidth(const struct env_doc *d);
/* Reads the probe's bandwidth object into an unknown b. 0 or -1 + err (b then partly read). */
int env_bandwidth_read(struct env_bandwidth *b, const json_t *j, const char *what, struct buf *err);
/* Frees b's members and makes it unknown (JSON null). */
void env_bandwidth_clear(struct env_bandwidth *b);
/*
 * The bandwidth of the env.json tree `j` alone into d's (unknown before),
 * leniently, as tko run has always taken env.json's copy rate: the rest
 * of the document is not looked at, and the members read before a bad
 * one are kept, copy_gbps (the first) among them.
 */
void env_doc_read_bandwidth(struct env_doc *d, const json_t *j);

/* The document as JSON text (indented, reals to 10 digits, final newline): 0 or -1. */
int env_doc_write(FILE *fp, const struct env_doc *d);
/* Written to `path` atomically ("-": standard output). 0 or -1 + err. */
int env_doc_save(const struct env_doc *d, const char *path, struct buf *err);
/* The document as a JSON tree (new reference): what env_doc_write writes. */
json_t *env_doc_to_json(const struct env_doc *d);
/*
 * Read back from a JSON tree (`what` names it in messages), every field
 * it knows checked (a "gpus" entry: its name, arch and backend strings;
 * bandwidth.copy_gbps a rate, a number >= 0), unknown ones ignored, in
 * util/jcheck.c's words as when the analysis checked env.json with a
 * table of its own. 0 or -1 + err.
 */
int env_doc_read(struct env_doc *d, const json_t *j, const char *what, struct buf *err);

#endif
