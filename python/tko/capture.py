"""Capturing Triton kernels inside the model's process.

Entry point: install(), called by the sitecustomize hook in tko/_hook when
`tko capture` has set TKO_CAPTURE_DIR. It registers a post-import hook, so
that the moment TorchInductor's or Triton's runtime modules are imported,
their classes are patched at class level (tko.inductor_hooks,
tko.triton_hooks); nothing is imported early and a process that never
imports them is untouched.

Output: events in RUN/capture/events.jsonl and RUN/capture/autotune.log
(tko.events) and one directory per captured kernel,
RUN/capture/kernels/<kernel>-<srchash8>/ (tko.kerneldir).

The rule every hook obeys: a capture never changes what the model computes
or breaks its run. Hook code runs under guarded(); any exception it raises
becomes an `error` event and the wrapped call proceeds exactly as without
tko. Exceptions of the wrapped method itself pass through untouched.

A profiled window of the steady state (tko.profiling) is taken when
TKO_PROFILE_DIR is set.

Environment: TKO_CAPTURE_DIR (RUN/capture, required), TKO_CAPTURE_KERNELS (a
regular expression: only kernels whose name it matches get a snapshot and a
directory; every kernel still gets its events), TKO_CAPTURE_MAX_BYTES (bytes
of inputs one process may snapshot, default 16 GiB), TKO_LOG_FILE and
TKO_LOG_ROUTE (which logging tko switched on goes to RUN/log only:
tko.logroute).
"""

import atexit
import hashlib
import importlib.abc
import os
import re
import sys
import threading
import weakref

from . import __version__, gpu, postimport, profiling
from .events import EventWriter

DEFAULT_MAX_BYTES = 16 << 30

# Modules whose import triggers a patch, and the function that patches them.
_TARGETS = {
    "torch._inductor.runtime.triton_heuristics": ("tko.inductor_hooks", "patch"),
    "torch._inductor.runtime.benchmarking": ("tko.inductor_hooks", "patch_benchmarking"),
    "torch._inductor.choices": ("tko.inductor_hooks", "patch_choices"),
    "triton.runtime.autotuner": ("tko.triton_hooks", "patch_autotuner"),
    "triton.runtime.jit": ("tko.triton_hooks", "patch_jit"),
}

# Modules whose import routes the logging tko switched on to RUN/log only
# (tko.logroute); a module may be in both tables.
_LOG_TARGETS = {
    "torch._logging._internal": ("tko.logroute", "patch_torch_logging"),
    "triton.runtime.autotuner": ("tko.logroute", "patch_autotuner_print"),
}


def _patchers(fullname):
    return [t[fullname] for t in (_TARGETS, _LOG_TARGETS) if fullname in t]

_SESSION = None
_LOCAL = threading.local()


def session():
    """The capture session of this process, or None when capture is off."""
    return _SESSION


def guarded(stage, fn, *args, kernel=None):
    """Runs hook code `fn(*args)`; an exception becomes an error event and None.

    A thread-local flag keeps hook code from capturing what it runs itself.
    """
    if getattr(_LOCAL, "busy", False) or _SESSION is None:
        return None
    _LOCAL.busy = True
    try:
        return fn(*args)
    except Exception as e:  # any failure of tko's own code, by design
        _SESSION.error(stage, e, kernel)
        return None
    finally:
        _LOCAL.busy = False


def in_hook():
    """True while tko's hook code runs on this thread."""
    return getattr(_LOCAL, "busy", False)


class IdMap:
    """Per-object state keyed by identity, dropped when the object dies.

    JITFunction hashes by compiling its cache key, and autotuners must not be
    given attributes (they are pickled to and from compile workers), so state
    lives beside them, keyed by id() with a weakref finaliser.
    """

    def __init__(self):
        self._items = {}

    def get(self, obj, factory):
        key = id(obj)
        item = self._items.get(key)
        if item is None:
            item = factory()
            self._items[key] = item
            try:
                weakref.finalize(obj, self._items.pop, key, None)
            except TypeError:
                pass
        return item


class Kernel:
    """One kernel source: its name, source, hash and capture state."""

    def __init__(self, name, kind, source, source_file, hash_source=None):
        self.name = name
        self.kind = kind                  # "inductor", "user_autotune" or "user_jit"
        self.source = source              # what kernel.py holds
        self.source_file = source_file    # where the source came from
        # What kernel.py holds: "inductor_module" (the generated module file),
        # "function_only" (no module was found: JITFunction.src alone) or
        # "tko_module" (a module tko wrote around a hand-written kernel).
        self.source_kind = None
        text = source if hash_source is None else hash_source
        if isinstance(text, str):
            text = text.encode("utf-8", "replace")
        self.source_hash = hashlib.sha256(text).hexdigest()
        self.dir_name = f"{safe_name(name)}-{self.source_hash[:8]}"
        self.selected = False             # matches TKO_CAPTURE_KERNELS
        self.attempted = False            # a snapshot was tried (once per kernel)
        self.dir_written = False
        self.signatures = set()           # launch signatures already reported
        self.announced = False            # its `kernel` event was written

    def fields(self):
        out = {"kernel": self.name, "source_hash": self.source_hash}
        if self.dir_written:
            out["kernel_dir"] = f"capture/kernels/{self.dir_name}"
        return out


