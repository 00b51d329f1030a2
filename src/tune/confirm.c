/*
 * A sweep winner's confirmation (see confirm.h): who is timed, the rounds
 * asked of the worker, the intervals and the decision.
 */
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/confirm.h"
#include "tune/sweep.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/plural.h"
#include "banned.h"

/* The fastest usable variant without source variants, other than the base and cand. */
static long best_config_only(const struct tune_sweep *s, long cand)
{
	long best = -1;
	size_t i;

	for (i = 0; i < s->plan.nr && i < s->res.nr; i++) {
		if ((long)i == s->plan.base || (long)i == cand || s->plan.v[i].src ||
		    !tune_result_usable(&s->res.r[i]))
			continue;
		if (best < 0 || s->res.r[i].time_ms < s->res.r[best].time_ms)
			best = (long)i;
	}
	return best;
}

/*
 * A source-patch candidate's own config without its source variants, timed
 * now through the sweep's path (checked against the base) when the sweep
 * did not: the search moves from the best so far, source flags and all, so
 * the config a patch rides on may never have been timed alone.
 */
static void time_config_only(struct tune_sweep *s, long cand)
{
	long i = tune_plan_config_only(&s->plan, (size_t)cand);
	struct tune_result *r;

	if (i < 0 || s->plan.v[i].done)
		return;
	msg_progress_as("tune", "%s: timing v%03ld (%s) for the confirmation", s->k.name, i,
			s->plan.v[i].label);
	tune_variant_run(s, &s->plan.v[i]);
	r = tune_results_at(&s->res, (size_t)i);
	/* after the plan: its budget has nothing left to decide */
	tune_plan_record(&s->plan, (size_t)i, r->time_ms, tune_result_usable(r), 0);
}

static json_t *load_request(const struct tune_sweep *s, long id, struct buf *err)
{
	char *path = xstrfmt("%s/variants/%03ld/request.json", s->out_dir, id);
	json_t *j = json_load_path(path, err);

	free(path);
	return j;
}

/*
 * One reply's warm_times_ms into warm_ms[role][from...]. Warm times only
 * inform: a reply without them (a worker older than them) or with a list
 * that is not as times_ms is, leaves the warm interval out, not the
 * confirmation.
 */
static void read_warm(struct tune_confirm *c, const json_t *rep, const int *roles, size_t n,
		      size_t rounds, size_t from)
{
	const json_t *times = json_object_get(rep, "warm_times_ms");
	size_t i, r;

	if (json_array_size(times) != n) {
		c->warm_missing = 1;
		return;
	}
	for (i = 0; i < n; i++)
		for (r = 0; r < rounds; r++) {
			const json_t *t = json_array_get(json_array_get(times, i), r);

			if (!json_is_number(t) || !(json_number_value(t) > 0)) {
				c->warm_missing = 1;
				return;
			}
			c->warm_ms[roles[i]][from + r] = json_number_value(t);
		}
}

/* Reads one reply's times_ms (a list per request, `rounds` each) into ms[role][from...]. */
static int read_times(struct tune_confirm *c, const json_t *rep, const int *roles, size_t n,
		      size_t rounds, size_t from, struct buf *err)
{
	const json_t *times = json_object_get(rep, "times_ms");
	size_t i, r;

	if (strcmp(json_str(rep, "status") ? json_str(rep, "status") : "", "ok")) {
		buf_addf(err, "the worker could not time the rounds: %s",
			 json_str(rep, "error") ? json_str(rep, "error") : "no reason given");
		return -1;
	}
	if (json_array_size(times) != n) {
		buf_adds(err, "the worker's confirm reply has no times for every variant");
		return -1;
	}
	for (i = 0; i < n; i++)
		for (r = 0; r < rounds; r++) {
			const json_t *t = json_array_get(json_array_get(times, i), r);

			if (!json_is_number(t) || !(json_number_value(t) > 0)) {
				buf_adds(err, "the worker's confirm reply has a time that is not positive");
				return -1;
			}
			c->ms[roles[i]][from + r] = json_number_value(t);
		}
	read_warm(c, rep, roles, n, rounds, from);
	return 0;
}

