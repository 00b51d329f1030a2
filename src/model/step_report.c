/* The command's step report, typed (step_report.h). */
#include <math.h>
#include <string.h>

#include "json/reflect.h"
#include "model/step_report.h"
#include "util/msg.h"
#include "banned.h"

struct raw_report {
	double ms_per_step, loss;
	json_t *losses;
};

static const struct rf_field report_fields[] = {
	RF_FX(struct raw_report, "ms_per_step", RF_NUM, ms_per_step, RF_NEED),
	RF_F(struct raw_report, "losses", RF_JSON, losses),
	RF_F(struct raw_report, "loss", RF_NUM, loss),
	RF_FEND,
};
static const struct rf_struct report_desc = {
	"step report", sizeof(struct raw_report), report_fields
};

/* losses: a list of numbers and nulls (or missing, or null). */
static int check_losses(const json_t *v, struct buf *e)
{
	const json_t *x;
	size_t i;

	if (v && !json_is_array(v)) {
		buf_addf(e, "losses: not a list");
		return -1;
	}
	json_array_foreach(v, i, x)
		if (!json_is_number(x) && !json_is_null(x)) {
			buf_addf(e, "losses[%zu]: not a number", i);
			return -1;
		}
	return 0;
}

/* 1 a report, 0 none, -1 with "FIELD: ..." in e. */
static int one(struct step_report *r, const char *p, size_t n, const char *path, struct buf *e)
{
	struct raw_report raw;
	json_t *j = n && p[0] == '{' ? json_loadb(p, n, 0, NULL) : NULL;
	size_t skip = strlen(path) + 4;	/* rf_read's "'PATH': " */
	int ret = 0;

	rf_init(&report_desc, &raw);
	if (!json_is_object(j) || !json_object_get(j, "ms_per_step")) {
		ret = 0;	/* the command's own line */
	} else if (rf_read(&report_desc, &raw, j, path, e) < 0) {
		if (e->len > skip) {
			memmove(e->buf, e->buf + skip, e->len - skip + 1);
			e->len -= skip;
		}
		ret = -1;
	} else if (check_losses(raw.losses, e) < 0) {
		ret = -1;
	} else {
		r->ms_per_step = raw.ms_per_step;
		r->losses = raw.losses ? json_incref(raw.losses) :
			    !isnan(raw.loss) ? json_pack("[O]", json_object_get(j, "loss")) : NULL;
		ret = 1;
	}
	rf_release(&report_desc, &raw);
	json_decref(j);
	return ret;
}

int step_report_line(struct step_report *r, const char *p, size_t n, const char *path, long line,
		     struct buf *warn)
{
	struct buf e = BUF_INIT;
	int ret = one(r, p, n, path, &e);

	if (ret < 0)
		buf_addf(warn, "'%s' line %ld: %s", path, line, e.buf);
	buf_release(&e);
	return ret;
}

static long line_of(const char *out, size_t at)
{
	long n = 1;
	size_t i;

	for (i = 0; i < at; i++)
		n += out[i] == '\n';
	return n;
}

int step_report_find(struct step_report *r, const char *out, size_t len, const char *path)
{
	size_t end = len;

	while (end > 0) {
		size_t start = end - 1;
		struct buf e = BUF_INIT;
		int got;

		while (start > 0 && out[start - 1] != '\n')
			start--;
		got = one(r, out + start, end - start, path, &e);
		if (got < 0)	/* the line counted only when there is something to say */
			msg_warn("'%s' line %ld: %s; the line is not taken as the step report", path,
				 line_of(out, start), e.buf);
		buf_release(&e);
		if (got > 0)
			return 0;
		end = start;
	}
	return -1;
}
