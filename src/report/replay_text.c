/* tko run's text (see replay_text.h). */
#include <math.h>
#include <stdio.h>

#include "json/jsonio.h"
#include "report/replay_text.h"
#include "util/msg.h"
#include "util/plural.h"
#include "util/table.h"
#include "banned.h"

static void cell_ms(struct table *t, double ms)
{
	if (!isnan(ms))
		table_cell(t, "%.4f", ms);
	else
		table_cell(t, "-");
}

static const char *outputs_word(const struct replay_config *c)
{
	if (c->error)
		return "error";
	if (replay_true(c->outputs_exact))
		return "identical";
	if (replay_true(c->outputs_match))
		return "close";
	return "DIFFER";
}

/* One line per config whose autotuner copied arguments back from host memory. */
static void print_cpu_copy_notes(FILE *fp, const struct replay_doc *doc)
{
	const json_t *a;
	size_t i, j, n;

	for (i = 0; i < doc->nkernels; i++) {
		const struct replay_kernel *k = &doc->kernels[i];

		for (j = 0; j < k->nconfigs; j++) {
			const struct replay_config *c = &k->configs[j];

			if (isnan(c->autotuner_method_no_cpu_copy_ms))
				continue;
			fprintf(fp, "%s cfg %zu: the autotuner restored", k->kernel, j);
			json_array_foreach(c->cpu_copy_args, n, a)
				fprintf(fp, "%s %s (%.1f MB)", n ? "," : "", json_str(a, "name"),
					(double)json_int(a, "bytes", 0) / 1e6);
			fprintf(fp, " from pinned host memory inside each timed call: %.4f ms with it, "
				"%.4f ms without\n", isnan(c->autotuner_method_ms) ? 0 : c->autotuner_method_ms,
				c->autotuner_method_no_cpu_copy_ms);
		}
	}
}

/* The bytes a kernel moves, in MB, "est." when they are an estimate. */
static void cell_mb(struct table *t, const struct replay_kernel *k)
{
	double mb = (isnan(k->bytes) ? -1 : k->bytes) / 1e6;

	if (mb < 0)
		table_cell(t, "-");
	else
		table_cell(t, mb < 0.1 ? "%.4f%s" : "%.1f%s", mb, k->bytes_estimate ? " est." : "");
}

/* GB/s and its fraction of the copy rate; a doubted rate in brackets, never as a percentage. */
static void cell_rate(struct table *t, const struct replay_kernel *k, const struct replay_config *c)
{
	int doubt = c->rate_doubt != NULL;

	if (!isnan(c->gbps))
		table_cell(t, doubt ? "(%.0f)" : k->bytes_estimate ? "%.0f est." : "%.0f", c->gbps);
	else
		table_cell(t, "-");
	if (doubt)
		table_cell(t, "over copy");
	else if (!isnan(c->copy_fraction))
		table_cell(t, "%.0f%%", 100 * c->copy_fraction);
	else
		table_cell(t, "-");
}

static void print_doubts(FILE *fp, const struct replay_doc *doc)
{
	size_t i, j;

	for (i = 0; i < doc->nkernels; i++) {
		const struct replay_kernel *k = &doc->kernels[i];

		for (j = 0; j < k->nconfigs; j++)
			if (k->configs[j].rate_doubt)
				fprintf(fp, "%s cfg %zu: %.0f GB/s is over 105%% of the copy rate, not a fact: %s"
					" (bytes: %s)\n", k->kernel, j,
					isnan(k->configs[j].gbps) ? 0 : k->configs[j].gbps,
					k->configs[j].rate_doubt, k->bytes_note);
	}
}

static void kernel_rows(struct table *t, const struct replay_kernel *k)
{
	size_t j;

	if (k->error) {
		table_row(t);
		table_cell(t, "%s", k->kernel ? k->kernel : k->kernel_dir);
		table_cell(t, "-");
		table_cell(t, "failed: %s", k->error);
		return;
	}
	for (j = 0; j < k->nconfigs; j++) {
		const struct replay_config *c = &k->configs[j];

		table_row(t);
		table_cell(t, "%s", j ? "" : k->kernel);
		table_cell(t, "%zu%s", j, replay_true(c->captured) ? "*" : "");
		cell_ms(t, c->time_ms);
		cell_ms(t, c->autotuner_method_ms);
		cell_ms(t, c->recorded_time_ms);
		cell_mb(t, k);
		cell_rate(t, k, c);
		table_cell(t, "%s", outputs_word(c));
	}
}

void replay_text_print(FILE *fp, const struct replay_doc *doc)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "kernel|cfg|time ms|autotune ms|recorded ms|MB moved|GB/s|of copy|outputs",
		      "lrrrrrrrl");
	for (i = 0; i < doc->nkernels; i++)
		kernel_rows(&t, &doc->kernels[i]);
	table_print(&t, fp);
	table_release(&t);
	print_cpu_copy_notes(fp, doc);
	print_doubts(fp, doc);
	if (doc->have_peak)
		fprintf(fp, "peak: %.0f GB/s device copy (%s)\n",
			isnan(doc->peak.copy_gbps) ? 0 : doc->peak.copy_gbps, doc->peak.source);
	else if (doc->peak_missing)	/* --measure ran: measuring again is not the advice */
		fprintf(fp, "peak: not measured: %s; --peak-gbps gives one\n", doc->peak_missing);
	else
		fprintf(fp, "peak: not measured (run 'tko env --measure --json RUN/env.json')\n");
	fprintf(fp, "* the captured config; time: median of device-event timings; autotune: timed as the\n"
		"autotuner does; MB moved: every byte read and written (in-place arguments both ways,\n"
		"a gather by its lanes: est.); GB/s: MB moved / time; (n): over 105%% of copy, see above\n");
}

void replay_text_show(const struct replay_outcome *out, int table, const char *step)
{
	if (!out->doc) {
		msg_error_as(step, "%s", out->error ? out->error : "the replay gave no result");
		return;
	}
	if (table)
		replay_text_print(stdout, out->doc);
	if (out->keep_error) {
		fflush(stdout);
		msg_error_as(step, "%s", out->keep_error);
	} else if (out->kept) {
		printf("kept in %s\n", out->kept);
	}
	fflush(stdout);
	if (out->status == REPLAY_FAILED)
		msg_error_as(step, "%lld of %lld kernel%s failed, %lld %s configs whose outputs disagree",
			     out->doc->summary.failed, out->doc->summary.kernels,
			     plural(out->doc->summary.kernels), out->doc->summary.mismatched,
			     plural_word(out->doc->summary.mismatched, "has", "have"));
}
