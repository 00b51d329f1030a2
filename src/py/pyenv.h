/*
 * Where tko's Python side is, and the one way to start it.
 *
 * The interpreter is $TKO_PYTHON, else "python3" on PATH. Two things are
 * looked up, each in the order it has always had (merging the orders
 * would be a deliberate change: a TKO_PYTHON_DIR deprecation):
 *
 *   the folder holding the `tko` package (tko env's probe, tko capture's
 *   sitecustomize hook, tko run's replay): $TKO_PYTHONPATH, else
 *   $TKO_PYTHON_DIR, else <folder of the tko binary>/../python, which is
 *   python/ of a source tree whose binary is build/tko;
 *
 *   a script run by path (tko tune's worker): $TKO_PYTHON_DIR/tko/<rel>,
 *   else <folder of the tko binary>/../python/tko/<rel>
 *   (tests/cli/lib-tune.sh points TKO_PYTHON_DIR at a fake worker).
 *
 *	struct child c = CHILD_INIT;
 *	const char *args[] = { "--measure", NULL };
 *	if (pyenv_module_child(&c, "tko.probe", args, NULL, &err) < 0) ...
 *	c.capture_out = 1;
 *	child_run(&c, &err);
 *	child_release(&c);
 */
#ifndef TKO_PY_PYENV_H
#define TKO_PY_PYENV_H

#include "util/buf.h"
#include "util/spawn.h"

/* The interpreter to run: $TKO_PYTHON or "python3" (not checked). */
const char *pyenv_python(void);

/* The folder of the running tko binary (one readlink of /proc/self/exe), new; NULL unknown. */
char *pyenv_exe_dir(void);

/*
 * The folder holding tko/__init__.py, newly allocated; NULL with a line in
 * err when neither $TKO_PYTHONPATH (or $TKO_PYTHON_DIR) nor the default
 * holds the package.
 */
char *pyenv_package_dir(struct buf *err);

/*
 * The path of python/tko/<rel> (a script run by path), newly allocated;
 * NULL with "cannot find the <what> 'PATH' (set TKO_PYTHON_DIR)" in err
 * when it is not there.
 */
char *pyenv_script(const char *rel, const char *what, struct buf *err);

/*
 * "PYTHONPATH=<first>:<second>:<$PYTHONPATH>", newly allocated; NULL
 * parts are skipped.
 */
char *pyenv_pythonpath_entry(const char *first, const char *second);

/*
 * Sets c's argv to `python -m <module> <args...>` (args NULL-terminated,
 * may be NULL) and its env_add to PYTHONPATH with tko's package first,
 * then env_extra ("NAME=value", may be NULL). c owns what it was given
 * (child_release frees it). 0, or -1 with pyenv_package_dir's line in err.
 */
int pyenv_module_child(struct child *c, const char *module, const char *const *args,
		       const char *const *env_extra, struct buf *err);

#endif
