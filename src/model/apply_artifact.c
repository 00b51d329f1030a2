/* tko_winners.json's reflect tables (apply_artifact.h). */
#include <stdlib.h>
#include <string.h>

#include "json/jsonw.h"
#include "model/apply_artifact.h"
#include "util/mem.h"
#include "banned.h"

#define T struct apply_artifact_triton
static const struct rf_field triton_fields[] = {
	RF_FX(T, "kernel", RF_STR, kernel, RF_NEED),
	RF_F(T, "source_hash", RF_STR, source_hash),
	RF_FX(T, "config", RF_JSON, config, RF_OBJECT | RF_NEED),
	RF_FEND,
};
#undef T
static const struct rf_struct triton_desc = {
	"triton_autotune", sizeof(struct apply_artifact_triton), triton_fields
};

#define N struct apply_artifact_not_carried
static const struct rf_field not_carried_fields[] = {
	RF_FX(N, "id", RF_STR, id, RF_NEED),
	RF_FX(N, "kernel", RF_STR, kernel, RF_NEED),
	RF_FX(N, "reason", RF_STR, reason, RF_NEED),
	RF_FEND,
};
#undef N
static const struct rf_struct not_carried_desc = {
	"not_carried", sizeof(struct apply_artifact_not_carried), not_carried_fields
};

#define D struct apply_artifact_doc
static const struct rf_field doc_fields[] = {
	RF_F(D, "torch", RF_STR, torch),
	RF_F(D, "triton", RF_STR, triton),
	RF_A(D, "left_out", left_out.v, left_out.nr, &apply_left_out_desc),
	RF_FX(D, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT),
	RF_FX(D, "autotune_lookup_table", RF_JSON, autotune_lookup_table, RF_OBJECT),
	RF_FX(D, "template_lookup_table", RF_JSON, template_lookup_table, RF_OBJECT),
	RF_FX(D, "configs", RF_JSON, configs, RF_OBJECT),
	RF_A(D, "triton_autotune", triton_autotune, ntriton_autotune, &triton_desc),
	RF_A(D, "not_carried", not_carried, nnot_carried, &not_carried_desc),
	RF_FEND,
};
#undef D
const struct rf_struct apply_artifact_doc_desc = {
	"tko_winners.json", sizeof(struct apply_artifact_doc), doc_fields
};

void apply_artifact_doc_init(struct apply_artifact_doc *d)
{
	rf_init(&apply_artifact_doc_desc, d);
	d->inductor_settings = json_object();
	d->autotune_lookup_table = json_object();
	d->template_lookup_table = json_object();
	d->configs = json_object();
}

void apply_artifact_doc_release(struct apply_artifact_doc *d)
{
	rf_release(&apply_artifact_doc_desc, d);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void apply_artifact_add_triton(struct apply_artifact_doc *d, const char *kernel,
			       const char *source_hash, json_t *config)
{
	struct apply_artifact_triton *t;

	d->triton_autotune = rf_grow(d->triton_autotune, d->ntriton_autotune, sizeof(*t));
	t = &d->triton_autotune[d->ntriton_autotune++];
	t->kernel = dup_or_null(kernel);
	t->source_hash = dup_or_null(source_hash);
	t->config = json_incref(config);
}

void apply_artifact_add_not_carried(struct apply_artifact_doc *d, const char *id,
				    const char *kernel, const char *reason)
{
	struct apply_artifact_not_carried *n;

	d->not_carried = rf_grow(d->not_carried, d->nnot_carried, sizeof(*n));
	n = &d->not_carried[d->nnot_carried++];
	n->id = dup_or_null(id);
	n->kernel = dup_or_null(kernel);
	n->reason = dup_or_null(reason);
}

int apply_artifact_doc_write(FILE *fp, const struct apply_artifact_doc *d)
{
	struct jsonw w;

	jsonw_init_prec(&w, fp, 10);
	jsonw_object(&w);
	jsonw_key(&w, "schema_version");
	jsonw_int(&w, APPLY_ARTIFACT_SCHEMA);
	rf_write_members(&w, &apply_artifact_doc_desc, d, NULL);
	jsonw_end(&w);
	return jsonw_finish(&w);
}

int apply_artifact_doc_read(struct apply_artifact_doc *d, const json_t *j, const char *what,
			    struct buf *err)
{
	return rf_read(&apply_artifact_doc_desc, d, j, what, err);
}
