/*
 * A file's whole text for a unit test, through util/file's reader (the same
 * errors as file_map); the test fails with the reader's message.
 * Include after <cmocka.h>.
 */
#ifndef TKO_TEST_FILE_H
#define TKO_TEST_FILE_H

#include "util/buf.h"
#include "util/file.h"

/* The text, NUL-terminated (free() it); its length into *len unless len is NULL. */
static inline char *test_read_file(const char *path, size_t *len)
{
	struct buf b = BUF_INIT, err = BUF_INIT;

	if (file_read(path, 0, &b, &err) < 0)
		fail_msg("%s", err.buf);
	buf_release(&err);
	return buf_detach(&b, len);
}

#endif
