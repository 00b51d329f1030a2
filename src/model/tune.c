/* The tune document's reflect tables and lookups (tune.h). */
#include <math.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/tune.h"
#include "util/jcheck.h"
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

/* What tko investigate and tko apply read, checked before either reads it typed. */
#define OPT(key, type) { key, type, JC_NULL, NULL }
static const struct jc_field check_winner[] = {
	OPT("label", JC_STR),
	OPT("time_ms", JC_TIME),
	OPT("speedup", JC_RATE),
	OPT("sweep_speedup", JC_RATE),
	OPT("inductor_settings", JC_OBJ),
	OPT("confirmation", JC_OBJ),
	{ NULL, 0, 0, NULL },
};

static const struct jc_field check_variant[] = {
	OPT("status", JC_STR),
	OPT("time_ms", JC_TIME),
	OPT("speedup", JC_RATE),
	{ NULL, 0, 0, NULL },
};

static const struct jc_field check_kernel[] = {
	OPT("kernel", JC_STR),
	OPT("source", JC_STR),
	OPT("target", JC_STR),
	{ "winner", JC_OBJ, JC_NULL, check_winner },
	{ "variants", JC_LIST, JC_NULL, check_variant },
	{ NULL, 0, 0, NULL },
};

static const struct jc_field check_doc[] = {
	OPT("mode", JC_STR),
	{ "kernels", JC_LIST, JC_NEED, check_kernel },
	{ NULL, 0, 0, NULL },
};
#undef OPT

int tune_doc_check(const json_t *doc, const char *file, struct buf *err)
{
	return jc_check(doc, check_doc, file, err);
}

#define V struct tune_doc_variant
static const struct rf_field variant_fields[] = {
	RF_F(V, "id", RF_STR, id),
	RF_F(V, "label", RF_STR, label),
	RF_F(V, "origin", RF_STR, origin),
	RF_V(V, "source_variants", source_variants, nsource_variants),
	RF_F(V, "config", RF_JSON, config),
	RF_P(V, "env", env, nenv, 0),
	RF_E(V, "status", status, tune_status_names, 0),
	RF_F(V, "error", RF_STR, error),
	RF_F(V, "error_signature", RF_STR, error_signature),
	RF_F(V, "error_explained", RF_STR, error_explained),
	RF_FX(V, "time_ms", RF_NUM, time_ms, RF_TIME),
	RF_F(V, "inductor_ms", RF_NUM, inductor_ms),
	RF_FX(V, "speedup", RF_NUM, speedup, RF_RATE),
	RF_F(V, "gbps", RF_NUM, gbps),
	RF_F(V, "peak_fraction", RF_NUM, peak_fraction),
	RF_F(V, "rate_doubt", RF_STR, rate_doubt),
	RF_F(V, "compile_ms", RF_NUM, compile_ms),
	RF_F(V, "shared_bytes", RF_LONG, shared_bytes),
	RF_F(V, "source", RF_STR, source),
	RF_F(V, "files", RF_JSON, files),
	RF_F(V, "checks", RF_JSON, checks),
	RF_F(V, "traceback", RF_STR, traceback),
	RF_F(V, "n_regs", RF_LONG, n_regs),
	RF_F(V, "n_spills", RF_LONG, n_spills),
	RF_F(V, "fingerprint", RF_STR, fingerprint),
	RF_F(V, "same_as", RF_STR, same_as),
	RF_F(V, "isa", RF_JSON, isa),
	RF_F(V, "isa_delta", RF_JSON, isa_delta),
	RF_F(V, "isa_text", RF_STR, isa_text),
	RF_FEND_X(RF_JC_WORDS),
};
#undef V
const struct rf_struct tune_doc_variant_desc = {
	"tune variant", sizeof(struct tune_doc_variant), variant_fields
};

#define R struct tune_doc_ratio
static const struct rf_field ratio_fields[] = {
	RF_F(R, "ratio", RF_NUM, ratio),
	RF_F(R, "ci95", RF_JSON, ci95),
	RF_FEND_X(RF_JC_WORDS),
};
#undef R
static const struct rf_struct ratio_desc = { "tune ratio", sizeof(struct tune_doc_ratio), ratio_fields };

/* Untimed, the config-only variant has only its id and label: the rest is left out. */
#define C struct tune_doc_config_only
static const struct rf_field config_only_fields[] = {
	RF_F(C, "id", RF_STR, id),
	RF_F(C, "label", RF_STR, label),
	RF_FX(C, "ratio", RF_NUM, ratio, RF_OMIT_NULL),
	RF_FX(C, "ci95", RF_JSON, ci95, RF_OMIT_NULL),
	RF_SS(C, "vs_base", vs_base, has_vs_base, &ratio_desc, RF_OMIT_NULL),
	RF_FEND_OPEN(C, kept, RF_JC_WORDS),
};
#undef C
static const struct rf_struct config_only_desc = {
	"tune config-only", sizeof(struct tune_doc_config_only), config_only_fields
};

