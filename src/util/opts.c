/* The option-table parser (see opts.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "util/mem.h"
#include "util/msg.h"
#include "util/opts.h"
#include "banned.h"

void strlist_push(struct strlist *l, const char *s)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = s;
}

void strlist_release(struct strlist *l)
{
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void strlist_sort(struct strlist *l)
{
	if (l->nr > 1)
		qsort(l->v, l->nr, sizeof(*l->v), cmp_str);
}

int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

void opts_usage(void *out, const struct opt *opts, const char *const *usage)
{
	FILE *fp = out;
	const struct opt *o;
	size_t i;

	fprintf(fp, "usage: %s\n\n", usage[0]);
	for (o = opts; o->kind != OPT_KIND_END; o++) {
		char left[96];
		int n = 0;

		if (o->short_name && o->long_name)
			n = snprintf(left, sizeof(left), "-%c, --%s",
				     o->short_name, o->long_name);
		else if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c", o->short_name);
		else
			n = snprintf(left, sizeof(left), "    --%s", o->long_name);
		if (o->argh && n > 0 && (size_t)n < sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->argh);
		fprintf(fp, "    %-26s %s\n", left, o->help ? o->help : "");
	}
	fprintf(fp, "    %-26s %s\n", "-h, --help", "show this help");
	if (usage[1]) {
		fputc('\n', fp);
		for (i = 1; usage[i]; i++)
			fprintf(fp, "%s\n", usage[i]);
	}
}

static int usage_error(const struct opt *opts, const char *const *usage,
		       const char *fmt, const char *what)
{
	(void)opts;
	msg_error(fmt, what);
	fprintf(stderr, "usage: %s\n", usage[0]);
	fprintf(stderr, "(see 'tko %s --help')\n", msg_command());
	return OPTS_ERROR;
}

static int set_value(const struct opt *o, const char *arg,
		     const struct opt *opts, const char *const *usage)
{
	char label[80];

	if (o->long_name)
		snprintf(label, sizeof(label), "--%s", o->long_name);
	else
		snprintf(label, sizeof(label), "-%c", o->short_name);
	switch (o->kind) {
	case OPT_KIND_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_KIND_LIST:
		strlist_push(o->value, arg);
		return 0;
	case OPT_KIND_INT:
		if (parse_long(arg, o->value) < 0)
			return usage_error(opts, usage,
					   "%s needs an integer", label);
		return 0;
	case OPT_KIND_DOUBLE:
		if (parse_double(arg, o->value) < 0)
			return usage_error(opts, usage,
					   "%s needs a number", label);
		return 0;
	default:
		return 0;
	}
}

static const struct opt *find_long(const struct opt *opts, const char *name,
				   size_t len)
{
	const struct opt *o;

	for (o = opts; o->kind != OPT_KIND_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, int c)
{
	const struct opt *o;

	for (o = opts; o->kind != OPT_KIND_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* Handles argv[*i], a "--..." argument. Returns 0, OPTS_HELP or OPTS_ERROR. */
static int parse_long_opt(int argc, const char **argv, int *i,
			  const struct opt *opts, const char *const *usage)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt *o = find_long(opts, name, len);

	if (!o && len == 4 && !strncmp(name, "help", 4)) {
		opts_usage(stdout, opts, usage);
		return OPTS_HELP;
	}
	if (!o && len > 3 && !strncmp(name, "no-", 3)) {
		o = find_long(opts, name + 3, len - 3);
		if (o && o->kind == OPT_KIND_BOOL && !eq) {
			*(int *)o->value = 0;
			return 0;
		}
		o = NULL;
	}
	if (!o)
		return usage_error(opts, usage, "unknown option '%s'", argv[*i]);
	if (o->kind == OPT_KIND_BOOL) {
		if (eq)
			return usage_error(opts, usage,
					   "option '%s' takes no value", argv[*i]);
		*(int *)o->value = 1;
		return 0;
	}
	if (eq)
		return set_value(o, eq + 1, opts, usage);
	if (*i + 1 >= argc)
		return usage_error(opts, usage, "option '%s' needs a value",
				   argv[*i]);
	(*i)++;
	return set_value(o, argv[*i], opts, usage);
}

/* Handles argv[*i], a "-x..." cluster. Returns 0, OPTS_HELP or OPTS_ERROR. */
static int parse_short_opts(int argc, const char **argv, int *i,
			    const struct opt *opts, const char *const *usage)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct opt *o = find_short(opts, *p);
		char flag[3] = { '-', *p, '\0' };

		if (!o && *p == 'h') {
			opts_usage(stdout, opts, usage);
			return OPTS_HELP;
		}
		if (!o)
			return usage_error(opts, usage, "unknown option '%s'", flag);
		if (o->kind == OPT_KIND_BOOL) {
			*(int *)o->value = 1;
			continue;
		}
		if (p[1])
			return set_value(o, p + 1, opts, usage);
		if (*i + 1 >= argc)
			return usage_error(opts, usage,
					   "option '%s' needs a value", flag);
		(*i)++;
		return set_value(o, argv[*i], opts, usage);
	}
	return 0;
}

int opts_parse(int argc, const char **argv, const struct opt *opts,
	       const char *const *usage, unsigned flags, int *rest)
{
	int i, npos = 0;

	if (rest)
		*rest = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = 0;

		if (!strcmp(a, "--")) {
			int j;

			if (flags & OPTS_REST && rest)
				*rest = npos;
			for (j = i + 1; j < argc; j++)
				argv[npos++] = argv[j];
			break;
		}
		if (a[0] == '-' && a[1] == '-')
			r = parse_long_opt(argc, argv, &i, opts, usage);
		else if (a[0] == '-' && a[1])
			r = parse_short_opts(argc, argv, &i, opts, usage);
		else
			argv[npos++] = a;
		if (r < 0)
			return r;
	}
	if (npos < argc)
		argv[npos] = NULL;
	return npos;
}

int opts_exit_code(int parse_result)
{
	return parse_result == OPTS_HELP ? EXIT_OK : EXIT_USAGE;
}
