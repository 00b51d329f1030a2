/*
 * Reading a RUN's evidence with the other modules' libraries (inputs.h):
 *   summarize_paths(RUN)            logs, capture events, .best_config
 *   meta_scan_path(cache/inductor)  kernel and wrapper modules, plus the
 *                                   kernel.py of captured hand-written kernels
 *   isa_scan_path(cache/triton)     every compiled kernel's assembly
 *   fx_graphs_scan(each log)        the user's source lines per FX node
 *   env.json, tko-run.json, analysis/replay.json (or --replay), and
 *   capture/kernels/<dir>/tune/<target>/tune.json
 * The summarize, meta and isa models are handed to the caller at the end
 * (inputs_take_raw) when it keeps them for analysis/{summarize,meta,isa}.json.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/inputs.h"
#include "run/replay.h"
#include "rundir/index.h"
#include "rundir/layout.h"
#include "parse/summarize.h"
#include "json/jsonw.h"
#include "model/env.h"
#include "model/manifest.h"
#include "model/tune.h"
#include "util/file.h"
#include "json/jsonio.h"
#include "util/mem.h"
#include "util/plural.h"
#include "util/walk.h"
#include "banned.h"

char *inputs_path(const struct an_inputs *in, const char *rel)
{
	return path_join(in->run, rel);
}

/* Adds a note to the run's unless it is there already (several readers refuse the same part). */
static void note_once(struct an_inputs *in, const char *text)
{
	size_t i;

	for (i = 0; i < in->nnotes; i++)
		if (!strcmp(in->notes[i], text))
			return;
	an_add_str(&in->notes, &in->nnotes, text);
}

char *inputs_part(struct an_inputs *in, const char *rel)
{
	struct buf why = BUF_INIT;
	char *p = rd_inside(in->run, rel, &why);

	if (why.len)
		note_once(in, why.buf);
	buf_release(&why);
	return p;
}

char *inputs_relative(const struct an_inputs *in, const char *path)
{
	size_t n = strlen(in->run);

	while (n > 1 && in->run[n - 1] == '/')
		n--;
	if (!strncmp(path, in->run, n) && path[n] == '/')
		return xstrdup(path + n + 1);
	return xstrdup(path);
}

static void progress(const struct an_inputs *in, const char *step)
{
	if (in->opts->progress)
		in->opts->progress(in->opts->progress_data, step);
}

/* A JSON file that may be absent; present but broken is an error. */
static int load_optional(struct an_inputs *in, enum rd_part part, json_t **out,
			 struct buf *err)
{
	char *p = inputs_part(in, rd_parts[part].rel);
	int ret = 0;

	*out = NULL;
	if (p && is_file(p)) {
		*out = json_load_path(p, err);
		ret = *out ? 0 : -1;
	}
	free(p);
	return ret;
}

static void gather_summarize(struct an_inputs *in)
{
	struct buf err = BUF_INIT;
	const char *paths[] = { in->run };
	size_t i;

	progress(in, "reading logs, capture events and autotune records");
	in->have_at = summarize_paths(paths, 1, &in->at, &err) == 0;
	if (!in->have_at)
		an_add_str(&in->notes, &in->nnotes, err.buf);
	/* A hostile RUN can name thousands: the first twenty say what happened. */
	for (i = 0; i < in->at.nrefused && i < 20; i++)
		note_once(in, in->at.refused[i].text);
	if (in->at.nrefused > 20) {
		size_t n = in->at.nrefused - 20;
		char *more = xstrfmt("... and %zu more path%s that %s out of the RUN, not read",
				     n, plural((long long)n), plural_word((long long)n, "leads", "lead"));

		an_add_str(&in->notes, &in->nnotes, more);
		free(more);
	}
	for (i = 0; i < in->at.ninputs; i++)
		if (in->at.inputs[i].formats & (1u << AT_FMT_INDUCTOR_LOG))
			in->logs++;
	buf_release(&err);
}

/* The kernel.py of captured kernels that are not Inductor modules of this RUN's cache. */
static void gather_capture_sources(struct an_inputs *in)
{
	char *cache = xstrfmt("%s/", rd_parts[RD_INDUCTOR_CACHE].rel);
	size_t i;

	for (i = 0; i < in->at.nr; i++) {
		const struct at_kernel *k = in->at.kernels[i];
		struct buf err = BUF_INIT;
		char *rel, *p;

		if (!k->kernel_dir || (k->source_local && strstr(k->source_local, cache)))
			continue;
		rel = rd_kernel_path(k->kernel_dir, RD_K_KERNEL_PY);
		p = inputs_part(in, rel);
		if (p && is_file(p))
			meta_scan_file(&in->meta, p, &err);
		free(p);
		free(rel);
		buf_release(&err);
	}
	free(cache);
}

static void index_modules(struct an_inputs *in)
{
	size_t i;

	for (i = 0; i < in->meta.nfiles; i++) {
		const struct meta_file *f = &in->meta.files[i];
		char *key;
		void **slot;

		if (strcmp(f->role, "kernel"))
			continue;
		key = rd_module_key(f->path);
		slot = strmap_put_ptr(&in->module_files, key, strlen(key));
		if (!*slot)
			*slot = f->path;
		free(key);
	}
}

