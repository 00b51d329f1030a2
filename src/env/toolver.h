/*
 * Finding the version in a tool's "--version" text, e.g.
 * "Cuda compilation tools, release 13.0, V13.0.88" (nvcc, cuobjdump,
 * nvdisasm), "HIP version: 6.3.42134-a9a80e791" (hipcc),
 * "Version 2025.3.1.0 (build ...)" (ncu), "dcc version: 25.10.0-0" (DTK).
 *
 * The line chosen is the first holding `hint` (any case), else the first
 * holding "version", else the first non-empty line; the version is the
 * first word of it, after the hint, that starts with a digit and holds a
 * '.', without trailing punctuation.
 */
#ifndef TKO_ENV_TOOLVER_H
#define TKO_ENV_TOOLVER_H

#include <stddef.h>

struct tool_version {
	char version[64];	/* "13.0", or "" when none was found */
	char line[160];		/* the line it came from, trimmed (maybe cut), or "" */
};

/* Returns 0 when a version was found, -1 otherwise (line may still be set). */
int tool_version_parse(const char *p, size_t n, const char *hint, struct tool_version *out);

#endif
