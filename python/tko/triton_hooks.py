"""Class-level patches for hand-written Triton kernels (Triton 3.6:
python/triton/runtime/autotuner.py and jit.py).

  Autotuner.run(self, *args, **kwargs)
      a @triton.autotune kernel launched with kernel[grid](...): kwargs hold
      grid and warmup. When the tuning key is new it calls _bench for every
      pruned config, keeps {config: [p50, p20, p80] ms} in
      self.configs_timings and the winner in self.best_config, then launches
      self.fn.run(*args, **kwargs, **config.all_kwargs()).
  Autotuner._bench(self, *args, config, **meta) -> [p50, p20, p80]
      one config's timing (do_bench with quantiles).
  JITFunction.run(self, *args, grid, warmup, **kwargs) -> CompiledKernel
      every launch of a @triton.jit function: inside an autotuner it tells
      which binary (cache directory, registers) and which grid each config
      got; alone it is a plain hand-written launch, captured as "user_jit".

The arguments are snapshotted before Autotuner.run, since benchmarking runs
the kernel on the real arguments. A grid given as a function is wrapped so
the grid it returns is recorded; it is called exactly as before. Entry
points: patch_autotuner(module, session), patch_jit(module, session).
"""

import sys
import textwrap
import threading

from . import capture, configs, kerneldir
from . import snapshot as snap_mod
from .events import json_safe

_STATE = capture.IdMap()
_LOCAL = threading.local()
_IGNORED_KWARGS = ("grid", "warmup")


class _Call:
    """One Autotuner.run call in progress."""

    def __init__(self, kernel, names, values, keyword, options):
        self.kernel = kernel
        self.names = names          # captured argument names, positional then keyword
        self.values = values
        self.keyword = keyword      # names passed by keyword
        self.options = options      # other keyword arguments (launch options)
        self.current = None         # the config _bench is timing, or None
        self.trials = []            # (config, timing) from _bench
        self.launches = {}          # config key -> {"grid", compiled info}
        self.final = None           # compiled-kernel info of the launch outside _bench
        self.final_grid = None      # and its grid
        self.grids = []             # (config, grid) of each _bench call
        self.snapshot = None
        self.described = None
        self.tuner = None           # the _Tuner of the kernel


