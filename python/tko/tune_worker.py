"""tko tune's worker: compiles, launches and times kernel variants for the C side.

The C side (src/tune/worker.c) starts this file as a script and talks to it
through pipes: one JSON request per line on stdin, one JSON reply per line
on stdout (every reply carries the request's "id" and "op"). It decides
nothing: which variants exist, their launch configs, tolerances, grids and
the winner all come from tko; this process only does what needs Triton (and,
on a GPU, torch) in-process. Anything printed by Triton or the kernel goes
to stderr, so stdout stays a clean protocol channel.

Requests (see docs/json.md, "tko tune worker protocol"):
  hello     versions, the buffer-ops knob, whether a GPU and torch are here
  describe  the @triton.jit functions of a source file and the arguments of
            their Inductor heuristics decorator, as JSON
  compile   triton.compile(ASTSource(...), target=GPUTarget(...), options)
            mirroring Inductor's _precompile_config; every stage is written
            to out_dir; a compile failure is a reply with status
            "compile_error", never a crash
  bench     compile, then launch and time on the GPU (median of device-event
            timings, mutated arguments restored before every repetition) and
            compare the outputs with the reference variant's on the captured
            inputs and on fresh random inputs of the same shapes and strides
  copy_bandwidth  the device's measured copy rate, for the peak column
  quit      exit

Environment switches that Triton reads at import (AMDGCN_USE_BUFFER_OPS) are
set by tko when it starts the worker: one worker per environment.

Inductor kernel modules call triton_helpers.set_driver_to_gpu() at import,
which fails without a GPU, and they import torch. So a source file is never
imported: its @triton.jit functions (and its triton imports) are compiled
from the file's own syntax tree, with the file's name and line numbers, so
Triton finds their source and the ISA's line info points into the file.
"""

import ast
import dataclasses
import json
import math
import os
import statistics
import sys
import time
import traceback

PROTOCOL = 1


# ---- loading kernels without importing their module ----------------------

class _MissingHelpers:
    """Stands in for torch's triton_helpers when torch is not installed."""

    def __getattr__(self, name):
        raise RuntimeError(
            "the kernel calls triton_helpers.%s from torch._inductor; "
            "install torch to compile it" % name)


def _kernel_globals():
    import triton
    import triton.language as tl
    g = {"triton": triton, "tl": tl, "math": math, "__name__": "tko_tune_kernel"}
    try:
        from torch._inductor.runtime import triton_helpers
        from torch._inductor.runtime.triton_helpers import libdevice
        from torch._inductor.runtime.triton_helpers import math as tl_math
        g.update(triton_helpers=triton_helpers, libdevice=libdevice, tl_math=tl_math)
    except ImportError:
        from triton.language.extra import libdevice
        g.update(triton_helpers=_MissingHelpers(), libdevice=libdevice, tl_math=tl.math)
    return g


def _is_jit(dec):
    node = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(node, ast.Attribute):
        return node.attr == "jit"
    return isinstance(node, ast.Name) and node.id == "jit"


def _is_triton_import(node):
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] in ("triton", "math") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "triton"
    return False


def _parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return ast.parse(text, filename=path)


def load_jit_functions(path):
    """Returns {name: JITFunction} for the top-level @triton.jit functions."""
    tree = _parse(path)
    body = []
    names = []
    for node in tree.body:
        if _is_triton_import(node):
            body.append(node)
        elif isinstance(node, ast.FunctionDef) and any(_is_jit(d) for d in node.decorator_list):
            node.decorator_list = [d for d in node.decorator_list if _is_jit(d)]
            body.append(node)
            names.append(node.name)
    g = _kernel_globals()
    g["__file__"] = path
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), g)
    return {n: g[n] for n in names}


# ---- describe: the decorator's arguments as JSON --------------------------

class _Named:
    """A stand-in for an enum member or a call in the decorator (ReductionHint.INNER)."""

    def __init__(self, name):
        self.name = name

    def __getattr__(self, attr):
        return _Named(self.name + "." + attr)

    def __call__(self, *args, **kwargs):
        return {"__call__": self.name, "args": list(args), "kwargs": kwargs}


