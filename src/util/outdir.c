/* Writing inside one output directory only (see outdir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/mem.h"
#include "util/outdir.h"
#include "banned.h"

int outdir_is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

int outdir_rel_ok(const char *rel)
{
	const char *p = rel, *slash;

	if (!*rel || *rel == '/')
		return 0;
	for (;;) {
		size_t n;
		size_t i;

		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		for (i = 0; i < n; i++)
			if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
				return 0;
		if (!slash)
			return 1;
		p = slash + 1;
	}
}

static int empty_real_dir(const char *path, struct buf *err)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int empty = 1;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		buf_addf(err, "'%s' exists and is not a directory (or is a symbolic link)", path);
		return 0;
	}
	if (!(d = opendir(path))) {
		buf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return 0;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	if (!empty)
		buf_addf(err, "'%s' is not empty (collect writes only into a new or empty directory)", path);
	return empty;
}

int outdir_open(struct outdir *o, const char *root, const char *from_base,
		const struct outdir_log *log, struct buf *err)
{
	memset(o, 0, sizeof(*o));
	if (access(root, F_OK) == 0 || outdir_is_link(root)) {
		if (!empty_real_dir(root, err))
			return -1;
	} else {
		if (mkdir_p(root, err) < 0)
			return -1;
		o->made_root = 1;
	}
	o->root = xstrdup(root);
	o->from_base = from_base ? xstrdup(from_base) : NULL;
	o->log = *log;
	return 0;
}

/* Creates the folders of root/rel's parent that are missing. */
static int make_parents(struct outdir *o, const char *rel, struct buf *err)
{
	const char *slash = rel;

	while ((slash = strchr(slash, '/'))) {
		char *p = xstrfmt("%s/%.*s", o->root, (int)(slash - rel), rel);
		struct stat st;

		if (lstat(p, &st) == 0) {
			if (!S_ISDIR(st.st_mode)) {
				buf_addf(err, "cannot create '%s': something else is in the way", p);
				free(p);
				return -1;
			}
			free(p);
		} else if (mkdir(p, 0755) < 0) {
			buf_addf(err, "cannot create directory '%s': %s", p, strerror(errno));
			free(p);
			return -1;
		} else {
			strlist_push(&o->made, p);
		}
		slash++;
	}
	return 0;
}

static int copy_fd(int in, int out, const char *src, const char *dst, long long *bytes,
		   struct buf *err)
{
	char block[65536];

	for (;;) {
		ssize_t n = read(in, block, sizeof(block)), w, done = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			buf_addf(err, "cannot read '%s': %s", src, strerror(errno));
			return -1;
		}
		if (!n)
			return 0;
		while (done < n) {
			w = write(out, block + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				buf_addf(err, "cannot write '%s': %s", dst, strerror(errno));
				return -1;
			}
			done += w;
		}
		*bytes += n;
	}
}

static const char *outdir_from(const struct outdir *o, const char *src)
{
	size_t n = o->from_base ? strlen(o->from_base) : 0;

	if (n && !strncmp(src, o->from_base, n) && src[n] == '/')
		return src + n + 1;
	return src;
}

int outdir_copy(struct outdir *o, const char *src, const char *rel, const char *role,
		struct buf *err)
{
	char *dst;
	struct stat st;
	long long bytes = 0;
	int in, out, ret;

	if (!outdir_rel_ok(rel)) {
		buf_addf(err, "refusing to write '%s' outside '%s'", rel, o->root);
		return -1;
	}
	in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (in >= 0)
			close(in);
		outdir_skip(o, src, in < 0 ? strerror(errno) : "not a regular file");
		return 0;
	}
	if (make_parents(o, rel, err) < 0) {
		close(in);
		return -1;
	}
	dst = xstrfmt("%s/%s", o->root, rel);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		buf_addf(err, "cannot create '%s': %s", dst, strerror(errno));
		close(in);
		free(dst);
		return -1;
	}
	strlist_push(&o->made, dst);
	ret = copy_fd(in, out, src, dst, &bytes, err);
	if (close(out) < 0 && !ret) {
		buf_addf(err, "cannot write '%s': %s", dst, strerror(errno));
		ret = -1;
	}
	close(in);
	if (!ret)
		o->log.file(o->log.data, rel, outdir_from(o, src), bytes, role);
	return ret;
}

/* Writes all of data[0..len) to fd. */
static int write_block(int fd, const char *data, size_t len, const char *dst, struct buf *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			buf_addf(err, "cannot write '%s': %s", dst, strerror(errno));
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

int outdir_write(struct outdir *o, const char *rel, const char *data, size_t len,
		 const char *role, const char *src, struct buf *err)
{
	char *dst;
	int out, ret;

	if (!outdir_rel_ok(rel)) {
		buf_addf(err, "refusing to write '%s' outside '%s'", rel, o->root);
		return -1;
	}
	if (make_parents(o, rel, err) < 0)
		return -1;
	dst = xstrfmt("%s/%s", o->root, rel);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		buf_addf(err, "cannot create '%s': %s", dst, strerror(errno));
		free(dst);
		return -1;
	}
	strlist_push(&o->made, dst);
	ret = write_block(out, data, len, dst, err);
	if (close(out) < 0 && !ret) {
		buf_addf(err, "cannot write '%s': %s", dst, strerror(errno));
		ret = -1;
	}
	if (!ret)
		o->log.file(o->log.data, rel, outdir_from(o, src), (long long)len, role);
	return ret;
}

void outdir_skip(struct outdir *o, const char *src, const char *why)
{
	o->log.skip(o->log.data, outdir_from(o, src), why);
}

int outdir_commit(struct outdir *o, const char *name, const char *data, size_t len,
		  struct buf *err)
{
	char *path = path_join(o->root, name);
	int ret = write_file_atomic(path, data, len, err);

	free(path);
	return ret;
}

void outdir_abort(struct outdir *o)
{
	size_t i = o->made.nr;
	struct stat st;

	while (i--) {
		const char *p = o->made.v[i];

		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rmdir(p);
		else
			unlink(p);
	}
	if (o->made_root && o->root)
		rmdir(o->root);
}

void outdir_release(struct outdir *o)
{
	size_t i;

	for (i = 0; i < o->made.nr; i++)
		free((char *)o->made.v[i]);
	strlist_release(&o->made);
	free(o->root);
	free(o->from_base);
	memset(o, 0, sizeof(*o));
}
