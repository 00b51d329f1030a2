/*
 * model/step_report: the step report a command under tko apply may print
 * (apply/run.h, docs/apply.md): the last line of its standard output that
 * is a JSON object with the key "ms_per_step", typed by a reflect table:
 *
 *   {"ms_per_step": number, "losses": [number|null, ...], "loss": number}
 *
 * losses and loss are optional. Other lines, JSON or not, are the
 * command's own and are passed over silently; a line with "ms_per_step"
 * whose field has the wrong type (a string for ms_per_step, a loss that is
 * no number) is passed over too, with a warning naming the file, the line
 * and the field, and an earlier line may still be the report.
 */
#ifndef TKO_MODEL_STEP_REPORT_H
#define TKO_MODEL_STEP_REPORT_H

#include <stddef.h>
#include <jansson.h>

#include "util/buf.h"

struct step_report {
	double ms_per_step;
	json_t *losses;		/* the list, or [loss] when only "loss" is there, or NULL */
};

/*
 * The report in `out` (len bytes of the standard output saved at `path`,
 * named in warnings): 0 with *r filled (the caller owns r->losses), or -1
 * when there is none. Warnings go to stderr (msg_warn).
 */
int step_report_find(struct step_report *r, const char *out, size_t len, const char *path);

/* One line: 1 a report, 0 no report, -1 + warn (a field of the wrong type). */
int step_report_line(struct step_report *r, const char *p, size_t n, const char *path, long line,
		     struct buf *warn);

#endif
