/*
 * Reading a text log: one pass over its lines, each offered to the log
 * readers in turn (the shape of ctags' parser definitions: each reader is
 * a struct log_reader in its own file, and one array lists them).
 *
 * A real log mixes formats: TORCH_LOGS=+inductor lines on stderr,
 * max-autotune tables and TRITON_PRINT_AUTOTUNING lines on stdout, the
 * model's own prints. So every line goes to every reader until one takes
 * it; a reader keeps the state of the record it is inside (a benchmark
 * block, a table) and is told when the input ends, so a record cut off by
 * a truncated log is kept, marked incomplete.
 *
 * Each line ends up counted as used (part of an autotune record), ignored
 * (about something else) or malformed (a reader recognised it but could
 * not read it); the counts and the first malformed line numbers go to the
 * input's struct at_input. A last line without a newline is not read: it
 * marks the input truncated (a cut "0.051744" still parses, as "0.05").
 */
#ifndef TKO_PARSE_LOGSCAN_H
#define TKO_PARSE_LOGSCAN_H

#include <stddef.h>

#include "parse/autotune.h"
#include "parse/glog.h"

struct output_code_cache;

struct log_line {
	const char *raw;	/* the whole line, without its newline */
	size_t raw_len;
	struct glog_line g;	/* its glog prefix, if any */
	const char *msg;	/* the message, spaces trimmed at both ends */
	size_t msg_len;
	size_t lineno;		/* 1-based */
	int cut;		/* the input's last line, with no newline: cut off */
};

struct log_ctx {
	struct autotune_set *set;
	unsigned file;		/* the input being read (index into set->inputs) */
	const char *root;	/* RUN directory that logged paths are looked up in, or NULL */
	struct output_code_cache *wrappers;	/* output modules already read, or NULL */
};

/* What a reader's line function returns. */
enum {
	LR_NO = 0,		/* not mine */
	LR_USED = 1,		/* part of a record */
	LR_BAD = -1,		/* mine, but unreadable */
};

struct log_reader {
	const char *name;	/* for messages */
	enum at_format format;	/* what its facts are marked with */
	void *(*open)(struct log_ctx *ctx);	/* new per-input state */
	int (*line)(void *state, const struct log_line *l);
	void (*close)(void *state);	/* end of input: keep open records, free */
};

/*
 * Runs every reader over data[0..len), counting lines into
 * ctx->set->inputs[ctx->file]. Returns the number of used lines.
 */
size_t logscan_run(struct log_ctx *ctx, const char *data, size_t len);

/*
 * The same with only the readers rs[0..nr) (at most as many as
 * logscan_run asks), so a fuzz target can drive one log format alone.
 */
size_t logscan_run_with(struct log_ctx *ctx, const char *data, size_t len,
			const struct log_reader *const *rs, size_t nr);

/* A fact's source: this line, in this reader's format. */
struct at_src log_src(const struct log_ctx *ctx, const struct log_line *l,
		      enum at_format fmt);

#endif
