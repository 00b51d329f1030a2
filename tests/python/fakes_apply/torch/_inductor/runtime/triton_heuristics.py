"""Fake torch/_inductor/runtime/triton_heuristics.py (torch 2.11): the
lookup (:117-143), hash_configs (:2211), check_autotune_cache (:257-309),
cached_autotune (:2223-2301), CachingAutotuner.__init__/precompile/run
(:321-420, :484-530, :1407-1503) in the same order, without compiling."""
import hashlib
import json
import os
import re

import torch
import torch._inductor.config  # noqa: F401 (as triton_heuristics.py:26 does)
from triton import Config

from .autotune_cache import AutotuneCache

triton_name_sub = re.compile(r"^def [^(]+\(")


def generate_lookup_hash_from_source_code(size_hints_str, source_code):
    fn_strip_name = re.sub(triton_name_sub, "(", source_code.strip(), count=1)
    return hashlib.sha256((size_hints_str + fn_strip_name).encode("utf-8")).hexdigest()


def lookup_autotune_config(size_hints, fn):
    lookup_table = torch._inductor.config.autotune_lookup_table
    cached_config = None
    if len(lookup_table) > 0 and "_fused_" in fn.src:
        fn_hash = generate_lookup_hash_from_source_code(str(size_hints), fn.src)
        if fn_hash in lookup_table:
            config_dict = lookup_table[fn_hash]
            block_configs = {k: v for k, v in config_dict.items() if "BLOCK" in k}
            cached_config = Config(block_configs, num_warps=config_dict["num_warps"],
                                   num_stages=config_dict["num_stages"])
    return cached_config


def hash_configs(configs):
    hasher = hashlib.sha256()
    for cfg in configs:
        hasher.update(f"{sorted(cfg.kwargs.items())} {cfg.num_warps} {cfg.num_stages}\n".encode())
    return hasher.hexdigest()


def check_autotune_cache(configs, filename, inductor_meta):
    autotune_cache = None
    info = {}
    if filename is not None and (len(configs) > 1 or inductor_meta.get("coordinate_descent_tuning")):
        autotune_cache = AutotuneCache.create(inductor_meta, filename, hash_configs(configs))
        if autotune_cache:
            best = autotune_cache.read_best(inductor_meta, configs)
            if best:
                configs = [best]
                info["autotune_cache_state"] = "hit"
            else:
                info["autotune_cache_state"] = "miss"
    return configs, autotune_cache, info


class CompileResult:
    def __init__(self, config):
        self.config = config

    def make_launcher(self):
        return Launcher(self.config)


class Launcher:
    """A launch returns what ran: the model prints it."""

    def __init__(self, config):
        self.config = config
        self.n_regs = 32
        self.n_spills = 0
        self.shared = 0
        self.cache_hash = "fake"

    def __call__(self, *args, stream):
        c = self.config
        return {"kwargs": dict(c.kwargs), "num_warps": c.num_warps, "num_stages": c.num_stages}


class KernelInterface:
    pass


