"""Fake triton_heuristics: CachingAutotuner with the methods and attributes
tko.inductor_hooks reads (torch 2.11 names). Behaviour is steered by the
FAKE_* environment variables so one test module covers every case."""
import os


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=1):
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = 1
        self.maxnreg = None


class Launcher:
    def __init__(self, xblock, n_regs):
        self.config = Config({"XBLOCK": xblock})
        self.n_regs = n_regs
        self.n_spills = 0
        self.shared = 0
        self.cache_hash = f"HASH{xblock}"

    def __call__(self, *args, stream):
        return sum(a if isinstance(a, int) else 0 for a in args)


class Fn:
    __name__ = "triton_poi_fused_fake_0"
    src = "def triton_poi_fused_fake_0(in_ptr0, out_ptr0, xnumel, XBLOCK):\n    pass\n"
    arg_names = ["in_ptr0", "out_ptr0", "xnumel", "XBLOCK"]


class BrokenFn(Fn):
    @property
    def __name__(self):
        raise RuntimeError("API drift: no name")


class KernelInterface:
    """CachingAutotuner's base, as in torch (so its __bases__ can be changed)."""


class CachingAutotuner(KernelInterface):
    def __init__(self, configs=(1024, 512), cache_state=None, broken=False):
        self.fn = BrokenFn() if broken else Fn()
        self.filename = os.environ.get("FAKE_KERNEL_FILE")
        self.triton_meta = {"signature": {"in_ptr0": "*fp32", "out_ptr0": "*fp32",
                                          "xnumel": "i32", "XBLOCK": "constexpr"},
                            "device": 0}
        self.inductor_meta = {"kernel_name": "triton_poi_fused_fake_0", "grid_type": "Grid1D"}
        self.mutated_arg_names = ["out_ptr0"]
        self.reset_to_zero_arg_names = []
        self.heuristic_type = "pointwise"
        self.size_hints = {"x": 1024}
        self.custom_kernel = False
        self.autotune_cache_info = {"autotune_cache_state": cache_state} if cache_state else {}
        self.configs = list(configs)
        self.launchers = []
        self.compile_results = []

    def _make_launchers(self):
        self.launchers = [Launcher(x, 30 - i) for i, x in enumerate(self.configs)]

    def precompile(self):
        self._make_launchers()
        self.configs = None

    def _time(self, launcher, *args, **kwargs):
        if os.environ.get("FAKE_BENCH_RAISES"):
            raise ValueError("bench failed in the model")
        return 0.5 if launcher.config.kwargs["XBLOCK"] == 1024 else 0.25

    bench = _time

    def benchmark_all_configs(self, *args, **kwargs):
        time = getattr(self, "bench", self._time)
        return {launcher: time(launcher, *args, **kwargs) for launcher in self.launchers}

    def autotune_to_one_config(self, *args, **kwargs):
        timings = self.benchmark_all_configs(*args, **kwargs)
        self.launchers = [min(timings, key=timings.get)]

    def _interpret_args_grid(self, args, cfg):
        return args, (-(-args[2] // cfg.kwargs["XBLOCK"]), 1, 1)

    def run(self, *args, stream, benchmark_run=False, **kwargs):
        if args and args[0] == "raise":
            raise KeyError("the model's own error")
        if not self.launchers:
            self.precompile()
        if len(self.launchers) > 1:
            self.autotune_to_one_config(*args, **kwargs)
        return self.launchers[0](*args, stream=stream)


if os.environ.get("FAKE_NO_BENCH"):
    del CachingAutotuner.bench
