"""Class-level patches of TorchInductor's CachingAutotuner
(torch/_inductor/runtime/triton_heuristics.py).

Checked against torch 2.11 (and the 2.9/2.10 sources, which differ only
inside these methods):

  run(self, *args, stream, benchmark_run=False, **kwargs)
      the real launch: its arguments are snapshotted BEFORE the original
      runs, because the first run precompiles, autotunes (which zeroes
      reset_to_zero arguments) and then launches, mutating outputs; after
      it, self.launchers holds the one chosen launcher and its grid is
      self._interpret_args_grid(args, launcher.config)[1].
  benchmark_all_configs(self, *args, **kwargs) -> {launcher: ms}
      every config Inductor timed (autotune_to_one_config calls it).
  bench(self, launcher, *args, **kwargs) -> ms
      also called directly by coordinate descent and combo tuning.
  _make_launchers(self)
      every compiled config with n_regs / n_spills / shared / cache_hash,
      before autotuning drops all but the winner.
  copy_args_to_cpu_if_needed(self, *args, **kwargs) -> {name: (arg, cpu_arg)}
      called by bench before timing: with optimize_mem, a mutated argument
      whose storage exceeds max_memory_allocated() - memory_allocated() is
      kept in pinned host memory, and bench's timed kernel_call copies it
      back after every launch (restore_args_from_cpu), so that host-to-device
      copy is part of the time Inductor logs. Which arguments took that path,
      and the budget, are recorded per timed config.
  InductorBenchmarker.get_event_pairs(self, iters)
      (torch/_inductor/runtime/benchmarking.py) benchmark_gpu asks it for the
      event pairs of its estimation and measurement loops; with its one
      warm-up call that counts the timed calls of a bench, which with bench's
      wall time tells whether the host or the GPU paced the measurement.

Single-config kernels and autotune-cache hits never reach bench; their one
config is self.launchers[0] and self.autotune_cache_info says why. Entry
point: patch(module, session), called by tko.capture when the module is
imported. A method that this torch lacks is reported and skipped.
"""

import os
import sys
import threading
import time

from . import capture, configs, kerneldir, modsrc, profiling
from . import snapshot as snap_mod
from .events import json_safe

_STATE = capture.IdMap()
_LOCAL = threading.local()

# Keys of inductor_meta worth keeping in capture.json (the rest are
# compiler switches that only bloat it).
_META_KEYS = ("kernel_name", "grid_type", "mutated_arg_names", "optimize_mem",
              "num_load", "num_store", "num_reduction", "kernel_num_gb", "kernel_flop",
              "coordinate_descent_tuning", "max_autotune", "max_autotune_pointwise",
              "spill_threshold", "is_hip", "extra_launcher_args", "fixed_grid",
              "config_args", "backend_hash", "autotune_hints", "no_x_dim",
              "atomic_add_found", "persistent_reduction", "tiling_scores")


