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

json_t *tune_src_json(unsigned src)
{
	struct buf b = BUF_INIT;
	json_t *list = json_array();
	const char *p;

	tune_src_names(src, &b);
	for (p = b.buf; *p;) {
		size_t n = strcspn(p, "+");

		json_array_append_new(list, json_stringn(p, n));
		p += n + (p[n] == '+');
	}
	buf_release(&b);
	return list;
}

json_t *tune_env_json(unsigned src)
{
	const char *const *e = tune_sweep_env(src);
	json_t *j = json_object();

	for (; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char *name = xstrndup(*e, (size_t)(eq - *e));

		json_set_str(j, name, eq + 1);
		free(name);
	}
	return j;
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

json_t *tune_winner_settings(const struct tune_sweep *s)
{
	int split = tune_winner_split(s, s->winner);
	json_t *j = json_object();

	if (split)
		json_set_new(j, "triton.mix_order_reduction_split_size", json_integer(split));
	if (tune_winner_two_pass(s, s->winner))
		json_set_new(j, "online_softmax", json_false());
	if (!json_object_size(j)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

void tune_winner_confirmed(const struct tune_sweep *s, json_t *j)
{
	const struct tune_ci *ci = tune_confirm_winner_ci(s);

	json_set_bool(j, "confirmed", ci != NULL);
	json_set_new(j, "ci95", ci ? json_pack("[f, f]", ci->lo, ci->hi) : NULL);
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

static int write_json(const char *dir, const char *name, json_t *j, struct buf *err)
{
	char *path = path_join(dir, name);
	int ret = json_write_path(j, path, err);

	free(path);
	return ret;
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

int tune_winner_write(struct tune_sweep *s, struct buf *err)
{
	const struct tune_variant *v;
	struct buf text = BUF_INIT;
	char *dir, *path, *tc;
	json_t *cfg, *j;
	int ret;

	if (s->winner < 0)
		return 0;
	v = &s->plan.v[s->winner];
	dir = path_join(s->out_dir, "winner");
	path = path_join(dir, "kernel.py");
	cfg = tune_config_to_json(&s->plan.space, &v->cfg);
	j = json_pack("{s:i, s:s, s:s, s:s, s:O}", "schema_version", 1, "tool", "tko tune",
		      "kernel", s->k.name, "label", v->label, "config", cfg);
	json_set_new(j, "env", tune_env_json(v->src));
	tc = triton_config(cfg);
	json_set_str(j, "triton_config", tc);
	free(tc);
	json_set_new(j, "source_variants", tune_src_json(v->src));
	json_set_new(j, "inductor_settings", tune_winner_settings(s));
	tune_winner_confirmed(s, j);
	json_set_new(j, "confirmation", tune_confirm_json(s));
	ret = mkdir_p(dir, err);
	if (!ret)
		ret = file_read(s->res.r[s->winner].source, 0, &text, err);
	if (!ret)
		ret = write_file_atomic(path, text.buf, text.len, err);
	if (!ret)
		ret = write_patch(s, v, dir, err);
	if (!ret)
		ret = write_json(dir, "config.json", j, err);
	json_decref(cfg);
	json_decref(j);
	buf_release(&text);
	free(dir);
	free(path);
	return ret;
}
