"""Replaying captured kernels on the GPU, for `tko run` (and each kernel
directory's run.py).

Input: kernel directories written by tko capture (capture.json, kernel.py,
inputs/). Output: one JSON document (stdout, or --json FILE written
atomically) with, per kernel and per recorded config, the median and minimum
of repeated device-event timings, the time measured the way the original
autotuner measured it, and whether the config's outputs agree with the
captured config's. Bytes and bandwidth are computed by the C side.

Per kernel:
  1. rebuild the arguments from inputs/ (tko.snapshot.load), aliasing kept;
  2. keep a pristine copy of every storage; launch the captured (chosen)
     config once: all storages after it are the reference, and the storages
     it changed (plus the mutated and reset-to-zero arguments) are restored
     before every later launch;
  3. for each config: restore, launch, compare every argument with the
     reference (exact for integers and booleans, allclose for floats); then
     time it: before every repetition restore and flush the L2 cache, both
     outside the timed interval (device events around the launch alone);
  4. the autotuner-method time (tko.autotuner_way): the real
     CachingAutotuner.bench of the module's own autotuner, max-autotune's
     benchmark of CachingAutotuner.run for templates, or
     triton.testing.do_bench for @triton.autotune kernels, with the
     host-copy path the capture recorded, so a replay can be held against
     the times the autotuner logged.

Exit status: 0 when every kernel replayed (disagreeing outputs are reported
in the JSON, not here), 1 when a kernel could not be replayed, 2 on a bad
command line, 3 when torch or a GPU is missing.
"""

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import traceback

from . import autotuner_way
from . import snapshot as snap_mod
from .configs import config_from_dict
from .events import json_safe

REPLAY_SCHEMA_VERSION = 1
FLUSH_BYTES = 256 << 20     # as triton.testing.do_bench: larger than any L2 today
TIME_BUDGET_MS = 100.0      # aim for this much timed work per config
MIN_REPS, MAX_REPS = 10, 500

# (rtol, atol) per float dtype: configs differ in reduction order and in
# atomics' order, so floats agree to rounding, not to the bit.
_TOLERANCE = {"float64": (1e-7, 1e-9), "float32": (1e-4, 1e-5),
              "float16": (1e-2, 1e-3), "bfloat16": (1.6e-2, 1e-2)}
_LOOSE = (1e-1, 1e-1)       # 8-bit floats and anything unlisted


class ReplayError(Exception):
    """A kernel directory cannot be replayed; the message says why."""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tko.replay", description=__doc__.split("\n")[0])
    parser.add_argument("kernel_dirs", nargs="+", metavar="KERNEL_DIR")
    parser.add_argument("--json", default="-", metavar="FILE", help="where the result goes ('-': stdout)")
    parser.add_argument("--reps", type=int, default=0, help="timed repetitions per config (0: automatic)")
    parser.add_argument("--no-autotuner-method", action="store_true",
                        help="skip the timing done the autotuner's way")
    parser.add_argument("--progress", metavar="FILE",
                        help="keep 'DONE TOTAL KERNEL_DIR' in FILE for tko run's progress line")
    opts = parser.parse_args(argv)
    try:
        import torch
    except ImportError as e:
        return _fail(opts, 3, f"no torch: {e}")
    if not torch.cuda.is_available():
        return _fail(opts, 3, "torch sees no GPU (torch.cuda.is_available() is False)")
    kernels = []
    for d in opts.kernel_dirs:
        note_progress(opts.progress, len(kernels), len(opts.kernel_dirs), d)
        kernels.append(replay_dir(d, opts))
    doc = _document(kernels)
    write_json(doc, opts.json)
    return 1 if any(k.get("error") for k in kernels) else 0


def note_progress(path, done, total, kernel_dir):
    """Replaces FILE's one line; tko run reads it every second. Never raises."""
    if not path:
        return
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(f"{done} {total} {os.path.basename(os.path.normpath(kernel_dir))}\n")
        os.replace(tmp, path)
    except OSError:
        pass


def _document(kernels, error=None):
    return {"schema_version": REPLAY_SCHEMA_VERSION, "tool": "tko.replay",
            "versions": _versions(), "error": error, "kernels": kernels}


def _versions():
    out = {"python": sys.version.split()[0], "torch": None, "triton": None, "device": None}
    for name in ("torch", "triton"):
        mod = sys.modules.get(name)
        out[name] = getattr(mod, "__version__", None) if mod else None
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        out["device"] = torch.cuda.get_device_name()
    return out


def _fail(opts, status, message):
    # With --json FILE the document carries the message and tko run prints it
    # in its one error line; only a document on stdout needs it said here too.
    if opts.json == "-":
        print(f"tko run: {message}", file=sys.stderr)
    write_json(_document([], error=message), opts.json)
    return status


