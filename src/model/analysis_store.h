/*
 * analysis_store: the analysis on disk. RUN/analysis/kernels.json is the
 * analysis model (analysis_desc.h) as `tko investigate` left it; `tko
 * report` and `tko diff` read it back instead of analysing again.
 */
#ifndef TKO_MODEL_ANALYSIS_STORE_H
#define TKO_MODEL_ANALYSIS_STORE_H

#include <stdio.h>

#include "model/analysis.h"
#include "util/buf.h"
#include "util/file.h"

/* The file name of the model inside an analysis directory. */
#define AN_STORE_FILE "kernels.json"

/* Writes r as a JSON document saying `tool` to fp (numbers to 17 digits). 0 or -1. */
int an_store_write(FILE *fp, const struct an_run *r, const char *tool);

/* Writes r to `path` of an output set (util/file.h). 0, or -1 with one line in err. */
int an_store_save(const struct an_run *r, struct atomic_set *set, const char *path,
		  struct buf *err);

/*
 * Reads a kernels.json (or a report.json: the same document) into an
 * initialised run. 0, or -1 with one line in err naming the file.
 */
int an_store_load(struct an_run *r, const char *path, struct buf *err);

#endif
