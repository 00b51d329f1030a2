# tko apply left these winners out of tko_winners.json ("left_out" there):
#   triton_poi_fused_zeros_0 (triton_poi_fused_zeros_0-294e5e16): slower_in_step: measured 0.910x [0.885, 0.935] inside the step over 3 rounds; tune predicted 1.250x
"""tko_winners: the Triton configs and Inductor settings tko measured faster,
installed without tko. `tko apply` copies this file as tko_winners.py next to
tko_winners.json (what to install; docs/apply.md, "The plain artifact").

Use one of:
  - `import tko_winners` as the first line of the training or inference script;
  - `PYTHONPATH=<this folder> python train.py`, with the sitecustomize.py
    written beside it (no change to the script; every process, Inductor's
    compile workers included, loads the winners).

What it sets, all public Inductor and Triton switches (torch 2.11, Triton 3.6):
  torch._inductor.config.<setting>               "inductor_settings"
  torch._inductor.config.autotune_lookup_table   "autotune_lookup_table"
  torch._inductor.config.lookup_table.table and  "template_lookup_table"
    inductor_choices_class = LookupTableChoices
and two small wrappers, for what those tables cannot carry:
  triton_heuristics.lookup_autotune_config       "configs": a whole Config
    (AMD waves_per_eu / matrix_instr_nonkdim, kernels without "_fused_")
    keyed like the lookup table; it runs where the kernel is built, so with
    `import tko_winners` compile workers are turned off (compile_threads=1);
  CachingAutotuner._dynamic_scale_rblock         kept from halving the
    R*_BLOCK of a kernel that runs a winner of either table (Inductor adds
    that copy of a reduction's config and autotunes between the two);
  triton.runtime.autotuner.Autotuner.__init__    "triton_autotune": a
    hand-written @triton.autotune kernel's configs narrowed to the winner,
    found by the sha256 of its source.

The keys hash the generated kernel source: after a change to the model, torch,
Triton or these settings, a kernel whose source changed runs Inductor's own
choice again (nothing fails). Only the standard library is used.
"""

import hashlib
import json
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_NAME = re.compile(r"^def [^(]+\(")


def load(path=None):
    with open(path or os.path.join(_HERE, "tko_winners.json"), encoding="utf-8") as f:
        data = json.load(f)
    if data.get("schema_version") != 1:
        raise ValueError(f"tko_winners.json: schema_version {data.get('schema_version')!r}, expected 1")
    return data


def install(data, every_process=False):
    import torch._inductor.config as cfg
    for key, value in (data.get("inductor_settings") or {}).items():
        *path, last = key.split(".")
        obj = cfg
        for part in path:
            obj = getattr(obj, part)
        setattr(obj, last, value)
    cfg.autotune_lookup_table.update(data.get("autotune_lookup_table") or {})
    templates = data.get("template_lookup_table") or {}
    if templates:
        from torch._inductor.lookup_table import LookupTableChoices
        cfg.lookup_table.table = dict(cfg.lookup_table.table or {}, **templates)
        cfg.inductor_choices_class = LookupTableChoices
    _keep_rblock(cfg.autotune_lookup_table, data.get("configs") or {})
    if data.get("configs"):
        _wrap_lookup(data["configs"])
        if not every_process:
            cfg.compile_threads = 1   # the kernels are built here, where the wrapper is
    if data.get("triton_autotune"):
        _wrap_autotuner(data["triton_autotune"])
    _check_versions(data)


def _lookup_hash(size_hints, src):
    """torch 2.11 generate_lookup_hash_from_source_code(str(size_hints), fn.src)."""
    text = str(size_hints) + _NAME.sub("(", src.strip(), count=1)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _wrap_lookup(table):
    from torch._inductor.runtime import triton_heuristics as th
    inductor_lookup = th.lookup_autotune_config

    def lookup_autotune_config(size_hints, fn):
        entry = table.get(_lookup_hash(size_hints, fn.src))
        if entry is None:
            return inductor_lookup(size_hints, fn)
        config = th.Config(dict(entry["kwargs"]), num_warps=entry["num_warps"],
                           num_stages=entry["num_stages"])
        config.found_by_coordesc = True   # coordinate descent, if on, keeps it
        return config
    th.lookup_autotune_config = lookup_autotune_config


def _keep_rblock(table, configs):
    """torch 2.11 triton_heuristics.py:504,532: precompile() may add a copy of
    a reduction's config with R0_BLOCK halved and autotune between the two;
    a kernel running the winner keeps only the winner."""
    from torch._inductor.runtime import triton_heuristics as th
    cls = th.CachingAutotuner
    inductor_scale = getattr(cls, "_dynamic_scale_rblock", None)
    if inductor_scale is None:     # a torch without the rescaling
        return

    def _dynamic_scale_rblock(self, *args, **kwargs):
        key = _lookup_hash(self.size_hints, self.fn.src)
        entry = configs.get(key) or table.get(key)
        results = list(self.compile_results or [])
        if entry and results and all(_same(entry, r.config) for r in results):
            return None
        return inductor_scale(self, *args, **kwargs)
    cls._dynamic_scale_rblock = _dynamic_scale_rblock


def _same(entry, config):
    kwargs = entry["kwargs"] if "kwargs" in entry else \
        {k: v for k, v in entry.items() if k not in ("num_warps", "num_stages")}
    return (dict(config.kwargs) == dict(kwargs) and config.num_warps == entry["num_warps"]
            and config.num_stages == entry["num_stages"])


def _wrap_autotuner(entries):
    from triton import Config
    from triton.runtime.autotuner import Autotuner
    by_hash = {e["source_hash"]: e["config"] for e in entries}
    triton_init = Autotuner.__init__

    def __init__(self, fn, *args, **kwargs):
        triton_init(self, fn, *args, **kwargs)
        jit = fn
        while jit is not None and not hasattr(jit, "src"):
            jit = getattr(jit, "fn", None)
        c = by_hash.get(hashlib.sha256(jit.src.encode("utf-8")).hexdigest()) if jit else None
        if c is not None:
            extra = {k: c[k] for k in ("num_ctas", "maxnreg") if c.get(k) is not None}
            self.configs = [Config(dict(c["kwargs"]), num_warps=c["num_warps"],
                                   num_stages=c["num_stages"], **extra)]
    Autotuner.__init__ = __init__


def _check_versions(data):
    for name in ("torch", "triton"):
        have = getattr(sys.modules.get(name), "__version__", None)
        want = data.get(name)
        if have and want and have != want:
            print(f"tko_winners: warning: found with {name} {want}, running {have}: kernels "
                  "whose source changed run Inductor's own choice", file=sys.stderr)


if os.environ.get("TKO_WINNERS_OFF") != "1":
    install(load(), every_process=os.environ.get("TKO_WINNERS_SITECUSTOMIZE") == "1")
