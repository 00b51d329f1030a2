"""Triton configs and Inductor launchers as plain dicts, and back.

Input: a `triton.Config` (or Inductor's subclass), an Inductor launcher (the
callable CachingAutotuner keeps in `launchers`, carrying `config`, `n_regs`,
`n_spills`, `shared`, `cache_hash`), or a Triton CompiledKernel. Output: the
dicts of docs/capture-events.md ("configs" entries). Needs no torch and no
triton: everything is read with getattr, so an attribute that a version lacks
is simply null.
"""

import inspect
import math
import os

from .events import json_safe

# Config attributes beside `kwargs`, in the order docs/capture-events.md lists them.
CONFIG_FIELDS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def config_to_dict(cfg):
    """{"kwargs": {...}, "num_warps", "num_stages", "num_ctas", "maxnreg"} of a config."""
    out = {"kwargs": json_safe(dict(getattr(cfg, "kwargs", None) or {}))}
    for field in CONFIG_FIELDS:
        out[field] = json_safe(getattr(cfg, field, None))
    if getattr(cfg, "found_by_coordesc", False):
        out["found_by_coordesc"] = True
    return out


def config_key(d):
    """A hashable identity of a config dict, for matching configs across records."""
    kwargs = tuple(sorted((str(k), repr(v)) for k, v in (d.get("kwargs") or {}).items()))
    return kwargs + tuple((f, repr(d.get(f))) for f in ("num_warps", "num_stages", "num_ctas"))


def config_from_dict(d, config_cls):
    """Builds `config_cls(kwargs, num_warps=..., ...)`, passing only the
    keyword arguments this Triton's Config accepts (maxnreg is recent)."""
    try:
        accepted = set(inspect.signature(config_cls).parameters)
    except (TypeError, ValueError):
        accepted = {"num_warps", "num_stages"}
    extra = {f: d[f] for f in CONFIG_FIELDS if d.get(f) is not None and f in accepted}
    return config_cls(dict(d.get("kwargs") or {}), **extra)


def time_ms(value):
    """(median ms, quantiles) of a benchmark result: Inductor returns a float,
    Triton's Autotuner a list [p50, p20, p80]. Non-finite times are None."""
    quantiles = None
    if isinstance(value, (list, tuple)):
        quantiles = [json_safe(float(v)) for v in value]
        value = value[0] if value else None
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None, quantiles
    return (value if math.isfinite(value) else None), quantiles


def launcher_to_dict(launcher, timing=None):
    """A configs entry for an Inductor launcher, with its measured time when known."""
    out = config_to_dict(getattr(launcher, "config", None))
    out["time_ms"], quantiles = time_ms(timing) if timing is not None else (None, None)
    if quantiles:
        out["time_quantiles_ms"] = quantiles
    out["n_regs"] = json_safe(getattr(launcher, "n_regs", None))
    out["n_spills"] = json_safe(getattr(launcher, "n_spills", None))
    out["shared_bytes"] = json_safe(getattr(launcher, "shared", None))
    out["cache_hash"] = json_safe(getattr(launcher, "cache_hash", None))
    return out


def compiled_kernel_info(kernel):
    """Resources and cache location of a Triton CompiledKernel (what
    JITFunction.run returns): n_regs, n_spills, shared_bytes, cache_hash and
    cache_dir. Reading n_regs must not trigger anything: it is set by the
    first launch, so before that it is None."""
    info = {"n_regs": None, "n_spills": None, "shared_bytes": None,
            "cache_hash": None, "cache_dir": None}
    if kernel is None:
        return info
    info["n_regs"] = json_safe(kernel.__dict__.get("n_regs") if hasattr(kernel, "__dict__") else None)
    info["n_spills"] = json_safe(kernel.__dict__.get("n_spills") if hasattr(kernel, "__dict__") else None)
    metadata = getattr(kernel, "metadata", None)
    info["shared_bytes"] = json_safe(getattr(metadata, "shared", None))
    group = getattr(kernel, "metadata_group", None) or {}
    paths = [p for p in group.values() if isinstance(p, str)]
    if paths:
        info["cache_dir"] = os.path.dirname(paths[0])
        info["cache_hash"] = os.path.basename(info["cache_dir"])
    return info