class _Tuner:
    """What is known about one Autotuner (or JITFunction) object."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.quick = set()
        self.tuned = 0              # autotune events written


class _GridRecorder:
    """Wraps a grid callable so its result is seen; returns it unchanged.
    `value` is the first grid it produced, or with keep_last the latest."""

    def __init__(self, grid, keep_last=False):
        self.grid = grid
        self.keep_last = keep_last
        self.value = None if callable(grid) else _grid_list(grid)

    def wrapped(self):
        if not callable(self.grid):
            return self.grid

        def grid_fn(meta):
            out = self.grid(meta)
            if self.value is None or self.keep_last:
                self.value = _grid_list(out)
            return out
        return grid_fn


def _record_grid(kwargs, keep_last=False):
    """(kwargs with the grid wrapped, recorder); kwargs unchanged when there
    is no grid or wrapping fails."""
    try:
        recorder = _GridRecorder(kwargs.get("grid"), keep_last)
        if "grid" in kwargs:
            return dict(kwargs, grid=recorder.wrapped()), recorder
        return kwargs, recorder
    except Exception:  # never let recording change the call
        return kwargs, None


def _grid_list(grid):
    try:
        g = [int(x) for x in grid]
    except Exception:  # not a grid we can record; the launch is unaffected
        return None
    return (g + [1, 1, 1])[:3]


def patch_autotuner(module, sess):
    cls = getattr(module, "Autotuner", None)
    if cls is None:
        raise AttributeError("triton.runtime.autotuner has no Autotuner")
    return capture.patch_methods(sess, cls, "Autotuner",
                                 (("run", _wrap_autotuner_run), ("_bench", _wrap_bench)),
                                 "hand-written autotuned kernels are captured without it")


def patch_jit(module, sess):
    cls = getattr(module, "JITFunction", None)
    if cls is None or not capture.wrap_method(cls, "run", _wrap_jit_run):
        sess.error("install", AttributeError("run"),
                   message="triton JITFunction.run not found; plain @triton.jit launches "
                           "are not captured")
        return []
    return ["JITFunction.run"]


def _calls():
    if not hasattr(_LOCAL, "calls"):
        _LOCAL.calls = []
    return _LOCAL.calls


# Wrappers.

def _wrap_autotuner_run(orig):
    def run(self, *args, **kwargs):
        if capture.session() is None or capture.in_hook():
            return orig(self, *args, **kwargs)
        call = capture.guarded("launch", _before_autotune, self, args, kwargs)
        before = getattr(self, "configs_timings", None)
        recorder = None
        if call is not None:
            kwargs, recorder = _record_grid(kwargs, keep_last=True)
        _calls().append(call)
        try:
            result = orig(self, *args, **kwargs)
        finally:
            _calls().pop()
        if call is not None:
            call.final_grid = recorder.value if recorder is not None else None
            capture.guarded("autotune", _after_autotune, self, call, before, kernel=call.kernel)
        return result
    return run


def _wrap_bench(orig):
    def _bench(self, *args, config, **meta):
        call = _calls()[-1] if _calls() else None
        if call is None:
            return orig(self, *args, config=config, **meta)
        call.current = config
        meta, recorder = _record_grid(meta)
        try:
            result = orig(self, *args, config=config, **meta)
        finally:
            call.current = None
        call.trials.append((config, result))
        if recorder is not None:
            call.grids.append((config, recorder.value))
        return result
    return _bench


def _wrap_jit_run(orig):
    def run(self, *args, **kwargs):
        if capture.session() is None or capture.in_hook() or kwargs.get("warmup"):
            return orig(self, *args, **kwargs)
        calls = _calls()
        if calls:
            # Inside Autotuner.run (whose capture may have failed: None).
            result = orig(self, *args, **kwargs)
            if calls[-1] is not None:
                capture.guarded("launch", _note_launch, calls[-1], result, kernel=calls[-1].kernel)
            return result
        state = capture.guarded("launch", _before_jit, self, args, kwargs)
        recorder = None
        if state is not None:
            kwargs, recorder = _record_grid(kwargs)
        result = orig(self, *args, **kwargs)
        if state is not None:
            capture.guarded("launch", _after_jit, self, state, recorder, result,
                            kernel=state.kernel)
        return result
    return run


# Hook bodies.

def _jit_of(fn):
    """The JITFunction under Autotuner/Heuristics wrappers (which have
    arg_names and fn, but no src)."""
    for _ in range(8):
        if fn is None or (hasattr(fn, "src") and hasattr(fn, "arg_names")):
            return fn
        fn = getattr(fn, "fn", None)
    return None


def _kernel_for(obj, jit, kind):
    sess = capture.session()

    def make():
        source = user_kernel_module(jit)
        path = getattr(getattr(jit, "fn", None), "__code__", None)
        path = getattr(path, "co_filename", None)
        kernel = sess.kernel(jit.__name__, kind, source, path, hash_source=jit.src)
        kernel.source_kind = "tko_module"
        return _Tuner(kernel)
    return _STATE.get(obj, make)


def _split_args(arg_names, args, kwargs):
    names = list(arg_names[:len(args)])
    values = list(args)
    keyword = []
    options = {}
    for k, v in kwargs.items():
        if k in _IGNORED_KWARGS:
            continue
        if k in arg_names:
            names.append(k)
            values.append(v)
            keyword.append(k)
        else:
            options[k] = v
    return names, values, keyword, options


def _before_autotune(tuner_obj, args, kwargs):
    sess = capture.session()
    jit = _jit_of(tuner_obj)
    tuner = _kernel_for(tuner_obj, jit, "user_autotune")
    kernel = tuner.kernel
    sess.count_launch(kernel)
    _announce(sess, kernel, {"heuristic_type": "user_autotune",
                             "num_configs": len(getattr(tuner_obj, "configs", ()) or ()),
                             "reset_to_zero_arg_names": list(getattr(tuner_obj, "reset_to_zero", []) or []),
                             "restore_value": list(getattr(tuner_obj, "restore_value", []) or [])})
    return _new_call(sess, tuner, list(getattr(tuner_obj, "arg_names", None) or jit.arg_names),
                     args, kwargs)


def _new_call(sess, tuner, arg_names, args, kwargs):
    """A _Call for a launch; a new argument signature gets its description
    and, for the kernel's first, the snapshot."""
    names, values, keyword, options = _split_args(arg_names, args, kwargs)
    call = _Call(tuner.kernel, names, values, keyword, options)
    call.tuner = tuner
    quick = _quick(values)
    if quick not in tuner.quick:
        tuner.quick.add(quick)
        # An argument tko cannot save is this kernel's snapshot error; the
        # launch still goes on, and its autotuning is still recorded.
        call.described = capture.attempt(sess, "snapshot", tuner.kernel, snap_mod.describe,
                                         names, values)
        if call.described is not None:
            call.snapshot = capture.attempt(sess, "snapshot", tuner.kernel,
                                            kerneldir.take_snapshot, sess, tuner.kernel,
                                            names, values)
    return call


