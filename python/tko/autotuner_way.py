"""Timing a replayed kernel the way its autotuner timed it (for tko.replay).

Input: the kernel module's object (an Inductor CachingAutotuner, or a
@triton.jit / @triton.autotune kernel), one config's launcher, the
arguments, and what capture.json recorded. Output: {"autotuner_method",
"autotuner_method_ms", ...} for that config (docs/json.md, "tko run").
Entry point: measure(replayer, index, launch).

The point is to call the very code that produced the time in the log, so
that its overheads are reproduced rather than estimated (torch 2.11):

  caching_autotuner_bench   CachingAutotuner.bench(launcher, *args): the
      real method of the real CachingAutotuner that kernel.py defines. Its
      timed kernel_call clones the mutated arguments (maybe_clone_args),
      zeroes reset_to_zero ones, launches through the launcher's Python, and
      copies back from pinned host memory the arguments that
      copy_args_to_cpu_if_needed moved there (restore_args_from_cpu); it is
      timed by benchmarker.benchmark(fn=kernel_call, device=..., rep=40,
      is_vetted_benchmarking=True), which for CUDA is
      InductorBenchmarker.benchmark_gpu: one warm-up call, an L2-sized buffer
      zeroed before every timed call (outside its events), 5 estimation
      calls, 100 zeroings, then min(100, 25 ms / estimate) calls, each
      between its own pair of events, and the minimum of all of them.
      Events bracket the host's work too: when the host needs longer per
      call than the GPU, the GPU waits between the start event and the
      launch, and that wait is in the time.
  select_algorithm          max-autotune's template choices:
      TritonBenchmarkRequest.make_run_fn hands
      functools.partial(CachingAutotuner.run, *args, stream=..,
      benchmark_run=True) to benchmarker.benchmark_gpu (the AUTOTUNE table).
  triton_do_bench           @triton.autotune: triton.testing.do_bench with
      quantiles (0.5, 0.2, 0.8), the median, reset_to_zero arguments zeroed.

Whether bench copies an argument to the host depends on the allocator's
state at that moment (its budget is max_memory_allocated() -
memory_allocated()), which a replay does not share. So the capture records
which arguments took that path (cpu_copy_args of each timed config), and
the replay forces exactly that choice, through Inductor's own
copy_args_to_cpu_if_needed (the mutated names narrowed to the recorded
ones, the budget made 0 by resetting the peak statistic). When copies were
recorded the config is timed both ways, with and without them. A capture
that recorded nothing (an older one, or a config bench never timed) is
timed without copies, as with ample memory, and says so
(autotuner_method_cpu_copy_recorded false): the replay's own memory budget
says nothing about the capture's.

Each measurement also reports its wall time and how many timed calls the
benchmarker made (counted through its get_event_pairs), so that the host
time per call of the replay can be held against the capture's.
"""

import functools
import sys
import time


class _EventPairs:
    """Counts the event pairs a benchmarker asks for, while active."""

    def __init__(self, benchmarker):
        self.benchmarker = benchmarker
        self.iters = []
        self.installed = False

    def __enter__(self):
        real = getattr(self.benchmarker, "get_event_pairs", None)
        if real is not None and hasattr(self.benchmarker, "__dict__"):
            def counted(*args, **kwargs):
                if args and isinstance(args[0], int):
                    self.iters.append(args[0])
                return real(*args, **kwargs)
            self.benchmarker.get_event_pairs = counted
            self.installed = True
        return self

    def __exit__(self, *exc):
        if self.installed:
            del self.benchmarker.get_event_pairs

    def calls(self):
        """Timed calls: the warm-up and one per event pair; None when unknown."""
        return 1 + sum(self.iters) if self.iters else None


class _CpuCopies:
    """Steers CachingAutotuner.copy_args_to_cpu_if_needed for one bench:
    [] no copy; [names] exactly those arguments, by Inductor's own code."""

    def __init__(self, tuner, torch, device, names):
        self.tuner, self.torch, self.device, self.names = tuner, torch, device, names
        self.used = None

    def __enter__(self):
        real = type(self.tuner).copy_args_to_cpu_if_needed

        def chosen(*args, **kwargs):
            copies = self._forced(real, args, kwargs) if self.names else {}
            self.used = [{"name": n, "bytes": int(c.numel()) * int(c.element_size())}
                         for n, (_, c) in copies.items()]
            return copies
        self.tuner.copy_args_to_cpu_if_needed = chosen
        return self

    def _forced(self, real, args, kwargs):
        t = self.tuner
        saved = t.mutated_arg_names, t.optimize_mem
        t.mutated_arg_names = [n for n in saved[0] if n in self.names]
        t.optimize_mem = True
        # Peak = current: a budget of 0, so every remaining candidate is copied.
        self.torch.cuda.synchronize(self.device)
        self.torch.cuda.reset_peak_memory_stats(self.device)
        try:
            return real(t, *args, **kwargs)
        finally:
            t.mutated_arg_names, t.optimize_mem = saved

    def __exit__(self, *exc):
        self.tuner.__dict__.pop("copy_args_to_cpu_if_needed", None)


