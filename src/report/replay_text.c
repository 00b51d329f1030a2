/* tko run's text (see replay_text.h). */
#include <stdio.h>

#include "report/replay_text.h"
#include "util/jsonio.h"
#include "util/msg.h"
#include "util/table.h"
#include "banned.h"

static void cell_ms(struct table *t, const json_t *o, const char *key)
{
	if (json_is_number(json_object_get(o, key)))
		table_cell(t, "%.4f", json_num(o, key, 0));
	else
		table_cell(t, "-");
}

static const char *outputs_word(const json_t *cfg)
{
	if (json_str(cfg, "error"))
		return "error";
	if (json_is_true(json_object_get(cfg, "outputs_exact")))
		return "identical";
	if (json_is_true(json_object_get(cfg, "outputs_match")))
		return "close";
	return "DIFFER";
}

/* One line per config whose autotuner copied arguments back from host memory. */
static void print_cpu_copy_notes(FILE *fp, const json_t *doc)
{
	const json_t *k, *cfg, *a;
	size_t i, j, n;

	json_array_foreach(json_object_get(doc, "kernels"), i, k) {
		json_array_foreach(json_object_get(k, "configs"), j, cfg) {
			if (!json_is_number(json_object_get(cfg, "autotuner_method_no_cpu_copy_ms")))
				continue;
			fprintf(fp, "%s cfg %zu: the autotuner restored", json_str(k, "kernel"), j);
			json_array_foreach(json_object_get(cfg, "autotuner_method_cpu_copy_args"), n, a)
				fprintf(fp, "%s %s (%.1f MB)", n ? "," : "", json_str(a, "name"),
				       (double)json_int(a, "bytes", 0) / 1e6);
			fprintf(fp, " from pinned host memory inside each timed call: %.4f ms with it, "
			       "%.4f ms without\n", json_num(cfg, "autotuner_method_ms", 0),
			       json_num(cfg, "autotuner_method_no_cpu_copy_ms", 0));
		}
	}
}

/* The bytes a kernel moves, in MB, "est." when they are an estimate. */
static void cell_mb(struct table *t, const json_t *k)
{
	double mb = json_num(k, "bytes", -1) / 1e6;

	if (mb < 0)
		table_cell(t, "-");
	else
		table_cell(t, mb < 0.1 ? "%.4f%s" : "%.1f%s", mb,
			   json_is_true(json_object_get(k, "bytes_estimate")) ? " est." : "");
}

/* GB/s and its fraction of the copy rate; a doubted rate in brackets, never as a percentage. */
static void cell_rate(struct table *t, const json_t *k, const json_t *cfg)
{
	int doubt = json_str(cfg, "rate_doubt") != NULL;
	int est = json_is_true(json_object_get(k, "bytes_estimate"));

	if (json_is_number(json_object_get(cfg, "gbps")))
		table_cell(t, doubt ? "(%.0f)" : est ? "%.0f est." : "%.0f", json_num(cfg, "gbps", 0));
	else
		table_cell(t, "-");
	if (doubt)
		table_cell(t, "over copy");
	else if (json_is_number(json_object_get(cfg, "copy_fraction")))
		table_cell(t, "%.0f%%", 100 * json_num(cfg, "copy_fraction", 0));
	else
		table_cell(t, "-");
}

static void print_doubts(FILE *fp, const json_t *doc)
{
	const json_t *k, *cfg;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "kernels"), i, k)
		json_array_foreach(json_object_get(k, "configs"), j, cfg)
			if (json_str(cfg, "rate_doubt"))
				fprintf(fp, "%s cfg %zu: %.0f GB/s is over 105%% of the copy rate, not a fact: %s"
				       " (bytes: %s)\n", json_str(k, "kernel"), j, json_num(cfg, "gbps", 0),
				       json_str(cfg, "rate_doubt"), json_str(k, "bytes_note"));
}

void replay_text_print(FILE *fp, const json_t *doc)
{
	struct table t = TABLE_INIT;
	const json_t *k, *cfg, *peak = json_object_get(doc, "peak");
	size_t i, j;

	table_columns(&t, "kernel|cfg|time ms|autotune ms|recorded ms|MB moved|GB/s|of copy|outputs",
		      "lrrrrrrrl");
	json_array_foreach(json_object_get(doc, "kernels"), i, k) {
		if (json_str(k, "error")) {
			table_row(&t);
			table_cell(&t, "%s", json_str(k, "kernel") ? json_str(k, "kernel") : json_str(k, "kernel_dir"));
			table_cell(&t, "-");
			table_cell(&t, "failed: %s", json_str(k, "error"));
			continue;
		}
		json_array_foreach(json_object_get(k, "configs"), j, cfg) {
			table_row(&t);
			table_cell(&t, "%s", j ? "" : json_str(k, "kernel"));
			table_cell(&t, "%zu%s", j, json_is_true(json_object_get(cfg, "captured")) ? "*" : "");
			cell_ms(&t, cfg, "time_ms");
			cell_ms(&t, cfg, "autotuner_method_ms");
			cell_ms(&t, cfg, "recorded_time_ms");
			cell_mb(&t, k);
			cell_rate(&t, k, cfg);
			table_cell(&t, "%s", outputs_word(cfg));
		}
	}
	table_print(&t, fp);
	table_release(&t);
	print_cpu_copy_notes(fp, doc);
	print_doubts(fp, doc);
	if (json_is_object(peak))
		fprintf(fp, "peak: %.0f GB/s device copy (%s)\n", json_num(peak, "copy_gbps", 0),
		       json_str(peak, "source"));
	else
		fprintf(fp, "peak: not measured (run 'tko env --measure --json RUN/env.json')\n");
	fprintf(fp, "* the captured config; time: median of device-event timings; autotune: timed as the\n"
	       "autotuner does; MB moved: every byte read and written (in-place arguments both ways,\n"
	       "a gather by its lanes: est.); GB/s: MB moved / time; (n): over 105%% of copy, see above\n");
}

void replay_text_show(const struct replay_outcome *out, int table, const char *step)
{
	const json_t *sum = json_object_get(out->doc, "summary");

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
		msg_error_as(step, "%lld of %lld kernels failed, %lld have configs whose outputs disagree",
			     json_int(sum, "failed", 0), json_int(sum, "kernels", 0),
			     json_int(sum, "mismatched", 0));
}
