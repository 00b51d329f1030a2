/*
 * tko run KERNEL_DIR... [--json FILE] [--timeout S] [--reps N] [--peak-gbps X] [--env FILE]
 *
 * Replays captured kernels (RUN/capture/kernels/<kernel>-<hash8>/) in one
 * child Python with a time limit (src/live/replay.c, python/tko/replay.py):
 * each recorded config is timed (median of device-event timings, inputs
 * restored and L2 flushed before every repetition) and its outputs checked
 * against the captured config's. Prints time, the time the autotuner
 * recorded, the bytes the launch moves (model/traffic.h: every read and
 * write, in-place arguments both ways; "est." when a gather's bound or an
 * assumption is in it), that rate in GB/s and its fraction of the measured
 * copy bandwidth (RUN/env.json, from `tko env --measure` or
 * `tko capture --measure`). A rate over 105% of the copy rate is not
 * printed as a fact: it is bracketed and its cause printed under the table.
 *
 * Without --json, when every kernel directory is RUN/capture/kernels/<name>
 * of one RUN, the document is also kept in RUN/analysis/replay.json
 * (src/live/replay_store.c), where `tko investigate` finds it.
 *
 * Exit: 0 all agree; 1 a kernel failed or its configs' outputs disagree
 * (or the kept copy could not be written); 3 no python/torch/GPU; 5 the
 * replay died; 124 it ran past --timeout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/exitcode.h"
#include "live/replay.h"
#include "live/replay_store.h"
#include "util/jsonio.h"
#include "util/msg.h"
#include "util/opts.h"
#include "util/table.h"
#include "banned.h"

static const char *const usage[] = {
	"tko run KERNEL_DIR... [--json FILE] [--timeout S] [--reps N] [--peak-gbps X] [--env FILE]",
	"The Python interpreter is $TKO_PYTHON (default python3); tko's package is found in",
	"$TKO_PYTHONPATH, else <folder of the tko binary>/../python. The Triton cache of the",
	"kernels' RUN is reused unless TRITON_CACHE_DIR is set. GB/s is the bytes the launch",
	"reads and writes (docs/json.md, \"Bytes and rates\") / median time.",
	"Without --json, the kernels of one RUN also get RUN/analysis/replay.json.",
	NULL,
};

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
static void print_cpu_copy_notes(const json_t *doc)
{
	const json_t *k, *cfg, *a;
	size_t i, j, n;

	json_array_foreach(json_object_get(doc, "kernels"), i, k) {
		json_array_foreach(json_object_get(k, "configs"), j, cfg) {
			if (!json_is_number(json_object_get(cfg, "autotuner_method_no_cpu_copy_ms")))
				continue;
			printf("%s cfg %zu: the autotuner restored", json_str(k, "kernel"), j);
			json_array_foreach(json_object_get(cfg, "autotuner_method_cpu_copy_args"), n, a)
				printf("%s %s (%.1f MB)", n ? "," : "", json_str(a, "name"),
				       (double)json_int(a, "bytes", 0) / 1e6);
			printf(" from pinned host memory inside each timed call: %.4f ms with it, "
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

static void print_doubts(const json_t *doc)
{
	const json_t *k, *cfg;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "kernels"), i, k)
		json_array_foreach(json_object_get(k, "configs"), j, cfg)
			if (json_str(cfg, "rate_doubt"))
				printf("%s cfg %zu: %.0f GB/s is over 105%% of the copy rate, not a fact: %s"
				       " (bytes: %s)\n", json_str(k, "kernel"), j, json_num(cfg, "gbps", 0),
				       json_str(cfg, "rate_doubt"), json_str(k, "bytes_note"));
}

static void print_doc(const json_t *doc)
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
	table_print(&t, stdout);
	table_release(&t);
	print_cpu_copy_notes(doc);
	print_doubts(doc);
	if (json_is_object(peak))
		printf("peak: %.0f GB/s device copy (%s)\n", json_num(peak, "copy_gbps", 0),
		       json_str(peak, "source"));
	else
		printf("peak: not measured (run 'tko env --measure --json RUN/env.json')\n");
	printf("* the captured config; time: median of device-event timings; autotune: timed as the\n"
	       "autotuner does; MB moved: every byte read and written (in-place arguments both ways,\n"
	       "a gather by its lanes: est.); GB/s: MB moved / time; (n): over 105%% of copy, see above\n");
}

/* RUN/analysis/replay.json when every dir is a kernel dir of one RUN; 0 when none is due. */
static int keep_in_run(const struct strlist *dirs, const json_t *doc)
{
	char *run = replay_store_run_of(dirs), *path = NULL;
	struct buf err = BUF_INIT;
	int ret = 0;

	if (run && replay_store_write(run, doc, &path, &err) < 0) {
		fflush(stdout);
		msg_error("%s", err.buf);
		ret = -1;
	} else if (run) {
		printf("kept in %s\n", path);
	}
	free(path);
	free(run);
	buf_release(&err);
	return ret;
}

int cmd_run(int argc, const char **argv)
{
	struct replay_opts o = { 600, 0, 0, NULL };
	const char *json = NULL;
	const struct opt options[] = {
		OPT_STRING(0, "json", &json, "FILE", "write the JSON document to FILE ('-': stdout)"),
		OPT_DOUBLE(0, "timeout", &o.timeout_s, "S", "stop the replay after S seconds (default 600)"),
		OPT_INT(0, "reps", &o.reps, "N", "timed repetitions per config (default: automatic)"),
		OPT_DOUBLE(0, "peak-gbps", &o.peak_gbps, "X", "the peak to compare against, GB/s"),
		OPT_STRING(0, "env", &o.env_json, "FILE", "read the peak from this env.json"),
		OPT_END(),
	};
	struct strlist dirs = STRLIST_INIT;
	enum replay_status status = REPLAY_CRASHED;
	struct buf err = BUF_INIT;
	json_t *doc = NULL;
	int n, i, ret;

	n = opts_parse(argc, argv, options, usage, 0, NULL);
	if (n < 0)
		return opts_exit_code(n);
	if (!n || o.timeout_s <= 0 || o.reps < 0) {
		msg_error(n ? "--timeout must be positive and --reps not negative"
			    : "give at least one KERNEL_DIR");
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++)
		strlist_push(&dirs, argv[i]);
	if (replay_run(&dirs, &o, &doc, &status, &err) < 0) {
		msg_error("%s", err.buf);
		ret = EXIT_FAIL;
	} else if (!doc) {
		msg_error("%s", err.buf);
		ret = status == REPLAY_TIMEOUT ? EXIT_TIMEOUT :
		      status == REPLAY_NO_RUNTIME ? EXIT_TOOL : EXIT_CHILD;
	} else {
		ret = status == REPLAY_OK ? EXIT_OK : EXIT_FAIL;
		buf_reset(&err);
		if (json && json_write_path(doc, json, &err) < 0) {
			msg_error("%s", err.buf);
			ret = EXIT_FAIL;
		}
		if (!json || strcmp(json, "-"))
			print_doc(doc);
		if (!json && keep_in_run(&dirs, doc) < 0)
			ret = EXIT_FAIL;
		fflush(stdout);
		if (status == REPLAY_FAILED)
			msg_error("%lld of %lld kernels failed, %lld have configs whose outputs disagree",
				  json_int(json_object_get(doc, "summary"), "failed", 0),
				  json_int(json_object_get(doc, "summary"), "kernels", 0),
				  json_int(json_object_get(doc, "summary"), "mismatched", 0));
	}
	json_decref(doc);
	strlist_release(&dirs);
	buf_release(&err);
	return ret;
}
