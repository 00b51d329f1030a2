/* The line dispatcher over the log readers (see logscan.h). */
#include <string.h>

#include "parse/inductor_log.h"
#include "parse/logscan.h"
#include "parse/max_autotune.h"
#include "parse/seed_log.h"
#include "parse/triton_print.h"
#include "util/lines.h"
#include "banned.h"

/* In the order they are asked; the first to take a line keeps it. */
static const struct log_reader *const readers[] = {
	&inductor_log_reader,
	&max_autotune_reader,
	&triton_print_reader,
	&seed_log_reader,
};
#define NREADERS (sizeof(readers) / sizeof(readers[0]))

struct at_src log_src(const struct log_ctx *ctx, const struct log_line *l,
		      enum at_format fmt)
{
	struct at_src s;

	s.file = ctx->file;
	s.line = l->lineno;
	s.fmt = fmt;
	return s;
}

/*
 * Every line is used, ignored or malformed. A last line with no newline
 * is not read at all: a dying process cuts lines anywhere, and a cut
 * number ("0.051744" -> "0.05") would still parse. It marks the input
 * truncated and is counted as ignored.
 */
static void count(struct log_ctx *ctx, const struct log_line *l, int r)
{
	struct at_input *in = &ctx->set->inputs[ctx->file];

	if (r > 0)
		in->used++;
	else if (r < 0)
		at_input_malformed(ctx->set, ctx->file, l->lineno);
	else
		in->ignored++;
}

static int dispatch(const struct log_reader *const *rs, size_t nr, void **state,
		    const struct log_line *l, size_t *used_by)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		int r = rs[i]->line(state[i], l);

		if (r) {
			if (r > 0)
				used_by[i]++;
			return r;
		}
	}
	return LR_NO;
}

/* The main format: the reader that used the most lines. */
static void set_formats(const struct log_reader *const *rs, size_t nr,
			struct at_input *in, const size_t *used_by)
{
	size_t i, best = 0;

	for (i = 0; i < nr; i++) {
		if (used_by[i])
			in->formats |= 1u << rs[i]->format;
		if (used_by[i] > used_by[best])
			best = i;
	}
	if (used_by[best])
		in->format = rs[best]->format;
}

size_t logscan_run(struct log_ctx *ctx, const char *data, size_t len)
{
	return logscan_run_with(ctx, data, len, readers, NREADERS);
}

size_t logscan_run_with(struct log_ctx *ctx, const char *data, size_t len,
			const struct log_reader *const *rs, size_t nr)
{
	struct lines it = LINES_INIT(data, len);
	struct at_input *in;
	void *state[NREADERS];
	size_t used_by[NREADERS] = { 0 };
	struct log_line l;
	size_t i;

	if (nr > NREADERS)
		nr = NREADERS;
	for (i = 0; i < nr; i++)
		state[i] = rs[i]->open(ctx);
	while (lines_next(&it, &l.raw, &l.raw_len)) {
		l.lineno = it.lineno;
		l.cut = it.last_unterminated;
		glog_split(l.raw, l.raw_len, &l.g);
		l.msg = l.g.msg;
		l.msg_len = l.g.msg_len;
		span_trim(&l.msg, &l.msg_len);
		if (l.cut) {
			ctx->set->inputs[ctx->file].truncated = 1;
			count(ctx, &l, LR_NO);
			continue;
		}
		count(ctx, &l, dispatch(rs, nr, state, &l, used_by));
	}
	for (i = 0; i < nr; i++)
		rs[i]->close(state[i]);
	in = &ctx->set->inputs[ctx->file];
	in->lines = it.lineno;
	set_formats(rs, nr, in, used_by);
	return in->used;
}
