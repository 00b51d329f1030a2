"""Keeps the logging `tko capture` switched on out of the user's terminal.

`tko capture` sets TORCH_LOGS=+inductor and TRITON_PRINT_AUTOTUNING=1 (when
the user had not) so that RUN/log/model.log holds what tko summarize reads;
on a 14-kernel training step that is some 13,000 lines. tko then sets
TKO_LOG_FILE (RUN/log/model.log, which tko itself appends the command's
stdout and stderr to) and TKO_LOG_ROUTE, a comma list of what to send there
instead of to the terminal:

  torch   records below WARNING of the handlers torch._logging installs on
          its own loggers (torch/_logging/_internal.py: _init_logs puts one
          StreamHandler on sys.stderr on every registered logger). Warnings
          and errors still reach the terminal, as they would without tko;
          handlers anyone else added are left alone.
  triton  the prints of triton/runtime/autotuner.py, all of which
          TRITON_PRINT_AUTOTUNING gates ("Autotuning kernel ...",
          "Triton autotuning for function ...").

The user's own prints and logging are untouched. Entry points (called by
tko.capture's post-import hook): patch_torch_logging(module, session),
patch_autotuner_print(module, session). Like every hook, nothing here may
break the run: when the log cannot be opened, output stays where it was.
"""

import builtins
import logging
import os
import sys
import threading

_LOCK = threading.Lock()
_STREAM = None          # the open log file, shared by every route
_OPEN_FAILED = False


def routes():
    """The set of routes TKO_LOG_ROUTE asks for (empty without TKO_LOG_FILE)."""
    if not os.environ.get("TKO_LOG_FILE"):
        return set()
    return {r.strip() for r in os.environ.get("TKO_LOG_ROUTE", "").split(",") if r.strip()}


def log_stream():
    """The log file, opened once for appending (tko writes it too), or None."""
    global _STREAM, _OPEN_FAILED
    with _LOCK:
        if _STREAM is None and not _OPEN_FAILED:
            try:
                _STREAM = open(os.environ["TKO_LOG_FILE"], "a", buffering=1,
                               encoding="utf-8", errors="backslashreplace")
            except (OSError, KeyError):
                _OPEN_FAILED = True
        return _STREAM


class _Below:
    """A logging filter passing records below `level` (or at and above it)."""

    def __init__(self, level, below):
        self.level = level
        self.below = below

    def filter(self, record):
        return (record.levelno < self.level) == self.below


class _LogHandler(logging.StreamHandler):
    """torch's records below WARNING, into the log; a failed write is dropped
    (logging would otherwise print a traceback into the user's terminal)."""

    def handleError(self, record):
        pass


def _is_stderr_handler(h):
    return type(h) is logging.StreamHandler and \
        getattr(h, "stream", None) in (sys.stderr, sys.__stderr__)


def _routed(h):
    return any(isinstance(f, _Below) for f in h.filters)


def _torch_handlers(module):
    """(logger, handler) for each handler torch._logging put on stderr."""
    registry = getattr(module, "log_registry", None)
    names = registry.get_log_qnames() if registry is not None else \
        [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "torch"]
    is_torch = getattr(module, "_is_torch_handler", lambda h: True)
    out = []
    for name in sorted(names):
        logger = logging.getLogger(name)
        out.extend((logger, h) for h in logger.handlers
                   if _is_stderr_handler(h) and is_torch(h) and not _routed(h))
    return out


def route_torch_handlers(module):
    """Splits each torch stderr handler: WARNING and above stay on stderr,
    the rest go to the log through one shared handler. Returns how many
    handlers were split."""
    pairs = _torch_handlers(module)
    stream = log_stream() if pairs else None
    if stream is None:
        return 0
    to_log = _LogHandler(stream)
    to_log.setLevel(logging.DEBUG)
    to_log.addFilter(_Below(logging.WARNING, True))
    track = getattr(module, "_track_handler", None)
    if track is not None:       # so torch's next _init_logs removes it with its own
        track(to_log)
    for logger, h in pairs:
        to_log.setFormatter(h.formatter)
        h.addFilter(_Below(logging.WARNING, False))
        logger.addHandler(to_log)
    return len(pairs)


def patch_torch_logging(module, sess):
    """Wraps torch._logging._internal._init_logs (run at `import torch` and
    by set_logs) so its stderr handlers are split after every call."""
    if "torch" not in routes():
        return []
    orig = getattr(module, "_init_logs", None)
    if orig is None or getattr(orig, "_tko_original", None) is not None:
        if orig is None:
            sess.error("install", AttributeError("_init_logs"),
                       message="torch._logging has no _init_logs in this version; "
                               "its logs stay on the terminal")
        return []

    def _init_logs(*args, **kwargs):
        result = orig(*args, **kwargs)
        try:
            route_torch_handlers(module)
        except Exception as e:  # routing is a convenience, never a failure
            sess.error("install", e, message=f"cannot route torch's logs to the log file: {e}")
        return result

    _init_logs.__wrapped__ = orig
    _init_logs._tko_original = orig
    module._init_logs = _init_logs
    route_torch_handlers(module)    # torch was imported before the hook: route now
    return ["torch._logging._init_logs"]


def routed_print(*args, **kwargs):
    """print() for triton.runtime.autotuner: to the log unless a file is given."""
    stream = log_stream() if kwargs.get("file") is None else None
    if stream is None:
        builtins.print(*args, **kwargs)
        return
    kwargs["file"] = stream
    try:
        builtins.print(*args, **kwargs)
    except (OSError, ValueError):
        pass


def patch_autotuner_print(module, sess):
    """Gives triton.runtime.autotuner a module-level print that writes to the log."""
    if "triton" not in routes():
        return []
    module.print = routed_print
    return ["triton.runtime.autotuner.print"]
