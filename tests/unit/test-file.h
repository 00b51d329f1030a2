/*
 * A file's whole text for a unit test, through util/file's reader (the same
 * errors as file_map); the test fails with the reader's message. And a
 * JSON document of the corpus.
 * Include after <cmocka.h>.
 */
#ifndef TKO_TEST_FILE_H
#define TKO_TEST_FILE_H

#include <stdlib.h>

#include <jansson.h>

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

/* A JSON document of tests/corpus ($CORPUS) by its path there (json_decref it). */
static inline json_t *test_corpus_json(const char *rel)
{
	const char *base = getenv("CORPUS");
	json_t *doc;
	char *p;

	if (!base)
		fail_msg("CORPUS is not set (the Makefile sets it to tests/corpus)");
	p = path_join(base, rel);
	doc = json_load_file(p, 0, NULL);
	if (!doc)
		fail_msg("%s: not a JSON document", p);
	free(p);
	return doc;
}

#endif
