/*
 * The workspace of a mix-order reduction (see workspace.h): where it is,
 * how large it is for a split, and whether its partials are sums.
 */
#include <ctype.h>
#include <string.h>

#include "json/jsonio.h"
#include "tune/grid.h"
#include "tune/sweep.h"
#include "tune/workspace.h"
#include "banned.h"

#define WORKSPACE_ARG "ws_ptr"
#define GRID_TYPE "MixOrderReductionGrid"

static long cdiv(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : a;
}

/* Elements of the captured tensor argument `name`, or -1. */
static long captured_numel(const struct tune_sweep *s, const char *name)
{
	const struct capture_arg *a = tune_captured_arg(s, name);
	const json_t *shape = a ? a->shape : NULL, *d;
	size_t i;
	long n = 1;

	if (!json_is_array(shape))
		return -1;
	json_array_foreach(shape, i, d)
		n *= json_is_integer(d) ? (long)json_integer_value(d) : -1;
	return n;
}

/* The next `accumN` name at or after p (the text is NUL-terminated), or NULL. */
static const char *next_accum(const char *text, const char *p, size_t *len)
{
	for (; (p = strstr(p, "accum")); p += 5) {
		size_t n = 5;

		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (isdigit((unsigned char)p[n]))
			n++;
		if (n > 5) {
			*len = n;
			return p;
		}
	}
	return NULL;
}

/*
 * 1 when every accumulator the kernel declares (`accum0 = tl.full(...)`)
 * is updated as a sum (`tmp9 = accum0 + tmp8`): the wrapper sums a sum's
 * partials, and only then do a base's and a variant's totals compare.
 */
static int partials_are_sums(const char *text)
{
	const char *p = text;
	size_t n;
	int found = 0;

	while (text && (p = next_accum(text, p, &n))) {
		char want[64];

		if (!strncmp(p + n, " = tl.full(", 11)) {
			if (n > 40)
				return 0;
			snprintf(want, sizeof(want), "= %.*s + ", (int)n, p);
			if (!strstr(text, want))
				return 0;
			found = 1;
		}
		p += n;
	}
	return found;
}

int tune_workspace_find(const struct tune_sweep *s, long base_rsplit,
			struct tune_workspace *w, struct buf *why)
{
	const struct tune_arg *a = tune_kernel_arg(&s->k, WORKSPACE_ARG);
	long programs;

	memset(w, 0, sizeof(*w));
	w->arg = -1;
	if (!s->k.grid_type || strcmp(s->k.grid_type, GRID_TYPE) || !a) {
		buf_addf(why, "not a mix-order reduction with a '%s' argument", WORKSPACE_ARG);
		return -1;
	}
	w->base_numel = captured_numel(s, WORKSPACE_ARG);
	if (tune_captured_scalar(s, "xnumel", &w->xnumel) < 0 ||
	    tune_captured_scalar(s, "r0_numel", &w->row) < 0 || w->base_numel <= 0 ||
	    w->row <= 0 || w->xnumel <= 0 || base_rsplit <= 0) {
		buf_addf(why, "capture.json has no sizes for '%s', xnumel or r0_numel", WORKSPACE_ARG);
		return -1;
	}
	programs = cdiv(w->xnumel, base_rsplit);
	if (w->base_numel % (programs * w->row)) {
		buf_addf(why, "'%s' holds %ld elements, not a multiple of %ld programs x %ld",
			 WORKSPACE_ARG, w->base_numel, programs, w->row);
		return -1;
	}
	if (!partials_are_sums(s->text.buf)) {
		buf_addf(why, "its partial reductions are not all sums");
		return -1;
	}
	w->partials = w->base_numel / (programs * w->row);
	w->arg = (int)(a - s->k.args);
	return 0;
}

long tune_workspace_numel(const struct tune_workspace *w, long rsplit)
{
	return w->partials * cdiv(w->xnumel, rsplit) * w->row;
}

int tune_workspace_min_split(const struct tune_workspace *w, double max_bytes)
{
	long split = 1;

	while (split < w->xnumel && tune_workspace_numel(w, split) * 4.0 > max_bytes)
		split <<= 1;
	return (int)split;
}

json_t *tune_workspace_json(const struct tune_workspace *w, long rsplit)
{
	return json_pack("{s:i, s:I, s:I, s:I}", "arg", w->arg,
			 "numel", (json_int_t)tune_workspace_numel(w, rsplit),
			 "partials", (json_int_t)w->partials, "row", (json_int_t)w->row);
}
