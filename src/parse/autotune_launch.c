/* A kernel's logged launch: arguments and the capture's estimates (autotune_launch.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/autotune_launch.h"
#include "parse/tconfig.h"
#include "util/mem.h"
#include "banned.h"

struct at_launch *at_launch_new(struct at_src src)
{
	struct at_launch *l = xcalloc(1, sizeof(*l));

	l->total_bytes = l->best_ms = l->rate_gbps = NAN;
	l->peak_gbps = l->peak_pct = NAN;
	l->src = src;
	return l;
}

void at_launch_free(struct at_launch *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nargs; i++) {
		free(l->args[i].name);
		free(l->args[i].shape);
		free(l->args[i].dtype);
		free(l->args[i].stride);
		free(l->args[i].value);
	}
	free(l->args);
	free(l->inputs_saved);
	free(l->run_standalone);
	free(l);
}

struct at_arg *at_launch_add_arg(struct at_launch *l, const char *name, size_t len)
{
	struct at_arg *a;

	ALLOC_GROW(l->args, l->nargs + 1, l->args_alloc);
	a = &l->args[l->nargs++];
	memset(a, 0, sizeof(*a));
	a->name = xstrndup(name, len);
	return a;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int at_launch_same_args(const struct at_launch *a, const struct at_launch *b)
{
	size_t i;

	if (a->nargs != b->nargs)
		return 0;
	for (i = 0; i < a->nargs; i++) {
		const struct at_arg *x = &a->args[i], *y = &b->args[i];

		if (!same_str(x->name, y->name) || !same_str(x->shape, y->shape) ||
		    !same_str(x->dtype, y->dtype) || !same_str(x->stride, y->stride) ||
		    !same_str(x->value, y->value))
			return 0;
	}
	return 1;
}

static void fill_num(double *to, double from)
{
	if (isnan(*to))
		*to = from;
}

static void fill_str(char **to, const char *from)
{
	if (!*to && from)
		*to = xstrdup(from);
}

void at_launch_fill(struct at_launch *to, const struct at_launch *from)
{
	fill_num(&to->total_bytes, from->total_bytes);
	fill_num(&to->best_ms, from->best_ms);
	fill_num(&to->rate_gbps, from->rate_gbps);
	fill_num(&to->peak_gbps, from->peak_gbps);
	fill_num(&to->peak_pct, from->peak_pct);
	fill_str(&to->inputs_saved, from->inputs_saved);
	fill_str(&to->run_standalone, from->run_standalone);
	if (to->metrics_src.fmt == AT_FMT_NONE)
		to->metrics_src = from->metrics_src;
}

int at_dims_parse(const char *s, size_t n, long *out, size_t max)
{
	size_t i = 1, count = 0;

	if (n < 2 || s[0] != '[' || s[n - 1] != ']')
		return -1;
	n--;
	while (i < n) {
		size_t start;

		while (i < n && s[i] == ' ')
			i++;
		start = i;
		while (i < n && s[i] != ',')
			i++;
		if (count == max || span_long(s + start, i - start, &out[count]) < 0)
			return -1;
		count++;
		if (i < n)
			i++;	/* the comma */
		if (i == n && s[i - 1] == ',')
			return -1;
	}
	return (int)count;
}
