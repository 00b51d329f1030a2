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


class _Finder(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the loader the other finders return."""

    def __init__(self, table):
        self.table = table

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.table or getattr(_LOCAL, "finding", False):
            return None
        _LOCAL.finding = True
        spec = None
        try:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
        finally:
            _LOCAL.finding = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
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