class _Tuning:
    """What one CachingAutotuner object did."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.compiled = []        # launcher dicts from _make_launchers
        self.benchmarked = []     # (launcher, ms) from benchmark_all_configs
        self.extra = []           # (launcher, ms) from bench calls outside it
        self.bench_ms = None      # wall time of benchmark_all_configs
        self.bench_info = {}      # id(launcher) -> (launcher, the bench fields of its last bench)
        self.in_bench_all = 0
        self.result = None        # the autotune event's fields, once known
        self.quick = set()        # cheap launch signatures already seen


class _RunState:
    def __init__(self, tuning, described=None, snapshot=None):
        self.tuning = tuning
        self.described = described    # argument records of a new signature
        self.snapshot = snapshot      # a Snapshot to write after the launch


def patch(module, sess):
    """Patches CachingAutotuner (and subclasses that override run)."""
    cls = getattr(module, "CachingAutotuner", None)
    if cls is None:
        raise AttributeError("torch._inductor.runtime.triton_heuristics has no CachingAutotuner")
    hooks = capture.patch_methods(
        sess, cls, "CachingAutotuner",
        (("run", _wrap_run), ("benchmark_all_configs", _wrap_benchmark_all),
         ("bench", _wrap_bench), ("_make_launchers", _wrap_make_launchers),
         ("copy_args_to_cpu_if_needed", _wrap_copy_args)),
        "that part of the capture is skipped")
    for sub in _subclasses(cls):
        if "run" in sub.__dict__ and capture.wrap_method(sub, "run", _wrap_run):
            hooks.append(f"{sub.__name__}.run")
    return hooks


def patch_benchmarking(module, sess):
    """Counts InductorBenchmarker's event pairs (torch._inductor.runtime.benchmarking)."""
    hooks = []
    for name in sorted(vars(module)):
        cls = getattr(module, name)
        if isinstance(cls, type) and "get_event_pairs" in cls.__dict__ and \
                capture.wrap_method(cls, "get_event_pairs", _wrap_event_pairs):
            hooks.append(f"{name}.get_event_pairs")
    if not hooks:
        sess.error("install", AttributeError("get_event_pairs"),
                   message="no benchmarker class has 'get_event_pairs' in this version; "
                           "benchmark call counts are not recorded")
    return hooks


def _subclasses(cls):
    seen, todo = [], list(cls.__subclasses__())
    while todo:
        sub = todo.pop()
        if sub not in seen:
            seen.append(sub)
            todo.extend(sub.__subclasses__())
    return seen


# The wrappers. Each calls the original exactly as it was called.

def _wrap_run(orig):
    def run(self, *args, **kwargs):
        # DebugAutotuner.run may call CachingAutotuner.run: capture once.
        if getattr(_LOCAL, "depth", 0) or capture.session() is None or capture.in_hook():
            return orig(self, *args, **kwargs)
        state = capture.guarded("launch", _before_run, self, args)
        _LOCAL.depth = 1
        try:
            result = orig(self, *args, **kwargs)
        finally:
            _LOCAL.depth = 0
        if state is not None:
            capture.guarded("launch", _after_run, self, args, state, kernel=state.tuning.kernel)
        return result
    return run


def _wrap_benchmark_all(orig):
    def benchmark_all_configs(self, *args, **kwargs):
        if capture.session() is None:
            return orig(self, *args, **kwargs)
        tuning = capture.guarded("autotune", _tuning, self)
        start = time.perf_counter()
        if tuning is not None:
            tuning.in_bench_all += 1
        try:
            timings = orig(self, *args, **kwargs)
        finally:
            if tuning is not None:
                tuning.in_bench_all -= 1
        if tuning is not None:
            capture.guarded("autotune", _record_bench_all, tuning, timings,
                            (time.perf_counter() - start) * 1e3, kernel=tuning.kernel)
        return timings
    return benchmark_all_configs


def _wrap_bench(orig):
    def bench(self, launcher, *args, **kwargs):
        if capture.session() is None or capture.in_hook():
            return orig(self, launcher, *args, **kwargs)
        # What the inner hooks learn about this one measurement.
        rec = {"event_pairs": [], "cpu_copy_args": None, "memory_budget_bytes": None}
        outer = getattr(_LOCAL, "bench", None)
        _LOCAL.bench = rec
        start = time.perf_counter()
        try:
            result = orig(self, launcher, *args, **kwargs)
        finally:
            rec["wall_ms"] = (time.perf_counter() - start) * 1e3
            _LOCAL.bench = outer
        capture.guarded("autotune", _record_bench, self, launcher, result, rec)
        return result
    return bench


def _wrap_copy_args(orig):
    def copy_args_to_cpu_if_needed(self, *args, **kwargs):
        rec = getattr(_LOCAL, "bench", None)
        if rec is not None:
            rec["memory_budget_bytes"] = capture.guarded("autotune", _memory_budget, self)
        copies = orig(self, *args, **kwargs)
        if rec is not None:
            rec["cpu_copy_args"] = capture.guarded("autotune", cpu_copy_list, copies)
        return copies
    return copy_args_to_cpu_if_needed