def safe_name(name):
    """A kernel name usable as a file name (Triton names are identifiers)."""
    cleaned = re.sub(r"[^A-Za-z0-9_.]", "_", str(name))[:120].lstrip(".")
    return cleaned or "kernel"


class Session:
    """Everything one process knows about the kernels it has seen."""

    def __init__(self, capture_dir, regex=None, max_bytes=DEFAULT_MAX_BYTES, stderr=None):
        self.capture_dir = capture_dir
        self.kernels_dir = os.path.join(capture_dir, "kernels")
        self.run_dir = os.path.dirname(os.path.abspath(capture_dir))
        self.writer = EventWriter(capture_dir, stderr=stderr)
        self.regex = re.compile(regex) if regex else None
        self.max_bytes = max_bytes
        self.bytes_used = 0
        self.hooks = []                   # patched "Class.method" names
        self.kernels = {}                 # (name, source_hash) -> Kernel
        self.launch_counts = {}           # kernel name -> launches
        self.lock = threading.RLock()
        self.started = False
        self.ended = False
        self.errors = 0
        self.installing = 0               # > 0 while a patcher runs
        self.pending = []                 # its error events, written once its hooks are known

    # Events.

    def emit(self, event, **fields):
        with self.lock:
            if not self.started:
                self.started = True
                self.writer.emit("session_start", **session_fields(self))
            self.writer.emit(event, **fields)

    def log(self, text):
        self.writer.log_line(text)

    def error(self, stage, exc, kernel=None, message=None):
        self.errors += 1
        fields = {"stage": stage, "error_type": type(exc).__name__,
                  "message": message or str(exc) or repr(exc)}
        if kernel is not None:
            fields.update(kernel.fields())
        line = f"error ({stage}): {fields['message']}" + \
            (f" [{kernel.name}]" if kernel is not None else "")
        if self.installing:
            # The first event writes session_start, whose `hooks` must list
            # what the patcher installed: its errors wait for it to finish.
            self.pending.append((fields, line))
            return
        self._write_error(fields, line)

    def _write_error(self, fields, line):
        try:
            self.emit("error", **fields)
            self.log(line)
        except Exception:
            pass

    def flush_pending(self):
        """Writes the error events a patcher raised, now that its hooks are listed."""
        pending, self.pending = self.pending, []
        for fields, line in pending:
            self._write_error(fields, line)

    def end(self, exit_status=None):
        with self.lock:
            if self.ended or not self.started:
                return
            self.ended = True
            fields = {"launch_counts": dict(self.launch_counts)}
            if exit_status is not None:
                fields["exit_status"] = exit_status
            self.writer.emit("session_end", **fields)

    # Kernels.

    def kernel(self, name, kind, source, source_file, hash_source=None):
        """The Kernel record for a source, created (and matched against
        TKO_CAPTURE_KERNELS) on first sight."""
        probe = Kernel(name, kind, source, source_file, hash_source)
        with self.lock:
            known = self.kernels.get((name, probe.source_hash))
            if known is not None:
                return known
            probe.selected = self.regex is None or bool(self.regex.search(name))
            self.kernels[(name, probe.source_hash)] = probe
            return probe

    def count_launch(self, kernel):
        with self.lock:
            self.launch_counts[kernel.name] = self.launch_counts.get(kernel.name, 0) + 1
        window = profiling.window()
        if window is not None:
            window.on_launch(kernel.dir_name)

    def reserve(self, nbytes):
        """Accounts for `nbytes` of snapshot; False when over budget."""
        with self.lock:
            if self.bytes_used + nbytes > self.max_bytes:
                return False
            self.bytes_used += nbytes
            return True

    def budget_left(self):
        with self.lock:
            return max(0, self.max_bytes - self.bytes_used)


def session_fields(sess):
    """Fields of the session_start event."""
    fields = {"argv": list(sys.argv), "python": sys.version.split()[0],
              "tko": __version__, "hooks": list(sess.hooks),
              "torch": None, "triton": None, "device": None,
              "kernels_regex": sess.regex.pattern if sess.regex else None}
    torch = sys.modules.get("torch")
    triton = sys.modules.get("triton")
    fields["torch"] = getattr(torch, "__version__", None) if torch else None
    fields["triton"] = getattr(triton, "__version__", None) if triton else None
    fields["device"] = device_info()
    return fields


