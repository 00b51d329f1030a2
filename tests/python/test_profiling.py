"""The profiled window (python/tko/profiling.py): steady state told from the
launches, step boundaries, the stop, what is written. A fake profiler
records the calls; one test uses the real torch.profiler on the CPU when
torch is importable (it is not in the shared .venv: it ran in a CPU-only
torch venv, see docs/PERFORMANCE.md), and checks the Chrome trace it writes
has the ProfilerStep ranges tko profile reads."""
import gzip
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "python")))

from tko import profiling  # noqa: E402


class FakeProfiler:
    def __init__(self, log):
        self.log = log

    def start(self):
        self.log.append("start")

    def step(self):
        self.log.append("step")

    def stop(self):
        self.log.append("stop")

    def export_chrome_trace(self, path):
        self.log.append(("export", os.path.basename(path)))
        with gzip.open(path, "wt") as f:
            f.write('{"traceEvents": []}')


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def make(tmp_path, log, **kw):
    clock = kw.pop("clock", Clock())
    return profiling.Window(str(tmp_path), profiler_factory=lambda: FakeProfiler(log),
                            clock=clock, **kw), clock


STEP = ["embed", "mm1", "norm", "mm2", "loss"]   # 5 launches a step


def run_steps(w, n, clock=None, step=STEP):
    for _ in range(n):
        for k in step:
            w.on_launch(k)
        if clock is not None:
            clock.t += 0.010


def test_find_period_smallest_repeat_three_times():
    assert profiling.find_period([1, 2, 3] * 3) == 3
    assert profiling.find_period([9, 1, 2, 1, 2, 1, 2]) == 2
    assert profiling.find_period([1, 2, 3, 1, 2, 3]) is None     # two repeats are not enough
    assert profiling.find_period([1, 1, 1, 1]) == 1
    assert profiling.find_period([]) is None


def test_waits_for_quiet_then_records_steps_from_a_boundary(tmp_path):
    log = []
    w, clock = make(tmp_path, log, steps=3, quiet=12)
    run_steps(w, 3, clock)                 # 15 launches, 10 of known kernels: not quiet yet
    assert log == [] and w.state == "waiting"
    run_steps(w, 1, clock)                 # quiet and periodic: the phase is known
    assert w.period == 5 and log == []
    run_steps(w, 1, clock)                 # the next boundary starts it
    assert log == ["start"] and w.state == "recording"
    run_steps(w, 3, clock)                 # boundaries 2 and 3 step, the 4th stops
    assert log == ["start", "step", "step", "stop", ("export", f"trace-{os.getpid()}.json.gz")]
    note = json.loads((tmp_path / f"window-{os.getpid()}.json").read_text())
    assert note["steps"] == 3 and note["launches_per_step"] == 5 and note["partial"] is False
    assert len(note["boundaries"]) == 4
    assert note["boundaries"][3] - note["boundaries"][0] == pytest.approx(0.030)
    run_steps(w, 5, clock)
    assert log.count("start") == 1         # one window a process


def test_boundary_is_the_steps_first_launch(tmp_path):
    log = []
    w, _ = make(tmp_path, log, steps=2, quiet=12)
    run_steps(w, 4)
    w.on_launch("embed")                   # a step's first kernel
    assert log == ["start"]


def test_stops_after_seconds_even_before_the_steps(tmp_path):
    log = []
    w, clock = make(tmp_path, log, steps=100, seconds=0.025, quiet=12)
    run_steps(w, 5, clock)
    assert log == ["start"]
    run_steps(w, 3, clock)
    assert log[-2:] == ["stop", ("export", f"trace-{os.getpid()}.json.gz")]
    note = json.loads((tmp_path / f"window-{os.getpid()}.json").read_text())
    assert note["steps"] == 3


