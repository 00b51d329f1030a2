"""Running a function right after a module's own code, when it is imported.

Input: a table {module name: callable(module)}. Output: nothing; each
callable runs once, after its module executed (or at once, for a module
already imported). Entry point: install(table).

This is how tko.apply reaches torch and Triton without importing them early:
a process that never imports them is untouched. tko.capture has its own
finder for its own session; the two coexist (each wraps a loader and calls
the one it found).
"""

import importlib.abc
import sys
import threading

_LOCAL = threading.local()


def spec_from_others(me, local, fullname, path, target):
    """The spec the finders on sys.meta_path other than `me` give for
    fullname, when its loader can be wrapped (it has exec_module); else None.

    `local` is the caller's own thread-local guard: the search calls the
    other finders, which may ask again, and `me` answers nothing while its
    search runs. Each finder needs its own guard, or a second finder asked
    inside the first one's search would find nothing and its patch be lost.
    """
    if getattr(local, "finding", False):
        return None
    local.finding = True
    spec = None
    try:
        for finder in sys.meta_path:
            if finder is me or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
    finally:
        local.finding = False
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return None
    return spec


class _Finder(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the loader the other finders return."""

    def __init__(self, table):
        self.table = table

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.table:
            return None
        spec = spec_from_others(self, _LOCAL, fullname, path, target)
        if spec is not None:
            spec.loader = _Loader(spec.loader, self.table[fullname])
        return spec


class _Loader(importlib.abc.Loader):
    def __init__(self, loader, after):
        self._loader = loader
        self._after = after

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._after(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


def install(table):
    """Calls table[name](module) for modules already imported, and for the
    others right after their import. Returns the finder (for uninstall)."""
    for name, after in table.items():
        module = sys.modules.get(name)
        if module is not None:
            after(module)
    finder = _Finder(dict(table))
    sys.meta_path.insert(0, finder)
    return finder


def uninstall(finder):
    sys.meta_path[:] = [f for f in sys.meta_path if f is not finder]