static void gather_meta(struct an_inputs *in, struct buf *err)
{
	char *cache = inputs_part(in, rd_parts[RD_INDUCTOR_CACHE].rel);

	progress(in, "reading kernel and wrapper modules");
	if (cache && is_dir(cache) && meta_scan_path(&in->meta, cache, err) < 0) {
		an_add_str(&in->notes, &in->nnotes, err->buf);
		buf_reset(err);
	}
	free(cache);
	gather_capture_sources(in);
	meta_link(&in->meta);
	index_modules(in);
}

/*
 * The files of a Triton cache entry worth scanning: its assembly text
 * (Triton names it <kernel>.ptx / .amdgcn; .s and .sass from other
 * tools), and with --isa-tools its binary too. Skipping the IR stages and
 * JSON files by name, instead of letting the scanner sniff each one,
 * halves the system time on a large cache; the scanner still reads each
 * file's <kernel>.json sibling for num_warps and shared memory.
 */
static int asm_file(const char *path, int tools)
{
	static const char *const text[] = { ".ptx", ".amdgcn", ".s", ".sass", NULL };
	static const char *const bin[] = { ".cubin", ".hsaco", NULL };
	const char *dot = strrchr(path_base(path), '.');
	size_t i;

	for (i = 0; dot && text[i]; i++)
		if (!strcmp(dot, text[i]))
			return 1;
	for (i = 0; dot && tools && bin[i]; i++)
		if (!strcmp(dot, bin[i]))
			return 1;
	return 0;
}

static void gather_isa(struct an_inputs *in)
{
	struct isa_options o = ISA_OPTIONS_INIT;
	char *cache = inputs_part(in, rd_parts[RD_TRITON_CACHE].rel);
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i;

	progress(in, "scanning the Triton cache's assembly");
	o.no_tools = !in->opts->isa_tools;
	if (cache && is_dir(cache) && rd_walk(in->run, cache, &files, &err) == 0) {
		for (i = 0; i < files.nr; i++) {
			if (!asm_file(files.v[i], in->opts->isa_tools))
				continue;
			if (isa_scan_path(files.v[i], &o, &in->isa, &err) < 0)
				buf_reset(&err);	/* a bad file in the cache is not the RUN's failure */
		}
	}
	walk_release(&files);
	if (in->opts->judge_isa)
		in->opts->judge_isa(&in->isa);
	tcache_build(&in->tc, &in->isa);
	free(cache);
	buf_release(&err);
}

static void gather_fx(struct an_inputs *in)
{
	size_t i;

	for (i = 0; i < in->at.ninputs; i++) {
		struct mapped_file m = MAPPED_FILE_INIT;
		struct buf err = BUF_INIT;

		if (!(in->at.inputs[i].formats & (1u << AT_FMT_INDUCTOR_LOG)))
			continue;
		if (file_map(in->at.inputs[i].path, 0, &m, &err) == 0) {
			fx_graphs_scan(&in->fx, m.data, m.len);
			file_unmap(&m);
		}
		buf_release(&err);
	}
}

static void add_tune(struct an_inputs *in, const char *path, json_t *doc)
{
	json_array_append_new(in->tunes, json_pack("{s:s, s:o}", "path", path, "doc", doc));
}

/* A tune document, checked; 0 or -1 + err. */
static int load_tune(struct an_inputs *in, const char *path, struct buf *err)
{
	json_t *doc = json_load_path(path, err);

	if (doc && tune_doc_check(doc, path, err) < 0) {
		json_decref(doc);
		doc = NULL;
	}
	if (!doc)
		return -1;
	add_tune(in, path, doc);
	return 0;
}

/* The kernel folder's tune documents (rundir/index.h: tune/<target>/tune.json, by target). */
static int gather_tunes_in(struct an_inputs *in, const char *kernel_dir, struct buf *err)
{
	struct strlist docs = STRLIST_INIT, refused = STRLIST_INIT;
	size_t i;
	int ret = 0;

	rd_kernel_tunes(in->run, kernel_dir, &docs, &refused);
	for (i = 0; i < refused.nr; i++)
		note_once(in, refused.v[i]);
	for (i = 0; i < docs.nr && ret == 0; i++)
		ret = load_tune(in, docs.v[i], err);
	walk_release(&docs);
	walk_release(&refused);
	return ret;
}

static int gather_tunes(struct an_inputs *in, struct buf *err)
{
	struct strmap seen = STRMAP_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < in->at.nr && ret == 0; i++) {
		const struct at_kernel *k = in->at.kernels[i];
		int added;

		if (!k->kernel_dir)
			continue;
		strmap_put(&seen, k->kernel_dir, strlen(k->kernel_dir), &added);
		if (!added)
			continue;
		ret = gather_tunes_in(in, k->kernel_dir, err);
	}
	strmap_release(&seen);
	if (ret < 0)
		return -1;
	for (i = 0; i < in->opts->ntunes; i++)
		if (load_tune(in, in->opts->tunes[i], err) < 0)
			return -1;
	return 0;
}

