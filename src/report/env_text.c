/* The terminal view of a `tko env` document (see env_text.h). */
#include <math.h>
#include <stdio.h>

#include "json/jsonio.h"
#include "report/env_text.h"
#include "util/table.h"
#include "banned.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* v when it is an object (absent things are JSON null). */
static const json_t *obj(const json_t *v)
{
	return json_is_object(v) ? v : NULL;
}

static void print_versions(const struct env_doc *doc, struct table *t)
{
	const json_t *py = obj(doc->python), *torch = obj(doc->torch);
	const json_t *dtk = obj(doc->dtk), *rocm = obj(doc->rocm);
	const json_t *cuda = doc->cuda, *hip = doc->hip;
	const struct env_bandwidth *bw = &doc->bandwidth;

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
	table_cell(t, "%s", obj(doc->triton) ?
		   or_dash(json_str(obj(doc->triton), "version")) : "not importable");
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
	if (env_doc_has_bandwidth(doc))
		table_cell(t, "%.0f GB/s (device-to-device copy, read+write, median of %lld)",
			   isfinite(bw->copy_gbps) ? bw->copy_gbps : 0,
			   bw->repeats != RF_I64_NONE ? bw->repeats : 0);
	else if (doc->bandwidth_error)
		table_cell(t, "not measured: %s", doc->bandwidth_error);
	else
		table_cell(t, "not measured (--measure)");
}

static void print_gpus(const struct env_doc *doc, struct table *t)
{
	const json_t *g;
	size_t i;

	json_array_foreach(doc->gpus, i, g) {
		table_row(t);
		table_cell(t, "gpu %lld", json_int(g, "index", (long long)i));
		table_cell(t, "%s, %s%s%s (%s)", or_dash(json_str(g, "name")), or_dash(json_str(g, "arch")),
			   json_str(g, "device_type") ? ", device type " : "",
			   json_str(g, "device_type") ? json_str(g, "device_type") : "",
			   or_dash(json_str(g, "source")));
	}
}

/* What tko has checked for each Hygon arch the GPUs report (src/env/hcu.h). */
static void print_hcu(FILE *fp, const struct env_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nhcu_targets; i++) {
		const struct env_hcu_target *t = &doc->hcu_targets[i];

		fprintf(fp, "\n%s, Hygon %s%s:\n", t->arch, t->name,
			t->triton_das ? "" : " (not a triton-das target)");
		fprintf(fp, "    verified by tko: %s\n", or_dash(t->verified));
		fprintf(fp, "    not verified: %s\n", or_dash(t->not_verified));
	}
}

void env_text_print(FILE *fp, const struct env_doc *doc)
{
	struct table t = TABLE_INIT;
	size_t i;

	table_columns(&t, "what|found", "ll");
	print_versions(doc, &t);
	print_gpus(doc, &t);
	table_print(&t, fp);
	table_release(&t);
	fputc('\n', fp);
	table_columns(&t, "tool|version|path", "lll");
	for (i = 0; i < doc->ntools; i++) {
		const struct env_tool *tool = &doc->tools[i];

		table_row(&t);
		table_cell(&t, "%s", or_dash(tool->name));
		table_cell(&t, "%s", or_dash(tool->version));
		table_cell(&t, "%s", tool->path ? tool->path : "not found");
	}
	table_print(&t, fp);
	table_release(&t);
	if (doc->nenv)
		fputs("\nenvironment flags:\n", fp);
	for (i = 0; i < doc->nenv; i++)
		fprintf(fp, "    %s=%s\n", doc->env[i].key, doc->env[i].value ? doc->env[i].value : "(null)");
	print_hcu(fp, doc);
	for (i = 0; i < doc->nnotes; i++)
		fprintf(fp, "%snote: %s\n", i ? "" : "\n", doc->notes[i]);
	for (i = 0; i < doc->nwarnings; i++)
		fprintf(fp, "%swarning: %s\n", i ? "" : "\n", doc->warnings[i]);
}
