/*
 * One kernel's sweep (see sweep.h): input, worker start, the kernel, target,
 * plan, and the loop over variants (each run by variant.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "env/peak.h"
#include "json/jsonio.h"
#include "parse/triton_meta.h"
#include "parse/kernel_uses.h"
#include "rundir/layout.h"
#include "tune/grid.h"
#include "tune/kindplan.h"
#include "tune/request.h"
#include "tune/rewrite.h"
#include "tune/sweep.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/walk.h"
#include "banned.h"

/* Kernel sources past this are not Triton kernels. */
#define MAX_SOURCE (16u << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int read_input(struct tune_sweep *s, const char *input, struct buf *err)
{
	if (is_dir(input)) {
		char *cap = rd_kernel_path(input, RD_K_CAPTURE_JSON);

		s->source = rd_kernel_path(input, RD_K_KERNEL_PY);
		/* Absent is a plain kernel directory; anything else there must read. */
		if (access(cap, F_OK) == 0 || errno != ENOENT) {
			s->capture_path = cap;
			s->capture = xmalloc(sizeof(*s->capture));
			capture_init(s->capture);
			if (capture_load(s->capture, cap, err) < 0)
				return -1;
		} else {
			free(cap);
		}
	} else {
		s->source = xstrdup(input);
	}
	if (file_read(s->source, MAX_SOURCE, &s->text, err) < 0)
		return -1;
	return text_input_check(s->source, s->text.buf, s->text.len, err);
}

static const struct meta_kernel *choose_kernel(struct tune_sweep *s,
					      const struct meta_kernel_list *kernels,
					      struct buf *err)
{
	const char *want = s->o->kernel ? s->o->kernel : s->capture ? s->capture->kernel : NULL;
	const struct meta_kernel *found = NULL;
	struct buf names = BUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < kernels->nr; i++) {
		const char *name = kernels->v[i]->name;

		buf_addf(&names, "%s%s", i ? ", " : "", name);
		if (!want || !strcmp(want, name)) {
			found = kernels->v[i];
			n++;
		}
	}
	if (n != 1) {
		if (!kernels->nr)
			buf_addf(err, "'%s' has no @triton.jit kernel", s->source);
		else if (want)
			buf_addf(err, "'%s' has no kernel '%s' (it has: %s)", s->source,
				 want, names.buf);
		else
			buf_addf(err, "'%s' has %zu kernels (%s); choose one with --kernel",
				 s->source, n, names.buf);
		found = NULL;
	}
	buf_release(&names);
	return found;
}

/* The kernel from its source (parse/triton_meta.h), read in-process. */
static int read_kernel(struct tune_sweep *s, enum tune_fail *fail, struct buf *err)
{
	struct meta_kernel_list kernels = META_KERNEL_LIST_INIT;
	struct buf why = BUF_INIT;
	const struct meta_kernel *k;

	*fail = TUNE_FAIL_INPUT;
	if (triton_meta_scan(&kernels, s->source, s->text.buf, s->text.len, 0, &why) < 0) {
		buf_addf(err, "cannot read '%s': SyntaxError: %s", s->source, why.buf);
		buf_release(&why);
		meta_kernel_list_release(&kernels);
		return -1;
	}
	buf_release(&why);
	k = choose_kernel(s, &kernels, err);
	if (k)
		tune_kernel_from_meta(k, s->source, &s->k);
	else
		*fail = TUNE_FAIL_NOMATCH;
	meta_kernel_list_release(&kernels);
	return k ? 0 : -1;
}

/* A triton-das build registers its "hcu" backend. */
static int has_das(const json_t *hello)
{
	const json_t *b;
	size_t i;

	json_array_foreach(json_object_get(hello, "backends"), i, b)
		if (json_is_string(b) && !strcmp(json_string_value(b), "hcu"))
			return 1;
	return 0;
}