def device_info():
    """The current device's facts (tko.gpu: tko decides its arch from
    them), when torch is already imported and has one."""
    torch = sys.modules.get("torch")
    try:
        if torch is None or not torch.cuda.is_available():
            return None
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
    except Exception:  # informational only: never a reason to fail a capture
        return None
    return gpu.facts(props, getattr(torch.version, "hip", None))


# Installation.

class _PostImportFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the loader of each target module so the
    patch runs right after the module's own code."""

    def find_spec(self, fullname, path, target=None):
        if not _patchers(fullname):
            return None
        spec = postimport.spec_from_others(self, _LOCAL, fullname, path, target)
        if spec is not None:
            spec.loader = _PatchingLoader(spec.loader, fullname)
        return spec


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, loader, fullname):
        self._loader = loader
        self._fullname = fullname

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        apply_patch(self._fullname, module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


def apply_patch(fullname, module):
    """Runs the patches for a freshly imported target module, never raising."""
    sess = _SESSION
    if sess is None:
        return
    for modname, fnname in _patchers(fullname):
        sess.installing += 1
        try:
            patcher = getattr(__import__(modname, fromlist=[fnname]), fnname)
            sess.hooks.extend(patcher(module, sess))
        except Exception as e:
            sess.error("install", e, message=f"cannot patch {fullname}: {e}")
        finally:
            sess.installing -= 1
            sess.flush_pending()


def install(capture_dir=None, regex=None, max_bytes=None, stderr=None):
    """Starts capturing in this process (idempotent). Returns the session,
    or None when TKO_CAPTURE_DIR is unset."""
    global _SESSION
    if _SESSION is not None:
        return _SESSION
    capture_dir = capture_dir or os.environ.get("TKO_CAPTURE_DIR")
    if not capture_dir:
        return None
    if regex is None:
        regex = os.environ.get("TKO_CAPTURE_KERNELS") or None
    if max_bytes is None:
        max_bytes = _env_bytes("TKO_CAPTURE_MAX_BYTES", DEFAULT_MAX_BYTES)
    try:
        sess = Session(capture_dir, regex, max_bytes, stderr)
    except re.error as e:
        sess = Session(capture_dir, None, max_bytes, stderr)
        sess.regex = re.compile(r"(?!)")
        sess.error("install", e, message=f"bad TKO_CAPTURE_KERNELS regex: {e}")
    _SESSION = sess
    for fullname, module in list(sys.modules.items()):
        if _patchers(fullname) and module is not None:
            apply_patch(fullname, module)
    sys.meta_path.insert(0, _PostImportFinder())
    atexit.register(sess.end)
    if profiling.window() is not None:
        # registered after sess.end, so it runs first: the window's note is written before session_end
        atexit.register(guarded, "profile", profiling.window().finish_at_exit)
    return sess


def _env_bytes(name, default):
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


def uninstall():
    """Stops capturing (for tests): removes the finder and forgets the session."""
    global _SESSION
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _PostImportFinder)]
    _SESSION = None


def wrap_method(cls, attr, factory):
    """Replaces cls.attr by factory(original), once. Returns False when the
    class (or its bases) has no such attribute: the API drifted."""
    orig = cls.__dict__.get(attr)
    if orig is None:
        return False
    if getattr(orig, "_tko_original", None) is not None:
        return True
    wrapper = factory(orig)
    wrapper.__name__ = getattr(orig, "__name__", attr)
    wrapper.__qualname__ = getattr(orig, "__qualname__", attr)
    wrapper.__doc__ = getattr(orig, "__doc__", None)
    wrapper.__wrapped__ = orig
    wrapper._tko_original = orig
    setattr(cls, attr, wrapper)
    return True


def patch_methods(sess, cls, label, table, consequence):
    """Wraps each (attr, factory) of `table` on `cls`; an attribute this
    version lacks becomes an install error saying `consequence`. Returns the
    "Label.attr" names of the hooks installed."""
    hooks = []
    for attr, factory in table:
        if wrap_method(cls, attr, factory):
            hooks.append(f"{label}.{attr}")
        else:
            sess.error("install", AttributeError(attr),
                       message=f"{label} has no '{attr}' in this version; {consequence}")
    return hooks


def attempt(sess, stage, kernel, fn, *args):
    """Inside hook code: runs fn(*args); a failure becomes an error event
    attributed to `kernel`, and None."""
    try:
        return fn(*args)
    except Exception as e:  # tko's own failure, by design never the model's
        sess.error(stage, e, kernel)
        return None