def _quick(values):
    torch = sys.modules.get("torch")
    tensor = torch.Tensor if torch is not None else ()
    return tuple((v.shape, v.stride(), v.dtype) if isinstance(v, tensor) else repr(v)[:64]
                 for v in values)


def _announce(sess, kernel, fields):
    if kernel.announced:
        return
    kernel.announced = True
    sess.emit("kernel", **kernel.fields(), kind=kernel.kind, source_file=kernel.source_file,
              selected=kernel.selected, **fields)


def _note_launch(call, compiled):
    info = configs.compiled_kernel_info(compiled)
    if call.current is not None:
        call.launches.setdefault(configs.config_key(configs.config_to_dict(call.current)), info)
    else:
        call.final = info


def _after_autotune(tuner_obj, call, timings_before):
    sess = capture.session()
    kernel = call.kernel
    best = getattr(tuner_obj, "best_config", None)
    timings = getattr(tuner_obj, "configs_timings", None)
    if call.trials:
        chosen_by, pairs = "user_autotune", call.trials
    elif timings is not None and timings is not timings_before:
        chosen_by, pairs = "cache_hit", list(timings.items())
    elif len(getattr(tuner_obj, "configs", ()) or ()) <= 1 and not call.tuner.tuned:
        chosen_by, pairs = "single_config", [(best, None)] if best is not None else []
    else:
        chosen_by, pairs = None, []
    result = None
    if chosen_by is not None:
        call.tuner.tuned += 1
        result = _tuning_fields(call, chosen_by, pairs, best)
        sess.emit("autotune", **kernel.fields(), **result)
        sess.log(f"{kernel.name}: chosen by {chosen_by} ({len(result['configs'])} configs)")
    _finish_launch(sess, kernel, call, result, best)


def _tuning_fields(call, chosen_by, pairs, best):
    entries = []
    best_index = None
    for cfg, timing in pairs:
        d = configs.config_to_dict(cfg)
        d["time_ms"], quantiles = configs.time_ms(timing) if timing is not None else (None, None)
        if quantiles:
            d["time_quantiles_ms"] = quantiles
        d.update(call.launches.get(configs.config_key(d), {}))
        d["grid"] = next((g for c, g in call.grids if c is cfg), None)
        if cfg is best or (best is not None and best_index is None and _same(cfg, best)):
            best_index = len(entries)
            if call.final:
                d.update({k: v for k, v in call.final.items() if v is not None})
            if call.final_grid is not None:
                d["grid"] = call.final_grid
        entries.append(d)
    return {"chosen_by": chosen_by, "configs": entries, "best_index": best_index}


def _same(a, b):
    try:
        return a == b
    except Exception:
        return False


def _finish_launch(sess, kernel, call, result, best):
    if call.described is None:
        return
    grid = call.final_grid
    sess.emit("launch", **kernel.fields(), grid=grid,
              config_index=(result or {}).get("best_index"),
              config=configs.config_to_dict(best) if best is not None else None,
              args=call.described)
    if call.snapshot is not None and result is not None:
        kerneldir.finish(sess, kernel, call.snapshot,
                         _user_record(call, result, grid))


