/* The sliding window over a plain or gzip-compressed profile (input.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "profile/input.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

int input_open(struct prof_input *in, const char *path, struct buf *err)
{
	struct stat st;
	int fd;

	memset(in, 0, sizeof(*in));
	in->path = path;
	/* opened once, so that a pipe is read from its first byte */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		buf_addf(err, "'%s' is a directory, not a profile", path);
		close(fd);
		return -1;
	}
	in->stream = !S_ISREG(st.st_mode);
	file_note_input(path);	/* so that no output of the command replaces it (util/file.h) */
	in->gz = gzdopen(fd, "rb");
	if (!in->gz) {
		buf_addf(err, "cannot open '%s': %s", path, "zlib failed");
		close(fd);
		return -1;
	}
	gzbuffer(in->gz, 256u << 10);
	in->cap = INPUT_CHUNK;
	in->buf = xmalloc(in->cap + 1);
	return 0;
}

void input_close(struct prof_input *in)
{
	if (in->gz)
		gzclose(in->gz);
	free(in->buf);
	memset(in, 0, sizeof(*in));
}

/*
 * A pipe or a device is text or nothing, and not endless (util/file.h's
 * rule for streams): a NUL byte in the n bytes just read, or more than
 * FILE_STREAM_MAX bytes in all, ends the read with an error.
 */
static int stream_check(const struct prof_input *in, size_t n, struct buf *err)
{
	const char *nul = memchr(in->buf + in->len, '\0', n);

	if (nul) {
		buf_addf(err, "'%s' is binary, not text (NUL byte at offset %llu)", in->path,
			 (unsigned long long)(in->base + (uint64_t)(nul - in->buf)));
		return -1;
	}
	if (in->base + in->len + n > FILE_STREAM_MAX) {
		buf_addf(err, "'%s' is a stream of more than %zu MiB; save it to a file", in->path,
			 FILE_STREAM_MAX >> 20);
		return -1;
	}
	return 0;
}

long input_more(struct prof_input *in, struct buf *err)
{
	int n, zerr;

	if (in->eof)
		return 0;
	if (in->pos) {
		memmove(in->buf, in->buf + in->pos, in->len - in->pos);
		in->base += in->pos;
		in->len -= in->pos;
		in->pos = 0;
	}
	if (in->len == in->cap) {
		if (in->cap >= INPUT_MAX_WINDOW) {
			buf_addf(err, "'%s': one item at byte %llu is over %u MiB; not a profile tko reads",
				 in->path, (unsigned long long)in->base, INPUT_MAX_WINDOW >> 20);
			return -1;
		}
		in->cap *= 2;
		in->buf = xrealloc(in->buf, in->cap + 1);
	}
	n = gzread(in->gz, in->buf + in->len, (unsigned)(in->cap - in->len));
	if (n < 0) {
		const char *m = gzerror(in->gz, &zerr);

		if (zerr == Z_BUF_ERROR || zerr == Z_DATA_ERROR) {
			/* a cut or damaged gzip stream: what came before it stands */
			in->eof = 2;
			return 0;
		}

		buf_addf(err, "'%s': cannot read at byte %llu: %s", in->path,
			 (unsigned long long)(in->base + in->len),
			 zerr == Z_ERRNO ? strerror(errno) : m);
		return -1;
	}
	if (!in->base && !in->len)
		in->gzip = !gzdirect(in->gz);	/* known once the first bytes are read */
	if (n == 0) {
		in->eof = 1;
		/* a gzip stream cut short reads as end of file with an error set */
		gzerror(in->gz, &zerr);
		if (zerr != Z_OK && zerr != Z_STREAM_END && in->gzip)
			in->eof = 2;
	}
	if (in->stream && stream_check(in, (size_t)n, err) < 0)
		return -1;
	in->len += (size_t)n;
	in->buf[in->len] = '\0';
	return n;
}

int input_line(struct prof_input *in, const char **line, size_t *n, struct buf *err)
{
	size_t scanned = 0;

	for (;;) {
		char *s = in->buf + in->pos;
		char *nl = memchr(s + scanned, '\n', in->len - in->pos - scanned);
		long got;

		if (nl) {
			size_t k = (size_t)(nl - s);

			*line = s;
			*n = k && s[k - 1] == '\r' ? k - 1 : k;
			in->pos += k + 1;
			return 1;
		}
		scanned = in->len - in->pos;
		got = input_more(in, err);
		if (got < 0)
			return -1;
		if (got == 0) {
			if (in->len == in->pos)
				return 0;
			*line = in->buf + in->pos;
			*n = in->len - in->pos;
			if (*n && (*line)[*n - 1] == '\r')
				(*n)--;
			in->pos = in->len;
			return 1;
		}
	}
}
