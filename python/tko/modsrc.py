"""Finding the module file that defines an Inductor kernel.

Input: a CachingAutotuner (or anything shaped like one). Output: the path of
the Python module Inductor generated for it, whose bytes become the kernel
directory's kernel.py, or None. Entry point: module_path(tuner, name).

Pointwise and reduction kernels pass filename=__file__ to their heuristic
decorator, so CachingAutotuner.filename names the module. Templates do not
(torch 2.11 triton_heuristics.template() takes no filename): max-autotune's
template choices, the benchmark-fusion kernels and the final
triton_tem_fused_* kernels all have filename None, and JITFunction.src holds
only the function, without the imports, the decorator or its metadata. Their
module is still a file in Inductor's code cache, found from, in order:

  - fn.fn.__code__.co_filename: PyCodeCache compiles the module's text with
    its path (codecache / compile_tasks._reload_python_module), so the
    function's code object names the file;
  - fn.fn.__globals__["__file__"], and sys.modules[fn.__module__].__file__:
    the module object PyCodeCache made, named "<package>.<key>";
  - the (key, path) that Inductor's reload partials carry
    (_reload_in_subproc, _reload_kernel), for a kernel whose fn.fn was
    dropped when it was pickled back from a compile worker;
  - <code cache>/<key[1:3]>/<key>.py: PyCodeCache's own layout
    (codecache.get_path), with the key taken from fn.__module__.

A candidate counts only if it is a file that defines `def <name>(`: a wrong
module would replay the wrong kernel. Only the standard library is used.
"""

import functools
import os
import re
import sys

_MAX_BYTES = 8 << 20        # Inductor kernel modules are kilobytes; anything past this is not one
_KEY = re.compile(r"^c[a-z0-9]{20,}$")


def module_path(tuner, name):
    """The module file of `tuner`'s kernel `name`, or None."""
    for path in candidates(tuner):
        if _defines(path, name):
            return path
    return None


def candidates(tuner):
    """Possible module paths, most direct first (may repeat or not exist)."""
    fn = getattr(tuner, "fn", None)
    out = [getattr(tuner, "filename", None)]
    inner = getattr(fn, "fn", None)
    code = getattr(inner, "__code__", None)
    out.append(getattr(code, "co_filename", None))
    out.append((getattr(inner, "__globals__", None) or {}).get("__file__"))
    modname = getattr(fn, "__module__", None)
    if isinstance(modname, str):
        out.append(getattr(sys.modules.get(modname), "__file__", None))
    for attr in ("_reload_in_subproc", "_reload_kernel"):
        out.extend(_partial_paths(getattr(tuner, attr, None)))
    if isinstance(modname, str):
        out.extend(cache_paths(modname.rsplit(".", 1)[-1]))
    return [p for p in out if isinstance(p, str) and p]


def cache_paths(key):
    """Where PyCodeCache keeps the module of `key` ("c3tu2q..."): in each
    code cache this process may use."""
    if not _KEY.match(key):
        return []
    roots = [os.environ.get("TORCHINDUCTOR_CACHE_DIR")]
    try:
        from torch._inductor.runtime.cache_dir_utils import cache_dir  # noqa: PLC0415
        roots.append(cache_dir())
    except Exception:  # older torch, or none: the environment is enough
        pass
    return [os.path.join(r, key[1:3], key + ".py") for r in roots if r]


def _partial_paths(obj, depth=0):
    """String arguments ending in .py inside (nested) functools.partial objects."""
    if depth > 4 or not isinstance(obj, functools.partial):
        return []
    out = []
    for a in list(obj.args) + list((obj.keywords or {}).values()):
        if isinstance(a, str) and a.endswith(".py"):
            out.append(a)
        else:
            out.extend(_partial_paths(a, depth + 1))
    return out


def _defines(path, name):
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_BYTES:
            return False
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        return False
    return re.search(rb"^def " + re.escape(str(name).encode()) + rb"\(", text, re.M) is not None