/* env.json, absent or read typed (model/env.h checks every field it knows). */
static int load_env(struct an_inputs *in, struct buf *err)
{
	json_t *j;
	char *p;
	int ret;

	if (load_optional(in, RD_ENV, &j, err) < 0)
		return -1;
	if (!j)
		return 0;
	in->env = xcalloc(1, sizeof(*in->env));
	env_doc_init(in->env);
	p = inputs_path(in, rd_parts[RD_ENV].rel);
	ret = env_doc_read(in->env, j, p, err);
	free(p);
	json_decref(j);
	return ret;
}

/* tko-run.json, absent or read typed (model/manifest.h checks every field it knows). */
static int load_manifest(struct an_inputs *in, struct buf *err)
{
	json_t *j;
	char *p;
	int ret;

	if (load_optional(in, RD_MANIFEST, &j, err) < 0)
		return -1;
	if (!j)
		return 0;
	in->manifest = xcalloc(1, sizeof(*in->manifest));
	manifest_init(in->manifest);
	p = inputs_path(in, rd_parts[RD_MANIFEST].rel);
	ret = manifest_read(in->manifest, j, p, err);
	free(p);
	json_decref(j);
	return ret;
}

/* --replay FILE or RUN/analysis/replay.json, absent or read typed (model/replay.h). */
static int load_replay(struct an_inputs *in, struct buf *err)
{
	json_t *j = NULL;
	int ret = -1;

	if (in->opts->replay) {
		if (!(j = json_load_path(in->opts->replay, err)))
			return -1;
		in->replay_path = xstrdup(in->opts->replay);
	} else {
		if (load_optional(in, RD_REPLAY_JSON, &j, err) < 0)
			return -1;
		if (!j)
			return 0;
		in->replay_path = inputs_path(in, rd_parts[RD_REPLAY_JSON].rel);
	}
	/* another tool's document is named as such, before its fields are */
	if (!json_is_array(json_object_get(j, "kernels"))) {
		buf_addf(err, "'%s' is not a `tko run` document (no \"kernels\" list)", in->replay_path);
	} else {
		in->replay_doc = xcalloc(1, sizeof(*in->replay_doc));
		replay_doc_init(in->replay_doc);
		ret = replay_doc_read(in->replay_doc, j, in->replay_path, err);
	}
	json_decref(j);
	return ret;
}

static int gather_json(struct an_inputs *in, struct buf *err)
{
	if (load_env(in, err) < 0 || load_manifest(in, err) < 0 || load_replay(in, err) < 0)
		return -1;
	return gather_tunes(in, err);
}

void an_raw_init(struct an_raw *raw)
{
	autotune_set_init(&raw->at);
	raw->meta = (struct meta_set)META_SET_INIT;
	raw->isa = (struct isa_result)ISA_RESULT_INIT;
}

void an_raw_release(struct an_raw *raw)
{
	autotune_set_release(&raw->at);
	meta_set_release(&raw->meta);
	isa_result_release(&raw->isa);
	an_raw_init(raw);
}

void inputs_take_raw(struct an_inputs *in, struct an_raw *raw)
{
	an_raw_release(raw);
	raw->at = in->at;
	raw->meta = in->meta;
	raw->isa = in->isa;
	autotune_set_init(&in->at);
	in->meta = (struct meta_set)META_SET_INIT;
	in->isa = (struct isa_result)ISA_RESULT_INIT;
}

int inputs_gather(struct an_inputs *in, const char *run, const struct an_opts *o,
		  struct buf *err)
{
	memset(in, 0, sizeof(*in));
	in->run = run;
	in->opts = o;
	autotune_set_init(&in->at);
	in->meta = (struct meta_set)META_SET_INIT;
	in->tunes = json_array();
	if (rd_open(&in->rd, run, o->need ? o->need : &rd_need_analyse, err) < 0)
		return -1;
	gather_summarize(in);
	if (gather_json(in, err) < 0)
		return -1;
	gather_meta(in, err);
	gather_isa(in);
	gather_fx(in);
	return 0;
}

void inputs_release(struct an_inputs *in)
{
	rd_release(&in->rd);
	autotune_set_release(&in->at);
	meta_set_release(&in->meta);
	isa_result_release(&in->isa);
	tcache_release(&in->tc);
	fx_graphs_release(&in->fx);
	if (in->env)
		env_doc_release(in->env);
	free(in->env);
	if (in->manifest)
		manifest_release(in->manifest);
	free(in->manifest);
	replay_doc_free(in->replay_doc);
	json_decref(in->tunes);
	free(in->replay_path);
	strmap_release(&in->module_files);
	strmap_release(&in->at_by_module);
	strmap_release(&in->at_by_dir);
	strmap_release(&in->used_at);
	for (size_t i = 0; i < in->nnotes; i++)
		free(in->notes[i]);
	free(in->notes);
	for (size_t i = 0; i < in->nrefs; i++)
		free(in->refs[i].zero_consumer);
	free(in->refs);
}
