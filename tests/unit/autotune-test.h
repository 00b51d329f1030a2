/*
 * Helpers shared by the unit tests of the autotune readers: run a text
 * through the log readers as one input, and look kernels up by id.
 * Include after <cmocka.h>.
 */
#ifndef TKO_TEST_AUTOTUNE_H
#define TKO_TEST_AUTOTUNE_H

#include <string.h>

#include "parse/autotune.h"
#include "parse/logscan.h"

/* Reads `text` as input "test.log" of `set`; returns its input index. */
static inline unsigned scan_text(struct autotune_set *set, const char *text)
{
	struct log_ctx ctx;

	ctx.set = set;
	ctx.file = at_input_add(set, "test.log");
	ctx.root = NULL;
	ctx.wrappers = NULL;
	logscan_run(&ctx, text, strlen(text));
	return ctx.file;
}

/* The kernel with this id; fails the test when there is none. */
static inline const struct at_kernel *kernel_by_id(const struct autotune_set *s,
						   const char *id)
{
	const struct at_kernel *k = NULL;

	assert_int_equal(autotune_set_find(s, id, &k), 1);
	assert_non_null(k);
	return k;
}

/* The only tuning of k; fails when it has another number. */
static inline const struct at_tuning *only_tuning(const struct at_kernel *k)
{
	assert_int_equal(k->ntunings, 1);
	return k->tunings[0];
}

#endif
