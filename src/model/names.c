/* The name tables of the analysis model's enums (names.h). */
#include <string.h>

#include "model/names.h"
#include "banned.h"

static const char *const heur_pointwise[] = { "pointwise", NULL };
static const char *const heur_reduction[] = { "reduction", NULL };
static const char *const heur_persistent[] = { "persistent_reduction", NULL };
static const char *const heur_cooperative[] = { "cooperative_reduction", NULL };
static const char *const heur_split_scan[] = { "split_scan", NULL };
static const char *const heur_template[] = { "template", NULL };
static const char *const heur_user_autotune[] = { "user_autotune", NULL };
static const char *const heur_foreach[] = { "foreach", NULL };
static const char *const heur_fixed_config[] = { "fixed_config", NULL };
static const char *const autotune_decorators[] = { "triton.autotune", "autotune", NULL };

#define IND KIND_INDUCTOR
#define MEM KIND_MEMORY_BOUND
#define RED KIND_REDUCES
#define HAND KIND_HAND_WRITTEN

/*
 * The decorator rows are parse/triton_meta.c's table, in its order; the
 * prefixes Inductor's kernel names (torch/_inductor/codegen); the tune
 * classes tune/kernel.c's (a kernel without heuristics is the user's).
 */
const struct kind_info kind_info[KIND_NR] = {
	[KIND_POINTWISE] = { heur_pointwise, "triton_poi_", KIND_TUNE_POINTWISE, IND | MEM },
	[KIND_REDUCTION] = { heur_reduction, "triton_red_", KIND_TUNE_REDUCTION,
			     IND | MEM | RED },
	[KIND_PERSISTENT_REDUCTION] = { heur_persistent, "triton_per_",
					KIND_TUNE_PERSISTENT, IND | MEM | RED },
	[KIND_COOPERATIVE_REDUCTION] = { heur_cooperative, NULL,
					 KIND_TUNE_REDUCTION, IND },
	[KIND_SPLIT_SCAN] = { heur_split_scan, NULL, KIND_TUNE_SPLIT_SCAN, IND },
	[KIND_TEMPLATE] = { heur_template, "triton_tem_", KIND_TUNE_TEMPLATE, IND },
	[KIND_USER_AUTOTUNE] = { heur_user_autotune, NULL, KIND_TUNE_USER,
				 IND | HAND },
	[KIND_FOREACH] = { heur_foreach, "triton_for_", KIND_TUNE_FOREACH, IND },
	[KIND_FIXED_CONFIG] = { heur_fixed_config, NULL, KIND_TUNE_FIXED, IND },
	[KIND_AUTOTUNE] = { autotune_decorators, NULL, KIND_TUNE_USER, HAND },
	[KIND_JIT] = { NULL, NULL, KIND_TUNE_USER, HAND },
	[KIND_USER_JIT] = { NULL, NULL, KIND_TUNE_USER, HAND },
	[KIND_MAX_AUTOTUNE] = { NULL, NULL, KIND_TUNE_OTHER, 0 },
	[KIND_OTHER] = { NULL, NULL, KIND_TUNE_OTHER, 0 },
};

#undef IND
#undef MEM
#undef RED
#undef HAND

const char *const kind_names[KIND_NR + 1] = {
	[KIND_POINTWISE] = "pointwise",
	[KIND_REDUCTION] = "reduction",
	[KIND_PERSISTENT_REDUCTION] = "persistent_reduction",
	[KIND_COOPERATIVE_REDUCTION] = "cooperative_reduction",
	[KIND_SPLIT_SCAN] = "split_scan",
	[KIND_TEMPLATE] = "template",
	[KIND_USER_AUTOTUNE] = "user_autotune",
	[KIND_FOREACH] = "foreach",
	[KIND_FIXED_CONFIG] = "fixed_config",
	[KIND_AUTOTUNE] = "autotune",
	[KIND_JIT] = "jit",
	[KIND_USER_JIT] = "user_jit",
	[KIND_MAX_AUTOTUNE] = "max_autotune",
	[KIND_OTHER] = "other",
	[KIND_NR] = NULL,
};

const char *const kind_tune_class_names[KIND_TUNE_NR + 1] = {
	"pointwise", "reduction", "persistent_reduction", "template", "user", "foreach",
	"split_scan", "fixed_config", "other", NULL,
};