/* --target as given, or the GPU's; on a GPU they must agree. */
static int pick_arch(struct tune_sweep *s, enum tune_fail *fail, struct buf *err)
{
	const json_t *gpu = json_object_get(s->hello, "gpu");
	struct target_gpu_facts facts;
	const struct target *dev = NULL;
	struct buf name = BUF_INIT;
	int ret = -1;

	*fail = TUNE_FAIL_TARGET;
	if (!s->o->compile_only && !json_is_object(gpu)) {
		buf_adds(err, "no GPU is visible to the tune worker (torch with a GPU is "
			 "needed to time variants); to only compile, use tko tune --compile-only "
			 "--target ARCH");
		goto out;
	}
	if (!s->o->target && s->o->compile_only) {
		buf_adds(err, "--compile-only needs --target (gfx942, sm_90, ...)");
		goto out;
	}
	target_gpu_facts_read(gpu, &facts);
	if (!s->o->compile_only && !(dev = target_of_gpu(&facts, err)) && !s->o->target)
		goto out;
	buf_reset(err);
	if (s->o->target && target_norm(s->o->target, &name) < 0)
		buf_adds(&name, s->o->target);
	else if (!s->o->target)
		buf_adds(&name, dev->name);
	if (target_check_tunable(name.buf, has_das(s->hello), err) < 0)
		goto out;
	s->arch = target_find(name.buf);
	if (dev && dev != s->arch) {
		buf_addf(err, "--target %s is not the GPU's arch (%s); timing needs the GPU's, "
			 "or use --compile-only", s->arch->name, dev->name);
		goto out;
	}
	ret = 0;
out:
	buf_release(&name);
	return ret;
}

static json_t *const_value(const char *v)
{
	long n;
	double d;

	if (!parse_long(v, &n))
		return json_integer(n);
	if (!parse_double(v, &d))
		return json_real(d);
	if (!strcmp(v, "True") || !strcmp(v, "False"))
		return json_boolean(!strcmp(v, "True"));
	return json_string(v);
}

static int apply_args(struct tune_sweep *s, struct buf *err)
{
	size_t i;

	if (s->k.kind == TUNE_KIND_USER && s->capture)
		tune_kernel_from_capture(&s->k, s->capture);
	if (s->o->signature && tune_kernel_set_signature(&s->k, s->o->signature, err) < 0)
		return -1;
	for (i = 0; s->o->consts && i < s->o->consts->nr; i++) {
		const char *c = s->o->consts->v[i], *eq = strchr(c, '=');
		char *name;

		if (!eq || eq == c) {
			buf_addf(err, "bad --const '%s' (want NAME=VALUE)", c);
			return -1;
		}
		name = xstrndup(c, (size_t)(eq - c));
		json_object_set_new(s->k.constants, name, const_value(eq + 1));
		free(name);
	}
	for (i = 0; i < s->k.nargs; i++)
		if (!s->k.args[i].type) {
			buf_addf(err, "argument '%s' of '%s' has no type (give --signature "
				 "NAME=TYPE,...)", s->k.args[i].name, s->k.name);
			return -1;
		}
	return 0;
}

/* A lone .best_config beside a lone kernel module is Inductor's choice for it. */
static json_t *sibling_best_config(const char *source, char **path)
{
	char *dir = xstrdup(source), *slash = strrchr(dir, '/');
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	const char *found = NULL;
	size_t i, py = 0, best = 0;
	json_t *j = NULL;

	if (slash)
		*slash = '\0';
	if (walk_files(slash ? dir : ".", &files, &err) == 0)
		for (i = 0; i < files.nr; i++) {
			const char *f = files.v[i];
			size_t n = strlen(f);

			if (n > 3 && !strcmp(f + n - 3, ".py"))
				py++;
			if (n > 12 && !strcmp(f + n - 12, ".best_config")) {
				best++;
				found = f;
			}
		}
	if (py == 1 && best == 1) {
		j = json_load_path(found, &err);
		*path = j ? xstrdup(found) : NULL;
	}
	walk_release(&files);
	buf_release(&err);
	free(dir);
	return j;
}

/* The autotuner's chosen config (the first when capture.json names none), or NULL. */
static const struct capture_config *chosen(const struct capture_doc *c)
{
	long long best = c->best_index == RF_I64_NONE ? 0 : c->best_index;

	return best >= 0 && (unsigned long long)best < c->nconfigs ? &c->configs[best] : NULL;
}

static double recorded_ms(const struct capture_config *c)
{
	return isnan(c->time_ms) ? -1 : c->time_ms;
}

static void add_captured(struct tune_sweep *s)
{
	const struct capture_config *c = chosen(s->capture);
	size_t i;

	if (c) {
		struct tune_config cfg;

		tune_config_default(&s->plan.space, &s->k, &cfg);
		tune_config_from_json(&s->plan.space, c->kept, &cfg);
		tune_plan_add_base(&s->plan, &cfg, TUNE_FROM_AUTOTUNE, recorded_ms(c));
		s->base_note = "the config Inductor's autotuning chose (capture.json)";
	}
	for (i = 0; i < s->capture->nconfigs; i++) {
		struct tune_config cfg;

		c = &s->capture->configs[i];
		tune_config_default(&s->plan.space, &s->k, &cfg);
		tune_config_from_json(&s->plan.space, c->kept, &cfg);
		tune_plan_add_base(&s->plan, &cfg, TUNE_FROM_INDUCTOR, recorded_ms(c));
	}
}

