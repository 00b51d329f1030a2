/*
 * Fuzzes gzip-compressed profiles (profile/input.c over zlib), whole, cut
 * short and damaged, through every reader `tko profile` picks.
 *
 * The input is a profile's text followed by four control bytes: c0 c1
 * choose where the compressed file is cut, c2 c3 which byte of it is
 * damaged (xor 0xa5). The text is compressed in gzip format and read four
 * ways, each under the same file name so that messages can be compared:
 *   plain       the text as it is;
 *   whole .gz   must read exactly as the plain text does (the same error
 *               text, or the same activities, ops, notes count...), save
 *               that an SQLite file cannot be read compressed;
 *   cut .gz     the first k bytes: an error, or a profile flagged partial
 *               that, for a Chrome trace, holds no more activities than
 *               the whole one (a cut keeps what came before it);
 *   damaged     one byte changed: an error or a profile, never a crash.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

static void gzip_bytes(const uint8_t *data, size_t size, struct buf *out)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	buf_grow(out, deflateBound(&z, size));
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)size;
	z.next_out = (Bytef *)out->buf;
	z.avail_out = (uInt)(out->alloc - 1);
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	buf_setlen(out, z.total_out);
	deflateEnd(&z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_prof plain, whole, cut, bad;
	struct buf gz = BUF_INIT;
	unsigned at, flip;
	const char *path;

	if (size < 4)
		return 0;
	size -= 4;
	at = data[size] | (unsigned)data[size + 1] << 8;
	flip = data[size + 2] | (unsigned)data[size + 3] << 8;
	gzip_bytes(data, size, &gz);

	path = fuzz_write_input("profile", data, size);
	fuzz_profile_path(path, &plain);
	fuzz_write_input("profile", (const uint8_t *)gz.buf, gz.len);
	fuzz_profile_path(path, &whole);
	if (plain.format == PROF_FMT_NSYS_SQLITE)
		FUZZ_CHECK(whole.ret < 0);
	else
		fuzz_prof_same(&plain, &whole);

	at %= gz.len;
	fuzz_write_input("profile", (const uint8_t *)gz.buf, at);
	fuzz_profile_path(path, &cut);
	FUZZ_CHECK(cut.ret < 0 || cut.partial);
	if (!cut.ret && !whole.ret && whole.format == PROF_FMT_KINETO)
		FUZZ_CHECK(cut.nacts <= whole.nacts);

	gz.buf[flip % gz.len] ^= (char)0xa5;
	fuzz_write_input("profile", (const uint8_t *)gz.buf, gz.len);
	fuzz_profile_path(path, &bad);

	fuzz_prof_release(&plain);
	fuzz_prof_release(&whole);
	fuzz_prof_release(&cut);
	fuzz_prof_release(&bad);
	buf_release(&gz);
	return 0;
}