def _wrap_event_pairs(orig):
    def get_event_pairs(self, *args, **kwargs):
        rec = getattr(_LOCAL, "bench", None)
        iters = args[0] if args else kwargs.get("iters")
        if rec is not None and isinstance(iters, int):
            rec["event_pairs"].append(iters)
        return orig(self, *args, **kwargs)
    return get_event_pairs


def _wrap_make_launchers(orig):
    def _make_launchers(self, *args, **kwargs):
        result = orig(self, *args, **kwargs)
        if capture.session() is not None:
            capture.guarded("compile", _record_launchers, self)
        return result
    return _make_launchers


# Hook bodies (run under capture.guarded).

def _tuning(tuner):
    return _STATE.get(tuner, lambda: _Tuning(_kernel_for(tuner)))


def _kernel_for(tuner):
    sess = capture.session()
    fn = getattr(tuner, "fn", None)
    name = getattr(fn, "__name__", None) or \
        (getattr(tuner, "inductor_meta", None) or {}).get("kernel_name") or "triton_kernel"
    path = modsrc.module_path(tuner, name)
    raw = None
    if path:
        # The hash is of the file's bytes, as tko collect computes it.
        with open(path, "rb") as f:
            raw = f.read()
    source = raw.decode("utf-8", "replace") if raw is not None else getattr(fn, "src", None) or ""
    kind = "user_autotune" if getattr(tuner, "custom_kernel", False) else "inductor"
    kernel = sess.kernel(name, kind, source, path, hash_source=raw)
    # Without the module, kernel.py is the bare function: readable, not replayable.
    kernel.source_kind = "inductor_module" if raw is not None else "function_only"
    return kernel


def _record_bench_all(tuning, timings, elapsed_ms):
    tuning.benchmarked = list(timings.items())
    tuning.bench_ms = elapsed_ms


def _record_bench(tuner, launcher, result, rec):
    window = profiling.window()
    if window is not None:
        window.on_bench()
    tuning = _tuning(tuner)
    tuning.bench_info[id(launcher)] = (launcher, bench_fields(rec))
    if not tuning.in_bench_all:
        tuning.extra.append((launcher, result))


def bench_fields(rec):
    """The fields a timed config gets from one bench call (docs/capture-events.md).

    bench_calls: InductorBenchmarker.benchmark_gpu makes one warm-up call and
    then one call per event pair it asked for; None when no pairs were asked
    (another benchmarker, or a config skipped for spilling)."""
    pairs = list(rec.get("event_pairs") or [])
    return {"bench_wall_ms": rec.get("wall_ms"), "bench_event_pairs": pairs,
            "bench_calls": 1 + sum(pairs) if pairs else None,
            "cpu_copy_args": rec.get("cpu_copy_args"),
            "memory_budget_bytes": rec.get("memory_budget_bytes")}


def _memory_budget(tuner):
    """max_memory_allocated - memory_allocated, as copy_args_to_cpu_if_needed
    computes it, or None when optimize_mem is off (no copy is considered)."""
    torch = sys.modules.get("torch")
    if torch is None or not getattr(tuner, "optimize_mem", False):
        return None
    return int(torch.cuda.max_memory_allocated() - torch.cuda.memory_allocated())


def cpu_copy_list(copies):
    """[{"name", "bytes"}] of copy_args_to_cpu_if_needed's {name: (arg, cpu_arg)}."""
    out = []
    for name, pair in (copies or {}).items():
        cpu = pair[1] if isinstance(pair, (tuple, list)) and len(pair) == 2 else None
        nbytes = None
        if cpu is not None and hasattr(cpu, "numel") and hasattr(cpu, "element_size"):
            nbytes = int(cpu.numel()) * int(cpu.element_size())
        out.append({"name": str(name), "bytes": nbytes})
    return out


def _record_launchers(tuner):
    _tuning(tuner).compiled = [configs.launcher_to_dict(x) for x in getattr(tuner, "launchers", ())]


