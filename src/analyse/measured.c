/*
 * The measured side of a kernel (evidence.h): `tko run`'s replay times
 * (analysis/replay.json, matched by capture directory), `tko tune`'s
 * winner (tune.json), and, for an Inductor template whose own config was
 * never timed, the max-autotune table row it was chosen from: the choice
 * whose block sizes (inductor_meta config_args) and num_warps/num_stages
 * (the @triton_heuristics.template decorator) are the template's, in a
 * table for one of its ATen ops (examples/h200-run: triton_tem_fused_mm_relu_0
 * is max-autotune's triton_mm_8 for mm(2048x2048, 2048x2048)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/evidence.h"
#include "model/names.h"
#include "model/replay.h"
#include "parse/config_json.h"
#include "rundir/index.h"
#include "model/tune.h"
#include "model/errsig.h"
#include "util/file.h"
#include "json/jsonio.h"
#include "util/mem.h"
#include "banned.h"

/* The kernel's entry of analysis/replay.json: filed under its capture folder (rundir/index.h). */
static const struct replay_kernel *replay_kernel(const struct an_inputs *in, const char *kernel_dir)
{
	const char *want = rd_replay_key(kernel_dir);
	size_t i;

	for (i = 0; i < in->replay_doc->nkernels; i++) {
		const char *d = in->replay_doc->kernels[i].kernel_dir;

		if (d && !strcmp(rd_replay_key(d), want))
			return &in->replay_doc->kernels[i];
	}
	return NULL;
}

static void replay_config(struct an_kernel *k, const struct replay_config *rc)
{
	struct at_src none = { 0, 0, AT_FMT_NONE };
	struct at_config c;
	struct an_config *ac = NULL;
	int captured = replay_true(rc->captured);
	char *text;
	size_t i;

	if (!json_is_object(rc->config) || isnan(rc->time_ms))
		return;
	at_config_init(&c, none);
	at_config_from_json(&c, json_object_get(rc->config, "kwargs"), NULL, rc->config);
	text = ev_config_text(&c);
	/* the captured config is the one the model ran, whatever the autotuner called it */
	for (i = 0; captured && i < k->nconfigs && !ac; i++)
		if (k->configs[i].chosen)
			ac = &k->configs[i];
	for (i = 0; i < k->nconfigs && !ac; i++)
		if (!strcmp(k->configs[i].text, text))
			ac = &k->configs[i];
	if (!ac)
		ac = ev_add_config(k, &c, AT_REPLAY, captured && !k->best);
	ac->replay_ms = rc->time_ms;
	if (captured && !k->best) {
		ac->chosen = 1;
		k->best = xstrdup(text);
	}
	free(text);
	at_config_release(&c);
}

static void from_replay(const struct an_inputs *in, struct an_kernel *k)
{
	const struct replay_kernel *rk;
	size_t i;

	if (!in->replay_doc || !k->kernel_dir || !(rk = replay_kernel(in, k->kernel_dir)))
		return;
	if (rk->error) {
		char *what = xstrfmt("the replay failed: %s", rk->error);
		char *kdir = xstrfmt("%s/%s", in->run, k->kernel_dir);
		struct buf b = BUF_INIT;
		char *cmd;

		buf_adds(&b, "tko run ");
		buf_add_shell_word(&b, kdir);
		cmd = buf_detach(&b, NULL);
		free(kdir);

		an_add_gap(&k->gaps, &k->ngaps, what, cmd);
		free(what);
		free(cmd);
		return;
	}
	for (i = 0; i < rk->nconfigs; i++)
		replay_config(k, &rk->configs[i]);
}

/* The tune document's kernel for this kernel (rd_tune_matches: by capture folder, else module). */
static const json_t *tune_kernel(const json_t *entry, const struct an_kernel *k)
{
	const char *path = json_str(entry, "path");
	const json_t *tk;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(entry, "doc"), "kernels"), i, tk)
		if (rd_tune_matches(path, json_str(tk, "kernel"), json_str(tk, "source"), k->name,
				    k->kernel_dir, k->module))
			return tk;
	return NULL;
}

/* A variant that failed with a signature tko knows (model/errsig.h). */
static void known_failure(struct an_kernel *k, const struct tune_doc_variant *v)
{
	const struct errsig *sig = errsig_find(v->error, v->traceback);
	const char *bufops = tune_doc_env(v, "AMDGCN_USE_BUFFER_OPS");

	if (!sig)
		return;
	if (bufops && !strcmp(bufops, "1"))
		k->tune.buffer_ops_failed = 1;
	if (!k->tune.failure)
		k->tune.failure = xstrfmt("%s: %s", v->label ? v->label : "a variant", sig->why);
}

