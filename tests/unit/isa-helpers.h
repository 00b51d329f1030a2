/*
 * Helpers for the ISA scanners' unit tests: scan a text literal (copied
 * into an exactly-sized heap block, so a read past its end is an ASan
 * error) and look up counts in the result by name.
 */
#ifndef TKO_TEST_ISA_HELPERS_H
#define TKO_TEST_ISA_HELPERS_H

#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "util/mem.h"

/* Scans `text` as `kind`; the caller frees with scan_free(). */
static inline struct isa_file_result *scan_as(const char *text, enum isa_kind kind)
{
	struct isa_file_result *f = xmalloc(sizeof(*f));
	size_t n = strlen(text);
	char *copy = xmalloc(n ? n : 1);
	struct buf err = BUF_INIT;

	memcpy(copy, text, n);
	isa_file_init(f, "test.s");
	if (isa_scan_text("test.s", copy, n, kind, f, &err) < 0) {
		isa_file_release(f);
		free(f);
		f = NULL;
	}
	free(copy);
	buf_release(&err);
	return f;
}

static inline void scan_free(struct isa_file_result *f)
{
	isa_file_release(f);
	free(f);
}

static inline const struct isa_kernel *kernel_named(const struct isa_file_result *f,
						     const char *name, const char *arch)
{
	size_t i;

	for (i = 0; i < f->kernels_nr; i++)
		if (!strcmp(f->kernels[i]->name, name) &&
		    (!arch || (f->kernels[i]->arch && !strcmp(f->kernels[i]->arch, arch))))
			return f->kernels[i];
	return NULL;
}

/* Count of op `name` in kernel k (0 when absent). */
static inline unsigned long long op_count(const struct isa_file_result *f,
					  const struct isa_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < f->ops_nr && i < k->ops_alloc; i++)
		if (!strcmp(f->ops[i].name, name))
			return k->ops[i];
	return 0;
}

static inline int has_note(char **v, size_t n, const char *part)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(v[i], part))
			return 1;
	return 0;
}

static inline const struct isa_finding *finding_of(const struct isa_kernel *k,
						   const char *id)
{
	size_t i;

	for (i = 0; i < k->findings_nr; i++)
		if (!strcmp(k->findings[i].id, id))
			return &k->findings[i];
	return NULL;
}

#endif