def _jsonable(v):
    if isinstance(v, dict):
        return {(",".join(str(i) for i in k) if isinstance(k, tuple) else str(k)): _jsonable(x)
                for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(_jsonable(x) for x in v)
    if isinstance(v, _Named):
        return v.name
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return _jsonable(dataclasses.asdict(v))
    if hasattr(v, "_asdict"):
        return _jsonable(v._asdict())
    return repr(v)


class _DecoratorNames(dict):
    def __missing__(self, key):
        return _Named(key)


def _decorator_args(dec, path):
    names = _DecoratorNames(__file__=path, set=set, frozenset=frozenset, True_=True)
    names["__builtins__"] = {}
    out = {}
    for i, a in enumerate(dec.args):
        out["arg%d" % i] = _jsonable(eval(compile(ast.Expression(a), path, "eval"), names))
    for kw in dec.keywords:
        out[kw.arg] = _jsonable(eval(compile(ast.Expression(kw.value), path, "eval"), names))
    return out


def _describe_function(node, path):
    jit = [d for d in node.decorator_list if _is_jit(d)]
    others = [d for d in node.decorator_list if not _is_jit(d)]
    k = {"name": node.name, "line": node.lineno, "end_line": node.end_lineno,
         "def_line": node.lineno if not node.decorator_list else node.decorator_list[0].lineno,
         "params": [], "heuristic": None, "decorator": None}
    if jit:
        k["def_line"] = min(d.lineno for d in node.decorator_list)
    for a in node.args.args:
        ann = ast.unparse(a.annotation) if a.annotation is not None else None
        k["params"].append({"name": a.arg, "annotation": ann})
    for d in others:
        if isinstance(d, ast.Call):
            func = ast.unparse(d.func)
            k["heuristic"] = func.rsplit(".", 1)[-1]
            k["decorator"] = _decorator_args(d, path)
    k["body_constexprs"] = _body_constexprs(node)
    return k


def _body_constexprs(node):
    """NAME : tl.constexpr = <int> lines in the body (template block sizes)."""
    out = {}
    for st in node.body:
        if (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)
                and "constexpr" in ast.unparse(st.annotation) and st.value is not None):
            try:
                out[st.target.id] = ast.literal_eval(st.value)
            except ValueError:
                out[st.target.id] = ast.unparse(st.value)
    return out


def op_describe(req):
    path = req["source"]
    tree = _parse(path)
    kernels = [_describe_function(n, path) for n in tree.body
               if isinstance(n, ast.FunctionDef) and any(_is_jit(d) for d in n.decorator_list)]
    return {"status": "ok", "kernels": kernels}


# ---- compile ----------------------------------------------------------------

def _constant(v):
    import triton.language as tl
    if isinstance(v, str) and v.startswith("tl."):
        return getattr(tl, v[3:])
    return v


def _target(t):
    from triton.backends.compiler import GPUTarget
    arch = t["arch"]
    if t["backend"] == "cuda" and isinstance(arch, str):
        arch = int(arch.replace("sm_", ""))
    return GPUTarget(t["backend"], arch, int(t["warp_size"]))


def _attrs(a):
    return {tuple(int(i) for i in str(k).split(",")): v for k, v in (a or {}).items()}


def compile_variant(req, fns=None):
    """Compiles one variant; returns (CompiledKernel, reply fields)."""
    import triton
    from triton.compiler import ASTSource
    fns = fns if fns is not None else load_jit_functions(req["source"])
    if req["kernel"] not in fns:
        raise KeyError("no @triton.jit function '%s' in %s" % (req["kernel"], req["source"]))
    fn = fns[req["kernel"]]
    constants = {k: _constant(v) for k, v in (req.get("constants") or {}).items()}
    src = ASTSource(fn=fn, signature=dict(req["signature"]), constexprs=constants,
                    attrs=_attrs(req.get("attrs")))
    options = {"num_warps": int(req.get("num_warps", 4)),
               "num_stages": int(req.get("num_stages", 1)),
               "debug": False, "sanitize_overflow": False}
    options.update(req.get("options") or {})
    t0 = time.perf_counter()
    k = triton.compile(src, target=_target(req["target"]), options=options)
    ms = (time.perf_counter() - t0) * 1e3
    return k, {"compile_ms": round(ms, 3), "files": _write_stages(k, req),
               "metadata": _metadata(k)}


