/*
 * Predicting a kernel's tuning time (cost.h). The constants are rough on
 * purpose: grouping needs the kernels' relative sizes, and the measured
 * rule replaces them once a sweep has run.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/jsonio.h"
#include "model/capture.h"
#include "rundir/layout.h"
#include "tune/cost.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "banned.h"

/* Worker start and Triton's import (about 1 s), inputs, the base's cold compile. */
#define SETUP_S 5.0
/*
 * Compile seconds a variant (docs/PERFORMANCE.md, tko tune --compile-only:
 * 0.14-0.30 s for an Inductor pointwise kernel, 1.27 s for the mm template).
 */
#define COMPILE_S 0.3
#define COMPILE_TEMPLATE_S 1.3
/* Launches a timed variant costs: tune's 5 warm-up and 50 timed repetitions, plus its checks. */
#define LAUNCHES 60.0

static int opt_value(const char *const *args, size_t n, size_t *i, const char *name,
		     const char **val)
{
	size_t len = strlen(name);

	if (strncmp(args[*i], name, len))
		return 0;
	if (args[*i][len] == '=') {
		*val = args[*i] + len + 1;
		return 1;
	}
	if (args[*i][len] || *i + 1 >= n)
		return 0;
	*val = args[++*i];
	return 1;
}

int tune_cost_opts_parse(struct tune_cost_opts *o, const char *const *args, size_t n,
			    struct buf *err)
{
	size_t i;
	const char *v;

	for (i = 0; i < n; i++) {
		if (!strcmp(args[i], "--compile-only")) {
			o->compile_only = 1;
		} else if (opt_value(args, n, &i, "--budget", &v)) {
			if (parse_double(v, &o->budget_s) < 0 || o->budget_s < 0) {
				buf_addf(err, "tko tune --budget '%s' is not a number of seconds", v);
				return -1;
			}
		} else if (opt_value(args, n, &i, "--max-variants", &v)) {
			if (parse_long(v, &o->max_variants) < 0 || o->max_variants < 1) {
				buf_addf(err, "tko tune --max-variants '%s' is not a positive count", v);
				return -1;
			}
		}
	}
	return 0;
}

/* The first kernel's wall_s in a tune.json, or -1. */
static double wall_s(const char *path)
{
	struct buf err = BUF_INIT;
	json_t *doc = is_file(path) ? json_load_path(path, &err) : NULL;
	double s = json_num(json_array_get(json_object_get(doc, "kernels"), 0), "wall_s", -1);

	json_decref(doc);
	buf_release(&err);
	return s;
}

/*
 * An earlier sweep's wall time, or -1: tko tune's KERNEL_DIR/tune/tune.json,
 * or the layout's tune/<target>/tune.json (rundir/layout.h), the first found.
 */
static double measured(const char *dir)
{
	char *tdir = rd_kernel_path(dir, RD_K_TUNE_DIR), *path = path_join(tdir, RD_TUNE_DOC);
	double s = wall_s(path);
	DIR *d = s < 0 ? opendir(tdir) : NULL;
	struct dirent *e;

	while (d && s < 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		free(path);
		path = rd_kernel_tune_doc(dir, e->d_name);
		s = wall_s(path);
	}
	if (d)
		closedir(d);
	free(path);
	free(tdir);
	return s;
}

/* The autotuned config's recorded time in ms (0 when none), or -1 with no capture. */
static double captured_ms(const char *dir, int *is_template)
{
	char *path = rd_kernel_path(dir, RD_K_CAPTURE_JSON);
	struct buf err = BUF_INIT;
	struct capture_doc doc;
	double ms = -1;

	capture_init(&doc);
	if (is_file(path) && capture_load(&doc, path, &err) == 0) {
		/* no best_index, or a negative one: the first config */
		size_t best = doc.best_index > 0 ? (size_t)doc.best_index : 0;
		double t = best < doc.nconfigs ? doc.configs[best].time_ms : NAN;

		ms = isnan(t) ? 0 : t;
		*is_template = doc.kernel && !strncmp(doc.kernel, "triton_tem_", 11);
	}
	capture_release(&doc);
	buf_release(&err);
	free(path);
	return ms;
}

static double search_s(const struct tune_cost_opts *o, double per_variant)
{
	double s = (double)(o->max_variants - 1) * per_variant;

	return o->budget_s > 0 && s > o->budget_s ? o->budget_s : s;
}

double tune_cost_predict(const char *kernel_dir, const struct tune_cost_opts *o,
			    const char **from)
{
	int tem = 0;
	double s = measured(kernel_dir), ms;

	if (s >= 0) {
		*from = "measured";
		return s;
	}
	ms = captured_ms(kernel_dir, &tem);
	if (ms < 0) {
		*from = "default";
		return SETUP_S + (o->budget_s > 0 ? o->budget_s : search_s(o, COMPILE_S));
	}
	*from = "capture";
	return SETUP_S + search_s(o, (tem ? COMPILE_TEMPLATE_S : COMPILE_S) +
				  (o->compile_only ? 0 : LAUNCHES * ms / 1e3));
}