/* A hand-written kernel's constexprs all need a value when nothing else gives one. */
static int missing_const(const struct tune_sweep *s, struct buf *err)
{
	size_t i;

	for (i = 0; i < s->k.nargs; i++)
		if (!strcmp(s->k.args[i].type, "constexpr") &&
		    !json_object_get(s->k.constants, s->k.args[i].name)) {
			buf_addf(err, "constexpr '%s' of '%s' has no value (give --const %s=VALUE "
				 "or --config)", s->k.args[i].name, s->k.name, s->k.args[i].name);
			return 1;
		}
	return 0;
}

static int add_bases(struct tune_sweep *s, struct buf *err)
{
	struct tune_config cfg;
	char *path = NULL;
	json_t *best;

	tune_config_default(&s->plan.space, &s->k, &cfg);
	if (s->o->config) {
		if (tune_config_parse(&s->plan.space, s->o->config, &cfg, err) < 0)
			return -1;
		tune_plan_add_base(&s->plan, &cfg, TUNE_FROM_GIVEN, -1);
		s->base_note = "--config";
	}
	if (s->capture)
		add_captured(s);
	if (s->plan.base < 0 && (best = sibling_best_config(s->source, &path))) {
		tune_config_from_json(&s->plan.space, best, &cfg);
		tune_plan_add_base(&s->plan, &cfg, TUNE_FROM_GIVEN, -1);
		s->base_note = "the .best_config file beside the kernel";
		json_decref(best);
		free(path);
	}
	if (s->plan.base < 0 && s->k.kind == TUNE_KIND_USER && missing_const(s, err))
		return -1;
	if (s->plan.base < 0) {
		tune_plan_add_base(&s->plan, &cfg, TUNE_FROM_DEFAULT, -1);
		s->base_note = s->k.kind == TUNE_KIND_TEMPLATE
			? "the template's own block sizes and decorator"
			: s->k.kind == TUNE_KIND_USER ? "--const values"
			: "tko's default guess (no autotuned config was found)";
	}
	return 0;
}

/*
 * tko tune writes only into real folders: a symbolic link in a copied
 * kernel directory (KDIR/tune -> /etc) would send its files elsewhere.
 */
int tune_refuse_link(const char *dir, struct buf *err)
{
	struct stat st;

	if (lstat(dir, &st) < 0 || !S_ISLNK(st.st_mode))
		return 0;
	buf_addf(err, "'%s' is a symbolic link: tko tune writes only into real directories", dir);
	return -1;
}

static int check_out_dir(const char *out, struct buf *err)
{
	static const char *const subs[] = { "variants", "winner" };
	size_t i;
	int ret = tune_refuse_link(out, err);

	for (i = 0; !ret && i < sizeof(subs) / sizeof(subs[0]); i++) {
		char *p = path_join(out, subs[i]);

		ret = tune_refuse_link(p, err);
		free(p);
	}
	return ret;
}

/* OUT/<kernel>-<target> with --out, else KERNEL_DIR/tune or ./tko-tune/<kernel>-<target>. */
static char *out_dir(const struct tune_sweep *s)
{
	char *leaf = xstrfmt("%s-%s", s->k.name, s->arch->name), *dir;

	if (s->o->out_dir)
		dir = path_join(s->o->out_dir, leaf);
	else if (s->capture_path)
		dir = rd_kernel_path(s->input, RD_K_TUNE_DIR);
	else
		dir = path_join("tko-tune", leaf);
	free(leaf);
	return dir;
}

/*
 * The constexpr values of the captured config that are not search
 * parameters (a cooperative reduction's RSPLIT, ...): every variant keeps them.
 */
static void captured_constants(struct tune_sweep *s)
{
	const struct capture_config *best = s->capture ? chosen(s->capture) : NULL;
	const char *key;
	json_t *v;

	json_object_foreach(json_object_get(best ? best->kept : NULL, "kwargs"), key, v) {
		const struct tune_arg *a = tune_kernel_arg(&s->k, key);

		if (a && a->type && !strcmp(a->type, "constexpr") &&
		    !json_object_get(s->k.constants, key))
			json_object_set(s->k.constants, key, v);
	}
}

