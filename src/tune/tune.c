/*
 * The tuning loop (see tune.h): each input's sweep, its files, and the
 * document that gathers them.
 */
#include <stdlib.h>

#include "rundir/layout.h"
#include "tune/output.h"
#include "tune/tune.h"
#include "tune/winner.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "banned.h"

void tune_doc_start(struct tune_doc *d, const struct tune_opts *o)
{
	rf_init(&tune_doc_desc, d);
	d->mode = o->compile_only ? TUNE_MODE_COMPILE_ONLY : TUNE_MODE_GPU;
}

/* The sweep's own copy of its entry k of doc, beside its variants. */
static int write_own_json(struct tune_sweep *s, const struct tune_doc *doc,
			  struct tune_doc_kernel *k, struct buf *err)
{
	struct tune_doc one = { doc->mode, k, 1 };
	char *path = path_join(s->out_dir, RD_TUNE_DOC);
	int ret = tune_doc_save(path, &one, err);

	free(path);
	return ret;
}

/* A base that neither timed nor compiled leaves nothing to compare with. */
static int base_failed(const struct tune_sweep *s)
{
	const struct tune_result *b;

	if (!s->res.nr || s->plan.base < 0)
		return 0;
	b = &s->res.r[s->plan.base];
	if (b->status == TUNE_ST_OK || b->status == TUNE_ST_COMPILED)
		return 0;
	msg_error_as("tune", "the base variant of '%s' failed (%s): %s", s->k.name,
		     tune_status_name(b->status), b->error ? b->error : "");
	return 1;
}

void tune_one(struct tune_sweep *s, const char *input, const struct tune_opts *o,
	      struct tune_pool *pool, struct tune_doc *doc, struct tune_outcome *out)
{
	struct buf err = BUF_INIT;
	struct tune_doc_kernel *k;

	out->ran = out->failed = 0;
	out->fail = TUNE_FAIL_INPUT;
	if (tune_sweep_init(s, input, o, pool, &out->fail, &err) < 0) {
		msg_error_as("tune", "%s", err.buf);
		buf_release(&err);
		return;
	}
	out->ran = 1;
	tune_sweep_run(s);
	k = tune_doc_add_kernel(doc);
	if (tune_output_fill(s, k, &err) < 0 || tune_winner_write(s, &k->winner, &err) < 0 ||
	    write_own_json(s, doc, k, &err) < 0) {
		msg_error_as("tune", "%s", err.buf);
		out->failed = 1;
	} else {
		out->failed = base_failed(s);
	}
	buf_release(&err);
}

size_t tune_run(const struct tune_job *j, struct tune_sweep *s, struct tune_outcome *out,
		struct tune_doc *doc, const struct tune_each *each)
{
	struct tune_pool pool = TUNE_POOL_INIT;
	size_t i, j2;

	for (i = 0; i < j->n; i++) {
		tune_one(&s[i], j->inputs[i], j->o, &pool, doc, &out[i]);
		if (each && each->done)
			each->done(each->data, &s[i], out[i].ran ? &doc->kernels[doc->nkernels - 1] : NULL,
				   &out[i]);
		if (!out[i].ran && (out[i].fail == TUNE_FAIL_TOOL || out[i].fail == TUNE_FAIL_TARGET)) {
			i++;
			break;
		}
	}
	tune_pool_release(&pool);
	for (j2 = 0; j2 < i; j2++) {
		s[j2].pool = NULL;
		s[j2].hello = NULL;
	}
	return i;
}