#define W struct tune_doc_warm
static const struct rf_field warm_fields[] = {
	RF_F(W, "variant", RF_STR, variant),
	RF_FX(W, "ratio", RF_NUM, ratio, RF_RATE),
	RF_F(W, "ci95", RF_JSON, ci95),
	RF_F(W, "rounds", RF_LONG, rounds),
	RF_FEND_OPEN(W, kept, RF_JC_WORDS),
};
#undef W
static const struct rf_struct warm_desc = { "tune warm", sizeof(struct tune_doc_warm), warm_fields };

#define C struct tune_doc_confirm
static const struct rf_field confirm_fields[] = {
	RF_F(C, "candidate", RF_STR, candidate),
	RF_F(C, "candidate_label", RF_STR, candidate_label),
	RF_F(C, "rounds", RF_LONG, rounds),
	RF_F(C, "accepted", RF_TRI, accepted),
	RF_F(C, "winner", RF_STR, winner),
	RF_F(C, "reason", RF_STR, reason),
	RF_F(C, "sweep_speedup", RF_NUM, sweep_speedup),
	RF_F(C, "ratio", RF_NUM, ratio),
	RF_F(C, "ci95", RF_JSON, ci95),
	RF_SS(C, "vs_config_only", vs_config_only, has_vs_config_only, &config_only_desc, 0),
	RF_SS(C, "warm", warm, has_warm, &warm_desc, RF_OMIT_NULL),
	RF_F(C, "error", RF_STR, error),
	RF_FEND_OPEN(C, kept, RF_JC_WORDS),
};
#undef C
const struct rf_struct tune_doc_confirm_desc = {
	"tune confirmation", sizeof(struct tune_doc_confirm), confirm_fields
};

#define O struct tune_doc_winner_config_only
static const struct rf_field winner_config_only_fields[] = {
	RF_F(O, "id", RF_STR, id),
	RF_F(O, "label", RF_STR, label),
	RF_FX(O, "speedup", RF_NUM, speedup, RF_RATE),
	RF_F(O, "ci95", RF_JSON, ci95),
	RF_F(O, "confirmed", RF_BOOL, confirmed),
	RF_FX(O, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT | RF_OMIT_NULL),
	RF_FEND_X(RF_JC_WORDS),
};
#undef O
static const struct rf_struct winner_config_only_desc = {
	"tune winner config-only", sizeof(struct tune_doc_winner_config_only),
	winner_config_only_fields
};

#define W struct tune_doc_winner
static const struct rf_field winner_fields[] = {
	RF_F(W, "id", RF_STR, id),
	RF_F(W, "label", RF_STR, label),
	RF_FX(W, "time_ms", RF_NUM, time_ms, RF_TIME),
	RF_FX(W, "speedup", RF_NUM, speedup, RF_RATE),
	RF_FX(W, "sweep_speedup", RF_NUM, sweep_speedup, RF_RATE),
	RF_F(W, "confirmed", RF_TRI, confirmed),
	RF_F(W, "ci95", RF_JSON, ci95),
	RF_F(W, "is_base", RF_BOOL, is_base),
	RF_FX(W, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT),
	RF_SS(W, "config_only", config_only, has_config_only, &winner_config_only_desc,
	      RF_OMIT_NULL),
	RF_SS(W, "confirmation", confirmation, has_confirmation, &tune_doc_confirm_desc, 0),
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
	RF_F(K, "kind", RF_STR, kind),
	RF_F(K, "target", RF_STR, target),
	RF_F(K, "out_dir", RF_STR, out_dir),
	RF_F(K, "base_from", RF_STR, base_from),
	RF_F(K, "space", RF_JSON, space),
	RF_F(K, "plan", RF_STR, plan),
	RF_F(K, "plan_note", RF_STR, plan_note),
	RF_F(K, "stopped", RF_STR, stopped),
	RF_F(K, "wall_s", RF_NUM, wall_s),
	RF_F(K, "num_gb", RF_NUM, num_gb),
	RF_F(K, "bytes_estimate", RF_BOOL, bytes_estimate),
	RF_F(K, "bytes_note", RF_STR, bytes_note),
	RF_F(K, "peak_gbps", RF_NUM, peak_gbps),
	RF_F(K, "device", RF_JSON, device),
	RF_F(K, "grid_note", RF_STR, grid_note),
	RF_A(K, "variants", variants, nvariants, &tune_doc_variant_desc),
	RF_SS(K, "winner", winner, has_winner, &tune_doc_winner_desc, 0),
	RF_FEND_X(RF_JC_WORDS),
};
#undef K
const struct rf_struct tune_doc_kernel_desc = {
	"tune kernel", sizeof(struct tune_doc_kernel), kernel_fields
};

