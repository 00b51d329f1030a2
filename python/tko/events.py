"""The capture event stream, written from inside the model's process.

Output: RUN/capture/events.jsonl, one JSON object per line (the schema is
docs/capture-events.md), and RUN/capture/autotune.log, the same story for
people. Entry point: EventWriter(capture_dir).emit(event, **fields).

Only the standard library is used, so this module imports without torch.
Writing never raises: a capture must never break the model, so a failed
write (a full disk, a removed directory) is counted in `failures` and
reported once on stderr.
"""

import enum
import json
import math
import os
import sys
import time

SCHEMA_VERSION = 1

# Deeper structures than this are not something a kernel argument or a
# config holds; stop there rather than recurse without bound.
_MAX_DEPTH = 16


def json_safe(value, depth=0):
    """A JSON-encodable copy of `value`.

    JSON has no NaN or infinity, so non-finite floats become None (an
    autotuner reports a failed config as inf); tuples and sets become lists;
    enums their value; anything else its str().
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return json_safe(value.value, depth + 1)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if depth >= _MAX_DEPTH:
        return str(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((json_safe(v, depth + 1) for v in value), key=str)
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ in ("numpy", "torch"):
        try:
            return json_safe(item(), depth + 1)
        except Exception:
            return str(value)
    return str(value)


class EventWriter:
    """Appends events to capture/events.jsonl and lines to capture/autotune.log."""

    def __init__(self, capture_dir, stderr=None):
        self.capture_dir = capture_dir
        self.events_path = os.path.join(capture_dir, "events.jsonl")
        self.log_path = os.path.join(capture_dir, "autotune.log")
        self.failures = 0
        self._stderr = stderr
        self._warned = False

    def emit(self, event, **fields):
        """Appends one event; returns True when it was written."""
        record = {
            "schema_version": SCHEMA_VERSION,
            "event": event,
            "time": time.time(),
            "pid": os.getpid(),
        }
        for key, value in fields.items():
            record[key] = json_safe(value)
        try:
            line = json.dumps(record, allow_nan=False) + "\n"
        except (TypeError, ValueError) as e:
            line = json.dumps({k: record[k] for k in ("schema_version", "time", "pid")}
                              | {"event": "error", "stage": "write",
                                 "error_type": type(e).__name__,
                                 "message": f"cannot encode a {event!r} event: {e}"}) + "\n"
        return self._append(self.events_path, line)

    def log_line(self, text):
        """Appends one line to autotune.log."""
        return self._append(self.log_path, text.rstrip("\n") + "\n")

    def _append(self, path, text):
        data = memoryview(text.encode("utf-8", "replace"))
        try:
            # One write per line on an O_APPEND descriptor: lines from several
            # processes (Inductor's benchmark subprocesses, DDP ranks) do not
            # interleave, and a crash leaves at most a truncated last line.
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                while data:
                    data = data[os.write(fd, data):]
            finally:
                os.close(fd)
            return True
        except OSError as e:
            self.failures += 1
            self._warn(f"cannot write '{path}': {e.strerror or e}")
            return False

    def _warn(self, message):
        if self._warned:
            return
        self._warned = True
        try:
            print(f"tko capture: warning: {message} (capture continues without it)",
                  file=self._stderr or sys.stderr, flush=True)
        except Exception:
            pass