def _user_record(call, result, grid):
    return {
        "source_kind": call.kernel.source_kind,
        "heuristic_type": call.kernel.kind,
        "grid": grid,
        "configs": result["configs"],
        "best_index": result["best_index"],
        "chosen_by": result["chosen_by"],
        "keyword_args": call.keyword,
        "launch_options": json_safe(call.options),
        "timing_method": "triton_do_bench" if call.kernel.kind == "user_autotune" else None,
        "device": capture.device_info(),
        "versions": {"torch": getattr(sys.modules.get("torch"), "__version__", None),
                     "triton": getattr(sys.modules.get("triton"), "__version__", None),
                     "python": sys.version.split()[0]},
    }


def _before_jit(jit, args, kwargs):
    sess = capture.session()
    tuner = _kernel_for(jit, jit, "user_jit")
    kernel = tuner.kernel
    sess.count_launch(kernel)
    _announce(sess, kernel, {"heuristic_type": "user_jit", "num_configs": 1})
    return _new_call(sess, tuner, list(jit.arg_names), args, kwargs)


def _after_jit(jit, call, recorder, compiled):
    sess = capture.session()
    call.final = configs.compiled_kernel_info(compiled)
    call.final["grid"] = recorder.value if recorder is not None else None
    options = {k: v for k, v in call.options.items() if k in configs.CONFIG_FIELDS}
    cfg = {"kwargs": {}, **{f: options.get(f) for f in configs.CONFIG_FIELDS},
           "time_ms": None, **call.final}
    result = None
    if not call.tuner.tuned:
        call.tuner.tuned = 1
        result = {"chosen_by": "single_config", "configs": [cfg], "best_index": 0}
        sess.emit("autotune", **call.kernel.fields(), **result)
    if call.described is not None:
        sess.emit("launch", **call.kernel.fields(), grid=call.final["grid"], config_index=0,
                  config=cfg, args=call.described)
    if call.snapshot is not None:
        result = result or {"chosen_by": "single_config", "configs": [cfg], "best_index": 0}
        kerneldir.finish(sess, call.kernel, call.snapshot,
                         _user_record(call, result, call.final["grid"]))


# kernel.py for a hand-written kernel.

def user_kernel_module(jit):
    """Source of a standalone module defining `jit`'s kernel: imports, the
    global values it reads, the @triton.jit helpers it calls, and the kernel
    itself under a plain @triton.jit. A global it cannot reproduce is named
    in a comment; a replay then fails with a NameError that says which."""
    lines = ["# Written by tko capture: the hand-written kernel "
             f"{jit.__name__!r} with what it uses.",
             "import triton", "import triton.language as tl", ""]
    done = set()
    body = []
    _emit_function(jit, lines, body, done)
    return "\n".join(lines + [""] + body) + "\n"


def _emit_function(jit, header, body, done):
    if jit.__name__ in done:
        return
    done.add(jit.__name__)
    fn = getattr(jit, "fn", None)
    globs = getattr(fn, "__globals__", {}) or {}
    code = getattr(fn, "__code__", None)
    for name in (code.co_names if code is not None else ()):
        if name in done or name not in globs:
            continue
        value = globs[name]
        if hasattr(value, "arg_names") and hasattr(value, "src"):
            _emit_function(value, header, body, done)
            continue
        done.add(name)
        header.append(_global_line(name, value))
    body.append(_decorator(jit))
    body.append(textwrap.dedent(jit.src).rstrip() + "\n")


def _decorator(jit):
    extras = []
    for attr in ("do_not_specialize", "do_not_specialize_on_alignment"):
        value = [p for p in (getattr(jit, attr, None) or [])]
        if value:
            extras.append(f"{attr}={value!r}")
    if getattr(jit, "noinline", None):
        extras.append("noinline=True")
    return "@triton.jit" + (f"({', '.join(extras)})" if extras else "")


def _global_line(name, value):
    mod = type(value).__module__
    if type(value).__name__ == "module":
        target = value.__name__
        return f"import {target}" if target == name else f"import {target} as {name}"
    if type(value).__name__ == "constexpr" and mod.startswith("triton"):
        return f"{name} = tl.constexpr({getattr(value, 'value', None)!r})"
    if isinstance(value, (bool, int, float, str)) or value is None:
        return f"{name} = {value!r}"
    if type(value).__name__ == "dtype" and mod.startswith("triton"):
        return f"{name} = tl.{value}"
    return f"# tko: global {name!r} ({type(value).__name__}) could not be captured"