static const struct rf_field doc_fields[] = {
	RF_E(struct tune_doc, "mode", mode, tune_mode_names, 0),
	RF_A(struct tune_doc, "kernels", kernels, nkernels, &tune_doc_kernel_desc),
	RF_FEND_X(RF_JC_WORDS),
};
const struct rf_struct tune_doc_desc = { "tune document", sizeof(struct tune_doc), doc_fields };

#define F struct tune_winner_file
static const struct rf_field winner_file_fields[] = {
	RF_F(F, "kernel", RF_STR, kernel),
	RF_F(F, "label", RF_STR, label),
	RF_F(F, "config", RF_JSON, config),
	RF_P(F, "env", env, nenv, 0),
	RF_F(F, "triton_config", RF_STR, triton_config),
	RF_V(F, "source_variants", source_variants, nsource_variants),
	RF_FX(F, "inductor_settings", RF_JSON, inductor_settings, RF_OBJECT),
	RF_F(F, "confirmed", RF_BOOL, confirmed),
	RF_F(F, "ci95", RF_JSON, ci95),
	RF_FX(F, "confirmation", RF_JSON, confirmation, RF_OBJECT),
	RF_FEND_X(RF_JC_WORDS),
};
#undef F
const struct rf_struct tune_winner_file_desc = {
	"tune winner file", sizeof(struct tune_winner_file), winner_file_fields
};

static int read_doc(const json_t *j, const char *path, struct tune_doc *d, struct buf *err)
{
	return j && tune_doc_check(j, path, err) == 0 ? rf_read(&tune_doc_desc, d, j, path, err) : -1;
}

int tune_doc_load(const char *path, struct tune_doc *d, struct buf *err)
{
	json_t *j = json_load_path(path, err);
	int ret = read_doc(j, path, d, err);

	json_decref(j);
	return ret;
}

/* This tko's own tune document: its schema_version and tool, and a mode. */
static int is_current(const json_t *doc)
{
	const char *tool = json_str(doc, "tool");

	return json_is_object(doc) &&
	       json_int(doc, "schema_version", 0) == TUNE_SCHEMA_VERSION &&
	       tool && !strcmp(tool, TUNE_DOC_TOOL) && json_str(doc, "mode") &&
	       json_is_array(json_object_get(doc, "kernels"));
}

int tune_doc_load_current(const char *path, struct tune_doc *d, struct buf *err)
{
	json_t *j = json_load_path(path, err);
	int ret;

	if (j && !is_current(j)) {
		buf_addf(err, "'%s' is not a tko tune document (schema_version %d)", path,
			 TUNE_SCHEMA_VERSION);
		ret = -1;
	} else {
		ret = read_doc(j, path, d, err);
	}
	json_decref(j);
	return ret;
}

int tune_doc_compile_only(const struct tune_doc *d)
{
	return d->mode == TUNE_MODE_COMPILE_ONLY;
}

struct tune_doc_kernel *tune_doc_add_kernel(struct tune_doc *d)
{
	struct tune_doc_kernel *k;

	d->kernels = rf_grow(d->kernels, d->nkernels, sizeof(*d->kernels));
	k = &d->kernels[d->nkernels++];
	rf_init(&tune_doc_kernel_desc, k);
	return k;
}

void tune_doc_take_kernel(struct tune_doc *d, struct tune_doc_kernel *k)
{
	*tune_doc_add_kernel(d) = *k;
	rf_init(&tune_doc_kernel_desc, k);
}

int tune_doc_save(const char *path, const struct tune_doc *d, struct buf *err)
{
	return rf_save_doc(path, &tune_doc_desc, d, TUNE_SCHEMA_VERSION, TUNE_DOC_TOOL, err);
}

int tune_winner_file_save(const char *path, const struct tune_winner_file *f, struct buf *err)
{
	return rf_save_doc(path, &tune_winner_file_desc, f, TUNE_WINNER_FILE_SCHEMA, TUNE_DOC_TOOL, err);
}

const struct tune_doc_variant *tune_doc_variant(const struct tune_doc_kernel *k, const char *id)
{
	size_t i;

	for (i = 0; id && i < k->nvariants; i++)
		if (k->variants[i].id && !strcmp(k->variants[i].id, id))
			return &k->variants[i];
	return NULL;
}

const struct tune_doc_variant *tune_doc_base(const struct tune_doc_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nvariants; i++)
		if (k->variants[i].label && !strcmp(k->variants[i].label, "base"))
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

void tune_doc_ci(const json_t *ci95, double *lo, double *hi)
{
	*lo = ci95 ? json_number_value(json_array_get(ci95, 0)) : NAN;
	*hi = ci95 ? json_number_value(json_array_get(ci95, 1)) : NAN;
}

long tune_doc_split_size(const struct tune_doc_winner *w)
{
	const json_t *v = json_object_get(w->inductor_settings,
					  "triton.mix_order_reduction_split_size");

	return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

int tune_doc_two_pass(const struct tune_doc_winner *w)
{
	return json_is_false(json_object_get(w->inductor_settings, "online_softmax"));
}
