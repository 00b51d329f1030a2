/* GPUs for "tko env" from torch, rocminfo, hy-smi and nvidia-smi (see gpu.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "env/gpu.h"
#include "env/rocminfo.h"
#include "env/smi.h"
#include "json/jsonio.h"
#include "target/target.h"
#include "util/mem.h"
#include "banned.h"

/* The path of a tool env_probe_doc looked for, or NULL. */
static const char *tool_path(const struct env_doc *doc, const char *name)
{
	const struct env_tool *t = env_doc_tool(doc, name);

	return t ? t->path : NULL;
}

static const char *tool_version(const struct env_doc *doc, const char *name)
{
	const struct env_tool *t = env_doc_tool(doc, name);

	return t ? t->version : NULL;
}

static void set_num_or_null(json_t *o, const char *key, double v)
{
	json_set_new(o, key, isnan(v) ? NULL : json_real(v));
}

/* Copies d[key] into g when d has it. */
static void copy_key(json_t *g, const json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);

	if (v)
		json_object_set(g, key, v);
}

/*
 * One device of the probe (its facts, python/tko/gpu.py) as a "gpus"
 * entry: the arch decided here, and arch_full, the gcnArchName as ROCm
 * reports it (on CUDA torch puts the marketing name there: null). The
 * arch of an older probe that named it itself (and tests' fake probes) is
 * kept as it was.
 */
static json_t *torch_gpu(const json_t *d)
{
	static const char *const head[] = { "index", "name", "backend" };
	static const char *const tail[] = { "capability", "multiprocessor_count", "memory_bytes",
					    "warp_size", "l2_cache_bytes" };
	struct target_gpu_facts f;
	struct buf arch = BUF_INIT;
	json_t *g = json_object(), *v;
	const char *key;
	size_t i;

	target_gpu_facts_read(d, &f);
	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		copy_key(g, d, head[i]);
	if (json_object_get(d, "arch") && !f.gcn_arch_name && f.cc_major < 0)
		copy_key(g, d, "arch");
	else
		json_set_new(g, "arch", target_gpu_arch(&f, &arch) ? NULL : json_string(arch.buf));
	if (json_object_get(d, "gcn_arch_name"))
		json_set_str(g, "arch_full", f.backend && !strcmp(f.backend, "hip") ?
			     f.gcn_arch_name : NULL);
	else
		copy_key(g, d, "arch_full");
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		copy_key(g, d, tail[i]);
	json_object_foreach((json_t *)d, key, v)
		if (!json_object_get(g, key) && strcmp(key, "gcn_arch_name"))
			json_object_set(g, key, v);
	json_set_str(g, "source", "torch");
	buf_release(&arch);
	return g;
}

static json_t *from_torch(const json_t *probe)
{
	json_t *gpus = json_array(), *d;
	size_t i;

	json_array_foreach(json_object_get(probe, "devices"), i, d)
		json_array_append_new(gpus, torch_gpu(d));
	return gpus;
}

/* rocminfo's GPU/HCU agents, into gpu_tools.rocminfo (and gpus when empty). */
static int rocminfo_gpus(const char *path, double t, json_t *gpus, json_t *sources)
{
	const char *argv[] = { path, NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	struct rocminfo ri = ROCMINFO_INIT;
	json_t *agents = json_array();
	size_t i, n = 0;
	int hcu = 0, fill = json_array_size(gpus) == 0;

	env_run_tool(argv, t, &out);
	if (!rocminfo_parse(out.buf, out.len, &ri, &err)) {
		for (i = 0; i < ri.nr; i++) {
			struct rocm_agent *a = &ri.agents[i];
			json_t *g;

			if (!rocm_agent_is_gpu(a))
				continue;
			hcu |= !strcmp(a->device_type, "HCU");
			json_array_append_new(agents, json_pack("{s:s?, s:s?, s:s?, s:I, s:I}",
				"name", a->name, "marketing_name", a->marketing_name,
				"device_type", a->device_type, "compute_units", (json_int_t)a->compute_units,
				"wavefront_size", (json_int_t)a->wavefront_size));
			if (fill)
				json_array_append_new(gpus, json_pack("{s:I, s:s?, s:s, s:s?, s:I, s:I, s:s}",
					"index", (json_int_t)n, "name", a->marketing_name, "backend", "hip",
					"arch", a->name, "multiprocessor_count", (json_int_t)a->compute_units,
					"warp_size", (json_int_t)a->wavefront_size, "source", "rocminfo"));
			g = json_array_get(gpus, n++);
			if (g)
				json_set_str(g, "device_type", a->device_type);
		}
		json_set_new(sources, "rocminfo", agents);
	} else {
		json_decref(agents);
	}
	rocminfo_release(&ri);
	buf_release(&out);
	buf_release(&err);
	return hcu;
}

static json_t *smi_json(const struct smi *s)
{
	json_t *devs = json_array();
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct smi_device *d = &s->dev[i];
		json_t *o = json_pack("{s:I, s:s?, s:s?, s:s?, s:s?, s:s?}", "index", (json_int_t)d->index,
				      "name", d->name, "arch", d->arch, "driver", d->driver,
				      "perf", d->perf, "mode", d->mode);

		set_num_or_null(o, "temp_c", d->temp_c);
		set_num_or_null(o, "power_w", d->power_w);
		set_num_or_null(o, "power_cap_w", d->power_cap_w);
		set_num_or_null(o, "vram_pct", d->vram_pct);
		set_num_or_null(o, "util_pct", d->util_pct);
		json_set_new(o, "memory_bytes", d->memory_bytes >= 0 ? json_integer(d->memory_bytes) : NULL);
		json_array_append_new(devs, o);
	}
	return json_pack("{s:s?, s:o}", "driver", s->driver, "devices", devs);
}

