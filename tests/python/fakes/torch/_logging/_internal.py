"""Fake torch._logging._internal: the parts of torch 2.x's module that
tko.logroute touches, written after torch/_logging/_internal.py:

  log_registry.get_log_qnames()   the registered loggers ("inductor" is
                                  torch._inductor, "dynamo" torch._dynamo)
  handlers, _track_handler,       the WeakSet of handlers torch made, which
  _is_torch_handler,              _reset_logs removes (and only those) before
  _clear_handlers, _reset_logs    every _init_logs
  _init_logs()                    TORCH_LOGS ("+inductor": DEBUG, "inductor":
                                  INFO, "-inductor": ERROR; default WARNING),
                                  then one logging.StreamHandler (sys.stderr)
                                  with the glog-style formatter per logger
  set_logs(inductor=LEVEL)        ignored when TORCH_LOGS is set, as in torch
"""
import logging
import os
from weakref import WeakSet

_ALIASES = {"inductor": "torch._inductor", "dynamo": "torch._dynamo"}


class LogRegistry:
    def __init__(self):
        self.log_alias_to_log_qname = dict(_ALIASES)

    def get_log_qnames(self):
        return set(self.log_alias_to_log_qname.values())


log_registry = LogRegistry()
handlers = WeakSet()
_levels = {}


class _GlogFormatter(logging.Formatter):
    """V1204 13:04:05.123456 4242 torch/_inductor/x.py:12] message (torch's shape)."""

    def format(self, record):
        prefix = "%s%s %d %s:%d]" % (record.levelname[0], self.formatTime(record, "%m%d %H:%M:%S"),
                                     record.process, record.name.replace(".", "/") + ".py",
                                     record.lineno)
        return "\n".join(f"{prefix} {line}" for line in record.getMessage().split("\n"))


DEFAULT_FORMATTER = _GlogFormatter()


def _track_handler(handler):
    handlers.add(handler)
    return handler


def _is_torch_handler(handler):
    return handler in handlers


def _clear_handlers(log):
    for handler in [h for h in log.handlers if _is_torch_handler(h)]:
        log.removeHandler(handler)


def _reset_logs():
    for qname in log_registry.get_log_qnames():
        log = logging.getLogger(qname)
        log.setLevel(logging.WARNING)
        log.propagate = False
        _clear_handlers(log)


def _parse_env():
    levels = {}
    for name in filter(None, (n.strip() for n in os.environ.get("TORCH_LOGS", "").split(","))):
        level = {"+": logging.DEBUG, "-": logging.ERROR}.get(name[0], logging.INFO)
        qname = _ALIASES.get(name.lstrip("+-"))
        if qname:
            levels[qname] = level
    return levels


def _init_logs(log_file_name=None):
    _reset_logs()
    if "TORCH_LOGS" in os.environ:
        _levels.clear()
        _levels.update(_parse_env())
    for qname, level in _levels.items():
        logging.getLogger(qname).setLevel(level)
    for qname in log_registry.get_log_qnames():
        handler = _track_handler(logging.StreamHandler())
        handler.setFormatter(DEFAULT_FORMATTER)
        handler.setLevel(logging.DEBUG)
        logging.getLogger(qname).addHandler(handler)


def set_logs(*, inductor=None, dynamo=None):
    if "TORCH_LOGS" in os.environ:
        return
    _levels.clear()
    for qname, level in (("torch._inductor", inductor), ("torch._dynamo", dynamo)):
        if level is not None:
            _levels[qname] = level
    _init_logs()


def getArtifactLogger(module_qname, artifact_name):
    return logging.getLogger(f"{module_qname}.__{artifact_name}")
