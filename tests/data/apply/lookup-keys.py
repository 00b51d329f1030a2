# Writes lookup-keys.txt: run from the repository root with a Python that has torch 2.11.
import importlib.util, json, os, sys
import torch
from torch._inductor.runtime import triton_heuristics as th, triton_helpers
triton_helpers.set_driver_to_gpu = lambda: None
root = "examples/h200-run/cache/inductor"
rows = []
for d, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        p = os.path.join(d, f)
        if not f.endswith(".py") or "\ndef triton_" not in open(p, errors="replace").read():
            continue
        spec = importlib.util.spec_from_file_location("m" + str(abs(hash(p))), p)
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except RuntimeError:
            continue
        for t in [o for o in vars(mod).values() if isinstance(o, th.CachingAutotuner)]:
            rows.append((p, t.fn.__name__, th.generate_lookup_hash_from_source_code(str(t.size_hints), t.fn.src)))
for r in rows:
    print(*r)
