"""A profiled window of the model's steady state, with no change to its code.

`tko capture` sets TKO_PROFILE_DIR (RUN/profile). tko's launch hooks call
on_launch() before every Triton kernel launch the model makes (Inductor's
CachingAutotuner.run, a hand-written kernel's JITFunction.run); autotuning's
benchmark launches do not go through run() and are never seen here.

Steady state, told from the launches alone:
  1. no kernel launched for the first time (so no compilation, no
     autotuning) in the last QUIET launches;
  2. the launch sequence repeats: its last 3p launches are the same p
     kernels three times over, for the smallest such period p (a step).
Then the profiler (torch.profiler, CPU + GPU activities, input shapes) starts
at the next step boundary: the launch, on the main thread, that in the last
period came after the longest wait since the launch before it (the top of
the user's loop, where the next batch and the host's own work sit). Every boundary after it calls prof.step(), so the trace holds
ProfilerStep#N ranges. It stops at the boundary after STEPS steps or once
SECONDS have passed, and writes RUN/profile/trace-<pid>.json.gz (Kineto's
Chrome trace) and RUN/profile/window-<pid>.json (what was profiled and
why; docs/capture-events.md). A process that ends inside the window writes
what it has, flagged partial.

Environment (tko capture's --profile-* options set them):
  TKO_PROFILE_DIR      where to write; unset: no profile
  TKO_PROFILE_STEPS    steps to record (default 5)
  TKO_PROFILE_SECONDS  at most this long (default 20)
  TKO_PROFILE_QUIET    launches of known kernels before steady state (default 200)

Everything here runs inside capture.guarded(): a failure is an error event
and the model carries on unprofiled.
"""

import json
import os
import threading
import time

DEFAULT_STEPS = 5
DEFAULT_SECONDS = 20.0
DEFAULT_QUIET = 200
MAX_SEQ = 50000      # launches remembered for the period search
MAX_PERIOD = 10000   # the longest step, in launches, looked for


def _env_num(name, default, kind):
    try:
        v = kind(os.environ.get(name, "") or default)
        return v if v > 0 else default
    except ValueError:
        return default


