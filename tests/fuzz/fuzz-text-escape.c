/*
 * Fuzzes the escaping of control characters in text outputs
 * (util/textout.c, issue 22): the input goes through text_escape() and,
 * in pieces whose sizes the input's first byte picks, through a
 * text_fdopen() stream into a memory file. Neither output may hold a C0
 * control but tab and newline, DEL, or a C1 control (U+0080..U+009F), and
 * the stream must write what text_escape() gives for the same bytes.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "util/buf.h"
#include "util/textout.h"
#include "banned.h"

static void assert_clean(const char *p, size_t n, int keep_nl)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t' && !(keep_nl && c == '\n')) || c == 0x7f)
			abort();
		if (c == 0xc2 && i + 1 < n && (unsigned char)p[i + 1] >= 0x80 &&
		    (unsigned char)p[i + 1] <= 0x9f)
			abort();
	}
}

/* What a text stream writes for data[0..n), fed in pieces of `step` bytes. */
static void through_stream(const char *data, size_t n, size_t step, struct buf *out)
{
	int fd = memfd_create("fuzz-textout", 0), wfd;
	FILE *fp;
	size_t i;
	off_t len;

	if (fd < 0 || (wfd = dup(fd)) < 0 || !(fp = text_fdopen(wfd)))
		abort();
	for (i = 0; i < n; i += step) {
		fwrite(data + i, 1, i + step < n ? step : n - i, fp);
		fflush(fp);
	}
	if (fclose(fp) != 0)
		abort();
	len = lseek(fd, 0, SEEK_END);
	buf_grow(out, (size_t)len);
	if (pread(fd, out->buf, (size_t)len, 0) != len)
		abort();
	buf_setlen(out, (size_t)len);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf esc = BUF_INIT, nl = BUF_INIT, streamed = BUF_INIT;
	size_t step = size ? (size_t)data[0] % 17 + 1 : 1;

	text_escape(&esc, (const char *)data, size, 0);
	assert_clean(esc.buf, esc.len, 0);
	if (text_needs_escape(esc.buf, esc.len, 0))
		abort();
	text_escape(&nl, (const char *)data, size, 1);
	through_stream((const char *)data, size, step, &streamed);
	assert_clean(streamed.buf, streamed.len, 1);
	if (streamed.len != nl.len || memcmp(streamed.buf, nl.buf, nl.len))
		abort();
	buf_release(&esc);
	buf_release(&nl);
	buf_release(&streamed);
	return 0;
}
