/* Recursive, sorted listing of input files (see walk.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file.h"
#include "util/mem.h"
#include "util/walk.h"
#include "banned.h"

/* root_real: when set, a link to a file whose real location is not below it is left out. */
static int walk_dir(const char *dir, const char *root_real, struct strlist *out, struct buf *err)
{
	DIR *d = opendir(dir);
	struct strlist names = STRLIST_INIT;
	struct dirent *de;
	size_t i;
	int ret = 0;

	if (!d) {
		buf_addf(err, "cannot read directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strlist_push(&names, xstrdup(de->d_name));
	closedir(d);
	strlist_sort(&names);
	for (i = 0; i < names.nr; i++) {
		char *full = path_join(dir, names.v[i]);
		struct stat st;

		if (!ret && lstat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				ret = walk_dir(full, root_real, out, err);
			} else if (S_ISREG(st.st_mode) ||
				   (S_ISLNK(st.st_mode) && is_file(full) &&
				    (!root_real || path_within(root_real, full)))) {
				strlist_push(out, full);
				full = NULL;
			}
		}
		free(full);
		free((char *)names.v[i]);
	}
	strlist_release(&names);
	return ret;
}

int walk_files_below(const char *path, const char *root_real, struct strlist *out,
		     struct buf *err)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		buf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return walk_dir(path, root_real, out, err);
	strlist_push(out, xstrdup(path));
	return 0;
}

int walk_files(const char *path, struct strlist *out, struct buf *err)
{
	return walk_files_below(path, NULL, out, err);
}

void walk_release(struct strlist *files)
{
	size_t i;

	for (i = 0; i < files->nr; i++)
		free((char *)files->v[i]);
	strlist_release(files);
}
