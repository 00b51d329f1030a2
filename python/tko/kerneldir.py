"""Writing one captured kernel's directory, RUN/capture/kernels/<kernel>-<srchash8>/:

  kernel.py     the kernel's source: the Inductor kernel module as compiled, or a
                standalone module holding a hand-written kernel (triton_hooks)
  inputs/       storage<N>.bin, the raw bytes of each distinct storage the
                launch arguments view
  capture.json  what a replay needs: arguments, storages, configs, grid, metadata
                (documented in docs/capture-events.md, "capture.json")
  run.py        `python run.py [--json FILE]` replays the kernel through tko.replay

Entry point: write(session, kernel, snapshot, record). The directory is built
under a temporary name and renamed into place, so no reader sees half of one;
when two processes capture the same kernel, the first rename wins.
"""

import itertools
import json
import os
import shutil

from . import snapshot as snap_mod
from .events import json_safe

CAPTURE_SCHEMA_VERSION = 1

_counter = itertools.count()

RUN_PY = '''#!/usr/bin/env python3
"""Replays the kernel captured in this directory: python run.py [--json FILE] [--reps N].

Written by `tko capture`. It needs the tko Python package: from PYTHONPATH,
from $TKO_PYTHONPATH, or from where tko capture found it ({pythonpath!r}).
`tko run` does the same and adds bandwidth figures.
"""
import os
import sys

for _path in (os.environ.get("TKO_PYTHONPATH"), {pythonpath!r}):
    if _path and _path not in sys.path:
        sys.path.append(_path)

from tko.replay import main  # noqa: E402

sys.exit(main([os.path.dirname(os.path.abspath(__file__))] + sys.argv[1:]))
'''


def package_root():
    """The folder holding the tko package (what run.py puts on sys.path)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(sess, kernel, snapshot, record):
    """Writes the kernel's directory; returns its path relative to the RUN
    directory, or None when another process already wrote it."""
    final = os.path.join(sess.kernels_dir, kernel.dir_name)
    if os.path.exists(final):
        return None
    os.makedirs(sess.kernels_dir, exist_ok=True)
    tmp = os.path.join(sess.kernels_dir,
                       f".tmp-{kernel.dir_name}-{os.getpid()}-{next(_counter)}")
    os.makedirs(tmp)
    try:
        _fill(tmp, kernel, snapshot, record)
        try:
            os.rename(tmp, final)
        except OSError:
            if os.path.isdir(final):
                shutil.rmtree(tmp, ignore_errors=True)
                return None
            raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return f"capture/kernels/{kernel.dir_name}"


def _fill(path, kernel, snapshot, record):
    with open(os.path.join(path, "kernel.py"), "w", encoding="utf-8", newline="") as f:
        f.write(kernel.source)
    storages = snap_mod.write(snapshot, os.path.join(path, "inputs"))
    doc = {"schema_version": CAPTURE_SCHEMA_VERSION, "tool": "tko capture",
           "kernel": kernel.name, "kind": kernel.kind,
           "source_hash": kernel.source_hash, "source_file": kernel.source_file,
           "kernel_file": "kernel.py", "args": snapshot.args, "storages": storages,
           "inputs_bytes": snapshot.nbytes, "tko_pythonpath": package_root()}
    doc.update(record)
    with open(os.path.join(path, "capture.json"), "w", encoding="utf-8") as f:
        json.dump(json_safe(doc), f, indent=1, allow_nan=False)
        f.write("\n")
    run_py = os.path.join(path, "run.py")
    with open(run_py, "w", encoding="utf-8") as f:
        f.write(RUN_PY.format(pythonpath=package_root()))
    os.chmod(run_py, 0o755)


def take_snapshot(sess, kernel, names, values):
    """Snapshots a selected kernel's arguments, once per kernel (the first
    launch); None when not selected or already tried. Failures raise, and the
    caller, running under tko.capture.guarded, turns them into error events."""
    if not kernel.selected or kernel.attempted or snap_mod.capturing_graph():
        return None
    kernel.attempted = True
    snapshot = snap_mod.take(names, values, sess.budget_left())
    if not sess.reserve(snapshot.nbytes):
        raise snap_mod.SnapshotError("over the capture budget (TKO_CAPTURE_MAX_BYTES)")
    return snapshot


def finish(sess, kernel, snapshot, record):
    """Writes the directory for a snapshot taken before the launch and
    reports it with a `capture` event."""
    rel = write(sess, kernel, snapshot, record)
    if rel is None:
        return
    kernel.dir_written = True
    sess.emit("capture", **kernel.fields(), inputs_bytes=snapshot.nbytes)
    sess.log(f"captured {kernel.name} -> {rel} ({snapshot.nbytes} bytes of inputs)")