/* One confirm request to the worker of `env`: the roles of that env, `rounds` rounds. */
static int call_env(struct tune_sweep *s, struct tune_confirm *c, int env, const int *envs,
		    json_t *const *reqs, size_t rounds, size_t from, struct buf *err)
{
	json_t *list = json_array(), *req, *rep = NULL;
	int roles[TUNE_CF_N];
	size_t n = 0;
	int i, ret;

	for (i = 0; i < TUNE_CF_N; i++)
		if (reqs[i] && envs[i] == env) {
			json_array_append(list, reqs[i]);
			roles[n++] = i;
		}
	if (!n) {
		json_decref(list);
		return 0;
	}
	/* one round at a time (rounds 1), the worker starts round `from` with its from-th */
	req = json_pack("{s:s, s:s, s:I, s:I, s:b, s:o}", "op", "confirm", "id", "confirm",
			"rounds", (json_int_t)rounds, "offset", (json_int_t)from, "warm", 1,
			"requests", list);
	ret = tune_pool_call(s->pool, env, req, s->o->timeout_s, &rep, err);
	if (ret == PY_WORKER_TIMEOUT)
		buf_addf(err, "the confirmation ran past the %.0f s limit", s->o->timeout_s);
	if (!ret)
		ret = read_times(c, rep, roles, n, rounds, from, err);
	json_decref(req);
	json_decref(rep);
	return ret ? -1 : 0;
}

/*
 * Times the roles: one request when they share a worker environment (the
 * worker alternates them), else one round at a time per environment, the
 * environments taking turns.
 */
static int time_rounds(struct tune_sweep *s, struct tune_confirm *c, size_t rounds,
		       struct buf *err)
{
	json_t *reqs[TUNE_CF_N] = { NULL, NULL, NULL };
	int envs[TUNE_CF_N] = { -1, -1, -1 }, order[TUNE_CF_N], norder = 0, i, j, ret = 0;
	size_t r;

	for (i = 0; i < TUNE_CF_N && !ret; i++) {
		if (c->id[i] < 0)
			continue;
		c->ms[i] = xcalloc(rounds, sizeof(double));
		c->warm_ms[i] = xcalloc(rounds, sizeof(double));
		envs[i] = tune_sweep_env_index(s->plan.v[c->id[i]].src);
		if (!(reqs[i] = load_request(s, c->id[i], err)))
			ret = -1;
		for (j = 0; j < norder && order[j] != envs[i]; j++)
			;
		if (j == norder)
			order[norder++] = envs[i];
	}
	if (!ret && norder == 1)
		ret = call_env(s, c, order[0], envs, reqs, rounds, 0, err);
	else
		for (r = 0; r < rounds && !ret; r++)
			for (i = 0; i < norder && !ret; i++)
				ret = call_env(s, c, order[(r + (size_t)i) % (size_t)norder], envs,
					       reqs, 1, r, err);
	for (i = 0; i < TUNE_CF_N; i++)
		json_decref(reqs[i]);
	if (!ret)
		c->rounds = rounds;
	return ret;
}

static char *vid(long i)
{
	return xstrfmt("v%03ld", i);
}

