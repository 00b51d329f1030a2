/* Locating the Python interpreter and tko's package (see pyenv.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/pyenv.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

const char *pyenv_python(void)
{
	const char *p = getenv("TKO_PYTHON");

	return p && *p ? p : "python3";
}

static int holds_package(const char *dir)
{
	char *init = xstrfmt("%s/tko/__init__.py", dir);
	int ok = is_file(init);

	free(init);
	return ok;
}

/* <dir of /proc/self/exe>/../python */
static char *default_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrfmt("%s/../python", exe);
}

char *pyenv_package_dir(struct buf *err)
{
	const char *env = getenv("TKO_PYTHONPATH");
	char *dir;

	/* tko tune's worker reads TKO_PYTHON_DIR for the same folder. */
	if (!env || !*env)
		env = getenv("TKO_PYTHON_DIR");

	if (env && *env) {
		if (holds_package(env))
			return xstrdup(env);
		buf_addf(err, "TKO_PYTHONPATH='%s' holds no tko/__init__.py", env);
		return NULL;
	}
	dir = default_dir();
	if (dir && holds_package(dir)) {
		char *real = realpath(dir, NULL);

		free(dir);
		return real ? real : NULL;
	}
	buf_addf(err, "tko's Python package not found in '%s' (set TKO_PYTHONPATH to "
		 "the folder holding tko/__init__.py)", dir ? dir : "<unknown>");
	free(dir);
	return NULL;
}

char *pyenv_pythonpath_entry(const char *first, const char *second)
{
	const char *old = getenv("PYTHONPATH");
	struct buf b = BUF_INIT;

	buf_adds(&b, "PYTHONPATH=");
	if (first)
		buf_addf(&b, "%s", first);
	if (second)
		buf_addf(&b, "%s%s", b.len > 11 ? ":" : "", second);
	if (old && *old)
		buf_addf(&b, "%s%s", b.len > 11 ? ":" : "", old);
	return buf_detach(&b, NULL);
}