class CachingAutotuner(KernelInterface):
    def __init__(self, fn, triton_meta, configs, save_cache_hook, mutated_arg_names, optimize_mem,
                 heuristic_type, size_hints=None, inductor_meta=None, custom_kernel=False,
                 filename=None, reset_to_zero_arg_names=None, autotune_cache_info=None):
        super().__init__()
        self.fn = fn
        self.triton_meta = triton_meta
        self.inductor_meta = {} if inductor_meta is None else inductor_meta
        self.save_cache_hook = save_cache_hook
        self.optimize_mem = optimize_mem
        cached_config = lookup_autotune_config(size_hints, fn)
        self.configs = [cached_config] if cached_config else configs
        self.heuristic_type = heuristic_type
        self.custom_kernel = custom_kernel
        self.autotune_cache_info = autotune_cache_info
        self.compile_results = []
        self.launchers = []
        self.size_hints = size_hints
        self.filename = filename

    def precompile(self, warm_cache_only=False, reload_kernel=None, static_triton_bundle_key=None):
        if not self.compile_results:
            self.compile_results = [self._precompile_config(c) for c in self.configs]
            self.configs = None
        self._make_launchers()

    def _precompile_config(self, cfg):
        return CompileResult(cfg)

    def _make_launchers(self):
        if len(self.launchers) == len(self.compile_results):
            return
        self.launchers = [r.make_launcher() for r in self.compile_results]

    def bench(self, launcher, *args, **kwargs):
        # The fake GPU prefers XBLOCK 256, then fewer warps.
        c = launcher.config
        return abs(c.kwargs.get("XBLOCK", 256) - 256) + c.num_warps / 100

    def autotune_to_one_config(self, *args, **kwargs):
        timings = {x: self.bench(x, *args) for x in self.launchers}
        self.launchers = [min(timings, key=timings.get)]
        if self.save_cache_hook:
            self.save_cache_hook(self.launchers[0].config, 0)

    def coordinate_descent_tuning(self, launcher, *args, **kwargs):
        """The fake descent always doubles XBLOCK."""
        c = launcher.config
        moved = Config(dict(c.kwargs, XBLOCK=c.kwargs.get("XBLOCK", 1) * 2),
                       num_warps=c.num_warps, num_stages=c.num_stages)
        moved.found_by_coordesc = True
        return self._precompile_config(moved).make_launcher()

    def run(self, *args, stream, benchmark_run=False, **kwargs):
        if len(self.launchers) != 1:
            if len(self.launchers) == 0:
                self.precompile()
            if len(self.launchers) > 1:
                self.autotune_to_one_config(*args, **kwargs)
        if not getattr(self.launchers[0].config, "found_by_coordesc", False) and \
                self.inductor_meta.get("coordinate_descent_tuning", False):
            self.launchers = [self.coordinate_descent_tuning(self.launchers[0], *args, **kwargs)]
        (launcher,) = self.launchers
        return launcher(*args, stream=stream)


class DebugAutotuner(CachingAutotuner):
    def run(self, *args, stream, **kwargs):
        return super().run(*args, stream=stream, **kwargs)


def cached_autotune(size_hints, configs, triton_meta, heuristic_type, filename=None,
                    inductor_meta=None, custom_kernel=False):
    inductor_meta = {} if inductor_meta is None else inductor_meta
    configs, autotune_cache, info = check_autotune_cache(configs, filename, inductor_meta)

    def decorator(fn):
        return CachingAutotuner(fn, triton_meta=triton_meta, configs=configs,
                                save_cache_hook=autotune_cache and autotune_cache.save,
                                mutated_arg_names=[], optimize_mem=True,
                                heuristic_type=heuristic_type, size_hints=size_hints,
                                inductor_meta=inductor_meta, custom_kernel=custom_kernel,
                                filename=filename, autotune_cache_info=info)
    return decorator


def _hip_configs(cfgs):
    if torch.version.hip:
        for c in cfgs:
            c.kwargs["waves_per_eu"] = 0
    return cfgs


def pointwise(size_hints, triton_meta, tile_hint=None, filename=None, min_elem_per_thread=0,
              inductor_meta=None):
    inductor_meta = dict(inductor_meta or {})
    inductor_meta.setdefault("coordinate_descent_tuning",
                             torch._inductor.config.coordinate_descent_tuning)
    cfgs = _hip_configs([Config({"XBLOCK": 1024}, num_warps=4, num_stages=1),
                         Config({"XBLOCK": 256}, num_warps=4, num_stages=1),
                         Config({"XBLOCK": 128}, num_warps=2, num_stages=1)])
    return cached_autotune(size_hints, cfgs, triton_meta, "pointwise", filename, inductor_meta)


def template(num_stages, num_warps, triton_meta, num_consumer_groups=0,
             num_buffers_warp_spec=0, filename=None, inductor_meta=None):
    return cached_autotune(None, [Config({}, num_warps=num_warps, num_stages=num_stages)],
                           triton_meta, "template", filename, inductor_meta)


def load_json(path):
    with open(path) as f:
        return json.load(f)
