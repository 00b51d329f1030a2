/*
 * Arms the RUN's analysis recommends (recommend.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/recommend.h"
#include "rundir/layout.h"
#include "util/jsonio.h"
#include "banned.h"

/* The step rules whose advice is an arm: the rule, and the arm. */
static const struct {
	const char *rule;
	enum ab_arm arm;
} arm_rules[] = {
	{ "fp32_matmul", AB_TF32 },
};

static int fired(const json_t *group, const char *rule)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(group, "rules"), i, r)
		if (json_str(r, "rule") && !strcmp(json_str(r, "rule"), rule))
			return 1;
	return 0;
}

static int ran(enum ab_arm a, const enum ab_arm *arms, size_t narms)
{
	size_t i;

	for (i = 0; i < narms; i++)
		if (arms[i] == a)
			return 1;
	return 0;
}

static void add_groups(json_t *out, const json_t *doc, size_t k, const enum ab_arm *arms,
		       size_t narms)
{
	const json_t *g;
	size_t i;

	json_array_foreach(json_object_get(doc, "step_groups"), i, g) {
		if (!fired(g, arm_rules[k].rule))
			continue;
		json_array_append_new(out, json_pack("{s:s, s:s, s:O?, s:O?, s:O?, s:b}",
						     "arm", ab_arms[arm_rules[k].arm].name,
						     "rule", arm_rules[k].rule,
						     "op", json_object_get(g, "op"),
						     "kernel", json_object_get(g, "kernel"),
						     "share", json_object_get(g, "share"),
						     "in_ab", ran(arm_rules[k].arm, arms, narms)));
	}
}

json_t *apply_recommend(const char *run, const enum ab_arm *arms, size_t narms, struct buf *err)
{
	char *path = rd_path_in(run, RD_KERNELS_JSON);
	json_t *out = json_array(), *doc = NULL;
	size_t k;

	if (access(path, F_OK) < 0 && errno == ENOENT)
		goto done;
	doc = json_load_path(path, err);
	if (!doc) {
		json_decref(out);
		out = NULL;
		goto done;
	}
	for (k = 0; k < sizeof(arm_rules) / sizeof(arm_rules[0]); k++)
		add_groups(out, doc, k, arms, narms);
done:
	json_decref(doc);
	free(path);
	return out;
}
