"""Fake torch/_inductor/runtime/autotune_cache.py (torch 2.11 :112-330,
:539-597): the local .best_config file and its reading rules. The real file
name also hashes torch_key(); the fake uses the basename alone."""
import hashlib
import json
import os

from triton import Config


class AutotuneCache:
    def __init__(self, configs_hash, path):
        self.configs_hash = configs_hash
        self.path = path

    @staticmethod
    def create(inductor_meta, filename, configs_hash):
        if not inductor_meta.get("autotune_local_cache", True):
            return None
        key = hashlib.sha256(os.path.basename(filename).encode()).hexdigest()
        return AutotuneCache(configs_hash, f"{os.path.dirname(filename)}/{key}.best_config")

    def read_best(self, inductor_meta, configs):
        try:
            with open(self.path) as f:
                best = json.load(f)
        except FileNotFoundError:
            return None
        return _load_cached_autotuning(best, self.configs_hash, configs, inductor_meta)

    def save(self, config, time_taken_ns, found_by_coordesc=False, triton_cache_hash=None):
        data = {**config.kwargs, "num_warps": config.num_warps, "num_stages": config.num_stages,
                "configs_hash": self.configs_hash, "found_by_coordesc": found_by_coordesc,
                "time_taken_ms": time_taken_ns // 1000000, "triton_cache_hash": triton_cache_hash}
        with open(self.path, "w") as f:
            json.dump(data, f)


def _load_cached_autotuning(best_config, configs_hash, configs, inductor_meta):
    if best_config.pop("configs_hash", None) != configs_hash:
        return None
    best_config.pop("time_taken_ms", None)
    best_config.pop("triton_cache_hash", None)
    if inductor_meta.get("coordinate_descent_tuning") and best_config.pop("found_by_coordesc", False):
        num_warps = best_config.pop("num_warps")
        num_stages = best_config.pop("num_stages")
        cfg = Config(best_config, num_warps=num_warps, num_stages=num_stages)
        cfg.found_by_coordesc = True
        return cfg
    matching = [c for c in configs
                if all(v == best_config.get(k) for k, v in c.kwargs.items())
                and c.num_warps == best_config.get("num_warps")
                and c.num_stages == best_config.get("num_stages")]
    return matching[0] if len(matching) == 1 else None
