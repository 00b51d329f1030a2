/* The tune document's reflect tables and lookups (tune.h). */
#include <string.h>

#include "model/tune.h"
#include "banned.h"

const char *const tune_status_names[TUNE_ST_NR + 1] = {
	[TUNE_ST_PENDING] = "pending",
	[TUNE_ST_COMPILED] = "compiled",
	[TUNE_ST_OK] = "ok",
	[TUNE_ST_WRONG] = "wrong",
	[TUNE_ST_COMPILE_ERROR] = "compile_error",
	[TUNE_ST_LAUNCH_ERROR] = "launch_error",
	[TUNE_ST_TIMEOUT] = "timeout",
	[TUNE_ST_SKIPPED] = "skipped",
	[TUNE_ST_DUPLICATE] = "duplicate",
	[TUNE_ST_ERROR] = "error",
	[TUNE_ST_NR] = NULL,
};

#define V struct tune_doc_variant
static const struct rf_field variant_fields[] = {
	RF_F(V, "id", RF_STR, id),
	RF_F(V, "label", RF_STR, label),
	RF_E(V, "status", status, tune_status_names, 0),
	RF_F(V, "error", RF_STR, error),
	RF_F(V, "traceback", RF_STR, traceback),
	RF_F(V, "same_as", RF_STR, same_as),
	RF_FX(V, "time_ms", RF_NUM, time_ms, RF_TIME),
	RF_FX(V, "speedup", RF_NUM, speedup, RF_RATE),
	RF_V(V, "source_variants", source_variants, nsource_variants),
	RF_P(V, "env", env, nenv, 0),
	RF_FEND_X(RF_JC_WORDS),
};
#undef V
const struct rf_struct tune_doc_variant_desc = {
	"tune variant", sizeof(struct tune_doc_variant), variant_fields
};

#define W struct tune_doc_winner
static const struct rf_field winner_fields[] = {
	RF_F(W, "label", RF_STR, label),
	RF_FX(W, "time_ms", RF_NUM, time_ms, RF_TIME),
	RF_FX(W, "speedup", RF_NUM, speedup, RF_RATE),
	RF_FX(W, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT),
	RF_FEND_X(RF_JC_WORDS),
};
#undef W
const struct rf_struct tune_doc_winner_desc = {
	"tune winner", sizeof(struct tune_doc_winner), winner_fields
};

#define K struct tune_doc_kernel
static const struct rf_field kernel_fields[] = {
	RF_F(K, "kernel", RF_STR, kernel),
	RF_F(K, "source", RF_STR, source),
	RF_F(K, "target", RF_STR, target),
	RF_A(K, "variants", variants, nvariants, &tune_doc_variant_desc),
	RF_S(K, "winner", winner, &tune_doc_winner_desc, RF_OPTIONAL),
	RF_FEND_X(RF_JC_WORDS),
};
#undef K
const struct rf_struct tune_doc_kernel_desc = {
	"tune kernel", sizeof(struct tune_doc_kernel), kernel_fields
};

const struct tune_doc_variant *tune_doc_variant(const struct tune_doc_kernel *k, const char *id)
{
	size_t i;

	for (i = 0; id && i < k->nvariants; i++)
		if (k->variants[i].id && !strcmp(k->variants[i].id, id))
			return &k->variants[i];
	return NULL;
}

int tune_doc_made_with(const struct tune_doc_variant *v, const char *what)
{
	size_t i;

	for (i = 0; i < v->nsource_variants; i++)
		if (v->source_variants[i] && !strcmp(v->source_variants[i], what))
			return 1;
	return 0;
}

const char *tune_doc_env(const struct tune_doc_variant *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nenv; i++)
		if (v->env[i].key && !strcmp(v->env[i].key, name))
			return v->env[i].value;
	return NULL;
}
