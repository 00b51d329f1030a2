"""The apply hook on a real GPU (torch 2.11, Triton 3.6): forced winners are
installed in tests/gpu/apply_model.py with no change to it, and every launch
of a planned kernel is shown to have run its winner.

  OUT=/some/dir python3 tests/gpu/apply_proof.py

1. observe: the model runs under the hook with an empty plan, fresh caches;
   the `kernel` events give each Inductor kernel's lookup hash and the config
   Inductor chose.
2. a plan forces a different config on every kernel seen (num_warps moved by
   a factor 2, and XBLOCK halved where the kernel is pointwise and XBLOCK >=
   64), and on the hand-written @triton.autotune kernel a config outside its
   list; Inductor's kernels take their default mechanism (lookup table for
   _fused_ kernels, else the hook), one fused kernel is forced through the hook.
3. apply: the model runs again (fresh caches), then again with coordinate
   descent on, then with one winner's hash spoiled. Checks: every winner
   ran_winner in the main process (the spoiled one: source_changed), the
   losses equal the observe run's within 1e-3 relative.

Writes $OUT/apply-proof.json (the checks, each arm's outcomes and step time)
and each arm's apply.jsonl under $OUT/<arm>/. Exit 0 when every check passes.
"""
import copy
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYDIR = os.path.join(ROOT, "python")
OUT = os.environ.get("OUT") or sys.exit("set OUT to the folder for the results")


def arm(name, plan, mode="apply", env=None):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(PYDIR, "tko", "_hook"), PYDIR]),
             TKO_APPLY_PLAN=os.path.join(d, "plan.json"), TKO_APPLY_DIR=d, TKO_APPLY_MODE=mode,
             TORCHINDUCTOR_CACHE_DIR=os.path.join(d, "inductor"),
             TRITON_CACHE_DIR=os.path.join(d, "triton"))
    e.update(env or {})
    proc = subprocess.run([sys.executable, os.path.join(HERE, "apply_model.py")], env=e,
                          capture_output=True, text=True, timeout=1200)
    with open(os.path.join(d, "model.log"), "w") as f:
        f.write(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        sys.exit(f"{name}: the model failed, see {d}/model.log")
    events = [json.loads(x) for x in open(os.path.join(d, "apply.jsonl"))]
    return json.loads(proc.stdout.strip().splitlines()[-1]), events


def outcomes(events):
    return {o["id"]: o for e in events if e["event"] == "session_end" and e["role"] == "main"
            for o in e["outcomes"]}


def forced(cfg, name):
    c = copy.deepcopy(cfg)
    c["num_warps"] = c["num_warps"] * 2 if c["num_warps"] <= 4 else c["num_warps"] // 2
    if name.startswith("triton_poi_") and c["kwargs"].get("XBLOCK", 0) >= 64:
        c["kwargs"]["XBLOCK"] //= 2
    c = {k: c[k] for k in ("kwargs", "num_warps", "num_stages")}
    return c


def main():
    os.makedirs(OUT, exist_ok=True)
    base = {"schema_version": 1, "backend": "hip" if is_hip() else "cuda", "kernels": [],
            "proof": {"launches_per_kernel": 5}}
    ref, ev = arm("observe", base, mode="observe")
    seen = {}
    for e in ev:
        if e["event"] == "kernel" and e["role"] == "main":
            seen.setdefault(e["lookup_hash"], e)
    plan = copy.deepcopy(base)
    hooked = False
    for i, (h, e) in enumerate(sorted(seen.items(), key=lambda kv: kv[1]["kernel"])):
        w = {"id": f"k{i}", "kernel": e["kernel"], "lookup_hash": h,
             "config": forced(e["config"], e["kernel"])}
        if e["kernel"].startswith("triton_tem"):
            w["launcher"], w["mechanisms"] = "template", ["hook"]
        elif "_fused_" in e["kernel"] and not hooked:
            w["mechanisms"], hooked = ["hook"], True
        plan["kernels"].append(w)
    sys.path.insert(0, HERE)
    from apply_kernels import scale_kernel
    src = scale_kernel.fn.src
    plan["kernels"].append({"id": "user", "kernel": "scale_kernel", "launcher": "triton",
                            "source_hash": hashlib.sha256(src.encode()).hexdigest(),
                            "config": {"kwargs": {"BLOCK": 512}, "num_warps": 8, "num_stages": 2}})
    results = {"observe": {"ms_per_step": ref["ms_per_step"], "kernels_seen": len(seen)}}
    checks = []
    for name, env in (("apply", {}), ("apply_coordesc", {"TORCHINDUCTOR_COORDINATE_DESCENT_TUNING": "1"})):
        got, ev = arm(name, plan, env=env)
        outs = outcomes(ev)
        bad = {k: (o["status"], o["reason"]) for k, o in outs.items() if o["status"] != "ran_winner"}
        checks.append({"name": f"{name}: every winner ran", "pass": not bad and len(outs) == len(plan["kernels"]),
                       "failing": bad})
        rel = max(abs(a - b) / max(abs(b), 1e-6) for a, b in zip(got["losses"], ref["losses"]))
        checks.append({"name": f"{name}: losses within 1e-3 relative", "pass": rel <= 1e-3, "value": rel})
        results[name] = {"ms_per_step": got["ms_per_step"], "outcomes": outs}
    spoiled = copy.deepcopy(plan)
    spoiled["kernels"][0]["lookup_hash"] = "0" * 64
    _, ev = arm("spoiled", spoiled)
    o = outcomes(ev)["k0"]
    checks.append({"name": "a spoiled hash is reported as source_changed",
                   "pass": (o["status"], o["reason"]) == ("not_launched", "source_changed"),
                   "value": [o["status"], o["reason"]]})
    doc = {"schema_version": 1, "tool": "tests/gpu/apply_proof", "checks": checks, "arms": results,
           "plan_kernels": len(plan["kernels"])}
    with open(os.path.join(OUT, "apply-proof.json"), "w") as f:
        json.dump(doc, f, indent=1)
    for c in checks:
        print(("PASS " if c["pass"] else "FAIL ") + c["name"])
    sys.exit(0 if all(c["pass"] for c in checks) else 1)


def is_hip():
    import torch
    return bool(torch.version.hip)


if __name__ == "__main__":
    main()
