"""Running a function right after the user's script defines a name.

The script run as `python train.py` (or `python -m pkg.train`) is the module
__main__: its classes and functions do not exist before its own code runs,
so tko.postimport cannot reach them. Input: watch(name, after). Output:
nothing; after(main) runs once, right after the first module-level
statement of the script that binds `name` in __main__ (a class or function
statement, an assignment, an import, a call that sets a global), before the
next statement runs. Entry points: watch(), runs_script(), and unwatched()
(the names never bound, and why).

Why a line trace of the script's frame, and not the region's code object:
torch 2.11 can mark a code object itself (torch._C._dynamo.eval_frame.
set_code_exec_strategy, FrameAction.SKIP for the frame and its callees),
found before it runs in the script's code's co_consts. But that mark acts
only where a frame of that code is entered under the eval-frame hook: when
Dynamo traces the region's caller (a submodule's forward called from the
compiled model's forward, the common case) it inlines the region, deciding
by the function object (`_torchdynamo_disable`, symbolic_convert.py
check_inlineable) or by its file (trace_rules.lookup_inner), never by the
code object. Tried on torch 2.11: marked (SKIP, SKIP), Block.attn was still
traced into the model's graph. So the function object must be replaced, as
for a module, and the earliest moment is right after the statement that
defines it. Python has no hook on a module-level binding (STORE_NAME into
a plain dict); builtins.__build_class__ would see classes only. A trace
function (sys.settrace) that traces the script's module-level frame alone,
line by line, sees each statement's end; it works the same on every Python
version tko runs on.

Cost: while a watch is on, every Python call in the main thread calls the
global trace function once (it returns None: no other frame is traced line
by line); `import torch` took 1.26 s without and 1.26 to 1.38 s with it
(CPU torch 2.11, Python 3.11). The watch ends, and tracing with it, as soon
as every watched name is bound: in a script that defines its model before
its loop, before the loop starts. A name never bound keeps it on to the end.

Not watched (unwatched() says why): a process without a script (`python -c`,
a multiprocessing spawn child, stdin), and a process where another trace
function was set first (a debugger, coverage): tko does not replace it.
"""

import sys

_WATCH = {}        # name -> [after(main), ...], until the name is bound
_STATE = {"main": None, "on": False, "why": None}


def runs_script():
    """Whether this process runs a script or a module as __main__ (sys.argv[0]
    is "-c" under `python -c` and in multiprocessing's spawn children, "" or
    "-" for stdin, and "-m" until runpy replaces it)."""
    argv0 = sys.argv[0] if sys.argv else ""
    return argv0 not in ("", "-", "-c")


def watch(name, after):
    """Calls after(__main__) right after the script binds name (a top-level
    name); at once when it already has. Returns False when nothing will watch
    (unwatched() says why)."""
    main = sys.modules.get("__main__")
    if main is None:
        _STATE["why"] = "no __main__ module"
        return False
    if _bound(main.__dict__, name):
        _call(after, main)
        return True
    if not _STATE["on"]:
        if not runs_script():
            _STATE["why"] = "this process runs no script (python -c, a spawned worker)"
            return False
        if sys.gettrace() is not None:
            _STATE["why"] = f"another trace function was set first ({sys.gettrace()!r})"
            return False
        _STATE.update(main=main, on=True, why=None)
        _attach(main)
        sys.settrace(_global)
    _WATCH.setdefault(name, []).append(after)
    return True


def unwatched():
    """(names still waiting, why nothing watches them or None)."""
    return sorted(_WATCH), _STATE["why"]


def _stop():
    """Ends the watch, once every name is bound."""
    if _STATE["on"] and sys.gettrace() is _global:
        sys.settrace(None)
    _STATE["on"] = False


def _bound(namespace, name):
    return namespace.get(name) is not None


def _attach(main):
    """A script already running (a watch begun from its own code) gets no
    'call' event: its frame is given the line trace directly."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>":
            frame.f_trace = _local
        frame = frame.f_back


def _call(after, main):
    try:
        after(main)
    except Exception:  # the caller records its own failures; the script runs on
        pass


def _global(frame, event, arg):
    """The script's module-level frame is traced line by line; no other."""
    main = _STATE["main"]
    if main is not None and frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>":
        return _local
    return None


def _local(frame, event, arg):
    """A 'line' event comes before each statement and 'return' after the last:
    what the statement before bound is in the namespace now."""
    namespace = frame.f_globals
    for name in [n for n in _WATCH if _bound(namespace, n)]:
        for after in _WATCH.pop(name):
            _call(after, _STATE["main"])
    if not _WATCH:
        frame.f_trace = None
        _stop()
        return None
    return _local
