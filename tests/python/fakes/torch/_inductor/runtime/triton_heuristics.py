"""Fake triton_heuristics: CachingAutotuner with the methods and attributes
tko.inductor_hooks reads (torch 2.11 names). Behaviour is steered by the
FAKE_* environment variables so one test module covers every case."""
import os

from .benchmarking import benchmarker


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


class _Decorators:
    """triton.jit and triton_heuristics.template(...) as identities."""

    def jit(self, fn):
        return fn

    def template(self, **kwargs):
        return lambda fn: fn


class Fn:
    """A JITFunction's outside. FAKE_FN_FILE: a module file whose
    triton_poi_fused_fake_0 becomes fn.fn (compiled with the file's path, as
    PyCodeCache does); FAKE_FN_MODULE: fn.__module__."""
    __name__ = "triton_poi_fused_fake_0"
    src = "def triton_poi_fused_fake_0(in_ptr0, out_ptr0, xnumel, XBLOCK):\n    pass\n"
    arg_names = ["in_ptr0", "out_ptr0", "xnumel", "XBLOCK"]

    def __init__(self):
        self.fn = None
        self.__module__ = os.environ.get("FAKE_FN_MODULE", "fake_module")
        path = os.environ.get("FAKE_FN_FILE")
        if path:
            # The decorators of a generated module, as identities.
            g = {"__name__": self.__module__, "triton": _Decorators(),
                 "triton_heuristics": _Decorators()}
            with open(path) as f:
                exec(compile(f.read(), path, "exec"), g)
            self.fn = g.get(self.__name__)


class CpuCopy:
    """The pinned host tensor of a copied argument: what tko reads of it."""

    def __init__(self, nbytes):
        self.nbytes = nbytes

    def numel(self):
        return self.nbytes // 4

    def element_size(self):
        return 4


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
        self.optimize_mem = True
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

    def copy_args_to_cpu_if_needed(self, *args, **kwargs):
        """Copies out_ptr0 (FAKE_OUT_BYTES, default 2 MiB) to the host when
        it is larger than the fake allocator's budget, as Inductor does."""
        import torch
        size = int(os.environ.get("FAKE_OUT_BYTES", 2 << 20))
        budget = torch.cuda.max_memory_allocated() - torch.cuda.memory_allocated()
        return {"out_ptr0": (args[1], CpuCopy(size))} if size > budget else {}

    def _time(self, launcher, *args, **kwargs):
        if os.environ.get("FAKE_BENCH_RAISES"):
            raise ValueError("bench failed in the model")
        if hasattr(self, "copy_args_to_cpu_if_needed"):
            self.copy_args_to_cpu_if_needed(*args)
        benchmarker.get_event_pairs(5)
        benchmarker.get_event_pairs(int(os.environ.get("FAKE_ITERS", 7)))
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
if os.environ.get("FAKE_NO_CPU_COPY"):
    del CachingAutotuner.copy_args_to_cpu_if_needed