def _quick_signature(args):
    """Shapes, strides and dtypes of tensors, values of scalars: cheap enough
    for every launch (the full description runs only for new ones)."""
    torch = sys.modules.get("torch")
    tensor = torch.Tensor if torch is not None else ()
    return tuple((a.shape, a.stride(), a.dtype) if isinstance(a, tensor) else (type(a), a)
                 if isinstance(a, (int, float, bool, str, type(None))) else type(a)
                 for a in args)


def arg_names(tuner, n):
    """Names of the n positional arguments of run(): the signature's
    non-constexpr parameters (Triton >= 3.3 still passes numels that became
    constexpr) and then inductor_meta's extra_launcher_args (the grid of
    templates)."""
    sig = list(((getattr(tuner, "triton_meta", None) or {}).get("signature") or {}).items())
    extra = list((getattr(tuner, "inductor_meta", None) or {}).get("extra_launcher_args") or ())
    plain = [k for k, v in sig if v != "constexpr"]
    for names in (plain + extra, [k for k, _ in sig][:max(0, n - len(extra))] + extra):
        if len(names) == n:
            return names
    names = [k for k, _ in sig] + extra
    return (names + [f"arg{i}" for i in range(len(names), n)])[:n]


def _before_run(tuner, args):
    sess = capture.session()
    tuning = _tuning(tuner)
    kernel = tuning.kernel
    sess.count_launch(kernel)
    if not kernel.announced:
        kernel.announced = True
        sess.emit("kernel", **kernel.fields(), **_kernel_fields(tuner, kernel))
    quick = capture.attempt(sess, "launch", kernel, _quick_signature, args)
    if quick is not None and quick in tuning.quick:
        return _RunState(tuning)
    if quick is not None:
        tuning.quick.add(quick)
    names = arg_names(tuner, len(args))
    described = capture.attempt(sess, "snapshot", kernel, snap_mod.describe, names, args)
    if described is None:
        return _RunState(tuning)
    snapshot = capture.attempt(sess, "snapshot", kernel, kerneldir.take_snapshot,
                               sess, kernel, names, args)
    return _RunState(tuning, described, snapshot)


def _kernel_fields(tuner, kernel):
    meta = getattr(tuner, "inductor_meta", None) or {}
    results = getattr(tuner, "compile_results", None) or []
    cfgs = getattr(tuner, "configs", None) or []
    return {
        "kind": kernel.kind,
        "source_kind": kernel.source_kind,
        "heuristic_type": json_safe(getattr(tuner, "heuristic_type", None)),
        "heuristic": _heuristic_name(tuner),
        "source_file": kernel.source_file,
        "size_hints": json_safe(getattr(tuner, "size_hints", None)),
        "mutated_arg_names": json_safe(list(getattr(tuner, "mutated_arg_names", None) or [])),
        "reset_to_zero_arg_names": json_safe(list(getattr(tuner, "reset_to_zero_arg_names", None) or [])),
        "num_configs": len(results) or len(cfgs) or len(getattr(tuner, "launchers", ()) or ()),
        "inductor_kernel_name": meta.get("kernel_name"),
        "selected": kernel.selected,
    }


def _after_run(tuner, args, state):
    sess = capture.session()
    tuning, kernel = state.tuning, state.tuning.kernel
    launchers = list(getattr(tuner, "launchers", None) or [])
    best = launchers[0] if len(launchers) == 1 else None
    if best is not None and tuning.result is None:
        tuning.result = _autotune_fields(tuner, tuning, best)
        sess.emit("autotune", **kernel.fields(), **tuning.result)
        _log_autotune(sess, kernel, tuning.result)
        tuning.benchmarked, tuning.extra, tuning.bench_info = [], [], {}
    if state.described is None:
        return
    grid = capture.attempt(sess, "launch", kernel, _grid, tuner, args, best)
    result = tuning.result or {}
    best_index = result.get("best_index")
    sess.emit("launch", **kernel.fields(), grid=grid, config_index=best_index,
              config=result["configs"][best_index] if best_index is not None else None,
              args=state.described)
    if state.snapshot is not None:
        kerneldir.finish(sess, kernel, state.snapshot, _capture_record(tuner, result, grid))


