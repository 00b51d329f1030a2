/*
 * The JSON report (writer.h): the report model itself, through the field
 * tables of model/analysis_desc.c, with "tool": "tko report" (docs/json.md,
 * "tko investigate"). It is the same document as RUN/analysis/kernels.json,
 * so `tko report --json` output can be read back by `tko report` and
 * `tko diff`.
 */
#include "model/analysis_store.h"
#include "report/writer.h"
#include "banned.h"

static void json_begin(FILE *fp, const struct an_run *r)
{
	an_store_write(fp, r, "tko report");
}

const struct report_writer report_json = {
	"json", "json", json_begin, NULL, NULL, NULL, NULL, NULL, NULL,
};
