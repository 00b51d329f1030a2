/*
 * report/raw_docs: the tools' own documents of a RUN, written beside the
 * analysis by `tko investigate`: analysis/summarize.json (what `tko
 * summarize --json` writes), meta.json (`tko meta --json`) and isa.json
 * (`tko isa --json`, with the ISA-scoped rules' verdicts), from the models
 * the analysis read (analyse/analysis.h's struct an_raw).
 */
#ifndef TKO_REPORT_RAW_DOCS_H
#define TKO_REPORT_RAW_DOCS_H

#include "analyse/analysis.h"
#include "util/buf.h"
#include "util/file.h"

/*
 * Writes the three documents into `dir` through the caller's set: they
 * are published when it commits the set with the rest of its outputs,
 * or not at all. 0, or -1 with one line in err.
 */
int raw_docs_write(const struct an_raw *raw, struct atomic_set *set, const char *dir,
		   struct buf *err);

#endif
