/*
 * The JSON report (writer.h): the report model itself, through the field
 * tables of analyse/schema.c, with "tool": "tko report" (docs/json.md,
 * "tko investigate"). It is the same document as RUN/analysis/kernels.json,
 * so `tko report --json` output can be read back by `tko report` and
 * `tko diff`.
 */
#include "analyse/schema.h"
#include "report/writer.h"
#include "banned.h"

static void json_begin(FILE *fp, const struct an_run *r)
{
	json_t *doc = an_run_to_json(r, "tko report");

	json_dumpf(doc, fp, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', fp);
	json_decref(doc);
}

const struct report_writer report_json = {
	"json", "json", json_begin, NULL, NULL, NULL, NULL, NULL, NULL,
};
