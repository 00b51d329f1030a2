/*
 * The tuning loop (see tune.h): each input's sweep, its files, and the
 * document that gathers them.
 */
#include <stdlib.h>

#include "json/jsonio.h"
#include "tune/output.h"
#include "tune/tune.h"
#include "tune/winner.h"
#include "util/file.h"
#include "util/msg.h"
#include "banned.h"

json_t *tune_doc_new(const struct tune_opts *o)
{
	return json_pack("{s:i, s:s, s:s, s:o}", "schema_version", TUNE_SCHEMA_VERSION,
			 "tool", "tko tune",
			 "mode", o->compile_only ? "compile-only" : "gpu", "kernels", json_array());
}

/* The sweep's own copy of its JSON, beside its variants. */
static int write_own_json(const struct tune_opts *o, struct tune_sweep *s, json_t *k,
			  struct buf *err)
{
	json_t *doc = tune_doc_new(o);
	char *path = path_join(s->out_dir, "tune.json");
	int ret;

	json_array_append(json_object_get(doc, "kernels"), k);
	ret = json_write_path(doc, path, err);
	json_decref(doc);
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
	msg_error("the base variant of '%s' failed (%s): %s", s->k.name,
		  tune_status_name(b->status), b->error ? b->error : "");
	return 1;
}

void tune_one(struct tune_sweep *s, const char *input, const struct tune_opts *o,
	      struct tune_pool *pool, json_t *doc, struct tune_outcome *out)
{
	struct buf err = BUF_INIT;
	json_t *k;

	out->ran = out->failed = 0;
	out->fail = TUNE_FAIL_INPUT;
	if (tune_sweep_init(s, input, o, pool, &out->fail, &err) < 0) {
		msg_error("%s", err.buf);
		buf_release(&err);
		return;
	}
	out->ran = 1;
	tune_sweep_run(s);
	k = tune_output_json(s);
	json_array_append_new(json_object_get(doc, "kernels"), k);
	if (tune_winner_write(s, &err) < 0 || write_own_json(o, s, k, &err) < 0) {
		msg_error("%s", err.buf);
		out->failed = 1;
	} else {
		out->failed = base_failed(s);
	}
	buf_release(&err);
}

size_t tune_run(const struct tune_job *j, struct tune_sweep *s, struct tune_outcome *out,
		json_t *doc, const struct tune_each *each)
{
	struct tune_pool pool = TUNE_POOL_INIT;
	size_t i, j2;

	for (i = 0; i < j->n; i++) {
		tune_one(&s[i], j->inputs[i], j->o, &pool, doc, &out[i]);
		if (each && each->done)
			each->done(each->data, &s[i], &out[i]);
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