int name_index(const char *const *names, const char *s)
{
	int i;

	for (i = 0; s && names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

const char *name_at(const char *const *names, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? names[v] : NULL;
}

enum kernel_kind kind_from_name(const char *s)
{
	int i = name_index(kind_names, s);

	if (!s)
		return KIND_NONE;
	return i < 0 ? KIND_OTHER : (enum kernel_kind)i;
}

enum kernel_kind kind_from_decorator(const char *decorator)
{
	static const char prefix[] = "triton_heuristics.";
	const char *tail = strstr(decorator, prefix);
	int k;

	for (k = 0; k < KIND_NR; k++) {
		const struct kind_info *ki = &kind_info[k];

		if (!ki->decorators)
			continue;
		if (ki->flags & KIND_INDUCTOR ?
		    tail && name_index(ki->decorators, tail + sizeof(prefix) - 1) >= 0 :
		    name_index(ki->decorators, decorator) >= 0)
			return (enum kernel_kind)k;
	}
	return KIND_NONE;
}

enum kernel_kind kind_from_symbol(const char *kernel_name)
{
	int k;

	for (k = 0; k < KIND_NR; k++) {
		const char *p = kind_info[k].name_prefix;

		if (p && !strncmp(kernel_name, p, strlen(p)))
			return (enum kernel_kind)k;
	}
	return KIND_NONE;
}

unsigned kind_flags(enum kernel_kind k)
{
	return k >= 0 && k < KIND_NR ? kind_info[k].flags : 0;
}

/* The action sentences are decide/rules.c's, as the report has written them. */
const struct decision_info decision_info[DECISION_NR] = {
	[DECISION_TUNE] = { "tune", 0, "tune it: try {knobs} first" },
	[DECISION_KEEP_OFF] = { "keep TorchInductor off", 2,
		"keep TorchInductor off this region: put the code at {where} in a function"
		" decorated with torch._dynamo.disable (or end the torch.compile region before it)"
		" so the library GEMM runs" },
	[DECISION_REWRITE] = { "rewrite the model code", 1,
		"rewrite the model code at {where}: fix the shapes (pad to a few sizes) or mark the"
		" varying dimension dynamic (torch._dynamo.mark_dynamic)" },
	[DECISION_LEAVE] = { "leave it alone", 3, "leave it alone: {why}" },
	[DECISION_MEASURE] = { "measure first", 4,
		"measure it first (see the gaps), then decide" },
};

const char *const decision_names[DECISION_NR + 1] = {
	"tune", "keep_off", "rewrite", "leave", "measure", NULL,
};

enum decision decision_from_name(const char *s)
{
	return (enum decision)name_index(decision_names, s);
}

const char *decision_title(enum decision d)
{
	return d >= 0 && d < DECISION_NR ? decision_info[d].title : "-";
}

const char *decision_name(enum decision d)
{
	return name_at(decision_names, DECISION_NR, d);
}

const char *const time_basis_names[TIME_NR + 1] = {
	"replay", "autotune", "max_autotune", "trace", NULL,
};

const char *const launch_basis_names[LAUNCH_NR + 1] = {
	"capture", "wrapper", "assumed", "trace", NULL,
};

const char *const launch_basis_words[LAUNCH_NR] = {
	[LAUNCH_CAPTURE] = "counted by the capture over the whole run",
	[LAUNCH_WRAPPER] = "call sites in the wrapper module: per call of the compiled graph",
	[LAUNCH_ASSUMED] = "not counted: 1 assumed",
	[LAUNCH_TRACE] = "not counted: 1 assumed",
};

const char *const bytes_basis_names[BYTES_NR + 1] = {
	"inductor", "footprint", "seed_log", "traffic", NULL,
};

const char *const at_method_names[AT_METHOD_NR + 1] = {
	"benchmark", "coordinate_descent", "max_autotune", "user_autotune", "cache_hit",
	"single_config", "declared", "replay", NULL,
};

const char *const prof_class_names[PROF_CLASS_COUNT + 1] = {
	[PROF_CLASS_TRITON] = "triton",
	[PROF_CLASS_GEMM] = "gemm",
	[PROF_CLASS_ATTENTION] = "attention",
	[PROF_CLASS_COMM] = "comm",
	[PROF_CLASS_MEMCPY] = "memcpy",
	[PROF_CLASS_MEMSET] = "memset",
	[PROF_CLASS_OTHER] = "other",
	[PROF_CLASS_COUNT] = NULL,
};

const char *const tune_mode_names[TUNE_MODE_NR + 1] = {
	[TUNE_MODE_GPU] = "gpu",
	[TUNE_MODE_COMPILE_ONLY] = "compile-only",
	[TUNE_MODE_NR] = NULL,
};
