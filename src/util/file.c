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

#include "util/cleanup.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/textout.h"
#include "banned.h"

/* The regular files this process read, by device and inode (file_track_inputs). */
struct file_id {
	dev_t dev;
	ino_t ino;
};
static struct file_id *inputs;
static size_t ninputs, ainputs;
static int tracking;

void file_track_inputs(int on)
{
	tracking = on;
}

static void note_input(const struct stat *st)
{
	size_t i;

	if (!tracking || !S_ISREG(st->st_mode))
		return;
	for (i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return;
	ALLOC_GROW(inputs, ninputs + 1, ainputs);
	inputs[ninputs].dev = st->st_dev;
	inputs[ninputs].ino = st->st_ino;
	ninputs++;
}

void file_note_input(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		note_input(&st);
}

void file_forget_input(const char *path)
{
	struct stat st;
	size_t i;

	if (stat(path, &st) < 0)
		return;
	for (i = 0; i < ninputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
			inputs[i] = inputs[--ninputs];
			return;
		}
}

int file_is_input(const struct stat *st)
{
	size_t i;

	for (i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return 1;
	return 0;
}

/*
 * Reads fd to its end. A stream (pipe, device, socket: `stream` set) is
 * text or nothing to tko: a NUL byte stops it at once, so /dev/zero or a
 * binary pipe costs one read, and it is capped at FILE_STREAM_MAX when
 * the caller set no cap, so an endless pipe ends in an error, not in an
 * exhausted memory.
 */
static int read_fd(int fd, const char *path, size_t max_len, int stream, struct buf *out,
		   struct buf *err)
{
	size_t start = out->len;

	if (stream && !max_len)
		max_len = FILE_STREAM_MAX;
	for (;;) {
		ssize_t n;
		const char *nul;

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
		nul = stream ? memchr(out->buf + out->len, '\0', (size_t)n) : NULL;
		if (nul) {
			buf_addf(err, "'%s' is binary, not text (NUL byte at offset %zu)", path,
				 (size_t)(nul - out->buf) - start);
			return -1;
		}
		buf_setlen(out, out->len + (size_t)n);
		if (max_len && out->len - start > max_len) {
			if (stream && max_len == FILE_STREAM_MAX)
				buf_addf(err, "'%s' is a stream of more than %zu MiB; save it to a file",
					 path, max_len >> 20);
			else
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
	note_input(st);
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
		int ret = read_fd(fd, path, max_len, !S_ISREG(st.st_mode), &b, err);

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
	ret = read_fd(fd, path, max_len, !S_ISREG(st.st_mode), out, err);
	close(fd);
	return ret;
}

int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
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

/* The umask (umask() can only be read by setting it; tko has no threads to race with). */
static mode_t current_umask(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return mask;
}

/* A file tko must not replace: no write bit at all (root passes access()), or not ours to write. */
static int read_only(const char *path, const struct stat *st)
{
	return !(st->st_mode & 0222) || (access(path, W_OK) < 0 && errno == EACCES);
}

/* The folder a new file of `path` goes into ("." for a bare name). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* A device or FIFO (/dev/null, a pipe a script reads) is written in place. */
static int open_in_place(struct atomic_file *af, const char *path, int raw, struct buf *err)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0 || !(af->fp = raw ? fdopen(fd, "w") : text_fdopen(fd))) {
		buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	af->path = xstrdup(path);
	return 0;
}

/*
 * Checks an existing output against the rules of file.h; 0 with *mode set
 * to the mode the new file gets, 1 for a device or FIFO, -1 + err.
 */
static int check_target(const char *path, mode_t *mode, struct buf *err)
{
	struct stat st;

	*mode = 0666 & ~current_umask();
	if (stat(path, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		buf_addf(err, "cannot write '%s': it is a directory", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode))
		return 1;
	if (file_is_input(&st)) {
		buf_addf(err, "refusing to write '%s': it is one of this command's inputs", path);
		return -1;
	}
	if (read_only(path, &st)) {
		buf_addf(err, "refusing to replace '%s': it is read-only", path);
		return -1;
	}
	*mode = st.st_mode & 07777;
	return 0;
}

static int open_output(struct atomic_file *af, const char *path, int raw, struct buf *err)
{
	mode_t mode;
	char *dir;
	int fd, kind;

	*af = (struct atomic_file)ATOMIC_FILE_INIT;
	if (!strcmp(path, "-")) {
		af->fp = stdout;
		return 0;
	}
	if ((kind = check_target(path, &mode, err)) < 0)
		return -1;
	if (kind == 1)
		return open_in_place(af, path, raw, err);
	/* A short name, so that a target of NAME_MAX bytes still has a temporary beside it. */
	dir = dir_of(path);
	af->tmp = xstrfmt("%s/.tko-XXXXXX", dir);
	free(dir);
	fd = cleanup_mkstemp(af->tmp);
	if (fd < 0) {
		buf_addf(err, "cannot create '%s': %s", path, strerror(errno));
		free(af->tmp);
		af->tmp = NULL;
		return -1;
	}
	af->path = xstrdup(path);
	if (fchmod(fd, mode) < 0 || !(af->fp = raw ? fdopen(fd, "w") : text_fdopen(fd))) {
		buf_addf(err, "cannot open '%s': %s", af->tmp, strerror(errno));
		close(fd);
		atomic_abort(af);
		return -1;
	}
	return 0;
}

int atomic_open(struct atomic_file *af, const char *path, struct buf *err)
{
	return open_output(af, path, 0, err);
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

/* Closes af's stream: 0, or -1 + err, with af aborted. */
static int atomic_close(struct atomic_file *af, struct buf *err)
{
	if (!af->path) {
		if (fflush(stdout) || ferror(stdout)) {
			buf_addf(err, "cannot write to standard output: %s", strerror(errno));
			return -1;
		}
		af->fp = NULL;
		return 0;
	}
	if (close_output(af)) {
		buf_addf(err, "cannot write '%s': %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	return 0;
}

/* Renames a closed af into place: 0, or -1 + err; af is released either way. */
static int atomic_rename(struct atomic_file *af, struct buf *err)
{
	int ret = 0;

	if (af->tmp && rename(af->tmp, af->path) < 0) {
		buf_addf(err, "cannot write '%s': %s", af->path, strerror(errno));
		ret = -1;
	} else if (af->tmp) {
		cleanup_drop_path(af->tmp);
		free(af->tmp);
		af->tmp = NULL;
	}
	atomic_abort(af);
	return ret;
}

int atomic_commit(struct atomic_file *af, struct buf *err)
{
	if (atomic_close(af, err) < 0)
		return -1;
	return atomic_rename(af, err);
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fp && af->fp != stdout)
		fclose(af->fp);
	if (af->tmp) {
		unlink(af->tmp);
		cleanup_drop_path(af->tmp);
	}
	free(af->tmp);
	free(af->path);
	*af = (struct atomic_file)ATOMIC_FILE_INIT;
}

int write_file_atomic(const char *path, const void *data, size_t len,
		      struct buf *err)
{
	struct atomic_file af;

	if (open_output(&af, path, 1, err) < 0)
		return -1;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		buf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		atomic_abort(&af);
		return -1;
	}
	return atomic_commit(&af, err);
}

/* One output of a set: the file, or stdout's text held until the commit. */
struct atomic_member {
	struct atomic_file af;
	int to_stdout;		/* "-": af.fp is an open_memstream */
	char *held;		/* its buffer, valid once the stream is closed */
	size_t held_len;
};

FILE *atomic_set_open(struct atomic_set *s, const char *path, struct buf *err)
{
	struct atomic_member *m;

	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	m = &s->v[s->nr];
	memset(m, 0, sizeof(*m));
	if (!strcmp(path, "-")) {
		/* Standard output cannot be renamed into place: it is held, and written at the commit. */
		m->to_stdout = 1;
		m->af.fp = open_memstream(&m->held, &m->held_len);
		if (!m->af.fp) {
			buf_addf(err, "cannot hold standard output: %s", strerror(errno));
			return NULL;
		}
	} else if (atomic_open(&m->af, path, err) < 0) {
		return NULL;
	}
	s->nr++;
	return m->af.fp;
}

int atomic_set_mkdir(struct atomic_set *s, const char *base, const char *rel,
		     struct buf *err)
{
	return mkdir_in(base, rel, &s->dirs, &s->ndirs, err);
}

static void release_member(struct atomic_member *m)
{
	if (m->to_stdout) {
		if (m->af.fp)
			fclose(m->af.fp);
		m->af.fp = NULL;
		free(m->held);
		m->held = NULL;
	} else {
		atomic_abort(&m->af);
	}
}

void atomic_set_abort(struct atomic_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		release_member(&s->v[i]);
	for (i = s->ndirs; i-- > 0;) {
		rmdir(s->dirs[i]);
		free(s->dirs[i]);
	}
	free(s->dirs);
	free(s->v);
	*s = (struct atomic_set)ATOMIC_SET_INIT;
}

/* Closes every member: all written, or none kept. */
static int close_all(struct atomic_set *s, struct buf *err)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		struct atomic_member *m = &s->v[i];
		int failed = m->to_stdout ? fclose(m->af.fp) != 0 : atomic_close(&m->af, err) < 0;

		if (m->to_stdout)
			m->af.fp = NULL;
		if (m->to_stdout && failed)
			buf_addf(err, "cannot hold standard output: %s", strerror(errno));
		if (failed)
			return -1;
	}
	return 0;
}

int atomic_set_commit(struct atomic_set *s, struct buf *err)
{
	size_t i;
	int ret = 0;

	if (close_all(s, err) < 0) {
		atomic_set_abort(s);
		return -1;
	}
	for (i = 0; i < s->nr && !ret; i++)
		if (!s->v[i].to_stdout)
			ret = atomic_rename(&s->v[i].af, err);
	for (i = 0; i < s->nr && !ret; i++)
		if (s->v[i].to_stdout && s->v[i].held_len &&
		    fwrite(s->v[i].held, 1, s->v[i].held_len, stdout) != s->v[i].held_len) {
			buf_addf(err, "cannot write to standard output: %s", strerror(errno));
			ret = -1;
		}
	if (!ret && fflush(stdout) != 0) {
		buf_addf(err, "cannot write to standard output: %s", strerror(errno));
		ret = -1;
	}
	for (i = 0; i < s->nr; i++)
		release_member(&s->v[i]);
	for (i = 0; i < s->ndirs; i++)
		free(s->dirs[i]);
	free(s->dirs);
	free(s->v);
	*s = (struct atomic_set)ATOMIC_SET_INIT;
	return ret;
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

int mkdir_in(const char *base, const char *rel, char ***made, size_t *nmade,
	     struct buf *err)
{
	char *p = path_join(base, rel);
	size_t skip = strlen(p) - strlen(rel);
	char *s = p + skip;
	int ret = 0;

	for (;;) {
		struct stat st;
		char save;

		while (*s == '/')
			s++;
		while (*s && *s != '/')
			s++;
		save = *s;
		*s = '\0';
		if (lstat(p, &st) == 0) {
			if (S_ISLNK(st.st_mode)) {
				buf_addf(err, "refusing to write through '%s': it is a symbolic link "
					 "(tko writes only into folders that are really there)", p);
				ret = -1;
			} else if (!S_ISDIR(st.st_mode)) {
				buf_addf(err, "cannot create directory '%s': a file is in the way", p);
				ret = -1;
			}
		} else if (mkdir(p, 0777) < 0) {
			/* Made by someone else meanwhile: fine when it is a real folder. */
			if (errno != EEXIST || lstat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
				buf_addf(err, "cannot create directory '%s': %s", p,
					 strerror(errno == EEXIST ? ENOTDIR : errno));
				ret = -1;
			}
		} else if (made) {
			*made = xrealloc(*made, (*nmade + 1) * sizeof(**made));
			(*made)[(*nmade)++] = xstrdup(p);
		}
		if (ret || !save)
			break;
		*s = save;
	}
	free(p);
	return ret;
}

int path_within(const char *root_real, const char *path)
{
	char *p = xstrdup(path), *real = NULL;
	size_t n = strlen(root_real);
	int in;

	/* A path not there yet is judged by the nearest folder above it that is. */
	while (!(real = realpath(p, NULL))) {
		char *slash = strrchr(p, '/');

		if (errno != ENOENT || !slash || slash == p)
			break;
		*slash = '\0';
	}
	if (!real && !strchr(path, '/') && errno == ENOENT)
		real = realpath(".", NULL);
	in = real && !strncmp(real, root_real, n) &&
	     (real[n] == '/' || real[n] == '\0' || (n == 1 && root_real[0] == '/'));
	free(real);
	free(p);
	return in;
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
