/*
 * A small option-table parser, after git's parse-options.h: a command
 * declares its options as a table, and parsing, "-h/--help" text and usage
 * errors all come from that table.
 *
 * Usage:
 *
 *	static const char *const usage[] = {
 *		"tko isa [--kernel NAME] [--json FILE] PATH...",
 *		NULL,		(further lines are printed after the options)
 *	};
 *	const char *json = NULL;
 *	int quiet = 0;
 *	const struct opt options[] = {
 *		OPT_STRING(0, "json", &json, "FILE", "write JSON to FILE ('-': stdout)"),
 *		OPT_BOOL('q', "quiet", &quiet, "no progress messages"),
 *		OPT_END(),
 *	};
 *	int n = opts_parse(argc, argv, options, usage, 0, NULL);
 *	if (n < 0)
 *		return opts_exit_code(n);
 *	(argv[0..n) now holds the positional arguments)
 *
 * argv[0] is the command's name and is skipped. "--name=value" and
 * "--name value" both work, as do "-x value" and "-xvalue". A lone "-" is
 * a positional argument. "--" ends option parsing: what follows it is
 * positional, and OPTS_REST reports where it starts (for "-- CMD ARGS").
 */
#ifndef TKO_OPTS_H
#define TKO_OPTS_H

#include <stddef.h>

enum opt_kind {
	OPT_KIND_END,
	OPT_KIND_BOOL,		/* int *: set to 1 (--no-NAME sets 0) */
	OPT_KIND_STRING,	/* const char **: the argument */
	OPT_KIND_INT,		/* long *: a decimal integer */
	OPT_KIND_DOUBLE,	/* double *: a number */
	OPT_KIND_LIST,		/* struct strlist *: appended, repeatable */
};

struct opt {
	enum opt_kind kind;
	int short_name;		/* one letter, or 0 */
	const char *long_name;	/* without the dashes, or NULL */
	void *value;		/* where the value goes (see enum opt_kind) */
	const char *argh;	/* the argument's name in help ("FILE") */
	const char *help;	/* one line for --help */
};

/* A list of borrowed strings, grown by repeatable options. */
struct strlist {
	const char **v;
	size_t nr, alloc;
};
#define STRLIST_INIT { NULL, 0, 0 }
void strlist_push(struct strlist *l, const char *s);
void strlist_release(struct strlist *l);
/* Sorts the strings in strcmp order (file names: byte order, reproducible). */
void strlist_sort(struct strlist *l);

#define OPT_BOOL(s, l, v, h) { OPT_KIND_BOOL, (s), (l), (v), NULL, (h) }
#define OPT_STRING(s, l, v, a, h) { OPT_KIND_STRING, (s), (l), (v), (a), (h) }
#define OPT_INT(s, l, v, a, h) { OPT_KIND_INT, (s), (l), (v), (a), (h) }
#define OPT_DOUBLE(s, l, v, a, h) { OPT_KIND_DOUBLE, (s), (l), (v), (a), (h) }
#define OPT_LIST(s, l, v, a, h) { OPT_KIND_LIST, (s), (l), (v), (a), (h) }
#define OPT_END() { OPT_KIND_END, 0, NULL, NULL, NULL, NULL }

enum {
	OPTS_REST = 1,		/* keep what follows "--" for the caller */
};

#define OPTS_HELP (-2)		/* --help was printed */
#define OPTS_ERROR (-1)		/* a usage error was printed */

/*
 * Parses argv against the table. Returns the number of positional
 * arguments (moved to argv[0..n), including those after "--"; with
 * OPTS_REST, *rest is the index of the first one after "--", or -1 when
 * there was no "--"), OPTS_HELP after printing help to
 * stdout, or OPTS_ERROR after printing "tko CMD: <problem>" and the usage
 * line to stderr.
 */
int opts_parse(int argc, const char **argv, const struct opt *opts,
	       const char *const *usage, unsigned flags, int *rest);

/* Prints the help text built from usage[] and opts to `fp`. */
void opts_usage(void *fp, const struct opt *opts, const char *const *usage);

/* The process exit code for a negative opts_parse() result. */
int opts_exit_code(int parse_result);

/*
 * Strict number parsing for option values and text fields: the whole
 * string must be a number. Return 0 or -1.
 */
int parse_long(const char *s, long *out);
int parse_double(const char *s, double *out);

#endif
