/*
 * tune: the tuning library behind `tko tune`, for `tko investigate` and
 * `tko apply` to call in-process. It sweeps kernels (a captured kernel
 * directory or a kernel file each, sweep.h), with one pool of workers for
 * all of them, and gathers the tune document (docs/json.md, "tko tune"):
 *
 *	struct tune_job j = { &opts, inputs, n };
 *	struct tune_sweep *s = xcalloc(n, sizeof(*s));
 *	struct tune_outcome *out = xcalloc(n, sizeof(*out));
 *	struct tune_doc doc;
 *	tune_doc_start(&doc, &opts);
 *	size_t tried = tune_run(&j, s, out, &doc, NULL);
 *	... s[i] and out[i] for i < tried; doc.kernels has one entry per sweep that ran
 *	for (i = 0; i < tried; i++)
 *		tune_sweep_release(&s[i]);
 *	rf_release(&tune_doc_desc, &doc);
 *
 * Each sweep that ran leaves its files under its out_dir: variants/,
 * winner/ (winner.h) and its own tune.json. What goes wrong is printed
 * with msg_error, one line each; the outcome says what it means.
 */
#ifndef TKO_TUNE_TUNE_H
#define TKO_TUNE_TUNE_H

#include <stddef.h>

#include "model/tune.h"
#include "tune/pool.h"
#include "tune/sweep.h"

struct tune_outcome {
	int ran;		/* got as far as running its variants */
	int failed;		/* it ran, but its files could not be written or its base failed */
	enum tune_fail fail;	/* why it did not run (ran == 0) */
};

/* An empty tune document (model/tune.h) of the options' mode; rf_release frees it. */
void tune_doc_start(struct tune_doc *d, const struct tune_opts *o);

/*
 * Sweeps one input into s (the caller releases it, whatever the outcome)
 * with `pool`'s workers; its entry goes into doc's kernels, and its
 * winner's files and own tune.json beside its variants.
 */
void tune_one(struct tune_sweep *s, const char *input, const struct tune_opts *o,
	      struct tune_pool *pool, struct tune_doc *doc, struct tune_outcome *out);

struct tune_job {
	const struct tune_opts *o;
	const char *const *inputs;
	size_t n;
};

/* Called after each input, whether it ran or not; k is its entry in the document, or NULL. */
struct tune_each {
	void (*done)(void *data, const struct tune_sweep *s, const struct tune_doc_kernel *k,
		     const struct tune_outcome *out);
	void *data;
};

/*
 * Sweeps the job's inputs in order into s[] and out[] (j->n of each, the
 * caller's). A bad kernel leaves the others to tune; one that could not
 * start for want of the worker's tools or the target stops the run.
 * Returns how many inputs were tried. `each` may be NULL. The pool of
 * workers is gone when it returns: the sweeps' pool and hello are NULL.
 */
size_t tune_run(const struct tune_job *j, struct tune_sweep *s, struct tune_outcome *out,
		struct tune_doc *doc, const struct tune_each *each);

#endif