def method_name(target, kind, is_inductor):
    """Which of the methods above timed this kernel's configs."""
    if is_inductor:
        heuristic = getattr(getattr(target, "heuristic_type", None), "name", "")
        return "select_algorithm" if heuristic == "TEMPLATE" else "caching_autotuner_bench"
    return "triton_do_bench" if kind == "user_autotune" else None


def recorded_copies(cfg):
    """The argument names the capture saw bench copy to the host for this
    config; None when the capture did not record it."""
    args = cfg.get("cpu_copy_args")
    if not isinstance(args, list):
        return None
    return [a["name"] for a in args if isinstance(a, dict) and a.get("name")]


def _benchmarker(tuner):
    mod = sys.modules.get(type(tuner).__module__)
    found = getattr(mod, "benchmarker", None)
    if found is None:
        from torch._inductor.runtime.benchmarking import benchmarker as found  # noqa: PLC0415
    return found


def _bench(rp, raw, names):
    """One CachingAutotuner.bench of launcher `raw` with the copy policy `names`."""
    tuner = rp.target
    if not getattr(rp, "bench_warmed", False):
        # The first bench of a process also allocates the benchmarker's L2
        # buffer and warms its caches: keep that out of the per-call wall time.
        tuner.bench(raw, *rp.values)
        rp.bench_warmed = True
    with _CpuCopies(tuner, rp.torch, rp.device, names) as copies, \
            _EventPairs(_benchmarker(tuner)) as pairs:
        start = time.perf_counter()
        ms = float(tuner.bench(raw, *rp.values))
        wall = (time.perf_counter() - start) * 1e3
    return {"autotuner_method_ms": ms, "autotuner_method_wall_ms": wall,
            "autotuner_method_calls": pairs.calls(),
            "autotuner_method_cpu_copy_args": copies.used}


def _select_algorithm(rp, launch):
    tuner = rp.target
    stream = rp.torch.cuda.current_stream(rp.device).cuda_stream
    if len(rp.doc["configs"]) == 1:
        fn = functools.partial(tuner.run, *rp.values, stream=stream, benchmark_run=True)
    else:
        fn = launch     # run() would autotune between them: time this config alone
    benchmarker = _benchmarker(tuner)
    with _EventPairs(benchmarker) as pairs:
        start = time.perf_counter()
        ms = float(benchmarker.benchmark_gpu(fn))
        wall = (time.perf_counter() - start) * 1e3
    return {"autotuner_method_ms": ms, "autotuner_method_wall_ms": wall,
            "autotuner_method_calls": pairs.calls()}


def _do_bench(rp, launch):
    import triton.testing  # noqa: PLC0415
    zero_names = set(rp.doc.get("reset_to_zero_arg_names") or ())
    zero = [v for n, v in zip(rp.names, rp.values) if n in zero_names]

    def call():
        for v in zero:
            v.zero_()
        launch()
    return {"autotuner_method_ms": float(triton.testing.do_bench(call, quantiles=(0.5, 0.2, 0.8))[0])}


def measure(rp, index, launch):
    """The autotuner-way fields of config `index` (launched by `launch`)."""
    name = method_name(rp.target, rp.doc.get("kind"), rp.inductor)
    out = {"autotuner_method": name}
    if name == "caching_autotuner_bench":
        names = recorded_copies(rp.doc["configs"][index])
        out.update(_bench(rp, launch.raw, names or []))
        out["autotuner_method_cpu_copy_recorded"] = names is not None
        if names:
            rp.restore()
            out["autotuner_method_no_cpu_copy_ms"] = _bench(rp, launch.raw, [])["autotuner_method_ms"]
    elif name == "select_algorithm":
        out.update(_select_algorithm(rp, launch))
    elif name == "triton_do_bench":
        out.update(_do_bench(rp, launch))
    return out
