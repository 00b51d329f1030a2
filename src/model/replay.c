/* The "tko run" document as a typed struct (replay.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/replay.h"
#include "util/mem.h"
#include "banned.h"

/*
 * The child's keys: left out when it left them out. The flags are every
 * check tko makes of a replay document (the child's, or a "tko run" one
 * such as RUN/analysis/replay.json) before it reads one: types, times and
 * rates that are numbers >= 0, in util/jcheck.c's words (RF_JC_WORDS).
 */
#define CHILD RF_OMIT_NULL
#define TIME (RF_OMIT_NULL | RF_TIME)

#define T struct replay_config
static const struct rf_field config_fields[] = {
	RF_FX(T, "captured", RF_JSON, captured, CHILD | RF_BOOLEAN),
	RF_FX(T, "config", RF_JSON, config, CHILD | RF_OBJECT),
	RF_FX(T, "time_ms", RF_NUM, time_ms, TIME),
	RF_FX(T, "min_ms", RF_NUM, min_ms, TIME),
	RF_FX(T, "recorded_time_ms", RF_NUM, recorded_time_ms, TIME),
	RF_FX(T, "autotuner_method_ms", RF_NUM, autotuner_method_ms, TIME),
	RF_FX(T, "autotuner_method_no_cpu_copy_ms", RF_NUM, autotuner_method_no_cpu_copy_ms, TIME),
	RF_FX(T, "autotuner_method_cpu_copy_args", RF_JSON, cpu_copy_args, CHILD | RF_OBJECTS),
	RF_FX(T, "outputs_match", RF_JSON, outputs_match, CHILD | RF_BOOLEAN),
	RF_FX(T, "outputs_exact", RF_JSON, outputs_exact, CHILD | RF_BOOLEAN),
	RF_FX(T, "error", RF_STR, error, CHILD),
	RF_FX(T, "gbps", RF_NUM, gbps, RF_RATE),
	RF_FX(T, "copy_fraction", RF_NUM, copy_fraction, RF_RATE),
	RF_F(T, "rate_doubt", RF_STR, rate_doubt),
	RF_F(T, "autotuner_method_vs_recorded", RF_NUM, vs_recorded),
	RF_FEND_OPEN(T, kept, RF_JC_WORDS),
};
#undef T
static const struct rf_struct config_desc = { "config", sizeof(struct replay_config), config_fields };

#define T struct replay_kernel
static const struct rf_field kernel_fields[] = {
	RF_FX(T, "kernel_dir", RF_STR, kernel_dir, CHILD),
	RF_FX(T, "kernel", RF_STR, kernel, CHILD),
	RF_FX(T, "error", RF_STR, error, CHILD),
	RF_A(T, "configs", configs, nconfigs, &config_desc),
	RF_FX(T, "footprint_bytes", RF_I64, footprint_bytes, RF_COUNT),
	RF_F(T, "inductor_num_bytes", RF_JSON, inductor_num_bytes),
	RF_FX(T, "bytes", RF_NUM, bytes, RF_RATE),
	RF_F(T, "bytes_estimate", RF_BOOL, bytes_estimate),
	RF_F(T, "bytes_note", RF_STR, bytes_note),
	RF_FEND_OPEN(T, kept, RF_JC_WORDS),
};
#undef T
const struct rf_struct replay_kernel_desc = { "kernel", sizeof(struct replay_kernel), kernel_fields };

#define T struct replay_peak
static const struct rf_field peak_fields[] = {
	RF_FX(T, "copy_gbps", RF_NUM, copy_gbps, RF_RATE),
	RF_F(T, "source", RF_STR, source),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct peak_desc = { "peak", sizeof(struct replay_peak), peak_fields };

/* Read, not written: replay_doc_to_json() puts the document together. */
#define T struct replay_doc
static const struct rf_field doc_fields[] = {
	RF_AX(T, "kernels", kernels, nkernels, &replay_kernel_desc, RF_NEED),
	RF_S(T, "peak", peak, &peak_desc, 0),
	RF_FEND_X(RF_JC_WORDS),
};
#undef T
static const struct rf_struct doc_desc = { "replay", sizeof(struct replay_doc), doc_fields };

void replay_doc_init(struct replay_doc *d)
{
	rf_init(&doc_desc, d);	/* peak.copy_gbps NAN: no rate */
	d->have_peak = 0;
	d->peak_missing = NULL;
	d->replay = NULL;
	memset(&d->summary, 0, sizeof(d->summary));
}

void replay_doc_release(struct replay_doc *d)
{
	/* before rf_release, which starts the whole struct afresh */
	json_decref(d->replay);
	free(d->peak_missing);
	rf_release(&doc_desc, d);
	replay_doc_init(d);
}

int replay_true(const json_t *v)
{
	return json_is_true(v);
}

int replay_kernel_disagrees(const struct replay_kernel *k)
{
	size_t i;

	for (i = 0; i < k->nconfigs; i++)
		if (json_is_false(k->configs[i].outputs_match) || k->configs[i].error)
			return 1;
	return 0;
}

void replay_doc_summarise(struct replay_doc *d)
{
	size_t i;

	memset(&d->summary, 0, sizeof(d->summary));
	d->summary.kernels = (long long)d->nkernels;
	for (i = 0; i < d->nkernels; i++) {
		const struct replay_kernel *k = &d->kernels[i];

		d->summary.failed += k->error != NULL;
		d->summary.mismatched += !k->error && replay_kernel_disagrees(k);
		d->summary.configs += (long long)k->nconfigs;
	}
}

int replay_doc_read(struct replay_doc *d, const json_t *j, const char *what, struct buf *err)
{
	const json_t *versions = json_object_get(j, "replay");

	if (rf_read(&doc_desc, d, j, what, err) < 0)
		return -1;
	d->have_peak = json_is_object(json_object_get(j, "peak"));
	if (!versions)
		versions = json_object_get(j, "versions");
	d->replay = json_incref((json_t *)versions);
	replay_doc_summarise(d);
	return 0;
}

json_t *replay_doc_to_json(const struct replay_doc *d)
{
	json_t *doc = json_object(), *kernels = json_array(), *peak = json_null();
	size_t i;

	/* a peak read without a rate is written with 0, as it always was */
	if (d->have_peak)
		peak = json_pack("{s:f, s:s?}",
				 "copy_gbps", isnan(d->peak.copy_gbps) ? 0 : d->peak.copy_gbps,
				 "source", d->peak.source);
	for (i = 0; i < d->nkernels; i++)
		json_array_append_new(kernels, rf_to_json(&replay_kernel_desc, &d->kernels[i]));
	json_object_set_new(doc, "schema_version", json_integer(REPLAY_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", json_string("tko run"));
	json_object_set_new(doc, "peak", peak);
	json_object_set_new(doc, "replay", d->replay ? json_incref(d->replay) : json_null());
	json_object_set_new(doc, "kernels", kernels);
	json_object_set_new(doc, "summary", json_pack("{s:I, s:I, s:I, s:I}",
		"kernels", (json_int_t)d->summary.kernels, "failed", (json_int_t)d->summary.failed,
		"mismatched", (json_int_t)d->summary.mismatched,
		"configs", (json_int_t)d->summary.configs));
	return doc;
}

int replay_doc_save(const struct replay_doc *d, const char *path, struct buf *err)
{
	json_t *j = replay_doc_to_json(d);
	int ret = json_write_path(j, path, err);

	json_decref(j);
	return ret;
}