def _grid(tuner, args, best):
    if best is None or not hasattr(tuner, "_interpret_args_grid"):
        return None
    return [int(x) for x in tuner._interpret_args_grid(tuple(args), best.config)[1]]


def _autotune_fields(tuner, tuning, best):
    """The autotune event: every config seen, the chosen one and why."""
    entries, index = [], {}

    def add(d, phase):
        key = configs.config_key(d)
        if key in index:
            old = entries[index[key]]
            if old.get("time_ms") is None and d.get("time_ms") is not None:
                old.update(d, phase=phase)
            return index[key]
        index[key] = len(entries)
        entries.append(dict(d, phase=phase))
        return index[key]

    def timed(launcher, ms):
        d = configs.launcher_to_dict(launcher, ms)
        known = tuning.bench_info.get(id(launcher))
        if known is not None and known[0] is launcher:
            d.update(known[1])
        return d

    for launcher, ms in tuning.benchmarked:
        add(timed(launcher, ms), "benchmark")
    for launcher, ms in tuning.extra:
        add(timed(launcher, ms), "coordinate_descent")
    for d in tuning.compiled:
        add(d, "compiled")
    best_index = add(configs.launcher_to_dict(best), "chosen")
    info = getattr(tuner, "autotune_cache_info", None) or {}
    state = info.get("autotune_cache_state") if isinstance(info, dict) else None
    if tuning.extra:
        chosen_by = "coordinate_descent"
    elif tuning.benchmarked:
        chosen_by = "benchmark"
    elif state == "hit" or getattr(best.config, "found_by_coordesc", False):
        chosen_by = "cache_hit"
    else:
        chosen_by = "single_config"
    taken = getattr(tuner, "autotune_time_taken_ns", 0) or 0
    return {"chosen_by": chosen_by, "configs": entries, "best_index": best_index,
            "optimize_mem": json_safe(getattr(tuner, "optimize_mem", None)),
            "elapsed_ms": tuning.bench_ms,
            "autotune_time_ms": taken / 1e6 if taken else None,
            "autotune_cache_state": json_safe(state)}


def _log_autotune(sess, kernel, result):
    timed = sum(1 for c in result["configs"] if c.get("time_ms") is not None)
    sess.log(f"{kernel.name}: chosen by {result['chosen_by']} "
             f"({len(result['configs'])} configs, {timed} timed"
             + (f", {result['elapsed_ms']:.1f} ms" if result.get("elapsed_ms") else "") + ")")
    for i, c in enumerate(result["configs"]):
        sess.log(("  * " if i == result["best_index"] else "    ") + describe_config(c))


def describe_config(c):
    """One config in words, for autotune.log."""
    parts = [f"{k}={v}" for k, v in (c.get("kwargs") or {}).items()]
    parts += [f"{k}={c[k]}" for k in configs.CONFIG_FIELDS if c.get(k) is not None]
    t = c.get("time_ms")
    tail = f": {t:.6f} ms" if t is not None else ": not timed"
    res = [f"{c[k]} {label}" for k, label in (("n_regs", "regs"), ("n_spills", "spills"),
                                             ("shared_bytes", "B shared")) if c.get(k) is not None]
    res += [f"{a['name']} ({a['bytes']} B) restored from pinned host memory in each timed call"
            for a in c.get("cpu_copy_args") or ()]
    return " ".join(parts) + tail + (", " + ", ".join(res) if res else "")