def write_json(doc, path):
    text = json.dumps(json_safe(doc), indent=1, allow_nan=False) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".replay-", dir=folder)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def replay_dir(path, opts):
    """Replays one kernel directory; failures end up in the result's "error"."""
    result = {"kernel_dir": path, "kernel": None, "error": None, "configs": []}
    try:
        doc = load_capture(path)
        result.update(kernel=doc["kernel"], kind=doc.get("kind"),
                      source_hash=doc.get("source_hash"), best_index=doc.get("best_index"))
        Replayer(path, doc, opts).run(result)
    except Exception as e:
        result["error"] = f"{type(e).__name__}: {e}"
        result["traceback"] = traceback.format_exc(limit=6)
        print(f"tko run: cannot replay '{path}': {result['error']}", file=sys.stderr)
    return result


def load_capture(path):
    name = os.path.join(path, "capture.json")
    try:
        with open(name, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise ReplayError(f"cannot read '{name}': {e.strerror}") from None
    except ValueError as e:
        raise ReplayError(f"cannot parse '{name}': {e}") from None
    if not isinstance(doc, dict) or doc.get("schema_version") != 1:
        raise ReplayError(f"'{name}' is not a tko capture.json (schema_version 1)")
    for key in ("kernel", "args", "storages", "configs"):
        if key not in doc:
            raise ReplayError(f"'{name}' has no '{key}'")
    if not doc["configs"]:
        raise ReplayError(f"'{name}' records no config")
    return doc


def import_file(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ReplayError(f"cannot import '{path}'")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Replayer:
    """Replays one kernel directory."""

    def __init__(self, path, doc, opts):
        import torch
        self.torch = torch
        self.path = path
        self.doc = doc
        self.opts = opts
        self.names = [a["name"] for a in doc["args"]]
        self.values, self.storages = snap_mod.load(path, doc["args"], doc["storages"])
        self.device = next((v.device for v in self.values if isinstance(v, torch.Tensor)),
                           torch.device("cuda"))
        torch.cuda.set_device(self.device)
        module = import_file(snap_mod.inside(path, doc.get("kernel_file", "kernel.py")),
                             f"tko_replay_{doc.get('source_hash', 'x')[:16]}")
        self.target = getattr(module, doc["kernel"], None)
        if self.target is None:
            raise ReplayError(f"kernel.py defines no '{doc['kernel']}'")
        self.inductor = hasattr(self.target, "_precompile_config")
        if not self.inductor and not hasattr(self.target, "__getitem__"):
            raise ReplayError(not_a_kernel(doc, self.target))
        self.launchers = {}
        self.restore = lambda: None
        _set_allocator(torch)

    # Launching.

    def launcher(self, index):
        if index not in self.launchers:
            cfg = self.doc["configs"][index]
            self.launchers[index] = (self._inductor_launcher(cfg) if self.inductor
                                     else self._user_launcher(cfg))
        return self.launchers[index]

    def _inductor_launcher(self, cfg):
        import triton
        tuner = self.target
        config = config_from_dict(cfg, triton.Config)
        with self.torch.cuda.device(self.device):
            launcher = tuner._precompile_config(config).make_launcher()
        stream = self.torch.cuda.current_stream(self.device).cuda_stream
        values = self.values

        def launch(args=None):
            launcher(*(values if args is None else args), stream=stream)
        launch.raw = launcher
        return launch

    def _user_launcher(self, cfg):
        keyword = list(self.doc.get("keyword_args") or [])
        npos = len(self.values) - len(keyword)
        grid = cfg.get("grid") or self.doc.get("grid")
        if not grid:
            raise ReplayError("capture.json records no grid for this config")
        options = dict(self.doc.get("launch_options") or {})
        options.update(cfg.get("kwargs") or {})
        for field in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
            if cfg.get(field) is not None:
                options[field] = cfg[field]
        fn = self.target[tuple(grid)]
        values = self.values

        def launch(args=None):
            args = values if args is None else args
            fn(*args[:npos], **dict(zip(keyword, args[npos:])), **options)
        return launch

    # The replay proper.

    def run(self, result):
        torch = self.torch
        best = self.doc.get("best_index") or 0
        # The autotuner zeroes these before the real launch; the snapshot was
        # taken before it did, so zero them here once, for every config alike.
        zeroed = self._storages_of(self.doc.get("reset_to_zero_arg_names"))
        for i in zeroed:
            self.storages[i].zero_()
        pristine = [s.clone() for s in self.storages]
        self.launcher(best)()
        torch.cuda.synchronize()
        reference = [s.clone() for s in self.storages]
        written = {i for i, (a, b) in enumerate(zip(reference, pristine)) if not torch.equal(a, b)}
        written |= self._storages_of(self.doc.get("mutated_arg_names")) | zeroed
        self.written = sorted(written)

        def restore():
            for i in self.written:
                self.storages[i].copy_(pristine[i])
        self.restore = restore
        restore()
        result["written_storages"] = self.written
        flush = torch.empty(FLUSH_BYTES, dtype=torch.int8, device=self.device)
        for index, cfg in enumerate(self.doc["configs"]):
            entry = {"index": index, "captured": index == best, "phase": cfg.get("phase"),
                     "config": {k: cfg.get(k) for k in ("kwargs", "num_warps", "num_stages",
                                                         "num_ctas", "maxnreg")},
                     "recorded_time_ms": cfg.get("time_ms"), "error": None}
            try:
                self._replay_config(index, entry, restore, reference, pristine, flush)
            except Exception as e:
                entry["error"] = f"{type(e).__name__}: {e}"
            restore()
            result["configs"].append(entry)
        torch.cuda.synchronize()

    def _storages_of(self, names):
        names = set(names or ())
        return {a["storage"] for a in self.doc["args"] if a["kind"] == "tensor" and a["name"] in names}

    def _replay_config(self, index, entry, restore, reference, pristine, flush):
        torch = self.torch
        launch = self.launcher(index)
        restore()
        launch()
        torch.cuda.synchronize()
        entry.update(self.compare(reference, pristine))
        entry.update(time_launch(torch, launch, restore, flush, self.opts.reps))
        if not self.opts.no_autotuner_method:
            restore()
            try:
                entry.update(autotuner_way.measure(self, index, launch))
            except Exception as e:  # the replay's own times still stand
                entry["autotuner_method_error"] = f"{type(e).__name__}: {e}"

    def compare(self, reference, pristine):
        """Whether every argument now equals the captured config's result."""
        torch = self.torch
        bad, exact, worst = [], True, 0.0
        for i, (now, ref) in enumerate(zip(self.storages, reference)):
            if i not in self.written and not torch.equal(now, pristine[i]):
                bad.append(f"storage {i} (not written by the captured config)")
                exact = False
        for a, v in zip(self.doc["args"], self.values):
            if a["kind"] != "tensor" or a["storage"] not in self.written:
                continue
            ref = _view(torch, reference[a["storage"]], a)
            if torch.equal(v, ref):
                continue
            exact = False
            if not v.is_floating_point():
                bad.append(a["name"])
                continue
            rtol, atol = _TOLERANCE.get(a["dtype"], _LOOSE)
            diff = (v.double() - ref.double()).abs()
            finite = torch.isfinite(diff)
            worst = max(worst, float(diff[finite].max()) if bool(finite.any()) else 0.0)
            if not torch.allclose(v.double(), ref.double(), rtol=rtol, atol=atol, equal_nan=True):
                bad.append(a["name"])
        return {"outputs_match": not bad, "outputs_exact": exact,
                "max_abs_diff": worst, "mismatched_args": bad}


def not_a_kernel(doc, target):
    """Why kernel.py's object cannot be launched, in one line."""
    what = type(target).__name__
    if doc.get("source_kind") == "function_only" or what == "function":
        return (f"kernel.py defines '{doc['kernel']}' as a plain {what}: it holds only the "
                "function's source, without its module (imports, @triton.jit, the Inductor "
                "decorator), which is all that earlier captures kept of templates; capture the "
                "model again")
    return f"kernel.py defines '{doc['kernel']}' as a {what}, not a Triton kernel"


def _view(torch, base, a):
    t = torch.empty(0, dtype=getattr(torch, a["dtype"]), device=base.device)
    return t.set_(base.untyped_storage(), a["storage_offset"], a["shape"], a["stride"])


def _set_allocator(torch):
    """Kernels that need global scratch (TMA) ask Triton's allocator, which
    CachingAutotuner.run installs; a replay must install one too."""
    import triton
    if hasattr(triton, "set_allocator"):
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                    device="cuda"))


def time_launch(torch, launch, before, flush, reps=0):
    """Median and minimum of device-event timings of `launch`, each after
    before() and an L2 flush that the events do not cover."""
    def timed(n):
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(n)]
        for start, end in events:
            before()
            flush.zero_()
            start.record()
            launch()
            end.record()
        torch.cuda.synchronize()
        return [s.elapsed_time(e) for s, e in events]

    estimate = min(timed(3))
    if reps <= 0:
        reps = max(MIN_REPS, min(MAX_REPS, int(TIME_BUDGET_MS / max(estimate, 1e-3))))
    times = timed(reps)
    return {"time_ms": statistics.median(times), "min_ms": min(times), "reps": len(times)}


if __name__ == "__main__":
    sys.exit(main())