/*
 * What tune measured of the two rules issue 17 found contradicted: the
 * two-pass softmax's best correct speedup, and whether the hints variants
 * compiled to the same ISA as a variant without hints (same_as).
 */
static void measured_knobs(struct an_kernel *k, const struct tune_doc_kernel *tk)
{
	const struct tune_doc_variant *v, *twin;
	size_t i, hops;

	k->tune.twopass_speedup = NAN;
	k->tune.hints_variants = k->tune.hints_same_isa = 0;
	for (i = 0; i < tk->nvariants; i++) {
		v = &tk->variants[i];
		if (tune_doc_made_with(v, "twopass") && v->status == TUNE_ST_OK &&
		    !isnan(v->speedup) &&
		    (isnan(k->tune.twopass_speedup) || v->speedup > k->tune.twopass_speedup))
			k->tune.twopass_speedup = v->speedup;
		if (!tune_doc_made_with(v, "hints"))
			continue;
		k->tune.hints_variants++;
		/* same_as may name another hints variant: follow it to one without */
		twin = tune_doc_variant(tk, v->same_as);
		for (hops = 0; twin && tune_doc_made_with(twin, "hints") && hops < 64; hops++)
			twin = tune_doc_variant(tk, twin->same_as);
		if (twin && !tune_doc_made_with(twin, "hints"))
			k->tune.hints_same_isa++;
	}
}

/* The winner's Inductor settings: a mix-order split size, the online softmax off. */
static void winner_settings(struct an_kernel *k, const json_t *set)
{
	k->tune.split_size = json_int(set, "triton.mix_order_reduction_split_size", -1);
	k->tune.online_softmax_off = json_is_false(json_object_get(set, "online_softmax"));
}

static void from_tune(const struct an_inputs *in, struct an_kernel *k)
{
	const json_t *e, *j = NULL;
	struct tune_doc_kernel tk;
	struct buf err = BUF_INIT;
	size_t i;

	json_array_foreach(in->tunes, i, e)
		if ((j = tune_kernel(e, k)))
			break;
	rf_init(&tune_doc_kernel_desc, &tk);
	/* gather checked the document (tune_doc_check); a status tko does not know ends here */
	if (!j || rf_read(&tune_doc_kernel_desc, &tk, j, json_str(e, "path"), &err) < 0)
		goto out;
	k->tune.file = inputs_relative(in, json_str(e, "path"));
	k->tune.mode = name_index(tune_mode_names, json_str(json_object_get(e, "doc"), "mode"));
	k->tune.target = tk.target ? xstrdup(tk.target) : NULL;
	k->tune.winner = tk.winner.label ? xstrdup(tk.winner.label) : NULL;
	k->tune.time_ms = tk.winner.time_ms;
	k->tune.speedup = tk.winner.speedup;
	k->tune.winner_is_base = tk.has_winner && tk.winner.is_base;
	k->tune.wall_s = tk.wall_s;
	winner_settings(k, tk.winner.inductor_settings);
	k->tune.variants = (long)tk.nvariants;
	k->tune.correct = 0;
	for (i = 0; i < tk.nvariants; i++) {
		if (tk.variants[i].status == TUNE_ST_OK)
			k->tune.correct++;
		known_failure(k, &tk.variants[i]);
	}
	measured_knobs(k, &tk);
out:
	rf_release(&tune_doc_kernel_desc, &tk);
	buf_release(&err);
}

/* A Python value's text as the logs print it ('tl.float32', True, 64). */
static char *py_text(const struct pylit *v)
{
	long long i;

	if (v->kind == PYLIT_STR)
		return xstrfmt("'%s'", v->s);
	if (v->kind == PYLIT_BOOL)
		return xstrdup(v->i ? "True" : "False");
	if (pylit_int(v, &i) == 0)
		return xstrfmt("%lld", i);
	return NULL;
}

static long decorator_long(const struct meta_kernel *mk, const char *name)
{
	long long v;

	return pylit_int(pylit_kwarg(mk->heuristic, name), &v) == 0 ? (long)v : -1;
}

