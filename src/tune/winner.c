/*
 * The winner's files and what applying a variant needs (see winner.h).
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/rewrite.h"
#include "tune/winner.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

void tune_src_fill(unsigned src, char ***v, size_t *nr)
{
	struct buf b = BUF_INIT;
	const char *p;

	tune_src_names(src, &b);
	for (p = b.buf; *p;) {
		size_t n = strcspn(p, "+");

		*v = rf_grow(*v, *nr, sizeof(**v));
		(*v)[(*nr)++] = xstrndup(p, n);
		p += n + (p[n] == '+');
	}
	buf_release(&b);
}

void tune_env_fill(unsigned src, struct rf_pair **v, size_t *nr)
{
	const char *const *e = tune_sweep_env(src);

	for (; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		*v = rf_grow(*v, *nr, sizeof(**v));
		(*v)[*nr].key = xstrndup(*e, (size_t)(eq - *e));
		(*v)[(*nr)++].value = xstrdup(eq + 1);
	}
}

int tune_winner_split(const struct tune_sweep *s, long variant)
{
	int i = tune_space_find(&s->plan.space, "RSPLIT_SIZE");

	if (i < 0 || s->ws.arg < 0 || s->plan.base < 0 || variant < 0 ||
	    s->plan.v[variant].cfg.v[i] == s->plan.v[s->plan.base].cfg.v[i])
		return 0;
	return s->plan.v[variant].cfg.v[i];
}

int tune_winner_two_pass(const struct tune_sweep *s, long variant)
{
	return variant >= 0 && (s->plan.v[variant].src & TUNE_SRC_TWO_PASS);
}

json_t *tune_winner_settings(const struct tune_sweep *s, long variant)
{
	int split = tune_winner_split(s, variant);
	json_t *j = json_object();

	if (split)
		json_set_new(j, "triton.mix_order_reduction_split_size", json_integer(split));
	if (tune_winner_two_pass(s, variant))
		json_set_new(j, "online_softmax", json_false());
	if (!json_object_size(j)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* triton.Config({'XBLOCK': 2048}, num_warps=8, num_stages=1) */
static char *triton_config(const json_t *cfg)
{
	struct buf b = BUF_INIT;
	const char *key;
	json_t *v;
	int first = 1;

	buf_adds(&b, "triton.Config({");
	json_object_foreach(json_object_get(cfg, "kwargs"), key, v) {
		buf_addf(&b, "%s'%s': %lld", first ? "" : ", ", key,
			 (long long)json_integer_value(v));
		first = 0;
	}
	buf_addf(&b, "}, num_warps=%lld, num_stages=%lld",
		 (long long)json_integer_value(json_object_get(cfg, "num_warps")),
		 (long long)json_integer_value(json_object_get(cfg, "num_stages")));
	json_object_foreach(json_object_get(cfg, "options"), key, v) {
		if (json_is_integer(v))
			buf_addf(&b, ", %s=%lld", key, (long long)json_integer_value(v));
		else if (json_is_string(v))
			buf_addf(&b, ", %s='%s'", key, json_string_value(v));
	}
	buf_addch(&b, ')');
	return buf_detach(&b, NULL);
}

static int write_patch(struct tune_sweep *s, const struct tune_variant *v, const char *dir,
		       struct buf *err)
{
	struct rewrite r = REWRITE_INIT;
	struct buf diff = BUF_INIT, why = BUF_INIT;
	char *path = path_join(dir, "source.patch");
	int ret = 0;

	if (tune_sweep_edits(s, v, &r, &why) == 0)
		rewrite_diff(s->text.buf, s->text.len, &r, path_base(s->source), &diff);
	if (diff.len)
		ret = write_file_atomic(path, diff.buf, diff.len, err);
	rewrite_release(&r);
	buf_release(&diff);
	buf_release(&why);
	free(path);
	return ret;
}

/* config.json: the variant's config and environment, the rest as tune.json's winner w has it. */
static void file_fill(const struct tune_sweep *s, const struct tune_variant *v,
		      const struct tune_doc_winner *w, struct tune_winner_file *f)
{
	f->kernel = xstrdup(s->k.name);
	f->label = xstrdup(v->label);
	f->config = tune_config_to_json(&s->plan.space, &v->cfg);
	tune_env_fill(v->src, &f->env, &f->nenv);
	f->triton_config = triton_config(f->config);
	tune_src_fill(v->src, &f->source_variants, &f->nsource_variants);
	f->inductor_settings = json_incref(w->inductor_settings);
	f->confirmed = w->confirmed;
	f->ci95 = json_incref(w->ci95);
	f->confirmation = w->has_confirmation ? rf_to_json(&tune_doc_confirm_desc, &w->confirmation) :
			  NULL;
}

int tune_winner_write(struct tune_sweep *s, const struct tune_doc_winner *w, struct buf *err)
{
	struct tune_winner_file f;
	struct buf text = BUF_INIT;
	char *dir, *path;
	int ret;

	if (s->winner < 0)
		return 0;
	rf_init(&tune_winner_file_desc, &f);
	file_fill(s, &s->plan.v[s->winner], w, &f);
	dir = path_join(s->out_dir, "winner");
	path = path_join(dir, "kernel.py");
	ret = mkdir_p(dir, err);
	if (!ret)
		ret = file_read(s->res.r[s->winner].source, 0, &text, err);
	if (!ret)
		ret = write_file_atomic(path, text.buf, text.len, err);
	if (!ret)
		ret = write_patch(s, &s->plan.v[s->winner], dir, err);
	free(path);
	path = path_join(dir, "config.json");
	if (!ret)
		ret = tune_winner_file_save(path, &f, err);
	rf_release(&tune_winner_file_desc, &f);
	buf_release(&text);
	free(dir);
	free(path);
	return ret;
}
