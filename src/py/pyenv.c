/* Locating the Python interpreter and tko's package, and starting it (see pyenv.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "py/pyenv.h"
#include "util/file.h"
#include "util/mem.h"
#include "banned.h"

const char *pyenv_python(void)
{
	const char *p = getenv("TKO_PYTHON");

	return p && *p ? p : "python3";
}

char *pyenv_exe_dir(void)
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
	return xstrdup(exe);
}

static int holds_package(const char *dir)
{
	char *init = xstrfmt("%s/tko/__init__.py", dir);
	int ok = is_file(init);

	free(init);
	return ok;
}

/* <folder of the binary>/../python, or NULL. */
static char *default_dir(void)
{
	char *exe = pyenv_exe_dir(), *dir;

	if (!exe)
		return NULL;
	dir = xstrfmt("%s/../python", exe);
	free(exe);
	return dir;
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

char *pyenv_script(const char *rel, const char *what, struct buf *err)
{
	const char *dir = getenv("TKO_PYTHON_DIR");
	char *exe = NULL, *path;

	if (dir && *dir) {
		path = xstrfmt("%s/tko/%s", dir, rel);
	} else {
		exe = pyenv_exe_dir();
		path = xstrfmt("%s/../python/tko/%s", exe ? exe : ".", rel);
		free(exe);
	}
	if (!is_file(path)) {
		buf_addf(err, "cannot find the %s '%s' (set TKO_PYTHON_DIR)", what, path);
		free(path);
		return NULL;
	}
	return path;
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

static size_t count(const char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

int pyenv_module_child(struct child *c, const char *module, const char *const *args,
		       const char *const *env_extra, struct buf *err)
{
	char *pkg = pyenv_package_dir(err);
	size_t na = count(args), ne = count(env_extra), i;
	char **argv, **env;

	if (!pkg)
		return -1;
	argv = xcalloc(na + 4, sizeof(*argv));
	argv[0] = xstrdup(pyenv_python());
	argv[1] = xstrdup("-m");
	argv[2] = xstrdup(module);
	for (i = 0; i < na; i++)
		argv[3 + i] = xstrdup(args[i]);
	env = xcalloc(ne + 2, sizeof(*env));
	env[0] = pyenv_pythonpath_entry(pkg, NULL);
	for (i = 0; i < ne; i++)
		env[1 + i] = xstrdup(env_extra[i]);
	free(pkg);
	c->argv = (const char *const *)(c->argv_owned = argv);
	c->env_add = (const char *const *)(c->env_owned = env);
	return 0;
}