def _write_stages(k, req):
    out = req.get("out_dir")
    files = {}
    if not out:
        return files
    os.makedirs(out, exist_ok=True)
    stages = dict(k.asm)
    # Triton's own metadata, as its cache keeps it: options, shared memory,
    # and the cache-invalidating environment (AMDGCN_USE_BUFFER_OPS ...).
    md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else {}
    stages["json"] = json.dumps(_jsonable(md), indent=1, sort_keys=True) + "\n"
    for ext, data in stages.items():
        path = os.path.join(out, "%s.%s" % (req["kernel"], ext))
        mode = "wb" if isinstance(data, bytes) else "w"
        tmp = path + ".tmp"
        with open(tmp, mode) as f:
            f.write(data)
        os.replace(tmp, path)
        files[ext] = path
    return files


def _metadata(k):
    md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else {}
    keep = ("name", "num_warps", "num_stages", "shared", "waves_per_eu", "arch",
            "matrix_instr_nonkdim", "global_scratch_size", "target")
    return {key: _jsonable(md[key]) for key in keep if key in md}


def op_compile(req):
    try:
        _, fields = compile_variant(req)
    except Exception as e:  # every failure is a result, never fatal
        return {"status": "compile_error", "error": _one_line(e)}
    fields["status"] = "ok"
    return fields


def _one_line(e):
    """The error on one line: its first line and its last two (Triton's
    CompilationError puts the kernel's source between them)."""
    text = "%s: %s" % (type(e).__name__, e)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip() != "^"]
    if len(lines) > 3:
        lines = lines[:1] + lines[-2:]
    return " | ".join(lines)[:1000]


# ---- bench: timing and checking (GPU) --------------------------------------

def median_ms(times):
    return statistics.median(times) if times else None


def outputs_match(ops, got, want, tol):
    """Compares two outputs with (rtol, atol); NaN equals NaN in the same place."""
    rtol, atol = tol
    return ops.allclose(got, want, rtol, atol)


def time_launches(ops, launch, restore, reps, warmup):
    """Median device time of `launch`, with mutated arguments restored before
    every repetition (outside the timed region)."""
    for _ in range(warmup):
        restore()
        launch()
    times = []
    for _ in range(reps):
        restore()
        ops.flush_cache()
        times.append(ops.time_one(launch))
    return times


def check_outputs(ops, outputs, reference, tolerances):
    """Per output: ok, max_abs_err. `outputs`/`reference`: {index: tensor}."""
    res = []
    for idx in sorted(reference):
        got, want = outputs[idx], reference[idx]
        tol = tolerances.get(ops.dtype_name(want), tolerances.get("default", [1e-5, 1e-8]))
        res.append({"arg": idx, "ok": bool(outputs_match(ops, got, want, tol)),
                    "max_abs_err": ops.max_abs_err(got, want)})
    return res


class Bench:
    """Times and checks variants; `ops` hides torch (a CPU fake in tests).

    The reference variant's outputs are kept in memory and, when the request
    names a reference_file, saved there, so that a worker started later (after
    a timeout, or for another environment such as AMDGCN_USE_BUFFER_OPS=0)
    compares against the same outputs.
    """

    def __init__(self, ops):
        self.ops = ops
        self.refs = {}

    def _reference(self, req, name):
        key = (req.get("reference"), name)
        path = req.get("reference_file")
        if key not in self.refs and path and os.path.exists(path):
            for set_name, outputs in self.ops.load(path).items():
                self.refs[(req.get("reference"), set_name)] = outputs
        return self.refs.get(key)

    def run(self, req, launcher):
        ops = self.ops
        out = {"status": "ok", "checks": []}
        sets = ops.input_sets(req)
        mutated = [int(i) for i in req.get("mutated", [])]
        outputs_idx = [int(i) for i in req.get("outputs", mutated)]
        saved = {}
        for name, args in sets:
            pristine = {i: ops.clone(args[i]) for i in mutated}

            def restore(args=args, pristine=pristine):
                for i, t in pristine.items():
                    ops.copy_(args[i], t)

            def launch(args=args):
                launcher(args)

            restore()
            launch()
            ops.synchronize()
            result = {i: ops.clone(args[i]) for i in outputs_idx}
            if req.get("is_reference"):
                self.refs[(req.get("reference"), name)] = result
                saved[name] = result
            ref = self._reference(req, name)
            if ref is not None and not req.get("is_reference"):
                checks = check_outputs(ops, result, ref, req.get("tolerances") or {})
                ok = all(c["ok"] for c in checks)
                out["checks"].append({"inputs": name, "ok": ok, "outputs": checks})
            if name == "captured" or len(sets) == 1:
                times = time_launches(ops, launch, restore, int(req.get("reps", 50)),
                                      int(req.get("warmup", 5)))
                out["times_ms"] = times
                out["time_ms"] = median_ms(times)
            restore()
        if saved and req.get("reference_file"):
            ops.save(saved, req["reference_file"])
        if not req.get("is_reference") and not out["checks"]:
            out["status"] = "error"
            out["error"] = "no reference outputs for '%s'" % req.get("reference")
        elif any(not c["ok"] for c in out["checks"]):
            out["status"] = "wrong"
        return out