/* A template's M, N, K from its body, for its grid and the EVEN_K rule. */
static void template_dims(struct tune_sweep *s)
{
	static const char *const names[3] = { "M", "N", "K" };
	int i;

	for (i = 0; i < 3 && s->k.kind == TUNE_KIND_TEMPLATE; i++)
		if (rewrite_find_int(s->text.buf, s->text.len, &s->k, names[i],
				     &s->k.tmpl_dims[i]) < 0)
			s->k.tmpl_dims[i] = 0;
}

/* Where the grid cannot be recomputed, every variant keeps the base's. */
static void check_grid(struct tune_sweep *s)
{
	struct buf why = BUF_INIT;

	if (!s->o->compile_only && tune_grid_check(s, &why) < 0 &&
	    tune_space_freeze(&s->plan.space, tune_grid_param, s) > 0) {
		s->grid_note = buf_detach(&why, NULL);
		msg_warn_as("tune", "%s: %s; its block sizes that shape the grid stay at the base's",
			    s->k.name, s->grid_note);
	}
	buf_release(&why);
}

/*
 * A mix-order reduction's RSPLIT_SIZE is tuned only where its workspace can
 * be resized (workspace.h), and no lower than keeps the workspace, which
 * the wrapper sums after the kernel, within a sixteenth of the bytes the
 * kernel moves (or the captured workspace's size, if that is larger).
 */
static void check_workspace(struct tune_sweep *s)
{
	struct tune_space *sp = &s->plan.space;
	int i = tune_space_find(sp, "RSPLIT_SIZE");
	struct buf why = BUF_INIT;
	double cap;
	long base;

	if (i < 0 || !sp->p[i].tuned || s->o->compile_only || s->plan.base < 0)
		return;
	base = s->plan.v[s->plan.base].cfg.v[i];
	if (tune_workspace_find(s, base, &s->ws, &why) < 0) {
		sp->p[i].tuned = 0;
		msg_warn_as("tune", "%s: RSPLIT_SIZE stays at the base's %ld: %s", s->k.name, base, why.buf);
	} else {
		cap = s->k.num_gb > 0 ? s->k.num_gb * 1e9 / 16 : 0;
		if (cap < s->ws.base_numel * 4.0)
			cap = s->ws.base_numel * 4.0;
		sp->p[i].min = tune_workspace_min_split(&s->ws, cap);
	}
	buf_release(&why);
}

/* Triton's wheel carries cuobjdump; the ISA scan reads PTX registers with it. */
static void tools_from_hello(const json_t *hello)
{
	const char *cuobjdump = json_str(json_object_get(hello, "tools"), "cuobjdump");

	if (cuobjdump && !getenv("TRITON_CUOBJDUMP_PATH"))
		setenv("TRITON_CUOBJDUMP_PATH", cuobjdump, 0);
}

/* The kernel has an online softmax that the twopass variant rewrites. */
static int has_online_softmax(const struct tune_sweep *s)
{
	struct rewrite r = REWRITE_INIT;
	int n = rewrite_two_pass(s->text.buf, s->text.len, &s->k, &r);

	rewrite_release(&r);
	return n > 0;
}

static int plan(struct tune_sweep *s, struct buf *err)
{
	struct tune_plan_opts po = TUNE_PLAN_OPTS_INIT;

	po.budget_s = s->o->budget_s;
	po.max_variants = s->o->max_variants;
	po.no_source = s->o->no_source;
	po.no_search = s->o->no_search;
	po.timed = !s->o->compile_only;
	captured_constants(s);
	template_dims(s);
	s->k.two_pass = has_online_softmax(s);
	if ((s->refused = tune_kind_refusal(&s->k))) {
		s->plan.base = s->plan.best = -1;
		return 0;
	}
	if (tune_plan_init(&s->plan, &s->k, s->arch, &po, err) < 0 ||
	    tune_request_check(&s->k, &s->plan.space, err) < 0 || add_bases(s, err) < 0)
		return -1;
	s->plan_note = tune_kind_restrict(&s->k, &s->plan.space);
	check_grid(s);
	check_workspace(s);
	return 0;
}

static double measure_peak(void *pool)
{
	return tune_pool_peak(pool);
}

/* The peak column's rate: --peak-gbps, else a copy the worker times (not when only compiling). */
static double peak_of(const struct tune_opts *o, struct tune_pool *pool)
{
	struct peak_inputs in = PEAK_INPUTS_INIT;
	struct peak p = PEAK_INIT;
	double gbps;

	in.option = o->peak_gbps;
	in.measure = o->compile_only ? NULL : measure_peak;
	in.measure_data = pool;
	in.order = peak_order_tune;
	gbps = peak_resolve(&in, &p) ? p.gbps : 0;
	peak_release(&p);
	return gbps;
}

