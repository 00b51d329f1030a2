"""Re-times each model kernel three ways in one process, interleaved: with
TorchInductor's default autotuned config (RUN_A, default autotuning), with
coordinate descent's config (RUN_B, TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1)
and with tko tune's winner, then writes the benchmark's results.

All three are launched the way Inductor launches a kernel: the kernel
module of RUN_A imported, its CachingAutotuner's _precompile_config(config)
.make_launcher() (as tko.replay does), called with the captured arguments,
so the grid is Inductor's own and each config is what a user would apply
(tko's winner from its winner/ config and, when it changed the source,
from the winning kernel.py, itself an Inductor module). Hand-written
kernels have no Inductor launcher: their default and tko's winner are
launched from the requests tko's worker got (variants/NNN/request.json).

Same inputs (the captured ones), same warm-up and repetitions, every
repetition in a rotated order, written storages restored and the L2
flushed before each launch, outside the timed interval; the copy bandwidth
is measured in the same process. Outputs of the coordesc and tko configs
are compared with the default's.

    python bench/tune_gpu/retime.py --run-a RUN_A --run-b RUN_B --tune TUNE.json
        --json OUT.json --md OUT.md [--reps 100] [--warmup 10]
        [--descent-summary RUN_B_SUMMARY.json]

--descent-summary is `tko summarize RUN_B --json`: what coordinate descent's
own log claimed per kernel ("Improve from ... 1.980x"), set beside what its
config gives when re-timed here.
"""

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(ROOT, "python"),
                os.path.join(ROOT, "python", "tko")]

import copy_sizes  # noqa: E402
from tune_gpu import criteria, match  # noqa: E402
from tko import replay, snapshot  # noqa: E402
from tko.configs import config_from_dict  # noqa: E402

SCHEMA_VERSION = 1
ROLES = ("default", "coordesc", "tko")
# HIP options Inductor takes from a config's kwargs (triton_heuristics _precompile_config)
HIP_OPTIONS = ("waves_per_eu", "matrix_instr_nonkdim", "kpack")


