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

/* A template winner's entry under its lookup key, as Inductor's table lists them. */
static void add_template(struct apply_artifact_doc *doc, const json_t *t)
{
	const char *key = json_string_value(json_object_get(t, "lookup_key"));
	json_t *list = json_object_get(doc->template_lookup_table, key);
	json_t *entry = json_deep_copy(json_object_get(t, "params"));

	json_object_set(entry, "template_id", json_object_get(t, "template_id"));
	if (!list) {
		list = json_array();
		json_object_set_new(doc->template_lookup_table, key, list);
	}
	json_array_append_new(list, entry);
}

static void place(struct apply_artifact_doc *doc, const struct apply_item *it, const char *backend)
{
	const struct apply_plan_kernel *e = it->entry;
	const json_t *cfg = e->config;
	const char *launcher = apply_plan_kernel_launcher(e) ? apply_plan_kernel_launcher(e) : "inductor";
	const char *key = e->lookup_hash, *why = NULL;

	if (e->source.path)
		why = "a source variant (the artifact carries configs only)";
	else if (!strcmp(launcher, "template") && e->template)
		add_template(doc, e->template);
	else if (!strcmp(launcher, "triton"))
		apply_artifact_add_triton(doc, it->kernel, e->source_hash, e->config);
	else if (!strcmp(launcher, "inductor") && e->fused == 1 && !cannot_carry(cfg, "lookup", backend))
		json_object_set_new(doc->autotune_lookup_table, key, lookup_entry(cfg));
	else if (!(why = cannot_carry(cfg, "configs", backend)))
		json_object_set_new(doc->configs, key, config_entry(cfg, backend));
	if (why)
		apply_artifact_add_not_carried(doc, it->id, it->kernel, why);
}

void apply_artifact_build(const struct apply_plan *p, const struct apply_left_outs *left_out,
			  struct apply_artifact_doc *doc)
{
	size_t i;

	apply_artifact_doc_init(doc);
	doc->torch = p->versions.torch ? xstrdup(p->versions.torch) : NULL;
	doc->triton = p->versions.triton ? xstrdup(p->versions.triton) : NULL;
	for (i = 0; left_out && i < left_out->nr; i++) {
		const struct apply_left_out *e = &left_out->v[i];

		apply_left_outs_add(&doc->left_out, e->id, e->kernel, e->reason, e->detail, e->of);
	}
	for (i = 0; i < p->nr; i++) {
		if (!p->v[i].entry || apply_left_outs_find(left_out, p->v[i].id))
			continue;
		place(doc, &p->v[i], p->backend);
		/* the winners carried need these; a dropped winner's own settings go with it */
		json_object_update(doc->inductor_settings, p->v[i].entry->inductor_settings);
	}
}

/* One comment line a winner left out, above the loader's docstring (comments are no statement). */
static void left_out_header(FILE *fp, const struct apply_left_outs *left_out)
{
	size_t i;

	if (!left_out || !left_out->nr)
		return;
	fprintf(fp, "# tko apply left these winners out of tko_winners.json (\"left_out\" there):\n");
	for (i = 0; i < left_out->nr; i++) {
		const struct apply_left_out *e = &left_out->v[i];

		fprintf(fp, "#   %s (%s): %s: %s\n", e->kernel, e->id, e->reason,
			e->detail ? e->detail : "");
	}
}

static int copy_into(struct atomic_set *set, const char *pkg, const char *from, const char *dir,
		     const char *to, const struct apply_left_outs *left_out, struct buf *err)
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

int apply_artifact_write(const struct apply_plan *p, const struct apply_left_outs *left_out,
			 const char *dir, struct buf *err)
{
	struct atomic_set set = ATOMIC_SET_INIT;
	char *pkg = NULL, *json = path_join(dir, "tko_winners.json");
	struct apply_artifact_doc doc;
	FILE *fp;
	int ret = -1;

	apply_artifact_build(p, left_out, &doc);
	if (mkdir_p(dir, err) < 0 || !(pkg = pyenv_package_dir(err)))
		goto done;
	if (!(fp = atomic_set_open(&set, json, err)) || apply_artifact_doc_write(fp, &doc) < 0 ||
	    copy_into(&set, pkg, "winners_loader.py", dir, "tko_winners.py", left_out, err) < 0 ||
	    copy_into(&set, pkg, "winners_sitecustomize.py", dir, "sitecustomize.py", NULL, err) < 0 ||
	    atomic_set_commit(&set, err) < 0) {
		atomic_set_abort(&set);
		goto done;
	}
	ret = 0;
done:
	apply_artifact_doc_release(&doc);
	free(json);
	free(pkg);
	return ret;
}
