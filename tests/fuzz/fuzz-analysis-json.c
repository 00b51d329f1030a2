/*
 * Fuzzes the JSON documents tko reads back (issue 22): an analysis
 * (kernels.json / report.json, model/analysis_desc.c's reader), a `tko isa`
 * document (tko diff's reader) and the replay and tune documents
 * investigate checks (a replay document is read typed, model/replay.c's
 * table checking it on the way, and what reads is printed as tko run
 * prints it; the tune one by its util/jcheck.c table). The input is written to a private file and loaded as `tko diff`
 * and `tko report` load it; what
 * loads is rendered by every report writer, the terminal summary and a
 * diff against itself, so a field the readers let through that a writer
 * cannot handle (a null name) is a crash here.
 */
#include <stdlib.h>

#include "model/analysis_desc.h"
#include "report/diff.h"
#include "fuzz.h"
#include "json/jsonio.h"
#include "report/replay_text.h"
#include "report/summary.h"
#include "report/writer.h"
#include "run/replay.h"
#include "model/tune.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static void render(const struct an_run *r)
{
	struct an_diff d = AN_DIFF_INIT;

	report_write(r, &report_markdown, fuzz_sink());
	report_write(r, &report_html, fuzz_sink());
	report_write(r, &report_json, fuzz_sink());
	report_print_summary(fuzz_sink(), r, 0);
	diff_runs(r, r, &d);
	an_diff_release(&d);
}

/* A replay document read typed (checked on the way) and printed, as tko investigate and tko run do. */
static void replay_doc(const json_t *doc)
{
	struct replay_doc d;
	struct buf err = BUF_INIT;

	replay_doc_init(&d);
	if (replay_doc_read(&d, doc, "doc.json", &err) == 0) {
		replay_text_print(fuzz_sink(), &d);
		json_decref(replay_doc_to_json(&d));
	}
	replay_doc_release(&d);
	buf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	struct buf err = BUF_INIT;
	struct an_run r;
	json_t *doc;

	if (!path)
		path = path_join(fuzz_tmpdir(), "doc.json");
	if (write_file_atomic(path, data, size, &err) < 0)
		abort();
	an_run_init(&r);
	if (diff_load(path, &rd_need_diff, &r, &err) == 0)
		render(&r);
	an_run_release(&r);
	buf_reset(&err);
	doc = json_load_span("doc.json", (const char *)data, size, &err);
	if (doc) {
		buf_reset(&err);
		replay_doc(doc);
		buf_reset(&err);
		tune_doc_check(doc, "doc.json", &err);
		json_decref(doc);
	}
	buf_release(&err);
	return 0;
}