def import_module(path, tag):
    spec = importlib.util.spec_from_file_location("tko_bench_%s" % tag, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def tko_config(variant, hip, base_kwargs=None):
    """tko's variant config as Inductor's config dict; the base config's
    kwargs that tko does not tune (a cooperative reduction's RSPLIT) kept."""
    cfg = variant["config"]
    kwargs = dict(base_kwargs or {})
    kwargs.update(cfg.get("kwargs") or {})
    if hip:
        for k, v in (cfg.get("options") or {}).items():
            if k in HIP_OPTIONS and v:
                kwargs[k] = v
    return {"kwargs": kwargs, "num_warps": cfg.get("num_warps"), "num_stages": cfg.get("num_stages")}


class Kernel:
    """One captured kernel, its three launches and their checks."""

    def __init__(self, torch, kdir, cap):
        self.torch = torch
        self.dir = kdir
        self.cap = cap
        self.values, self.storages = snapshot.load(kdir, cap["args"], cap["storages"])
        self.stream = torch.cuda.current_stream().cuda_stream
        self.launch = {}
        self.info = {}
        self.modules = {}
        self.own_ws = {}

    def _tuner(self, source):
        if source not in self.modules:
            self.modules[source] = import_module(source, "%d" % len(self.modules))
        return getattr(self.modules[source], self.cap["kernel"])

    def workspace(self, role, cfg, values):
        """values with a workspace of the size cfg's RSPLIT_SIZE needs, when
        it is not the default's (a mix-order reduction: tko's
        src/tune/workspace.h); remembered for the role's check."""
        split = (cfg.get("kwargs") or {}).get("RSPLIT_SIZE")
        base = (match.best_config(self.cap) or {}).get("kwargs", {}).get("RSPLIT_SIZE")
        names = [a["name"] for a in self.cap["args"]]
        if not split or not base or split == base or "ws_ptr" not in names:
            return values
        scal = {a["name"]: a.get("value") for a in self.cap["args"] if a["kind"] != "tensor"}
        i = names.index("ws_ptr")
        ws = self.values[i]
        programs = -(-scal["xnumel"] // base)
        partials = ws.numel() // (programs * scal["r0_numel"])
        values = list(self.values if values is None else values)
        values[i] = self.torch.zeros(partials * -(-scal["xnumel"] // split) * scal["r0_numel"],
                                     dtype=ws.dtype, device=ws.device)
        self.own_ws[role] = (i, values[i], partials, scal["r0_numel"])
        return values

    def add_inductor(self, role, cfg, source, values=None):
        import triton
        tuner = self._tuner(source)
        config = config_from_dict(cfg, triton.Config)
        launcher = tuner._precompile_config(config).make_launcher()
        values = self.workspace(role, cfg, values)
        args = self.values if values is None else values
        self.launch[role] = lambda: launcher(*args, stream=self.stream)
        grid = None
        if hasattr(tuner, "_interpret_args_grid"):
            grid = [int(g) for g in tuner._interpret_args_grid(tuple(args), config)[1]]
        self.info[role] = {"config": cfg, "n_regs": getattr(launcher, "n_regs", None),
                           "n_spills": getattr(launcher, "n_spills", None), "grid": grid}

    def add_request(self, role, request_path):
        """A hand-written kernel, launched as tko's worker launches it."""
        import tune_bench
        import tune_compile
        with open(request_path, encoding="utf-8") as f:
            req = json.load(f)
        k, _ = tune_compile.compile_variant(req)
        names = [a["name"] for a in self.cap["args"]]
        args = tune_bench.launch_args(req["params"], req.get("constants") or {},
                                      dict(zip(names, self.values)), tune_compile.constant)
        run = tune_bench.launcher(k, req)
        self.launch[role] = lambda: run(args)
        self.info[role] = {"config": {k2: req.get(k2) for k2 in ("constants", "num_warps",
                                                                 "num_stages")},
                           "grid": req.get("grid")}

    def prepare(self):
        """Zeroes what Inductor zeroes, keeps pristine storages, runs the
        default once for the reference and finds the storages it writes."""
        torch = self.torch
        names = set(self.cap.get("reset_to_zero_arg_names") or ())
        zero = {a["storage"] for a in self.cap["args"] if a["kind"] == "tensor" and a["name"] in names}
        for i in zero:
            self.storages[i].zero_()
        self.pristine = [s.clone() for s in self.storages]
        self.launch["default"]()
        torch.cuda.synchronize()
        self.reference = [s.clone() for s in self.storages]
        mutated = set(self.cap.get("mutated_arg_names") or ())
        self.written = sorted({i for i, (a, b) in enumerate(zip(self.reference, self.pristine))
                               if not torch.equal(a, b)} | zero |
                              {a["storage"] for a in self.cap["args"]
                               if a["kind"] == "tensor" and a["name"] in mutated})
        self.restore()

    def restore(self):
        for i in self.written:
            self.storages[i].copy_(self.pristine[i])

    def check(self, role):
        """Whether role's outputs equal the default's (replay's tolerances)."""
        torch = self.torch
        self.restore()
        self.launch[role]()
        torch.cuda.synchronize()
        bad = []
        for i, (a, v) in enumerate(zip(self.cap["args"], self.values)):
            if a["kind"] != "tensor" or a["storage"] not in self.written:
                continue
            ref = replay._view(torch, self.reference[a["storage"]], a)
            rtol, atol = replay._TOLERANCE.get(a["dtype"], replay._LOOSE)
            if role in self.own_ws and self.own_ws[role][0] == i:
                # another split's workspace: compared as the wrapper reads it,
                # norm-wise, as tko's worker does (tune_bench.check_outputs)
                _, v, partials, row = self.own_ws[role]
                v, ref = (t.reshape(partials, -1, row).sum(1, dtype=torch.float64)
                          for t in (v, ref))
                atol = max(atol, rtol * float(ref.abs().max()))
            if torch.equal(v, ref):
                continue
            if not v.is_floating_point():
                bad.append(a["name"])
                continue
            if not torch.allclose(v.double(), ref.double(), rtol=rtol, atol=atol, equal_nan=True):
                bad.append(a["name"])
        self.restore()
        return not bad, bad

    def time(self, flush, reps, warmup):
        """Median and minimum ms per role, interleaved in rotated order."""
        torch = self.torch
        roles = [r for r in ROLES if r in self.launch]
        for _ in range(warmup):
            for r in roles:
                self.restore()
                self.launch[r]()
        events = {r: [] for r in roles}
        for rep in range(reps):
            k = rep % len(roles)
            for r in roles[k:] + roles[:k]:
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                self.restore()
                flush.zero_()
                start.record()
                self.launch[r]()
                end.record()
                events[r].append((start, end))
        torch.cuda.synchronize()
        out = {}
        for r in roles:
            t = [s.elapsed_time(e) for s, e in events[r]]
            out[r] = {"ms": statistics.median(t), "min_ms": min(t)}
        self.restore()
        return out


def copy_gbps():
    """Read + written bytes per second of a 1 GiB device-to-device copy
    (median), measured as tko tune's worker measures its peak."""
    import tune_worker
    return tune_worker.op_copy_bandwidth({"bytes": 1 << 30})["gbps"]


def _bytes(cap, tko_entry):
    """The bytes the kernel moves, as tko counts them (src/model/traffic.h:
    every read and write, in-place arguments both ways, a gather by its
    lanes), read from tko tune's result for the kernel: the figure tko run,
    tko tune and the report print. (bytes, where from, whether an estimate);
    Inductor's kernel_num_gb, an estimate, only when tune has no figure."""
    gb = (tko_entry or {}).get("num_gb")
    if isinstance(gb, (int, float)) and gb > 0:
        return (gb * 1e9, "tko: " + str(tko_entry.get("bytes_note") or "model/traffic.h"),
                bool(tko_entry.get("bytes_estimate", True)))
    gb = (cap.get("inductor_meta") or {}).get("kernel_num_gb")
    if isinstance(gb, (int, float)) and gb > 0:
        return gb * 1e9, "inductor kernel_num_gb (no tko figure)", True
    return None, "unknown: no tko tune result and no kernel_num_gb", True


def _source_changed(kdir, variant):
    src = (variant or {}).get("source")
    if not src:
        return False
    with open(os.path.join(kdir, "kernel.py"), encoding="utf-8") as a, \
            open(src, encoding="utf-8") as b:
        return a.read() != b.read()


def _tko_values(k, variant):
    """The captured arguments, a template's _grid_* replaced by the grid tko launched."""
    req_path = os.path.join(os.path.dirname(variant["source"]), "request.json")
    names = [a["name"] for a in k.cap["args"]]
    fixed = (k.cap.get("inductor_meta") or {}).get("fixed_grid")
    if not fixed or not os.path.exists(req_path):
        return None
    with open(req_path, encoding="utf-8") as f:
        grid = json.load(f).get("grid")
    values = list(k.values)
    for name, g in zip(fixed, grid or []):
        if name in names:
            values[names.index(name)] = int(g)
    return values


def _has_tuner(k, source):
    """Whether kernel.py is an Inductor module (a CachingAutotuner to launch through)."""
    try:
        return hasattr(k._tuner(source), "_precompile_config")
    except Exception:
        return False


def _request(variant):
    return os.path.join(os.path.dirname(variant["source"]), "request.json")


def _same_config(a, b):
    keys = ("kwargs", "num_warps", "num_stages")
    return a is not None and b is not None and all(a.get(x) == b.get(x) for x in keys)


def _add_inductor_roles(k, row, run_b, winner, cache, hip):
    source = os.path.join(k.dir, "kernel.py")
    k.add_inductor("default", match.best_config(k.cap), source)
    other = match.counterpart(k.dir, run_b, cache)
    if other:
        k.add_inductor("coordesc", match.best_config(match.load_capture(other)), source)
        row["coordesc_dir"] = other
    else:
        row["notes"].append("no counterpart in the coordinate-descent run")
    if winner is not None:
        changed = _source_changed(k.dir, winner)
        base_kwargs = (match.best_config(k.cap) or {}).get("kwargs")
        k.add_inductor("tko", tko_config(winner, hip, base_kwargs),
                       winner["source"] if changed else source,
                       _tko_values(k, winner) if changed else None)
        row["tko_source_changed"] = changed


def _add_request_roles(k, row, run_b, tko_entry, winner, cache):
    """Kernels without an Inductor launcher: as tko's worker launched them."""
    base = next(iter((tko_entry or {}).get("variants") or []), None)
    if base is None:
        raise RuntimeError("no tko tune result to launch this kernel from")
    k.add_request("default", _request(base))
    other = match.counterpart(k.dir, run_b, cache) if row["kind"] != "user" else None
    if other and _same_config(match.best_config(match.load_capture(other)),
                              match.best_config(k.cap)):
        k.add_request("coordesc", _request(base))
        row["coordesc_dir"] = other
    else:
        row["notes"].append("no coordesc config to launch" if row["kind"] == "user" else
                            "coordesc's config cannot be launched without an Inductor module")
    if winner is not None:
        k.add_request("tko", _request(winner))


def same_size_copy_gbps(row, flush):
    """The rate of a plain copy moving a memory-bound kernel's bytes (L2
    flushed, as the kernel's launches are), for the table's size% column."""
    if not criteria.memory_bound(row) or (row.get("bytes") or 0) < 1e6:
        return None
    ms = copy_sizes.copy_ms(int(row["bytes"]), flush, 50)
    return row["bytes"] / (ms / 1e3) / 1e9


def descent_claims(summary_path):
    """Kernel name -> the speedup coordinate descent's own log claimed
    (its baseline time over its best, as tko summarize read it); the
    largest where a kernel was tuned more than once."""
    if not summary_path:
        return {}
    with open(summary_path, encoding="utf-8") as f:
        doc = json.load(f)
    claims = {}
    for k in doc.get("kernels") or []:
        for t in k.get("tunings") or []:
            if t.get("method") == "coordinate_descent" and t.get("speedup"):
                claims[k["name"]] = max(claims.get(k["name"], 0), t["speedup"])
    return claims


def retime_kernel(torch, model, kdir, run_b, tko_entry, opts, cache):
    cap = match.load_capture(kdir)
    kind = match.kind_of(cap)
    hip = bool(getattr(torch.version, "hip", None))
    row = {"model": model, "kernel": cap["kernel"], "dir": kdir, "kind": kind,
           "atomic": bool((cap.get("inductor_meta") or {}).get("atomic_add_found")),
           "notes": []}
    row["bytes"], row["bytes_from"], row["bytes_estimate"] = _bytes(cap, tko_entry)
    row["footprint_bytes"] = cap.get("inputs_bytes")
    k = Kernel(torch, kdir, cap)
    winner = match.winner_variant(tko_entry)
    if kind != "user" and _has_tuner(k, os.path.join(kdir, "kernel.py")):
        _add_inductor_roles(k, row, run_b, winner, cache, hip)
        row["launched_by"] = "inductor"
    else:
        _add_request_roles(k, row, run_b, tko_entry, winner, cache)
        row["launched_by"] = "tko worker request"
        if kind != "user":
            row["notes"].append("kernel.py is not an Inductor module: launched from tko's requests")
    if winner is None:
        first = ((tko_entry or {}).get("variants") or [{}])[0]
        row["notes"].append("tko tune gave no winner%s" % (
            ": " + first["error"] if first.get("error") else ""))
    k.prepare()
    for role in ("coordesc", "tko"):
        if role in k.launch:
            ok, bad = k.check(role)
            k.info[role]["correct"] = ok
            if bad:
                row["notes"].append("%s outputs differ from the default's: %s" % (role, ", ".join(bad)))
    times = k.time(opts.flush, opts.reps, opts.warmup)
    for role in ROLES:
        row[role] = dict(k.info[role], **times[role]) if role in times else None
    row["copy_same_size_gbps"] = same_size_copy_gbps(row, opts.flush)
    if row["tko"] is not None and tko_entry:
        w = tko_entry.get("winner") or {}
        conf = w.get("confirmation")
        row["tko"].update(label=winner.get("label"), id=winner.get("id"),
                          source_variants=winner.get("source_variants"),
                          sweep_s=tko_entry.get("wall_s"),
                          variants_run=len(tko_entry.get("variants") or []),
                          stopped=tko_entry.get("stopped"),
                          sweep_speedup=w.get("sweep_speedup", w.get("speedup")),
                          # the gain tko's confirmation stands by, for the winner it kept
                          confirmed_speedup=w.get("speedup") if conf and not w.get("is_base")
                          else None,
                          confirmation={k: conf.get(k) for k in (
                              "candidate", "rounds", "ratio", "ci95", "accepted", "winner",
                              "reason", "wall_s")} if conf else None)
    return row


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--run-a", required=True, help="RUN with Inductor's default autotuning")
    p.add_argument("--run-b", required=True, help="RUN with coordinate descent tuning")
    p.add_argument("--tune", required=True, help="tko tune --json over RUN_A's kernels")
    p.add_argument("--json", required=True)
    p.add_argument("--md")
    p.add_argument("--reps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--descent-summary", help="tko summarize RUN_B --json: descent's logged gains")
    opts = p.parse_args(argv)
    claims = descent_claims(opts.descent_summary)
    import torch
    replay._set_allocator(torch)
    with open(opts.tune, encoding="utf-8") as f:
        tko = match.tko_results(json.load(f))
    doc = {"schema_version": SCHEMA_VERSION, "tool": "bench/tune-gpu",
           "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
           "device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "reps": opts.reps, "warmup": opts.warmup, "copy_gbps": copy_gbps(),
           "kernels": [], "skipped": []}
    opts.flush = torch.empty(replay.FLUSH_BYTES, dtype=torch.int8, device="cuda")
    picked, skipped = match.model_kernels(opts.run_a)
    doc["skipped"] = [{"dir": d, "why": why} for d, why in skipped]
    cache = {}
    for model, kdir in picked:
        try:
            row = retime_kernel(torch, model, kdir, opts.run_b,
                                tko.get(os.path.realpath(kdir)), opts, cache)
        except Exception as e:
            row = {"model": model, "kernel": os.path.basename(kdir), "dir": kdir,
                   "error": "%s: %s" % (type(e).__name__, e), "traceback": traceback.format_exc()[-2000:]}
        if row["kernel"] in claims:
            row["coordesc_logged_speedup"] = claims[row["kernel"]]
        doc["kernels"].append(row)
        print("retimed %s: %s" % (row["kernel"], row.get("error") or "ok"), file=sys.stderr)
    doc["criteria"] = criteria.evaluate(doc)
    criteria.write(doc, opts.json, opts.md)
    print(criteria.table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
