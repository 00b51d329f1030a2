/*
 * The plain artifact (artifact.h).
 */
#include <stdlib.h>
#include <string.h>

#include "apply/artifact.h"
#include "json/jsonio.h"
#include "py/pyenv.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

/* Why `cfg` cannot go to `table` on `backend`, or NULL (lookup.py dropped_keys). */
static const char *cannot_carry(const json_t *cfg, const char *table, const char *backend)
{
	const json_t *v;
	const char *key;
	int hip = !strcmp(backend, "hip");

	if (json_int(cfg, "num_ctas", 1) != 1 || json_int(cfg, "maxnreg", 0) > 0)
		return "num_ctas or maxnreg";
	json_object_foreach(json_object_get(cfg, "options"), key, v) {
		if (json_is_null(v))
			continue;
		if (!strcmp(table, "lookup") || !hip)
			return "launch options";
		if (strcmp(key, "waves_per_eu") && strcmp(key, "matrix_instr_nonkdim"))
			return key;
	}
	json_object_foreach(json_object_get(cfg, "kwargs"), key, v) {
		if (!strcmp(table, "lookup") && !strstr(key, "BLOCK"))
			return key;
		if (hip && !strcmp(key, "kpack"))
			return key;
	}
	return NULL;
}

static json_t *lookup_entry(const json_t *cfg)
{
	json_t *e = json_deep_copy(json_object_get(cfg, "kwargs"));

	json_object_set(e, "num_warps", json_object_get(cfg, "num_warps"));
	json_object_set(e, "num_stages", json_object_get(cfg, "num_stages"));
	return e;
}

static json_t *config_entry(const json_t *cfg, const char *backend)
{
	json_t *kw = json_deep_copy(json_object_get(cfg, "kwargs")), *v;
	const char *key;

	if (!strcmp(backend, "hip"))
		json_object_foreach(json_object_get(cfg, "options"), key, v)
			if (!json_is_null(v))
				json_object_set(kw, key, v);
	return json_pack("{s:o, s:O, s:O}", "kwargs", kw, "num_warps", json_object_get(cfg, "num_warps"),
			 "num_stages", json_object_get(cfg, "num_stages"));
}

static void place(json_t *doc, const struct apply_item *it, const char *backend)
{
	const struct apply_plan_kernel *e = it->entry;
	const json_t *cfg = e->config;
	const char *launcher = apply_plan_kernel_launcher(e) ? apply_plan_kernel_launcher(e) : "inductor";
	const char *key = e->lookup_hash, *why = NULL;

	if (e->source.path)
		why = "a source variant (the artifact carries configs only)";
	else if (!strcmp(launcher, "triton"))
		json_array_append_new(json_object_get(doc, "triton_autotune"),
				      json_pack("{s:s, s:s?, s:O}", "kernel", it->kernel, "source_hash",
						e->source_hash, "config", cfg));
	else if (!strcmp(launcher, "inductor") && e->fused == 1 &&
		 !cannot_carry(cfg, "lookup", backend))
		json_object_set_new(json_object_get(doc, "autotune_lookup_table"), key, lookup_entry(cfg));
	else if (!(why = cannot_carry(cfg, "configs", backend)))
		json_object_set_new(json_object_get(doc, "configs"), key, config_entry(cfg, backend));
	if (why)
		json_array_append_new(json_object_get(doc, "not_carried"),
				      json_pack("{s:s, s:s, s:s}", "id", it->id, "kernel", it->kernel,
						"reason", why));
}

static int is_left_out(const json_t *left_out, const char *id)
{
	const json_t *e;
	size_t i;

	json_array_foreach(left_out, i, e)
		if (json_str(e, "id") && !strcmp(json_str(e, "id"), id))
			return 1;
	return 0;
}

json_t *apply_artifact_json(const struct apply_plan *p, const json_t *left_out)
{
	const json_t *v = p->versions;
	json_t *doc = json_pack("{s:i, s:O?, s:O?, s:o, s:{}, s:{}, s:{}, s:{}, s:[], s:[]}",
				"schema_version", 1, "torch", json_object_get(v, "torch"),
				"triton", json_object_get(v, "triton"), "left_out",
				left_out ? json_deep_copy(left_out) : json_array(), "inductor_settings",
				"autotune_lookup_table",
				"template_lookup_table", "configs", "triton_autotune", "not_carried");
	json_t *settings = json_object();
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (!p->v[i].entry || is_left_out(left_out, p->v[i].id))
			continue;
		place(doc, &p->v[i], p->backend);
		/* the winners carried need these; a dropped winner's own settings go with it */
		json_object_update(settings, p->v[i].entry->inductor_settings);
	}
	json_set_new(doc, "inductor_settings", settings);
	return doc;
}

/* One comment line a winner left out, above the loader's docstring (comments are no statement). */
static void left_out_header(FILE *fp, const json_t *left_out)
{
	const json_t *e;
	size_t i;

	if (!json_array_size(left_out))
		return;
	fprintf(fp, "# tko apply left these winners out of tko_winners.json (\"left_out\" there):\n");
	json_array_foreach(left_out, i, e)
		fprintf(fp, "#   %s (%s): %s: %s\n", json_str(e, "kernel"), json_str(e, "id"),
			json_str(e, "reason"), json_str(e, "detail") ? json_str(e, "detail") : "");
}

static int copy_into(struct atomic_set *set, const char *pkg, const char *from, const char *dir,
		     const char *to, const json_t *left_out, struct buf *err)
{
	char *src = xstrfmt("%s/tko/%s", pkg, from), *dst = path_join(dir, to);
	struct buf text = BUF_INIT;
	FILE *fp = NULL;
	int ret = -1;

	if (file_read(src, 0, &text, err) == 0 && (fp = atomic_set_open(set, dst, err))) {
		left_out_header(fp, left_out);
		fwrite(text.buf, 1, text.len, fp);
		ret = 0;
	}
	buf_release(&text);
	free(src);
	free(dst);
	return ret;
}

int apply_artifact_write(const struct apply_plan *p, const json_t *left_out, const char *dir,
			 struct buf *err)
{
	struct atomic_set set = ATOMIC_SET_INIT;
	char *pkg = NULL, *json = path_join(dir, "tko_winners.json");
	json_t *doc = apply_artifact_json(p, left_out);
	FILE *fp;
	int ret = -1;

	if (mkdir_p(dir, err) < 0 || !(pkg = pyenv_package_dir(err)))
		goto done;
	if (!(fp = atomic_set_open(&set, json, err)) || json_write_fp(doc, fp) < 0 ||
	    copy_into(&set, pkg, "winners_loader.py", dir, "tko_winners.py", left_out, err) < 0 ||
	    copy_into(&set, pkg, "winners_sitecustomize.py", dir, "sitecustomize.py", NULL, err) < 0 ||
	    atomic_set_commit(&set, err) < 0) {
		atomic_set_abort(&set);
		goto done;
	}
	ret = 0;
done:
	json_decref(doc);
	free(json);
	free(pkg);
	return ret;
}