/* hy-smi's table and per-card lines, into gpu_tools["hy-smi"]. */
static int hysmi_cards(const char *path, double t, json_t *sources)
{
	const char *table[] = { path, NULL };
	const char *info[] = { path, "--showproductname", "--showdriverversion", NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	struct smi s = SMI_INIT;
	int n = 0;

	env_run_tool(table, t, &out);
	buf_addch(&out, '\n');
	env_run_tool(info, t, &out);
	if (!hysmi_parse(out.buf, out.len, &s, &err)) {
		json_set_new(sources, "hy-smi", smi_json(&s));
		n = (int)s.nr;
	}
	smi_release(&s);
	buf_release(&out);
	buf_release(&err);
	return n;
}

/* nvidia-smi --query-gpu, into gpu_tools["nvidia-smi"] (and gpus when empty). */
static char *nvsmi_gpus(const char *path, double t, json_t *gpus, json_t *sources)
{
	const char *argv[] = { path, "--query-gpu=" SMI_NVIDIA_QUERY,
			       "--format=csv,noheader,nounits", NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	struct smi s = SMI_INIT;
	char *driver = NULL;
	size_t i;
	int fill = json_array_size(gpus) == 0;

	if (!env_run_tool(argv, t, &out) && !nvsmi_parse_csv(out.buf, out.len, &s, &err)) {
		json_set_new(sources, "nvidia-smi", smi_json(&s));
		for (i = 0; fill && i < s.nr; i++) {
			json_t *g = json_pack("{s:I, s:s?, s:s, s:s?, s:s}",
				"index", (json_int_t)s.dev[i].index, "name", s.dev[i].name,
				"backend", "cuda", "arch", s.dev[i].arch, "source", "nvidia-smi");

			json_set_new(g, "memory_bytes", s.dev[i].memory_bytes >= 0 ?
				     json_integer(s.dev[i].memory_bytes) : NULL);
			json_array_append_new(gpus, g);
		}
		if (s.nr && s.dev[0].driver)
			driver = xstrdup(s.dev[0].driver);
	}
	smi_release(&s);
	buf_release(&out);
	buf_release(&err);
	return driver;
}

void env_gpus(struct env_doc *doc, const json_t *probe, double t)
{
	json_t *gpus = from_torch(probe), *sources = json_object();
	const json_t *torch = doc->torch;
	const char *p;
	char *driver = NULL;
	int dcu = 0;

	if ((p = tool_path(doc, "rocminfo")))
		dcu |= rocminfo_gpus(p, t, gpus, sources);
	if ((p = tool_path(doc, "hy-smi")))
		dcu |= hysmi_cards(p, t, sources) > 0;
	if ((p = tool_path(doc, "nvidia-smi")))
		driver = nvsmi_gpus(p, t, gpus, sources);
	if (!json_array_size(gpus))
		env_doc_note(doc, "no GPU found (torch, rocminfo and nvidia-smi show none)");
	doc->gpus = gpus;
	doc->gpu_tools = sources;
	doc->dcu = dcu;
	doc->cuda = json_pack("{s:s?, s:s?, s:s?}", "torch", json_str(torch, "cuda"),
			      "nvcc", tool_version(doc, "nvcc"), "driver", driver);
	doc->hip = json_pack("{s:s?, s:s?}", "torch", json_str(torch, "hip"),
			     "hipcc", tool_version(doc, "hipcc"));
	free(driver);
}