/* The decision of confirm.h from the intervals. */
static void decide(const struct tune_sweep *s, struct tune_confirm *c)
{
	long base = s->plan.base, cand = c->id[TUNE_CF_CAND], cfg = c->id[TUNE_CF_CFG];
	int ok_cand = c->vs_base.lo > 1.0;
	char *ci = vid(cand), *cf = cfg >= 0 ? vid(cfg) : NULL;

	c->accepted = 0;
	c->winner = base;
	if (cfg >= 0) {
		int beats = c->cfg_vs_cand.lo > 1.0, ok_cfg = c->cfg_vs_base.lo > 1.0;

		if (ok_cand && beats) {
			c->accepted = 1;
			c->winner = cand;
			c->reason = xstrfmt("%s beats the base and the best config-only variant %s "
					    "beyond the noise", ci, cf);
		} else if (ok_cfg) {
			c->winner = cfg;
			c->reason = xstrfmt("%s is not faster than %s beyond the noise; the "
					    "config-only %s, faster than the base beyond the noise, wins",
					    ci, ok_cand ? cf : "the base", cf);
		} else {
			c->reason = xstrfmt("neither %s nor the config-only %s is faster than the "
					    "base beyond the noise%s; the base stays", ci, cf,
					    ok_cand ? " and the best config-only variant" : "");
		}
	} else if (ok_cand) {
		c->accepted = 1;
		c->winner = cand;
		c->reason = xstrfmt("%s is faster than the base beyond the noise", ci);
	} else {
		c->reason = xstrfmt("%s is not faster than the base beyond the noise; the base stays",
				    ci);
	}
	free(ci);
	free(cf);
}

/* Adds the rounds the intervals left out (ci.h) to the reason, 1-based. */
static void note_disturbed(struct tune_confirm *c)
{
	struct buf b = BUF_INIT;
	size_t r, n = 0;

	for (r = 0; r < c->rounds; r++)
		if (c->disturbed[r])
			buf_addf(&b, "%s%zu", n++ ? ", " : "", r + 1);
	if (n) {
		char *old = c->reason;

		c->reason = xstrfmt("%s (round%s %s of %zu left out: a variant took over %.1fx "
				    "its median there)", old, plural(n), b.buf, c->rounds,
				    TUNE_DISTURBED);
		free(old);
	}
	buf_release(&b);
}

/* The warm interval of base / the final winner, or / the candidate when the base stays. */
static void warm_interval(const struct tune_sweep *s, struct tune_confirm *c)
{
	long of = c->winner != s->plan.base ? c->winner : c->id[TUNE_CF_CAND];
	int role = of == c->id[TUNE_CF_CAND] ? TUNE_CF_CAND : TUNE_CF_CFG;

	if (c->warm_missing)
		return;
	c->warm_disturbed = xcalloc(c->rounds, 1);
	tune_disturbed_rounds(c->warm_ms, TUNE_CF_N, c->rounds, c->warm_disturbed);
	if (tune_ratio_ci_except(c->warm_ms[TUNE_CF_BASE], c->warm_ms[role], c->rounds,
				 c->warm_disturbed, &c->warm_ci) == 0) {
		c->has_warm = 1;
		c->warm_of = of;
	}
}

void tune_confirm_run(struct tune_sweep *s)
{
	struct tune_confirm *c = &s->confirm;
	struct buf err = BUF_INIT;
	size_t rounds = s->o->confirm_rounds > 0 ? (size_t)s->o->confirm_rounds : 0;
	long cand = s->winner;

	/* a base that failed has no time to be a ratio's numerator: the sweep's pick stands */
	if (rounds < 2 || cand < 0 || s->plan.base < 0 || cand == s->plan.base ||
	    !tune_result_usable(&s->res.r[s->plan.base]))
		return;
	if (s->plan.v[cand].src)
		time_config_only(s, cand);
	c->ran = 1;
	c->id[TUNE_CF_BASE] = s->plan.base;
	c->id[TUNE_CF_CAND] = cand;
	c->id[TUNE_CF_CFG] = s->plan.v[cand].src ? best_config_only(s, cand) : -1;
	msg_progress_as("tune", "%s: confirming v%03ld against the base over %zu round%s", s->k.name,
			cand, rounds, plural(rounds));
	if (time_rounds(s, c, rounds, &err) < 0) {
		c->error = buf_detach(&err, NULL);
		c->winner = s->plan.base;
		c->reason = xstrfmt("the confirmation failed (%s); the base stays", c->error);
	} else {
		c->disturbed = xcalloc(rounds, 1);
		tune_disturbed_rounds(c->ms, TUNE_CF_N, rounds, c->disturbed);
		tune_ratio_ci_except(c->ms[TUNE_CF_BASE], c->ms[TUNE_CF_CAND], rounds,
				     c->disturbed, &c->vs_base);
		if (c->id[TUNE_CF_CFG] >= 0) {
			tune_ratio_ci_except(c->ms[TUNE_CF_CFG], c->ms[TUNE_CF_CAND], rounds,
					     c->disturbed, &c->cfg_vs_cand);
			tune_ratio_ci_except(c->ms[TUNE_CF_BASE], c->ms[TUNE_CF_CFG], rounds,
					     c->disturbed, &c->cfg_vs_base);
		}
		decide(s, c);
		note_disturbed(c);
		warm_interval(s, c);
	}
	msg_progress_done();
	s->winner = c->winner;
	buf_release(&err);
}

