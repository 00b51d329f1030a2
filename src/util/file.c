/* File input (map/read, text checks) and atomic output (see file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

static int read_fd(int fd, const char *path, size_t max_len, struct buf *out,
		   struct buf *err)
{
	size_t start = out->len;

	for (;;) {
		ssize_t n;

		buf_grow(out, 65536);
		n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			buf_addf(err, "cannot read '%s': %s", path, strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;
		buf_setlen(out, out->len + (size_t)n);
		if (max_len && out->len - start > max_len) {
			buf_addf(err, "'%s' is larger than %zu bytes", path, max_len);
			return -1;
		}
	}
}

static int open_input(const char *path, struct stat *st, struct buf *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, st) < 0) {
		buf_addf(err, "cannot stat '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st->st_mode)) {
		buf_addf(err, "'%s' is a directory, not a file", path);
		close(fd);
		return -1;
	}
	return fd;
}

int file_map(const char *path, size_t max_len, struct mapped_file *m,
	     struct buf *err)
{
	struct stat st;
	int fd = open_input(path, &st, err);

	*m = (struct mapped_file)MAPPED_FILE_INIT;
	if (fd < 0)
		return -1;
	/*
	 * A regular file of size 0 is read, not mapped: /proc and /sys files
	 * say 0 and still have bytes (or fail to read, which must be said).
	 */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p;

		if (max_len && (uintmax_t)st.st_size > max_len) {
			buf_addf(err, "'%s' is larger than %zu bytes", path, max_len);
			close(fd);
			return -1;
		}
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			buf_addf(err, "cannot map '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
		m->map = p;
		m->data = p;
		m->len = (size_t)st.st_size;
		close(fd);
		return 0;
	} else {
		struct buf b = BUF_INIT;
		int ret = read_fd(fd, path, max_len, &b, err);

		close(fd);
		if (ret < 0) {
			buf_release(&b);
			return -1;
		}
		m->len = b.len;
		m->heap = buf_detach(&b, NULL);
		m->data = m->heap;
		return 0;
	}
}

void file_unmap(struct mapped_file *m)
{
	if (m->map)
		munmap(m->map, m->len);
	free(m->heap);
	*m = (struct mapped_file)MAPPED_FILE_INIT;
}

int file_read(const char *path, size_t max_len, struct buf *out,
	      struct buf *err)
{
	struct stat st;
	int fd = open_input(path, &st, err);
	int ret;

	if (fd < 0)
		return -1;
	ret = read_fd(fd, path, max_len, out, err);
	close(fd);
	return ret;
}

int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An existing path that is neither a regular file nor a directory. */
static int is_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	       !S_ISDIR(st.st_mode);
}

int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int text_has_nul(const char *p, size_t len, size_t probe, size_t *off)
{
	const char *nul = memchr(p, '\0', len < probe ? len : probe);

	if (!nul)
		return 0;
	*off = (size_t)(nul - p);
	return -1;
}

/* Length of the UTF-8 sequence at p (1..4), or 0 when it is malformed. */
static size_t utf8_seq(const unsigned char *p, size_t left)
{
	unsigned c = p[0];
	size_t n, i;
	uint32_t cp;

	if (c < 0xc2)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
	if (!n || n > left)
		return 0;
	cp = c & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * Validates UTF-8 and, when `nul` is set, also stops at the first NUL
 * byte (*nul = 1), so a text input needs one pass, not two.
 */
static int text_scan(const char *s, size_t len, size_t *off, int *nul)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
#if defined(__SSE2__)
		/*
		 * Fast path: 64 ASCII bytes with no NUL at a time, one branch
		 * (the OR has the high bits, the unsigned minimum a zero byte):
		 * every text input is checked, so this runs on every byte.
		 */
		while (i + 64 <= len) {
			const __m128i *q = (const __m128i *)(const void *)(p + i);
			__m128i a = _mm_loadu_si128(q), b = _mm_loadu_si128(q + 1);
			__m128i c = _mm_loadu_si128(q + 2), d = _mm_loadu_si128(q + 3);
			__m128i any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
			__m128i low = _mm_min_epu8(_mm_min_epu8(a, b), _mm_min_epu8(c, d));
			int m = _mm_movemask_epi8(any);

			if (nul)
				m |= _mm_movemask_epi8(_mm_cmpeq_epi8(low, _mm_setzero_si128()));
			if (m)
				break;
			i += 64;
		}
		/* Then sixteen at a time. */
		while (i + 16 <= len) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			int m = _mm_movemask_epi8(v);

			if (nul)
				m |= _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
			if (m)
				break;
			i += 16;
		}