def launch_args(params, constants, by_name):
    """The kernel's arguments in parameter order: constexprs from `constants`
    (Triton's launcher takes and ignores them), the rest by name from the
    captured launch (whose extra launcher arguments, like a template's
    _grid_0, are not parameters and are dropped)."""
    out = []
    for name in params:
        if name in constants:
            out.append(_constant(constants[name]))
        elif name in by_name:
            out.append(by_name[name])
        else:
            raise KeyError("the captured launch has no argument '%s'" % name)
    return out


class TorchOps:
    """The GPU side of Bench: torch tensors, device events, an L2 flush.

    Captured inputs are rebuilt by tko capture's loader (tko.snapshot, from
    the capture directory's inputs/storage<N>.bin); random inputs get one
    fresh storage per captured storage, so arguments that alias still alias,
    viewed with the captured shapes, strides and offsets.
    """

    def __init__(self):
        import torch
        self.torch = torch
        self.flush = None

    def input_sets(self, req):
        spec = req["inputs"]
        params, consts = req["params"], req.get("constants") or {}
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from tko import snapshot
        values, storages = snapshot.load(spec["dir"], spec["args"], spec["storages"])
        names = [a["name"] for a in spec["args"]]
        sets = [("captured", launch_args(params, consts, dict(zip(names, values))))]
        if req.get("random_inputs", True):
            rand = self.random_like(spec["args"], values, storages, int(req.get("seed", 0)))
            sets.append(("random", launch_args(params, consts, dict(zip(names, rand)))))
        return sets

    def random_like(self, args, values, storages, seed):
        torch = self.torch
        g = torch.Generator(device=storages[0].device if storages else "cuda").manual_seed(seed)
        fresh = {}
        out = []
        for a, v in zip(args, values):
            if a["kind"] != "tensor":
                out.append(v)
                continue
            base = fresh.get(a["storage"])
            if base is None:
                base = self._random_storage(storages[a["storage"]], v, g)
                fresh[a["storage"]] = base
            t = torch.empty(0, dtype=v.dtype, device=v.device)
            t.set_(base.untyped_storage(), v.storage_offset(), v.shape, v.stride())
            out.append(t)
        return out

    def _random_storage(self, raw, like, g):
        torch = self.torch
        n = raw.numel() // like.element_size()
        if like.dtype.is_floating_point:
            return torch.randn(n, device=raw.device, generator=g).to(like.dtype)
        if like.dtype == torch.bool:
            return torch.randint(0, 2, (n,), device=raw.device, generator=g).bool()
        # Integer tensors are often indices that the kernel asserts on:
        # keep the captured values.
        return raw.clone().view(like.dtype)

    def clone(self, t):
        if not isinstance(t, self.torch.Tensor):
            return t
        n = t.untyped_storage().nbytes() // t.element_size()
        base = t.as_strided((n,), (1,), 0).clone()
        return base.as_strided(t.shape, t.stride(), t.storage_offset())

    def copy_(self, dst, src):
        n = dst.untyped_storage().nbytes() // dst.element_size()
        dst.as_strided((n,), (1,), 0).copy_(src.as_strided((n,), (1,), 0))

    def synchronize(self):
        self.torch.cuda.synchronize()

    def flush_cache(self):
        if self.flush is None:
            self.flush = self.torch.empty(256 << 20, dtype=self.torch.int8, device="cuda")
        self.flush.zero_()

    def time_one(self, launch):
        torch = self.torch
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        launch()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    def dtype_name(self, t):
        return str(t.dtype).replace("torch.", "")

    def save(self, outputs, path):
        cpu = {n: {i: t.cpu() for i, t in o.items()} for n, o in outputs.items()}
        tmp = path + ".tmp"
        self.torch.save(cpu, tmp)
        os.replace(tmp, path)

    def load(self, path):
        obj = self.torch.load(path, map_location="cuda")
        return {n: dict(o) for n, o in obj.items()}

    def allclose(self, a, b, rtol, atol):
        torch = self.torch
        if a.dtype.is_floating_point:
            return bool(torch.allclose(a.float(), b.float(), rtol=rtol, atol=atol, equal_nan=True))
        return bool(torch.equal(a, b))

    def max_abs_err(self, a, b):
        torch = self.torch
        if a.numel() == 0:
            return 0.0
        d = (a.double() - b.double()).abs()
        d = torch.where(torch.isnan(a.double()) & torch.isnan(b.double()), torch.zeros_like(d), d)
        v = d.max().item()
        return v if math.isfinite(v) else str(v)


