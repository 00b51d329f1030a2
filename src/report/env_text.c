/* The terminal view of a `tko env` document (see env_text.h). */
#include <stdio.h>

#include "report/env_text.h"
#include "util/jsonio.h"
#include "util/table.h"
#include "banned.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* doc[key] when it is an object (absent things are JSON null). */
static const json_t *obj(const json_t *doc, const char *key)
{
	const json_t *v = json_object_get(doc, key);

	return json_is_object(v) ? v : NULL;
}

static void print_versions(const json_t *doc, struct table *t)
{
	const json_t *py = obj(doc, "python"), *torch = obj(doc, "torch");
	const json_t *dtk = obj(doc, "dtk"), *rocm = obj(doc, "rocm");
	const json_t *cuda = json_object_get(doc, "cuda"), *hip = json_object_get(doc, "hip");
	const json_t *bw = json_object_get(doc, "bandwidth");

	table_row(t);
	table_cell(t, "python");
	table_cell(t, "%s", py ? or_dash(json_str(py, "version")) : "not found");
	table_row(t);
	table_cell(t, "torch");
	if (!torch)
		table_cell(t, "not importable");
	else if (json_str(torch, "hip"))
		table_cell(t, "%s (hip %s)", or_dash(json_str(torch, "version")), json_str(torch, "hip"));
	else
		table_cell(t, "%s (cuda %s)", or_dash(json_str(torch, "version")),
			   or_dash(json_str(torch, "cuda")));
	table_row(t);
	table_cell(t, "triton");
	table_cell(t, "%s", obj(doc, "triton") ?
		   or_dash(json_str(obj(doc, "triton"), "version")) : "not importable");
	table_row(t);
	table_cell(t, "cuda");
	table_cell(t, "nvcc %s, driver %s", or_dash(json_str(cuda, "nvcc")), or_dash(json_str(cuda, "driver")));
	table_row(t);
	table_cell(t, "hip");
	table_cell(t, "hipcc %s", or_dash(json_str(hip, "hipcc")));
	table_row(t);
	table_cell(t, "dtk");
	table_cell(t, "%s", dtk ? json_str(dtk, "version") : "not found");
	table_row(t);
	table_cell(t, "rocm");
	table_cell(t, "%s", rocm ? json_str(rocm, "version") : "not found");
	table_row(t);
	table_cell(t, "copy bandwidth");
	if (json_is_object(bw))
		table_cell(t, "%.0f GB/s (device-to-device copy, read+write, median of %lld)",
			   json_num(bw, "copy_gbps", 0), json_int(bw, "repeats", 0));
	else
		table_cell(t, "not measured (--measure)");
}

static void print_gpus(const json_t *doc, struct table *t)
{
	const json_t *g;
	size_t i;

	json_array_foreach(json_object_get(doc, "gpus"), i, g) {
		table_row(t);
		table_cell(t, "gpu %lld", json_int(g, "index", (long long)i));
		table_cell(t, "%s, %s%s%s (%s)", or_dash(json_str(g, "name")), or_dash(json_str(g, "arch")),
			   json_str(g, "device_type") ? ", device type " : "",
			   json_str(g, "device_type") ? json_str(g, "device_type") : "",
			   or_dash(json_str(g, "source")));
	}
}

/* What tko has checked for each Hygon arch the GPUs report (src/live/envhcu.h). */
static void print_hcu(FILE *fp, const json_t *doc)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(doc, "hcu_targets"), i, t) {
		fprintf(fp, "\n%s, Hygon %s%s:\n", json_str(t, "arch"), json_str(t, "name"),
		       json_is_true(json_object_get(t, "triton_das")) ? "" : " (not a triton-das target)");
		fprintf(fp, "    verified by tko: %s\n", or_dash(json_str(t, "verified")));
		fprintf(fp, "    not verified: %s\n", or_dash(json_str(t, "not_verified")));
	}
}

void env_text_print(FILE *fp, const json_t *doc)
{
	struct table t = TABLE_INIT;
	const json_t *tool, *val, *n;
	const char *key;
	size_t i;

	table_columns(&t, "what|found", "ll");
	print_versions(doc, &t);
	print_gpus(doc, &t);
	table_print(&t, fp);
	table_release(&t);
	fputc('\n', fp);
	table_columns(&t, "tool|version|path", "lll");
	json_array_foreach(json_object_get(doc, "tools"), i, tool) {
		table_row(&t);
		table_cell(&t, "%s", or_dash(json_str(tool, "name")));
		table_cell(&t, "%s", or_dash(json_str(tool, "version")));
		table_cell(&t, "%s", json_str(tool, "path") ? json_str(tool, "path") : "not found");
	}
	table_print(&t, fp);
	table_release(&t);
	if (json_object_size(json_object_get(doc, "env"))) {
		fputs("\nenvironment flags:\n", fp);
		json_object_foreach((json_t *)json_object_get(doc, "env"), key, val)
			fprintf(fp, "    %s=%s\n", key, json_string_value(val));
	}
	print_hcu(fp, doc);
	json_array_foreach(json_object_get(doc, "notes"), i, n)
		fprintf(fp, "%snote: %s\n", i ? "" : "\n", json_string_value(n));
	json_array_foreach(json_object_get(doc, "warnings"), i, n)
		fprintf(fp, "%swarning: %s\n", i ? "" : "\n", json_string_value(n));
}