/* The bytes of the captured launch, with the kernel.py beside capture.json (model/traffic.h). */
static int captured_traffic(struct tune_sweep *s)
{
	char *py = rd_kernel_beside(s->capture_path, RD_K_KERNEL_PY);
	int rc = traffic_of_capture(&s->traffic, s->capture, py, kernel_uses_read);

	free(py);
	return rc;
}

int tune_sweep_init(struct tune_sweep *s, const char *input, const struct tune_opts *o,
		    struct tune_pool *pool, enum tune_fail *fail, struct buf *err)
{
	char *ref;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->pool = pool;
	s->input = xstrdup(input);
	s->winner = -1;
	s->num_gb = -1;
	s->ws.arg = -1;
	buf_init(&s->text);
	tune_kernel_init(&s->k);
	*fail = TUNE_FAIL_INPUT;
	if (read_input(s, input, err) < 0)
		return -1;
	if (!o->compile_only && !s->capture) {
		buf_addf(err, "timing '%s' needs a captured kernel directory (kernel.py, "
			 "capture.json, inputs/ from tko capture); to only compile it, use tko tune "
			 "--compile-only --target ARCH", input);
		return -1;
	}
	*fail = TUNE_FAIL_TOOL;
	if (tune_pool_start(pool, TUNE_ENV_INHERIT, err) < 0)
		return -1;
	s->hello = pool->hello;
	s->jobs = (int)json_int(s->hello, "jobs", 1);
	tools_from_hello(s->hello);
	if (read_kernel(s, fail, err) < 0 || pick_arch(s, fail, err) < 0)
		return -1;
	*fail = TUNE_FAIL_INPUT;
	if (apply_args(s, err) < 0 || plan(s, err) < 0)
		return -1;
	/* the bytes tko run and the report use (model/traffic.h), Inductor's only without a capture */
	s->num_gb = s->k.num_gb;
	if (s->num_gb < 0 && s->capture && !isnan(s->capture->inductor_num_bytes))
		s->num_gb = s->capture->inductor_num_bytes / 1e9;
	if (s->capture && captured_traffic(s) == 0)
		s->num_gb = s->traffic.bytes / 1e9;
	else
		traffic_release(&s->traffic);
	s->peak_gbps = peak_of(o, pool);
	s->out_dir = out_dir(s);
	if (check_out_dir(s->out_dir, err) < 0 || mkdir_p(s->out_dir, err) < 0)
		return -1;
	ref = path_join(s->out_dir, TUNE_REFERENCE_FILE);
	unlink(ref);
	free(ref);
	return 0;
}

void tune_sweep_run(struct tune_sweep *s)
{
	double start = now_s();
	struct tune_variant *v;

	while ((v = tune_plan_next(&s->plan))) {
		struct tune_result *r;
		double t0 = now_s();
		char eta[64];

		msg_progress_as("tune", "%s: variant %zu (%s) of %zu planned: %.0f s%s", s->k.name,
				v->index + 1, v->label, s->plan.nr, t0 - start,
				msg_eta(t0 - start, (double)v->index, (double)s->plan.nr, eta,
					sizeof(eta)));
		tune_variant_run(s, v);
		r = tune_results_at(&s->res, v->index);
		tune_plan_record(&s->plan, v->index, r->time_ms, tune_result_usable(r),
				 now_s() - t0);
	}
	msg_progress_done();
	tune_results_at(&s->res, s->plan.nr ? s->plan.nr - 1 : 0);
	if (!s->o->compile_only)
		s->winner = tune_winner(&s->plan, &s->res, s->o->noise);
	s->wall_s = now_s() - start;
	if (!s->o->compile_only) {
		start = now_s();
		tune_confirm_run(s);
		s->confirm.wall_s = now_s() - start;
	}
}

void tune_sweep_release(struct tune_sweep *s)
{
	tune_variant_release(s);
	tune_confirm_release(&s->confirm);
	free(s->refused);
	tune_plan_release(&s->plan);
	tune_results_release(&s->res);
	tune_kernel_release(&s->k);
	if (s->capture)
		capture_release(s->capture);
	free(s->capture);
	free(s->grid_note);
	buf_release(&s->text);
	free(s->input);
	free(s->source);
	free(s->capture_path);
	free(s->out_dir);
	traffic_release(&s->traffic);
	memset(s, 0, sizeof(*s));
}
