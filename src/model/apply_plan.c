/* plan.json's reflect tables (apply_plan.h). */
#include <stdlib.h>
#include <string.h>

#include "model/apply_plan.h"
#include "util/mem.h"
#include "banned.h"

#define P struct apply_predicted
static const struct rf_field predicted_fields[] = {
	RF_F(P, "speedup", RF_NUM, speedup),
	RF_F(P, "time_ms", RF_NUM, time_ms),
	RF_FX(P, "warm_speedup", RF_NUM, warm_speedup, RF_OMIT_NULL),
	RF_FX(P, "warm_ci95", RF_JSON, warm_ci95, RF_OMIT_NULL),
	RF_FEND,
};
#undef P
static const struct rf_struct predicted_desc = {
	"predicted", sizeof(struct apply_predicted), predicted_fields
};

static const struct rf_field source_fields[] = {
	RF_FX(struct apply_plan_source, "path", RF_STR, path, RF_NEED),
	RF_FEND,
};
static const struct rf_struct source_desc = {
	"source", sizeof(struct apply_plan_source), source_fields
};

#define K struct apply_plan_kernel
static const struct rf_field kernel_fields[] = {
	RF_FX(K, "kernel", RF_STR, kernel, RF_NEED),
	RF_FX(K, "config", RF_JSON, config, RF_OBJECT | RF_NEED),
	RF_FX(K, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT | RF_OMIT_NULL),
	RF_S(K, "predicted", predicted, &predicted_desc, 0),
	RF_FX(K, "fallback", RF_STR, fallback, RF_OMIT_NULL),
	RF_FX(K, "id", RF_STR, id, RF_NEED),
	RF_S(K, "source", source, &source_desc, RF_OPTIONAL | RF_OMIT_NULL),
	RF_FX(K, "launcher", RF_STR, launcher_head, RF_OMIT_NULL),
	RF_FX(K, "source_hash", RF_STR, source_hash, RF_OMIT_NULL),
	RF_FX(K, "lookup_hash", RF_STR, lookup_hash, RF_OMIT_NULL),
	RF_FX(K, "size_hints", RF_STR, size_hints, RF_OMIT_NULL),
	RF_FX(K, "fused", RF_TRI, fused, RF_OMIT_NULL),
	RF_FX(K, "launcher", RF_STR, launcher_tail, RF_OMIT_NULL),
	{ "mechanisms", RF_STRV, offsetof(K, mechanisms), offsetof(K, nmechanisms), NULL,
	  RF_OMIT_NULL, NULL },
	RF_FX(K, "template", RF_JSON, template, RF_OBJECT | RF_OMIT_NULL),
	RF_FEND,
};
#undef K
const struct rf_struct apply_plan_kernel_desc = {
	"plan kernel", sizeof(struct apply_plan_kernel), kernel_fields
};

#define S struct apply_plan_skip
static const struct rf_field skip_fields[] = {
	RF_FX(S, "id", RF_STR, id, RF_NEED),
	RF_FX(S, "kernel", RF_STR, kernel, RF_NEED),
	RF_FX(S, "reason", RF_STR, reason, RF_NEED),
	RF_F(S, "detail", RF_STR, detail),
	RF_FEND,
};
#undef S
static const struct rf_struct skip_desc = { "skipped", sizeof(struct apply_plan_skip), skip_fields };

#define V struct apply_plan_versions
static const struct rf_field versions_fields[] = {
	RF_PR(V, "torch", RF_STR, torch, known, 0),
	RF_PR(V, "triton", RF_STR, triton, known, 0),
	RF_FEND,
};
#undef V
static const struct rf_struct versions_desc = {
	"versions", sizeof(struct apply_plan_versions), versions_fields
};

static const struct rf_field proof_fields[] = {
	RF_F(struct apply_plan_proof, "launches_per_kernel", RF_LONG, launches_per_kernel),
	RF_F(struct apply_plan_proof, "max_kernels", RF_LONG, max_kernels),
	RF_FEND,
};
static const struct rf_struct proof_desc = { "proof", sizeof(struct apply_plan_proof), proof_fields };

#define D struct apply_plan_doc
static const struct rf_field doc_fields[] = {
	RF_FX(D, "backend", RF_STR, backend, RF_NEED),
	RF_FX(D, "target", RF_STR, target, RF_NEED),
	RF_S(D, "versions", versions, &versions_desc, 0),
	RF_FX(D, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT),
	RF_F(D, "source_variants", RF_BOOL, source_variants),
	RF_S(D, "proof", proof, &proof_desc, 0),
	RF_A(D, "kernels", kernels, nkernels, &apply_plan_kernel_desc),
	RF_A(D, "skipped", skipped, nskipped, &skip_desc),
	RF_FEND,
};
#undef D
const struct rf_struct apply_plan_doc_desc = {
	"plan.json", sizeof(struct apply_plan_doc), doc_fields
};

struct apply_plan_kernel *apply_plan_kernel_new(void)
{
	struct apply_plan_kernel *k = xmalloc(sizeof(*k));

	rf_init(&apply_plan_kernel_desc, k);
	return k;
}

void apply_plan_kernel_free(struct apply_plan_kernel *k)
{
	if (!k)
		return;
	rf_release(&apply_plan_kernel_desc, k);
	free(k);
}

/* An Inductor kernel (it has a lookup hash) names its launcher after its identity. */
void apply_plan_kernel_set_launcher(struct apply_plan_kernel *k, const char *launcher)
{
	char **slot = k->lookup_hash ? &k->launcher_tail : &k->launcher_head;

	free(*slot);
	*slot = launcher ? xstrdup(launcher) : NULL;
}

const char *apply_plan_kernel_launcher(const struct apply_plan_kernel *k)
{
	return k->launcher_tail ? k->launcher_tail : k->launcher_head;
}

int apply_plan_doc_save(const char *path, const struct apply_plan_doc *d, struct buf *err)
{
	return rf_save_doc(path, &apply_plan_doc_desc, d, APPLY_PLAN_SCHEMA, APPLY_DOC_TOOL, err);
}

/* Both launcher rows read the one key: keep it in the row its kind writes. */
static void one_launcher(struct apply_plan_kernel *k)
{
	char **drop = k->lookup_hash ? &k->launcher_head : &k->launcher_tail;

	free(*drop);
	*drop = NULL;
}

int apply_plan_doc_read(struct apply_plan_doc *d, const json_t *j, const char *what, struct buf *err)
{
	size_t i;
	int ret = rf_read(&apply_plan_doc_desc, d, j, what, err);

	for (i = 0; i < d->nkernels; i++)
		one_launcher(&d->kernels[i]);
	return ret;
}
