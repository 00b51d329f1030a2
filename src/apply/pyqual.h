/*
 * apply/pyqual: the qualified name of the Python function around a line of
 * a source file ("Block.forward" for a line in the method forward of class
 * Block), so that a RUN's "keep TorchInductor off the region at FILE:LINE in
 * forward" becomes a `tko apply --keep-off MODULE:QUALNAME` the user can run.
 *
 * A reading of the indentation, not a parser: decorators, blank and comment
 * lines, bracketed continuation lines and triple-quoted strings are
 * skipped; the scopes are the `def`/`async def`/`class` lines indented less
 * than the line. A function nested in a function has no attribute path
 * (Python's "outer.<locals>.inner"): none is given.
 */
#ifndef TKO_APPLY_PYQUAL_H
#define TKO_APPLY_PYQUAL_H

#include <stddef.h>

/*
 * The qualified name of the innermost function holding line `line` (from 1)
 * of text[0..len), when its name is `function`; NULL when no function holds
 * it, the name differs, or it is nested in another function.
 */
char *py_qualname_at(const char *text, size_t len, long line, const char *function);

/* "capture_demo" for "/home/u/capture_demo.py"; NULL for a name Python cannot import. */
char *py_module_of(const char *path);

/*
 * The Python script a command runs, whose module is then __main__: its
 * first word that ends in ".py" (`python train.py`, `torchrun train.py`,
 * `./train.py`); NULL when none does or cmd is NULL.
 */
const char *py_script_in(const char *const *cmd);

#endif