def find_period(seq, max_period=MAX_PERIOD):
    """The smallest p with seq[-3p:] three repeats of seq[-p:], or None.

    Only periods p where the last launch equals the one p before it are
    tried, so a search costs the occurrences of one kernel, not len(seq)."""
    n = len(seq)
    last = seq[-1] if seq else None
    for p in range(1, min(max_period, n // 3) + 1):
        if seq[n - 1 - p] != last:
            continue
        if seq[n - p:] == seq[n - 2 * p:n - p] == seq[n - 3 * p:n - 2 * p]:
            return p
    return None


class Window:
    """One process's profiling state machine: waiting -> recording -> done."""

    def __init__(self, out_dir, steps=DEFAULT_STEPS, seconds=DEFAULT_SECONDS,
                 quiet=DEFAULT_QUIET, profiler_factory=None, clock=time.time):
        self.out_dir = out_dir
        self.steps = steps
        self.seconds = seconds
        self.quiet = quiet
        self.factory = profiler_factory or _torch_profiler
        self.clock = clock
        self.lock = threading.Lock()
        self.ids = {}                 # kernel key -> small int
        self.seq = []                 # (id, on main thread) of recent launches
        self.since_new = 0            # launches since a kernel was new
        self.period = None            # launches per step, once found
        self.phase = None             # index (in launch count) of a boundary
        self.count = 0                # launches seen
        self.state = "waiting"
        self.prof = None
        self.started = None           # clock() at start
        self.boundaries = []          # clock() at each step boundary recorded
        self.new_in_window = 0        # kernels first launched while recording
        self.bench_in_window = 0      # autotune benchmarks while recording
        self.result = None            # what window-<pid>.json says

    # Called by the launch hooks.

    def on_launch(self, key):
        with self.lock:
            if self.state == "done":
                return
            main = threading.current_thread() is threading.main_thread()
            new = key not in self.ids
            if new:
                self.ids[key] = len(self.ids)
                self.since_new = 0
                if self.state == "recording":
                    self.new_in_window += 1
            else:
                self.since_new += 1
            self.seq.append((self.ids[key], main, self.clock()))
            if len(self.seq) > MAX_SEQ:
                del self.seq[:len(self.seq) - MAX_SEQ]
            index = self.count
            self.count += 1
            if self.state == "waiting":
                self._maybe_steady()
            if self.phase is not None and main and (index - self.phase) % self.period == 0:
                self._boundary()

    def on_bench(self):
        with self.lock:
            if self.state == "recording":
                self.bench_in_window += 1

    # Internals, under the lock.

    def _maybe_steady(self):
        if self.since_new < self.quiet or self.period is not None:
            return
        ids = [e[0] for e in self.seq]
        p = find_period(ids)
        if p is None:
            return
        # The phase: among the last period's launches on the main thread, the one
        # after the longest wait since the launch before it. A training or
        # inference loop's top (the next batch, the optimizer's host work, a
        # loss.item()) is where the host waits longest, so steps start there.
        best, wait = None, -1.0
        for j in range(len(self.seq) - p, len(self.seq)):
            gap = self.seq[j][2] - self.seq[j - 1][2]
            if self.seq[j][1] and gap > wait:
                best, wait = j, gap
        if best is not None:
            self.period = p
            self.phase = self.count - len(self.seq) + best

    def _boundary(self):
        now = self.clock()
        if self.state == "waiting":
            self.state = "done"       # a profiler that cannot start is not retried
            self.prof = self.factory()
            self.prof.start()
            self.state = "recording"
            self.started = now
            self.boundaries.append(now)
            return
        self.boundaries.append(now)
        done = len(self.boundaries) > self.steps or now - self.started >= self.seconds
        if done:
            self._finish(partial=False)
        else:
            self.prof.step()

    def _finish(self, partial):
        self.state = "done"
        prof, self.prof = self.prof, None
        os.makedirs(self.out_dir, exist_ok=True)
        pid = os.getpid()
        trace = os.path.join(self.out_dir, f"trace-{pid}.json.gz")
        prof.stop()
        prof.export_chrome_trace(trace)
        self.result = {
            "schema_version": 1,
            "pid": pid,
            "trace": os.path.basename(trace),
            "steps": len(self.boundaries) - 1 if not partial else len(self.boundaries),
            "launches_per_step": self.period,
            "quiet_launches": self.quiet,
            "start_time": self.started,
            "stop_time": self.clock(),
            "boundaries": self.boundaries,
            "partial": partial,
            "new_kernels_in_window": self.new_in_window,
            "autotune_benchmarks_in_window": self.bench_in_window,
            "limits": {"steps": self.steps, "seconds": self.seconds},
        }
        path = os.path.join(self.out_dir, f"window-{pid}.json")
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.result, f, indent=2)
        os.replace(tmp, path)

    def finish_at_exit(self):
        """The process ends inside the window: write what it has, flagged partial."""
        with self.lock:
            if self.state == "recording":
                self.boundaries.append(self.clock())
                self._finish(partial=True)

    def status(self):
        return {"state": self.state, "period": self.period, "launches": self.count}


def _torch_profiler():
    import torch
    from torch.profiler import ProfilerAction, ProfilerActivity, profile
    activities = [ProfilerActivity.CPU]
    if torch.cuda.is_available():
        activities.append(ProfilerActivity.CUDA)
    # a schedule that always records makes profile.step() mark ProfilerStep#N
    return profile(activities=activities, record_shapes=True,
                   schedule=lambda step: ProfilerAction.RECORD)


_WINDOW = None


def window():
    """This process's window, created from the environment on first use, or None."""
    global _WINDOW
    if _WINDOW is None:
        out = os.environ.get("TKO_PROFILE_DIR")
        if not out:
            return None
        _WINDOW = Window(out,
                         steps=_env_num("TKO_PROFILE_STEPS", DEFAULT_STEPS, int),
                         seconds=_env_num("TKO_PROFILE_SECONDS", DEFAULT_SECONDS, float),
                         quiet=_env_num("TKO_PROFILE_QUIET", DEFAULT_QUIET, int))
    return _WINDOW


def reset():
    """Forgets the window (for tests)."""
    global _WINDOW
    _WINDOW = None