def _capture_record(tuner, result, grid):
    meta = getattr(tuner, "inductor_meta", None) or {}
    tmeta = getattr(tuner, "triton_meta", None) or {}
    num_gb = meta.get("kernel_num_gb")
    return {
        "source_kind": getattr(_tuning(tuner).kernel, "source_kind", None),
        "heuristic_type": json_safe(getattr(tuner, "heuristic_type", None)),
        "heuristic": _heuristic_name(tuner),
        "size_hints": json_safe(getattr(tuner, "size_hints", None)),
        "optimize_mem": json_safe(getattr(tuner, "optimize_mem", None)),
        "mutated_arg_names": list(getattr(tuner, "mutated_arg_names", None) or []),
        "reset_to_zero_arg_names": list(getattr(tuner, "reset_to_zero_arg_names", None) or []),
        "grid": grid,
        "configs": result.get("configs", []),
        "best_index": result.get("best_index"),
        "chosen_by": result.get("chosen_by"),
        "elapsed_ms": result.get("elapsed_ms"),
        "inductor_meta": json_safe({k: meta[k] for k in _META_KEYS if k in meta}),
        "triton_meta": json_safe({k: v for k, v in tmeta.items() if k != "device"}),
        "inductor_num_bytes": num_gb * 1e9 if isinstance(num_gb, (int, float)) else None,
        "triton_cache_dir": os.environ.get("TRITON_CACHE_DIR"),
        "timing_method": timing_method(),
        "device": capture.device_info(),
        "versions": {"torch": getattr(sys.modules.get("torch"), "__version__", None),
                     "triton": getattr(sys.modules.get("triton"), "__version__", None),
                     "python": sys.version.split()[0]},
    }


def _heuristic_name(tuner):
    """"pointwise", "template"...: HeuristicType's member name in lower case
    (json_safe keeps only its value, which is a number in torch 2.11)."""
    name = getattr(getattr(tuner, "heuristic_type", None), "name", None)
    return name.lower() if isinstance(name, str) else None


def timing_method():
    """Which benchmarker Inductor timed configs with: InductorBenchmarker
    reports the minimum of event timings, TritonBenchmarker do_bench's median."""
    mod = sys.modules.get("torch._inductor.runtime.benchmarking")
    bench = getattr(mod, "benchmarker", None) if mod else None
    return type(bench).__name__ if bench is not None else None


# The template lookup key (docs/apply.md, "Template lookup table"). Inductor
# keys its template lookup table by the op's inputs (dtype, hinted shape
# and stride of each) and the op; C cannot rebuild that from a kernel file,
# so capture records the key where Inductor knows the inputs: at
# InductorChoices.get_template_configs, one call per templated op.

def patch_choices(module, sess):
    """Records a template_lookup event per get_template_configs call (torch._inductor.choices)."""
    cls = getattr(module, "InductorChoices", None)
    if cls is None or not capture.wrap_method(cls, "get_template_configs",
                                              _wrap_template_configs):
        # torch without it has no template lookup table either: nothing lost
        return []
    return ["InductorChoices.get_template_configs"]


def _wrap_template_configs(orig):
    def get_template_configs(self, kernel_inputs, templates, op_name, *args, **kwargs):
        if capture.session() is not None and not capture.in_hook():
            capture.guarded("template_lookup", _record_template_lookup, kernel_inputs,
                            templates, op_name)
        return orig(self, kernel_inputs, templates, op_name, *args, **kwargs)
    return get_template_configs


def template_lookup_fields(kernel_inputs, templates, op_name):
    """The event's fields: `key` is LookupTableChoices' device-agnostic key
    (make_lookup_key without the device), built by torch's own function."""
    from torch._inductor.lookup_table.choices import LookupTableChoices

    layouts = [[str(d), [int(x) for x in sh], [int(x) for x in st]]
               for d, sh, st in zip(kernel_inputs.dtypes(), kernel_inputs.shapes_hinted(),
                                    kernel_inputs.strides_hinted())]
    key = "+".join([LookupTableChoices._generate_kernel_inputs_key(kernel_inputs), op_name])
    return {"op": op_name, "key": key,
            "template_ids": [str(getattr(t, "uid", t)) for t in templates],
            "layouts": layouts}


def _record_template_lookup(kernel_inputs, templates, op_name):
    capture.session().emit("template_lookup",
                           **template_lookup_fields(kernel_inputs, templates, op_name))
