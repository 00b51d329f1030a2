/*
 * The GPU tool output excerpts of tests/data/env/ for the env/ readers'
 * unit tests. Include after <cmocka.h>.
 */
#ifndef TKO_TEST_ENV_DATA_H
#define TKO_TEST_ENV_DATA_H

#include <stdio.h>
#include <stdlib.h>

#include "util/buf.h"
#include "util/file.h"

/* tests/data/env/NAME (under $TESTDATA when set) into out; the test fails when it cannot be read. */
static inline void env_data_load(const char *name, struct buf *out)
{
	const char *dir = getenv("TESTDATA");
	char path[1024];
	struct buf err = BUF_INIT;

	snprintf(path, sizeof(path), "%s/env/%s", dir ? dir : "tests/data", name);
	assert_int_equal(file_read(path, 0, out, &err), 0);
	buf_release(&err);
}

#endif
