"""Timing and checking tko tune variants on the GPU, for the tune worker.

Bench.run(req, launcher) launches one compiled variant on every input set
of the request (the captured inputs and fresh random ones of the same
shapes and strides), compares its outputs with the reference variant's
(the base, run first), and times it on the captured inputs: the median of
device-event timings, the mutated arguments restored and the L2 cache
flushed before every repetition, outside the timed interval. `ops` hides
torch (TorchOps on a GPU; a CPU stand-in in the tests).

How a variant is launched, checked against Triton 3.6's own launcher
(compiler.py CompiledKernel.__getitem__ -> runner(*args, stream) ->
self.run(gridX, gridY, gridZ, stream, function, packed_metadata,
launch_metadata, enter_hook, exit_hook, *args); backends/nvidia/driver.py
make_launcher gives every signature entry, constexprs included, an "O"
argument and drops the constexprs from the kernel's parameters): the
arguments go in the order of the kernel's parameters, constexpr values
included, and Triton's stream is torch's current stream, the one the
device events are recorded on. Inductor passes them the same way since
Triton 3.3 (triton_heuristics.py _get_arg_lists: call_args = arg_names
with the constexprs' values substituted).
"""

import math
import os
import statistics
import sys


def median_ms(times):
    return statistics.median(times) if times else None


def outputs_match(ops, got, want, tol):
    """Compares two outputs with (rtol, atol); NaN equals NaN in the same place."""
    rtol, atol = tol
    return ops.allclose(got, want, rtol, atol)


# Timed work per variant the repetitions aim at: short kernels get more of
# them (up to MAX_REPS), so a 5 us kernel's median is as steady as a 1 ms one's.
TARGET_MS = 30.0
MAX_REPS = 300


def time_launches(ops, launch, restore, reps, warmup, flush=True):
    """Device times of `launch`: at least `reps` of them, more for short
    kernels, with mutated arguments restored and the L2 flushed before every
    repetition (outside the timed region). flush=False leaves the L2 as the
    restore left it: the inputs the last repetition read and the restore
    wrote are still there, as they are for a kernel inside a training step
    whose inputs the previous kernel just wrote (confirm_rounds' warm times)."""
    for _ in range(warmup):
        restore()
        launch()
    if not hasattr(ops, "time_reps"):
        times = []
        for _ in range(reps):
            restore()
            if flush:
                ops.flush_cache()
            times.append(ops.time_one(launch))
        return times
    times = ops.time_reps(launch, restore, min(reps, 10), flush)
    est = max(statistics.median(times), 1e-3)
    more = max(reps, min(MAX_REPS, int(TARGET_MS / est))) - len(times)
    return times + (ops.time_reps(launch, restore, more, flush) if more > 0 else [])


def with_workspace(ops, args, ws):
    """args with a mix-order reduction's workspace sized for the variant's
    RSPLIT_SIZE (tko's src/tune/workspace.h): a zeroed tensor of ws["numel"]
    elements in place of the captured one. Without ws, args as they are."""
    if not ws:
        return args
    args = list(args)
    i = int(ws["arg"])
    args[i] = ops.zeros_numel(args[i], int(ws["numel"]))
    return args


def check_outputs(ops, outputs, reference, tolerances, ws=None):
    """Per output: ok, max_abs_err. `outputs`/`reference`: {index: tensor}.
    A workspace (ws) is compared as Inductor's wrapper reads it: its
    partial sums summed over the programs, whose number is the split's.
    Those totals are sums of thousands of rows added in another order, whose
    rounding grows with the terms, not with a total that happens to be near
    zero: they are compared norm-wise (atol at least rtol x the largest
    total), which still catches a lost row of partials."""
    res = []
    for idx in sorted(reference):
        got, want = outputs[idx], reference[idx]
        tol = tolerances.get(ops.dtype_name(want), tolerances.get("default", [1e-5, 1e-8]))
        if ws and idx == int(ws["arg"]):
            got, want = (ops.partial_totals(t, int(ws["partials"]), int(ws["row"]))
                         for t in (got, want))
            tol = [tol[0], max(tol[1], tol[0] * ops.max_abs(want))]
        res.append({"arg": idx, "ok": bool(outputs_match(ops, got, want, tol)),
                    "max_abs_err": ops.max_abs_err(got, want)})
    return res