def test_new_kernels_keep_it_waiting_and_are_counted_inside(tmp_path):
    log = []
    w, clock = make(tmp_path, log, steps=2, quiet=12)
    for i in range(40):                    # every launch new: compilation never ends
        w.on_launch(f"k{i}")
    assert w.state == "waiting" and w.period is None
    run_steps(w, 5, clock)
    assert w.state == "recording"
    w.on_launch("recompiled")              # a recompile inside the window
    w.on_bench()                           # and its autotune benchmark
    run_steps(w, 3, clock)
    note = json.loads((tmp_path / f"window-{os.getpid()}.json").read_text())
    assert note["new_kernels_in_window"] == 1 and note["autotune_benchmarks_in_window"] == 1


def test_an_exit_inside_the_window_writes_it_partial(tmp_path):
    log = []
    w, clock = make(tmp_path, log, steps=10, quiet=12)
    run_steps(w, 6, clock)
    assert w.state == "recording"
    w.finish_at_exit()
    note = json.loads((tmp_path / f"window-{os.getpid()}.json").read_text())
    assert note["partial"] is True and log[-2] == "stop"
    w.finish_at_exit()                     # twice is harmless
    assert log.count("stop") == 1


def test_launches_off_the_main_thread_are_never_boundaries(tmp_path):
    import threading
    log = []
    w, _ = make(tmp_path, log, steps=2, quiet=12)

    def backward():
        for k in ("bwd1", "bwd2"):
            w.on_launch(k)

    for _ in range(8):
        for k in STEP:
            w.on_launch(k)
        t = threading.Thread(target=backward)
        t.start()
        t.join()
    assert w.period == 7
    # the boundary found is a main-thread launch
    assert log and log[0] == "start"


def test_a_profiler_that_fails_to_start_is_not_retried(tmp_path):
    class Broken(FakeProfiler):
        def start(self):
            raise RuntimeError("no kineto")

    log = []
    w = profiling.Window(str(tmp_path), quiet=12, profiler_factory=lambda: Broken(log))
    with pytest.raises(RuntimeError):
        run_steps(w, 5)
    assert w.state == "done"
    run_steps(w, 5)                        # the model carries on; nothing more is tried


def test_window_from_environment(monkeypatch, tmp_path):
    profiling.reset()
    monkeypatch.delenv("TKO_PROFILE_DIR", raising=False)
    assert profiling.window() is None
    monkeypatch.setenv("TKO_PROFILE_DIR", str(tmp_path))
    monkeypatch.setenv("TKO_PROFILE_STEPS", "7")
    monkeypatch.setenv("TKO_PROFILE_SECONDS", "bad")
    w = profiling.window()
    assert w.steps == 7 and w.seconds == profiling.DEFAULT_SECONDS
    profiling.reset()


def test_real_torch_profiler_on_the_cpu_writes_profiler_steps(tmp_path):
    torch = pytest.importorskip("torch")
    w = profiling.Window(str(tmp_path), steps=3, quiet=12)
    a = torch.randn(64, 64)
    for _ in range(12):
        for k in STEP:
            w.on_launch(k)
            a = torch.mm(a, a).tanh()      # CPU ops inside the window
    assert w.state == "done"
    trace = tmp_path / f"trace-{os.getpid()}.json.gz"
    doc = json.load(gzip.open(trace, "rt"))
    steps = sorted(e["name"] for e in doc["traceEvents"]
                   if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#"))
    assert steps == ["ProfilerStep#0", "ProfilerStep#1", "ProfilerStep#2"]
    mm = [e for e in doc["traceEvents"] if e.get("cat") == "cpu_op" and e["name"] == "aten::mm"]
    assert len(mm) == 15 and mm[0]["args"]["Input type"][0] == "float"
    tko = os.environ.get("TKO")
    if tko:
        # a CPU-only trace has no GPU kernel: tko profile says so in one line
        r = subprocess.run([tko, "profile", str(trace)], capture_output=True, text=True)
        assert r.returncode == 1 and "no GPU kernels" in r.stderr and r.stderr.count("\n") == 1
