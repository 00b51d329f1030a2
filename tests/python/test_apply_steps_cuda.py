"""tko.apply_steps's CUDA clock, without a GPU: a stand-in `torch` module
whose cuda.Event records a number the test sets, and whose synchronize()
counts its calls. What is checked (docs/apply.md, "Step times"): a step
boundary waits for nothing (no synchronize), the step times are the
differences between consecutive boundaries' events, read at the end with
the losses held as tensors until then, and one wait per SETTLE_EVERY steps
bounds what is held. Expected values are the times the test gives the fake
events, subtracted by hand.
"""
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

from tko import apply_steps  # noqa: E402


class FakeTensor:
    def __init__(self, v, reads):
        self.v, self.reads = v, reads

    def numel(self):
        return 1

    def detach(self):
        return self

    def __float__(self):
        self.reads.append(self.v)
        return float(self.v)


def fake_torch(clock):
    cuda = types.SimpleNamespace(syncs=0)

    class Event:
        def __init__(self, enable_timing=False):
            assert enable_timing
            self.t = None

        def record(self):
            self.t = clock[0]

        def elapsed_time(self, end):
            assert cuda.syncs > 0, "an event read before the GPU was waited for"
            return end.t - self.t

    def synchronize():
        cuda.syncs += 1

    cuda.Event = Event
    cuda.synchronize = synchronize
    cuda.is_available = lambda: True
    cuda.is_initialized = lambda: True
    return types.SimpleNamespace(cuda=cuda)


class FakeSession:
    role = "main"
    out_dir = "/nonexistent"

    def __init__(self):
        self.events = []

    def emit(self, kind, **fields):
        self.events.append((kind, fields))

    def error(self, stage, e, **kw):
        raise e


def run_steps(monkeypatch, times, settle_every=1024):
    clock, reads = [0.0], []
    torch = fake_torch(clock)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setattr(apply_steps, "SETTLE_EVERY", settle_every)
    monkeypatch.delenv("TKO_APPLY_KERNEL_WINDOW", raising=False)
    sess = FakeSession()
    st = apply_steps.Steps(sess)
    for i, t in enumerate(times):
        clock[0] = t
        st.boundary(FakeTensor(10.0 - i, reads))
    return st, sess, torch.cuda, reads


def test_boundaries_wait_for_nothing_and_times_are_event_differences(monkeypatch):
    st, sess, cuda, reads = run_steps(monkeypatch, [5.0, 7.5, 9.0, 12.25])
    assert cuda.syncs == 0 and reads == []
    st.end()
    assert cuda.syncs == 1
    kind, ev = sess.events[0]
    assert kind == "steps" and ev["clock"] == "cuda_events"
    assert ev["ms"] == [None, 2.5, 1.5, 3.25]
    assert ev["losses"] == [10.0, 9.0, 8.0, 7.0]


def test_one_wait_every_settle_every_steps(monkeypatch):
    st, sess, cuda, reads = run_steps(monkeypatch, [float(i) for i in range(7)], settle_every=3)
    assert cuda.syncs == 2 and reads == [10.0, 9.0, 8.0, 7.0, 6.0, 5.0]
    st.end()
    assert sess.events[0][1]["ms"] == [None] + [1.0] * 6