static const char *kwarg_value(const struct at_config *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nkw; i++)
		if (!strcmp(c->kw[i].name, name))
			return c->kw[i].value;
	return NULL;
}

/* Whether choice c has the template's num_warps, num_stages and every config_args value. */
static int choice_matches(const struct meta_kernel *mk, const struct at_config *c)
{
	const struct pylit *args = pylit_get(mk->inductor_meta, "config_args");
	size_t i;

	if (!args || args->kind != PYLIT_DICT || c->num_warps != decorator_long(mk, "num_warps") ||
	    c->num_stages != decorator_long(mk, "num_stages"))
		return 0;
	for (i = 0; i < args->n; i++) {
		const char *key = pylit_str(args->keys[i]), *have;
		char *want = py_text(args->items[i]);
		int same;

		if (!key || !want) {
			free(want);
			return 0;
		}
		have = kwarg_value(c, key);
		same = have && !strcmp(have, want);
		free(want);
		if (!same)
			return 0;
	}
	return 1;
}

/* "mm(2048x2048, 2048x2048)" is for aten.mm; a kernel without ATen ops matches any table. */
static int table_for(const struct an_kernel *k, const char *table)
{
	size_t n = strcspn(table, "("), i;

	for (i = 0; i < k->naten; i++) {
		const char *op = k->aten[i];

		if (!strncmp(op, "aten.", 5) && strlen(op + 5) == n && !strncmp(op + 5, table, n))
			return 1;
	}
	return !k->naten;
}

static int chosen_timed(const struct an_kernel *k)
{
	const struct an_config *c = an_kernel_chosen(k);

	return c && (!isnan(c->time_ms) || !isnan(c->replay_ms));
}

/*
 * Drops the untimed configs the template was declared or compiled with
 * (the same config the table timed), keeping what they knew of its
 * resources for the table's row.
 */
static void drop_untimed(struct an_kernel *k, struct an_config *keep)
{
	size_t i, n = 0;

	for (i = 0; i < k->nconfigs; i++) {
		struct an_config *c = &k->configs[i];

		if (c->method == AT_MAX_AUTOTUNE || !isnan(c->time_ms)) {
			k->configs[n++] = *c;
			continue;
		}
		if (c->chosen) {
			keep->n_regs = c->n_regs;
			keep->n_spills = c->n_spills;
			keep->shared_bytes = c->shared_bytes;
		}
		rf_release(&an_config_desc, c);
	}
	k->nconfigs = n;
}

static void from_max_autotune(const struct an_inputs *in, struct an_kernel *k,
			      const struct meta_kernel *mk)
{
	size_t i, j, c;

	if (!mk || !mk->heuristic || k->kind != KIND_TEMPLATE || chosen_timed(k))
		return;
	for (i = 0; i < in->at.nr; i++) {
		const struct at_kernel *op = in->at.kernels[i];

		if (kind_from_name(op->kind) != KIND_MAX_AUTOTUNE || !table_for(k, op->name))
			continue;
		for (j = 0; j < op->ntunings; j++) {
			const struct at_tuning *t = op->tunings[j];

			for (c = 0; c < t->nr && !choice_matches(mk, &t->configs[c]); c++)
				;
			if (c == t->nr)
				continue;
			for (c = 0; c < t->nr; c++) {
				int chosen = choice_matches(mk, &t->configs[c]);
				struct an_config keep;

				ev_add_config(k, &t->configs[c], AT_MAX_AUTOTUNE, chosen);
				if (!chosen)
					continue;
				free(k->best);
				k->best = ev_config_text(&t->configs[c]);
				rf_init(&an_config_desc, &keep);
				drop_untimed(k, &keep);
				for (size_t x = 0; x < k->nconfigs; x++)
					if (k->configs[x].chosen && keep.n_regs >= 0) {
						k->configs[x].n_regs = keep.n_regs;
						k->configs[x].n_spills = keep.n_spills;
						k->configs[x].shared_bytes = keep.shared_bytes;
					}
			}
			k->chosen_by = AT_MAX_AUTOTUNE;
			/* share.c turns this into the time note when this time is used */
			free(k->time_note);
			k->time_note = xstrdup(op->name);
			return;
		}
	}
}

void measured_fill(struct an_inputs *in, struct an_kernel *k, const struct join_ref *ref,
		   const struct an_run *run)
{
	(void)run;
	from_max_autotune(in, k, ref->mk);
	from_replay(in, k);
	from_tune(in, k);
}
