/*
 * Where tko's Python side is: the interpreter ($TKO_PYTHON, else
 * "python3" on PATH) and the folder holding the `tko` package
 * ($TKO_PYTHONPATH, else $TKO_PYTHON_DIR (tko tune's name for it), else
 * <folder of the tko binary>/../python, which is python/ of a source tree
 * whose binary is build/tko). Used by tko env
 * (the probe), tko capture (the sitecustomize hook) and tko run (replay).
 */
#ifndef TKO_LIVE_PYENV_H
#define TKO_LIVE_PYENV_H

#include "util/buf.h"

/* The interpreter to run: $TKO_PYTHON or "python3" (not checked). */
const char *pyenv_python(void);

/*
 * The folder holding tko/__init__.py, newly allocated; NULL with a line in
 * err when neither $TKO_PYTHONPATH nor the default holds the package.
 */
char *pyenv_package_dir(struct buf *err);

/*
 * "PYTHONPATH=<first>:<second>:<$PYTHONPATH>", newly allocated; NULL
 * parts are skipped.
 */
char *pyenv_pythonpath_entry(const char *first, const char *second);

#endif
