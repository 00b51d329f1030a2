"""tko tune's worker: compiles, launches and times kernel variants for the C side.

The C side (src/py/worker.c, src/tune/pool.c) starts this file as a
script and talks to it through pipes: one JSON request per line on stdin,
one JSON reply per line on stdout (every reply carries the request's "id"
and "op"). It decides nothing: which variants exist, their launch configs,
tolerances, grids and the winner all come from tko; this process only does
what needs Triton (and, on a GPU, torch) in-process. Anything printed by
Triton or the kernel goes to stderr, so stdout stays a clean protocol
channel. One worker serves every kernel of a tko tune run.

Requests (see docs/json.md, "tko tune worker protocol"):
  hello       versions, the GPU's facts (gpu.py: tko decides its arch),
              the buffer-ops knob, Triton's bundled tools, the compile
              processes it has
  compile     triton.compile(ASTSource(...), target=GPUTarget(...), options)
              mirroring Inductor's _precompile_config (tune_compile.py);
              every stage is written to out_dir; a compile failure is a
              reply with status "compile_error", never a crash
  precompile  compile requests handed to the compile processes, answered
              at once (tune_pool.py)
  bench       compile, then launch and time on the GPU and compare the
              outputs with the reference variant's (tune_bench.py); a
              variant whose ISA fingerprint is one of the "known" ones is not
              timed again ("duplicate")
  confirm     the bench requests of a few variants (compiled already: Triton
              cache hits), timed again in "rounds" rounds taking turns on the
              captured inputs (tune_bench.confirm_rounds); replies each
              variant's per-round median times, no checks; with "warm"
              also each one's times without the L2 flush, in the same turns
              (confirm_rounds_warm)
  copy_bandwidth  the device's measured copy rate, for the peak column
  quit        exit

Every failure is a reply: "error" with the exception on one line and
"traceback" with the end of its traceback. After a launch that left the
GPU context broken (an illegal memory access sticks to the process) the
reply says "restart": true and the worker exits, so tko starts a fresh one.

Environment switches that Triton reads at import (AMDGCN_USE_BUFFER_OPS) are
set by tko when it starts the worker: one worker per environment.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bandwidth  # noqa: E402
import gpu  # noqa: E402
from tune_bench import (Bench, TorchOps, confirm_rounds, confirm_rounds_warm,  # noqa: E402
                        launcher)
from tune_compile import (compile_reply, compile_variant,  # noqa: E402,F401
                          load_jit_functions, one_line, traceback_tail)
from tune_pool import CompilePool  # noqa: E402

PROTOCOL = 1


# ---- hello: versions and the GPU -----------------------------------------

def _gpu(torch):
    """Device 0's facts (gpu.py); tko decides the arch from them."""
    if not torch.cuda.is_available():
        return None
    return gpu.facts(torch.cuda.get_device_properties(0), getattr(torch.version, "hip", None))


def _tools(triton):
    """Triton's own cuobjdump and nvdisasm: its knobs say where (Triton 3.5
    and 3.6 have them); without knobs (3.3, the brief's DCU stack) they are
    in the wheel's backends/nvidia/bin."""
    out = {}
    for name in ("cuobjdump", "nvdisasm"):
        try:
            out[name] = getattr(triton.knobs.nvidia, name).path
        except AttributeError:
            path = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
            out[name] = path if os.access(path, os.X_OK) else None
        except Exception:
            out[name] = None
    return out


def op_hello(req):
    import triton
    rep = {"status": "ok", "protocol": PROTOCOL, "triton": triton.__version__,
           "python": sys.version.split()[0], "torch": None, "gpu": None,
           "pid": os.getpid(), "tools": _tools(triton)}
    try:
        import triton.backends
        rep["backends"] = sorted(triton.backends.backends)
    except Exception:
        rep["backends"] = []
    try:
        rep["buffer_ops"] = bool(triton.knobs.amd.use_buffer_ops)
    except AttributeError:
        rep["buffer_ops"] = None
    try:
        import torch
        rep["torch"] = torch.__version__
        rep["gpu"] = _gpu(torch)
    except ImportError:
        pass
    _pool().warm()
    rep["jobs"] = _pool().jobs
    return rep


# ---- compile, precompile, bench --------------------------------------------

_state = {"pool": None, "bench": None}


def _pool():
    if _state["pool"] is None:
        _state["pool"] = CompilePool()
    return _state["pool"]