#endif
		/* Then eight at a time. */
		while (i + 8 <= len) {
			uint64_t w;

			memcpy(&w, p + i, 8);
			if ((w & 0x8080808080808080ull) ||
			    (nul && ((w - 0x0101010101010101ull) & ~w &
				     0x8080808080808080ull)))
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if (!p[i] && nul) {
			*nul = 1;
			*off = i;
			return -1;
		}
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		{
			size_t n = utf8_seq(p + i, len - i);

			if (!n) {
				*off = i;
				return -1;
			}
			i += n;
		}
	}
	return 0;
}

int utf8_check(const char *s, size_t len, size_t *off)
{
	return text_scan(s, len, off, NULL);
}

int text_input_check(const char *path, const char *p, size_t len,
		     struct buf *err)
{
	size_t off;
	int nul = 0;

	if (!len) {
		buf_addf(err, "'%s' is empty", path);
		return -1;
	}
	if (text_scan(p, len, &off, &nul)) {
		const char *z = nul ? p + off : memchr(p + off, '\0', len - off);

		/* A NUL anywhere makes it binary, even after a bad UTF-8 byte. */
		if (z) {
			off = (size_t)(z - p);
			buf_addf(err, "'%s' is binary, not text (NUL byte at offset %zu)",
				 path, off);
			return -1;
		}
		buf_addf(err, "'%s' is not UTF-8 text (invalid byte at offset %zu)",
			 path, off);
		return -1;
	}
	return 0;
}

int atomic_open(struct atomic_file *af, const char *path, struct buf *err)
{
	int fd;

	*af = (struct atomic_file)ATOMIC_FILE_INIT;
	if (!strcmp(path, "-")) {
		af->fp = stdout;
		return 0;
	}
	if (is_dir(path)) {
		buf_addf(err, "cannot write '%s': it is a directory", path);
		return -1;
	}
	if (is_special(path)) {
		/*
		 * A device or FIFO (/dev/null, a pipe a script reads) is written
		 * in place: renaming a temporary file over it would replace the
		 * device node with a regular file.
		 */
		af->fp = fopen(path, "w");
		if (!af->fp) {
			buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
			return -1;
		}
		af->path = xstrdup(path);
		return 0;
	}
	af->path = xstrdup(path);
	af->tmp = xstrfmt("%s.tmp.XXXXXX", path);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		buf_addf(err, "cannot create '%s': %s", path, strerror(errno));
		free(af->tmp);
		af->tmp = NULL;
		atomic_abort(af);
		return -1;
	}
	fchmod(fd, 0644);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		buf_addf(err, "cannot open '%s': %s", af->tmp, strerror(errno));
		close(fd);
		atomic_abort(af);
		return -1;
	}
	return 0;
}

/* Flushes and closes af->fp; returns 1 when anything failed. */
static int close_output(struct atomic_file *af)
{
	int failed = ferror(af->fp) || fflush(af->fp) != 0;

	if (fclose(af->fp) != 0)
		failed = 1;
	af->fp = NULL;
	return failed;
}

int atomic_commit(struct atomic_file *af, struct buf *err)
{
	if (!af->path) {
		if (fflush(stdout) || ferror(stdout)) {
			buf_addf(err, "cannot write to standard output: %s",
				 strerror(errno));
			return -1;
		}
		af->fp = NULL;
		return 0;
	}
	if (!af->tmp) {
		/* A device or FIFO written in place. */
		int failed = close_output(af);

		if (failed)
			buf_addf(err, "cannot write '%s': %s", af->path,
				 strerror(errno));
		atomic_abort(af);
		return failed ? -1 : 0;
	}
	if (close_output(af) || rename(af->tmp, af->path) < 0) {
		buf_addf(err, "cannot write '%s': %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	free(af->tmp);
	af->tmp = NULL;
	atomic_abort(af);
	return 0;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fp && af->fp != stdout)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	*af = (struct atomic_file)ATOMIC_FILE_INIT;
}

int write_file_atomic(const char *path, const void *data, size_t len,
		      struct buf *err)
{
	struct atomic_file af;

	if (atomic_open(&af, path, err) < 0)
		return -1;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		atomic_abort(&af);
		return -1;
	}
	return atomic_commit(&af, err);
}

int mkdir_p(const char *path, struct buf *err)
{
	char *p = xstrdup(path);
	char *s = p;
	int ret = 0;

	for (;;) {
		char save;

		while (*s == '/')
			s++;
		while (*s && *s != '/')
			s++;
		save = *s;
		*s = '\0';
		if (*p && mkdir(p, 0777) < 0 && errno != EEXIST) {
			buf_addf(err, "cannot create directory '%s': %s", p,
				 strerror(errno));
			ret = -1;
			break;
		}
		if (!save)
			break;
		*s = save;
	}
	if (!ret && !is_dir(path)) {
		buf_addf(err, "cannot create directory '%s': a file is in the way",
			 path);
		ret = -1;
	}
	free(p);
	return ret;
}

char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!n)
		return xstrdup(b);
	return xstrfmt("%s%s%s", a, a[n - 1] == '/' ? "" : "/", b);
}

const char *path_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