static void add_ci(json_t *j, const struct tune_ci *ci)
{
	json_set_new(j, "ratio", json_real(ci->ratio));
	json_set_new(j, "ci95", json_pack("[f, f]", ci->lo, ci->hi));
}

static json_t *ci_json(const struct tune_ci *ci)
{
	json_t *j = json_object();

	add_ci(j, ci);
	return j;
}

static json_t *rounds_json(const struct tune_confirm *c, int num, int den)
{
	json_t *list = json_array();
	size_t r;

	for (r = 0; r < c->rounds; r++)
		json_array_append_new(list, json_real(c->ms[num][r] / c->ms[den][r]));
	return list;
}

/* The indexes into round_ratios of the rounds the intervals left out. */
static json_t *disturbed_json(const struct tune_confirm *c, const unsigned char *skip)
{
	json_t *list = json_array();
	size_t r;

	for (r = 0; skip && r < c->rounds; r++)
		if (skip[r])
			json_array_append_new(list, json_integer((json_int_t)r));
	return list;
}

static json_t *times_json(const struct tune_confirm *c, double *const *ms)
{
	json_t *j = json_object();
	size_t r;
	int i;

	for (i = 0; i < TUNE_CF_N; i++) {
		json_t *list;
		char *id;

		if (c->id[i] < 0 || !ms[i])
			continue;
		list = json_array();
		for (r = 0; r < c->rounds; r++)
			json_array_append_new(list, json_real(ms[i][r]));
		id = vid(c->id[i]);
		json_object_set_new(j, id, list);
		free(id);
	}
	return j;
}

/* winner.confirmation.warm: base / warm_of timed with no L2 flush. */
static json_t *warm_json(const struct tune_confirm *c)
{
	int role = c->warm_of == c->id[TUNE_CF_CAND] ? TUNE_CF_CAND : TUNE_CF_CFG;
	json_t *list = json_array();
	char *id = vid(c->warm_of);
	json_t *j = json_pack("{s:s}", "variant", id);
	size_t r;

	add_ci(j, &c->warm_ci);
	json_set_new(j, "rounds", json_integer((json_int_t)c->rounds));
	for (r = 0; r < c->rounds; r++)
		json_array_append_new(list, json_real(c->warm_ms[TUNE_CF_BASE][r] /
						      c->warm_ms[role][r]));
	json_set_new(j, "round_ratios", list);
	json_set_new(j, "disturbed_rounds", disturbed_json(c, c->warm_disturbed));
	json_set_new(j, "times_ms", times_json(c, c->warm_ms));
	free(id);
	return j;
}