class Bench:
    """Times and checks variants; `ops` hides torch (a CPU fake in tests).

    The reference variant's outputs are kept in memory and, when the request
    names a reference_file, saved there, so that a worker started later (after
    a timeout, or for another environment such as AMDGCN_USE_BUFFER_OPS=0)
    compares against the same outputs. One worker serves the sweeps of many
    kernels, each with its own reference_file: references are kept by it,
    and only the current sweep's stay in memory.
    """

    def __init__(self, ops):
        self.ops = ops
        self.refs = {}
        self.ref_file = None

    def _key(self, req, name):
        return (req.get("reference_file"), req.get("reference"), name)

    def _switch(self, req):
        if req.get("reference_file") != self.ref_file:
            self.refs = {}
            self.ref_file = req.get("reference_file")

    def _reference(self, req, name):
        key = self._key(req, name)
        path = req.get("reference_file")
        if key not in self.refs and path and os.path.exists(path):
            for set_name, outputs in self.ops.load(path).items():
                self.refs[self._key(req, set_name)] = outputs
        return self.refs.get(key)

    def run(self, req, launcher):
        ops = self.ops
        self._switch(req)
        out = {"status": "ok", "checks": []}
        sets = ops.input_sets(req)
        mutated = [int(i) for i in req.get("mutated", [])]
        outputs_idx = [int(i) for i in req.get("outputs", mutated)]
        saved = {}
        for name, args in sets:
            args = with_workspace(ops, args, req.get("workspace"))
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
                self.refs[self._key(req, name)] = result
                saved[name] = result
            ref = self._reference(req, name)
            if ref is not None and not req.get("is_reference"):
                checks = check_outputs(ops, result, ref, req.get("tolerances") or {},
                                       req.get("workspace"))
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


def confirm_rounds(ops, variants, rounds, offset=0):
    """Per variant, the median time of each of `rounds` rounds on the
    captured inputs, the variants taking turns: round r starts with the
    (offset + r)-th (tko's src/tune/confirm.h decides from the ratios; it
    gives the offset when it asks for one round at a time). Each turn is
    what a bench request times (time_launches: its warm-up, repetitions,
    restores and L2 flushes). `variants`: (request, launcher) pairs."""
    return _rounds(ops, variants, rounds, offset, False)[0]


def confirm_rounds_warm(ops, variants, rounds, offset=0):
    """(cold, warm): confirm_rounds' medians, and in the same turns, right
    after each cold timing, the variant's medians timed warm: the same
    repetitions and restores with no L2 flush and no further warm-up. Inside
    a step a kernel's inputs were often just written by the kernel before
    it and are still in L2; a config can win cold and lose warm."""
    return _rounds(ops, variants, rounds, offset, True)


def _rounds(ops, variants, rounds, offset, warm):
    turns = []
    for req, launcher in variants:
        sets = dict(ops.input_sets(req))
        args = with_workspace(ops, sets["captured"], req.get("workspace"))
        pristine = {int(i): ops.clone(args[int(i)]) for i in req.get("mutated", [])}

        def restore(args=args, pristine=pristine):
            for i, t in pristine.items():
                ops.copy_(args[i], t)

        def launch(args=args, launcher=launcher):
            launcher(args)

        turns.append((launch, restore, int(req.get("reps", 50)), int(req.get("warmup", 5))))
    cold = [[] for _ in turns]
    hot = [[] for _ in turns] if warm else None
    for r in range(rounds):
        for j in range(len(turns)):
            i = (offset + r + j) % len(turns)
            launch, restore, reps, warmup = turns[i]
            cold[i].append(median_ms(time_launches(ops, launch, restore, reps, warmup)))
            if warm:
                hot[i].append(median_ms(time_launches(ops, launch, restore, reps, 0, False)))
            restore()
    return cold, hot