def _launcher(k, req):
    grid = [int(g) for g in req["grid"]]

    def launch(args):
        k[grid](*args)

    return launch


_bench = None


def op_bench(req):
    global _bench
    try:
        k, fields = compile_variant(req)
    except Exception as e:
        return {"status": "compile_error", "error": _one_line(e)}
    try:
        if _bench is None:
            _bench = Bench(TorchOps())
        res = _bench.run(req, _launcher(k, req))
    except Exception as e:
        return dict(fields, status="launch_error", error=_one_line(e))
    fields.update(res)
    return fields


def op_copy_bandwidth(req):
    """The device's copy rate in GB/s (bytes read + written per second),
    median of device-event timings of a large device-to-device copy."""
    import torch
    n = int(req.get("bytes", 1 << 30))
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    times = []
    for i in range(int(req.get("reps", 20)) + 3):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        dst.copy_(src)
        end.record()
        end.synchronize()
        if i >= 3:
            times.append(start.elapsed_time(end))
    ms = statistics.median(times)
    return {"status": "ok", "bytes": n, "time_ms": ms, "gbps": 2 * n / (ms / 1e3) / 1e9}


# ---- the loop ---------------------------------------------------------------

def op_hello(req):
    import triton
    rep = {"status": "ok", "protocol": PROTOCOL, "triton": triton.__version__,
           "python": sys.version.split()[0], "torch": None, "gpu": None,
           "pid": os.getpid()}
    try:
        rep["buffer_ops"] = bool(triton.knobs.amd.use_buffer_ops)
    except AttributeError:
        rep["buffer_ops"] = None
    try:
        import torch
        rep["torch"] = torch.__version__
        if torch.cuda.is_available():
            p = torch.cuda.get_device_properties(0)
            rep["gpu"] = {"name": p.name, "arch": gpu_arch(p, getattr(torch.version, "hip", None)),
                          "multiprocessor_count": p.multi_processor_count}
    except ImportError:
        pass
    return rep


def gpu_arch(props, hip):
    """gfx942 / sm_90 for torch's device properties. ROCm and DTK report
    "gfx942:sramecc+:xnack-" (the arch is the first part); CUDA builds of
    torch 2.11 also have gcnArchName, holding the device name ("NVIDIA
    H200"), so it is read only under HIP."""
    arch = (getattr(props, "gcnArchName", None) or "").split(":")[0] if hip else ""
    return arch or "sm_%d%d" % (props.major, props.minor)


OPS = {"hello": op_hello, "describe": op_describe, "compile": op_compile, "bench": op_bench,
       "copy_bandwidth": op_copy_bandwidth}


def handle(req):
    op = req.get("op")
    rep = {"id": req.get("id"), "op": op}
    fn = OPS.get(op)
    if fn is None:
        rep.update(status="error", error="unknown op %r" % op)
        return rep
    try:
        rep.update(fn(req))
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        rep.update(status="error", error=_one_line(e))
    return rep


def main():
    out = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            rep = {"id": None, "op": None, "status": "error", "error": "bad request: %s" % e}
        else:
            if req.get("op") == "quit":
                break
            rep = handle(req)
        out.write(json.dumps(rep, allow_nan=False, default=str) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
