/*
 * A sliding window over a profile file, plain or gzip-compressed (zlib
 * reads both: a file without the gzip magic is passed through), so that
 * readers see a contiguous span of the bytes they are parsing while only a
 * bounded part of the file is ever in memory.
 *
 *	struct prof_input in;
 *	if (input_open(&in, path, &err) < 0) ...
 *	while (... input_avail(&in) < need ...)
 *		if (input_more(&in, &err) <= 0) ...	(0: end of file)
 *	... in.buf + in.pos, input_avail(&in) bytes ...
 *	in.pos += used;
 *	input_close(&in);
 *
 * input_more() moves the unread bytes to the front and reads more; the
 * window grows (doubling) only when the unread bytes fill it, up to
 * INPUT_MAX_WINDOW, past which it fails: one event of a profile larger
 * than that is not a profile tko can read in bounded memory.
 *
 * The file is opened once, so a pipe (`tko profile <(zcat t.json.gz)`)
 * is read from its first byte; a pipe or device is refused at a NUL byte
 * and past FILE_STREAM_MAX bytes (util/file.h), as every input of tko is.
 */
#ifndef TKO_PROFILE_INPUT_H
#define TKO_PROFILE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

#define INPUT_CHUNK (1u << 20)
#define INPUT_MAX_WINDOW (64u << 20)

struct prof_input {
	const char *path;	/* for messages */
	void *gz;		/* zlib's gzFile */
	char *buf;		/* the window: buf[pos..len) is unread */
	size_t pos, len, cap;
	int eof;		/* 1: the file has no more bytes; 2: it ended early (a cut gzip stream) */
	int gzip;		/* the file is gzip-compressed (known after the first read) */
	int stream;		/* a pipe or device: text only, at most FILE_STREAM_MAX bytes */
	uint64_t base;		/* bytes of the (uncompressed) stream before buf[0] */
};

int input_open(struct prof_input *in, const char *path, struct buf *err);
void input_close(struct prof_input *in);

static inline size_t input_avail(const struct prof_input *in)
{
	return in->len - in->pos;
}

/* The (uncompressed) offset of buf[pos], for messages. */
static inline uint64_t input_offset(const struct prof_input *in)
{
	return in->base + in->pos;
}

/* Reads more bytes; returns how many, 0 at end of file, -1 with a line in err. */
long input_more(struct prof_input *in, struct buf *err);

/*
 * The next line (without its "\n" or "\r\n") in *line / *n; returns 1,
 * 0 at end of file, -1 on error (a line over INPUT_MAX_WINDOW). The span
 * is valid until the next call.
 */
int input_line(struct prof_input *in, const char **line, size_t *n, struct buf *err);

#endif
