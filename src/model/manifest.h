/*
 * model/manifest: tko-run.json, the manifest `tko capture` writes into a
 * RUN after the command (and to --json FILE), as a typed struct with its
 * reflect table. Keys, in order (docs/json.md): schema_version, tool,
 * tko_version, argv, cwd, run_dir, start_time, start_unix, end_time,
 * end_unix, duration_s, exit_status, signal, command_found,
 * kernels_regex, log, log_error, log_lines_not_shown, env_set, env_kept,
 * versions {python, torch, triton}, capture {events, errors,
 * kernel_dirs, unreadable_lines, by_type}.
 *
 * capture/summary.h fills `capture` from a RUN; capture/session.h fills
 * the rest. The analysis reads it back (analyse/gather.c).
 */
#ifndef TKO_MODEL_MANIFEST_H
#define TKO_MODEL_MANIFEST_H

#include <stdio.h>

#include "json/reflect.h"
#include "util/buf.h"

#define MANIFEST_SCHEMA_VERSION 1

/* What the capture hook left in the RUN (capture/events.jsonl, capture/kernels/). */
struct manifest_capture {
	long long events;		/* event lines read */
	long long errors;		/* of them, "error" events */
	long long kernel_dirs;		/* capture/kernels/<name>-<hash8>/ folders */
	long long unreadable_lines;	/* lines that are not JSON objects with an "event" */
	struct rf_count *by_type;	/* events per type, in the order first seen */
	size_t nby_type;
};

/* The versions env.json found (null: unknown). */
struct manifest_versions {
	char *python;
	char *torch;
	char *triton;
};

struct run_manifest {
	char *tko_version;
	char **argv;			/* the command, as run */
	size_t nargv;
	char *cwd;			/* where it ran, or NULL */
	char *run_dir;			/* the RUN's real path */
	char *start_time, *end_time;	/* ISO 8601, UTC */
	double start_unix, end_unix;	/* seconds */
	double duration_s;
	long long exit_status;		/* the command's (128+N after signal N; 127 not found) */
	long long signal;		/* N, or RF_I64_NONE */
	int command_found;
	char *kernels_regex;		/* --kernels, or NULL */
	char *log;			/* "log/model.log" */
	char *log_error;		/* why the log is incomplete, or NULL */
	long long log_lines_not_shown;	/* lines the hook sent to the log only; RF_I64_NONE: not routed */
	struct rf_pair *env_set;	/* the variables tko set for the command, in that order */
	size_t nenv_set;
	struct rf_pair *env_kept;	/* the user's own values tko left alone */
	size_t nenv_kept;
	struct manifest_versions versions;
	struct manifest_capture capture;
};

extern const struct rf_struct run_manifest_desc;

/* An empty manifest: every member unknown, counts 0. */
void manifest_init(struct run_manifest *m);
void manifest_release(struct run_manifest *m);

/*
 * A copy of `s` for a string member, or NULL (JSON null) when it is NULL or
 * not UTF-8: JSON text is UTF-8, and a user's path or argument need not be.
 */
char *manifest_text(const char *s);
/* Appends `value` (manifest_text) under `key` to env_set or env_kept. */
void manifest_pairs_add(struct rf_pair **v, size_t *nr, const char *key, const char *value);
/* The value under `key` in pairs, or NULL (also when the value is null). */
const char *manifest_pairs_get(const struct rf_pair *v, size_t nr, const char *key);
/* Adds one event of `type` to capture.by_type. */
void manifest_count_event(struct manifest_capture *c, const char *type);
/* The count of `type` in capture.by_type, 0 when it has none. */
long long manifest_event_count(const struct manifest_capture *c, const char *type);

/* The document as JSON text (jansson's layout, two-space indent, final newline): 0 or -1. */
int manifest_write(FILE *fp, const struct run_manifest *m);
/* Written to `path` atomically ("-": standard output). 0 or -1 + err. */
int manifest_save(const struct run_manifest *m, const char *path, struct buf *err);
/*
 * Read back from a JSON tree (`what` names it in messages), every field
 * it knows checked, unknown ones ignored; the messages in util/jcheck.c's
 * words (RF_JC_WORDS), as when the analysis checked tko-run.json's argv
 * with a table of its own. 0 or -1 + err.
 */
int manifest_read(struct run_manifest *m, const json_t *j, const char *what, struct buf *err);

#endif