static json_t *config_only_json(const struct tune_sweep *s, const struct tune_confirm *c)
{
	long cfg = c->id[TUNE_CF_CFG];
	json_t *j;
	char *id;

	if (cfg < 0)
		return NULL;
	id = vid(cfg);
	j = json_pack("{s:s, s:s}", "id", id, "label", s->plan.v[cfg].label);
	free(id);
	if (!c->rounds)
		return j;
	add_ci(j, &c->cfg_vs_cand);
	json_set_new(j, "round_ratios", rounds_json(c, TUNE_CF_CFG, TUNE_CF_CAND));
	json_set_new(j, "vs_base", ci_json(&c->cfg_vs_base));
	return j;
}

json_t *tune_confirm_json(const struct tune_sweep *s)
{
	const struct tune_confirm *c = &s->confirm;
	long cand = c->id[TUNE_CF_CAND];
	const struct tune_result *r;
	json_t *j;
	char *id, *w;

	if (!c->ran)
		return NULL;
	r = &s->res.r[cand];
	id = vid(cand);
	w = vid(c->winner);
	j = json_pack("{s:s, s:s, s:s, s:I, s:b, s:s, s:s}", "method",
		      "t-interval of the mean log ratio of per-round medians", "candidate", id,
		      "candidate_label", s->plan.v[cand].label, "rounds", (json_int_t)c->rounds,
		      "accepted", c->accepted, "winner", w, "reason", c->reason);
	json_set_new(j, "sweep_speedup", json_real(s->res.r[s->plan.base].time_ms / r->time_ms));
	if (c->rounds) {
		add_ci(j, &c->vs_base);
		json_set_new(j, "round_ratios", rounds_json(c, TUNE_CF_BASE, TUNE_CF_CAND));
		json_set_new(j, "disturbed_rounds", disturbed_json(c, c->disturbed));
	} else {
		json_set_new(j, "ratio", NULL);
		json_set_new(j, "ci95", NULL);
		json_set_new(j, "round_ratios", json_array());
		json_set_new(j, "disturbed_rounds", json_array());
	}
	json_set_new(j, "times_ms", times_json(c, c->ms));
	if (c->has_warm)
		json_set_new(j, "warm", warm_json(c));
	json_set_new(j, "vs_config_only", config_only_json(s, c));
	json_set_new(j, "error", c->error ? json_string(c->error) : NULL);
	json_set_new(j, "wall_s", json_real(c->wall_s));
	free(id);
	free(w);
	return j;
}

double tune_confirm_speedup(const struct tune_sweep *s)
{
	const struct tune_confirm *c = &s->confirm;

	if (!c->ran)
		return -1;
	if (!c->rounds || c->winner == s->plan.base)
		return 1.0;
	return c->winner == c->id[TUNE_CF_CAND] ? c->vs_base.ratio : c->cfg_vs_base.ratio;
}

const struct tune_ci *tune_confirm_winner_ci(const struct tune_sweep *s)
{
	const struct tune_confirm *c = &s->confirm;

	if (!c->ran || !c->rounds || c->winner == s->plan.base)
		return NULL;
	return c->winner == c->id[TUNE_CF_CAND] ? &c->vs_base : &c->cfg_vs_base;
}

long tune_confirm_config_only(const struct tune_sweep *s, const struct tune_ci **ci)
{
	const struct tune_confirm *c = &s->confirm;

	*ci = NULL;
	if (!c->ran)
		return s->winner >= 0 && s->plan.v[s->winner].src ? best_config_only(s, s->winner) : -1;
	if (c->id[TUNE_CF_CFG] >= 0 && c->rounds)
		*ci = &c->cfg_vs_base;
	return c->id[TUNE_CF_CFG];
}

void tune_confirm_release(struct tune_confirm *c)
{
	int i;

	for (i = 0; i < TUNE_CF_N; i++) {
		free(c->ms[i]);
		free(c->warm_ms[i]);
	}
	free(c->disturbed);
	free(c->warm_disturbed);
	free(c->reason);
	free(c->error);
	memset(c, 0, sizeof(*c));
}
