/* The sliding window over a plain or gzip-compressed profile (input.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile/input.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

int input_open(struct prof_input *in, const char *path, struct buf *err)
{
	unsigned char magic[2] = { 0, 0 };
	FILE *fp;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (is_dir(path)) {
		buf_addf(err, "'%s' is a directory, not a profile", path);
		return -1;
	}
	fp = fopen(path, "rb");
	if (!fp) {
		buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	in->gzip = fread(magic, 1, 2, fp) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	fclose(fp);
	in->gz = gzopen(path, "rb");
	if (!in->gz) {
		buf_addf(err, "cannot open '%s': %s", path, errno ? strerror(errno) : "zlib failed");
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
	if (n == 0) {
		in->eof = 1;
		/* a gzip stream cut short reads as end of file with an error set */
		gzerror(in->gz, &zerr);
		if (zerr != Z_OK && zerr != Z_STREAM_END && in->gzip)
			in->eof = 2;
	}
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