def _compiled(req):
    """(CompiledKernel or None, reply fields): a compile error from the
    compile processes is the reply; otherwise the worker compiles the
    variant itself (a Triton cache hit when it was precompiled)."""
    pre = _pool().take(req)
    if pre is not None and pre.get("status") != "ok":
        return None, pre
    try:
        k, fields = compile_variant(req)
    except Exception as e:
        return None, {"status": "compile_error", "error": one_line(e), "traceback": traceback_tail()}
    if pre is not None:
        fields["compile_ms"] = pre.get("compile_ms", fields["compile_ms"])
    return k, fields


def op_compile(req):
    k, fields = _compiled(req)
    if k is not None:
        fields["status"] = "ok"
    return fields


def op_precompile(req):
    return {"status": "ok", "queued": _pool().submit(list(req.get("requests") or []))}


def _driver_resources(k, fields):
    """The registers and spills the driver reported when it loaded k."""
    md = fields.setdefault("metadata", {})
    for name in ("n_regs", "n_spills"):
        v = getattr(k, name, None)
        if isinstance(v, int):
            md[name] = v


def op_bench(req):
    if req.get("grid_error"):
        return {"status": "error", "error": "no launch grid: %s" % req["grid_error"]}
    k, fields = _compiled(req)
    if k is None:
        return fields
    same = (req.get("known") or {}).get(fields.get("fingerprint"))
    if same:
        return dict(fields, status="duplicate", same_as=same)
    try:
        if _state["bench"] is None:
            _state["bench"] = Bench(TorchOps())
        res = _state["bench"].run(req, launcher(k, req))
    except Exception as e:
        rep = dict(fields, status="launch_error", error=one_line(e), traceback=traceback_tail())
        ops = _state["bench"].ops if _state["bench"] else None
        if ops is not None and not ops.healthy():
            rep["restart"] = True
        return rep
    _driver_resources(k, fields)
    fields.update(res)
    return fields


def op_confirm(req):
    variants = []
    for r in req.get("requests") or []:
        k, fields = _compiled(r)
        if k is None:
            return {"status": "error", "error": "%s did not compile: %s" % (
                r.get("id"), fields.get("error"))}
        variants.append((r, launcher(k, r)))
    if _state["bench"] is None:
        _state["bench"] = Bench(TorchOps())
    ops = _state["bench"].ops
    rounds, offset = int(req.get("rounds", 7)), int(req.get("offset", 0))
    warm = None
    try:
        if req.get("warm"):
            times, warm = confirm_rounds_warm(ops, variants, rounds, offset)
        else:
            times = confirm_rounds(ops, variants, rounds, offset)
    except Exception as e:
        rep = {"status": "error", "error": one_line(e), "traceback": traceback_tail()}
        if not ops.healthy():
            rep["restart"] = True
        return rep
    rep = {"status": "ok", "ids": [r.get("id") for r, _ in variants], "times_ms": times}
    if warm is not None:
        rep["warm_times_ms"] = warm
    return rep


def op_copy_bandwidth(req):
    """The device's copy rate in GB/s (bytes read + written per second),
    median of device-event timings of a large device-to-device copy
    (bandwidth.py, the measurement tko env --measure makes)."""
    m = bandwidth.measure_copy(int(req.get("bytes", 1 << 30)), int(req.get("reps", 20)), 3)
    return {"status": "ok", "bytes": m["buffer_bytes"], "time_ms": m["median_ms"],
            "gbps": m["copy_gbps"]}


# ---- the loop ---------------------------------------------------------------

OPS = {"hello": op_hello, "compile": op_compile,
       "precompile": op_precompile, "bench": op_bench, "confirm": op_confirm,
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
        tail = traceback_tail()
        sys.stderr.write(tail)
        rep.update(status="error", error=one_line(e), traceback=tail)
    return rep


def _encode(rep):
    """The reply as one JSON line; one that cannot be (a NaN time) is an error reply."""
    try:
        return json.dumps(rep, allow_nan=False, default=str)
    except ValueError as e:
        return json.dumps({"id": rep.get("id"), "op": rep.get("op"), "status": "error",
                           "error": "unencodable reply: %s" % e})


def _protocol_out():
    """The reply channel: descriptor 1 as the worker was started with, moved
    to a descriptor of its own, after which 1 points where 2 does. ptxas, the
    CUDA driver, LLVM and the compile processes write to descriptor 1, not to
    sys.stdout: left there, their messages ("ptxas ... error", a crash
    reproducer) landed inside the reply stream and every reply after them
    was unreadable."""
    sys.stdout.flush()
    proto = os.dup(1)  # not inherited by children (PEP 446)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(proto, "w")


def main():
    out = _protocol_out()
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
        out.write(_encode(rep) + "\n")
        out.flush()
        if rep.get("restart"):
            break
    if _state["pool"] is not None:
        _state["pool"].drop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