def launch_args(params, constants, by_name, constant=lambda v: v):
    """The kernel's arguments in parameter order: constexprs from `constants`
    (Triton's launcher takes and ignores them), the rest by name from the
    captured launch (whose extra launcher arguments, like a template's
    _grid_0, are not parameters and are dropped)."""
    out = []
    for name in params:
        if name in constants:
            out.append(constant(constants[name]))
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
    viewed with the captured shapes, strides and offsets. Both sets are
    built once per capture directory and kept, with a pristine copy of every
    storage that is copied back before each request, so a variant that
    writes where it should not cannot change what the next one reads.
    """

    FLUSH_BYTES = 256 << 20     # as triton.testing.do_bench: larger than any L2 today

    def __init__(self):
        import torch
        import triton
        self.torch = torch
        self.flush = None
        self.cached = None          # (dir, {set name: (values, storages, pristine)})
        if hasattr(triton, "set_allocator"):
            # kernels with global scratch (TMA descriptors) ask Triton's
            # allocator, which Inductor's CachingAutotuner.run installs
            triton.set_allocator(lambda size, align, stream: torch.empty(
                size, dtype=torch.int8, device="cuda"))

    def _load(self, req):
        spec = req["inputs"]
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from tko import snapshot
        self.cached = None
        values, storages = snapshot.load(spec["dir"], spec["args"], spec["storages"])
        sets = {"captured": (values, storages)}
        if req.get("random_inputs", True):
            rand, rstor = self.random_like(spec["args"], values, storages, int(req.get("seed", 0)))
            sets["random"] = (rand, rstor)
        kept = {n: (v, s, [x.clone() for x in s]) for n, (v, s) in sets.items()}
        self.cached = (spec["dir"], kept)

    def input_sets(self, req):
        if self.cached is None or self.cached[0] != req["inputs"]["dir"]:
            self._load(req)
        params, consts = req["params"], req.get("constants") or {}
        names = [a["name"] for a in req["inputs"]["args"]]
        from tune_compile import constant
        out = []
        for name, (values, storages, pristine) in self.cached[1].items():
            for s, p in zip(storages, pristine):
                s.copy_(p)
            out.append((name, launch_args(params, consts, dict(zip(names, values)), constant)))
        return out

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
        return out, list(fresh.values())

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

    def zeros_numel(self, like, numel):
        return self.torch.zeros(numel, dtype=like.dtype, device=like.device)

    def max_abs(self, t):
        return float(t.abs().max().item()) if t.numel() else 0.0

    def partial_totals(self, t, partials, row):
        """(partials, row) sums over the programs, in float64, as t's dtype."""
        return t.reshape(partials, -1, row).sum(1, dtype=self.torch.float64).to(t.dtype)

    def synchronize(self):
        self.torch.cuda.synchronize()

    def healthy(self):
        """False once the CUDA context is broken (an illegal address sticks)."""
        try:
            self.torch.cuda.synchronize()
            return True
        except Exception:
            return False

    def flush_cache(self):
        if self.flush is None:
            self.flush = self.torch.empty(self.FLUSH_BYTES, dtype=self.torch.int8, device="cuda")
        self.flush.zero_()

    def time_reps(self, launch, restore, n, flush=True):
        """n timed launches queued back to back (one synchronisation): the
        flush before each keeps the GPU busy while the next is queued.
        Without it (warm times) the launches follow their restores as
        kernels follow one another in a step."""
        torch = self.torch
        events = []
        for _ in range(n):
            restore()
            if flush:
                self.flush_cache()
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            launch()
            end.record()
            events.append((start, end))
        torch.cuda.synchronize()
        return [s.elapsed_time(e) for s, e in events]

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


def launcher(k, req):
    """The launch of compiled kernel k on the request's grid."""
    grid = tuple(int(g) for g in req["grid"])
    run = k[grid]

    def launch(args):
        run(*args)

    return launch
