"""tko.autotuner_way's steering of CachingAutotuner.bench, on stand-ins: no
torch or GPU is needed to check that the recorded host-copy choice is the
one bench gets, through the autotuner's own copy_args_to_cpu_if_needed, and
that the benchmarker's event pairs are counted and then left alone.

The stand-in autotuner below behaves as torch 2.11's copy_args_to_cpu_if_needed
does (optimize_mem, a budget of max_memory_allocated - memory_allocated,
mutated arguments larger than what is left go to the host); expected values
are worked out here from those rules."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
from tko import autotuner_way  # noqa: E402


class Tensor:
    def __init__(self, nbytes):
        self.nbytes = nbytes

    def numel(self):
        return self.nbytes // 2

    def element_size(self):
        return 2


class Cuda:
    """The allocator statistics: `peak` over `now`, reset as torch does."""

    def __init__(self, now, peak):
        self.now, self.peak = now, peak
        self.calls = []

    def memory_allocated(self, device=None):
        return self.now

    def max_memory_allocated(self, device=None):
        return self.peak

    def reset_peak_memory_stats(self, device=None):
        self.calls.append("reset")
        self.peak = self.now

    def synchronize(self, device=None):
        self.calls.append("sync")


class Torch:
    def __init__(self, cuda):
        self.cuda = cuda


class Tuner:
    arg_names = ["in_ptr0", "out_ptr0", "in_out_ptr1", "xnumel"]

    def __init__(self, cuda):
        self.cuda = cuda
        self.mutated_arg_names = ["out_ptr0", "in_out_ptr1"]
        self.optimize_mem = False
        self.seen = None

    def copy_args_to_cpu_if_needed(self, *args):
        if not self.optimize_mem:
            return {}
        budget = self.cuda.max_memory_allocated() - self.cuda.memory_allocated()
        copies = {}
        for name, arg in zip(self.arg_names, args):
            if name in self.mutated_arg_names:
                if arg.nbytes > budget:
                    copies[name] = (arg, Tensor(arg.nbytes))
                else:
                    budget -= arg.nbytes
        return copies

    def bench(self, *args):
        # What bench passes on to kernel_call: the copies, and whom it clones.
        copies = self.copy_args_to_cpu_if_needed(*args)
        self.seen = (sorted(copies), list(self.mutated_arg_names), self.optimize_mem)
        return 1.0


ARGS = (Tensor(8), Tensor(4 << 20), Tensor(1 << 20), 1024)


def steer(names, optimize_mem=False, budget=64 << 20):
    cuda = Cuda(now=100 << 20, peak=(100 << 20) + budget)
    tuner = Tuner(cuda)
    tuner.optimize_mem = optimize_mem
    with autotuner_way._CpuCopies(tuner, Torch(cuda), "cuda:0", names) as c:
        tuner.bench(*ARGS)
    return tuner, c, cuda


def test_recorded_copies_are_forced_through_the_autotuners_own_method():
    # The capture saw out_ptr0 copied; the replay's allocator has room for
    # it, and optimize_mem is off here, so left alone nothing would be.
    tuner, c, cuda = steer(["out_ptr0"])
    assert tuner.seen[0] == ["out_ptr0"]
    assert c.used == [{"name": "out_ptr0", "bytes": 4 << 20}]
    assert "reset" in cuda.calls
    # Restored for kernel_call, which clones every other mutated argument.
    assert tuner.mutated_arg_names == ["out_ptr0", "in_out_ptr1"] and tuner.optimize_mem is False
    assert "copy_args_to_cpu_if_needed" not in tuner.__dict__


def test_no_recorded_copy_means_none_even_without_budget():
    # Left to itself, with no budget and optimize_mem on, the method would
    # copy both mutated arguments.
    tuner, c, _ = steer([], optimize_mem=True, budget=0)
    assert tuner.seen[0] == [] and c.used == []
    assert sorted(Tuner(Cuda(0, 0)).copy_args_to_cpu_if_needed(*ARGS)) == []
    t = Tuner(Cuda(0, 0))
    t.optimize_mem = True
    assert sorted(t.copy_args_to_cpu_if_needed(*ARGS)) == ["in_out_ptr1", "out_ptr0"]


def test_both_recorded_copies_are_forced():
    tuner, c, _ = steer(["out_ptr0", "in_out_ptr1"])
    assert tuner.seen[0] == ["in_out_ptr1", "out_ptr0"]
    assert [u["name"] for u in c.used] == ["out_ptr0", "in_out_ptr1"]


def test_event_pairs_are_counted_and_the_benchmarker_is_left_as_it_was():
    class Benchmarker:
        def get_event_pairs(self, iters, device_type=None):
            return [None] * iters

    b = Benchmarker()
    with autotuner_way._EventPairs(b) as pairs:
        assert len(b.get_event_pairs(5)) == 5
        b.get_event_pairs(100, device_type="cuda")
    assert pairs.iters == [5, 100] and pairs.calls() == 106
    assert "get_event_pairs" not in b.__dict__
    with autotuner_way._EventPairs(object()) as none:
        pass
    assert none.calls() is None


def test_method_follows_the_heuristic_and_the_kind():
    class Heuristic:
        def __init__(self, name):
            self.name = name

    class T:
        def __init__(self, name):
            self.heuristic_type = Heuristic(name)

    assert autotuner_way.method_name(T("TEMPLATE"), "inductor", True) == "select_algorithm"
    assert autotuner_way.method_name(T("POINTWISE"), "inductor", True) == "caching_autotuner_bench"
    assert autotuner_way.method_name(None, "user_autotune", False) == "triton_do_bench"
    assert autotuner_way.method_name(None, "user_jit", False) is None


def test_recorded_copies_read_from_a_config():
    assert autotuner_way.recorded_copies({}) is None
    assert autotuner_way.recorded_copies({"cpu_copy_args": []}) == []
    assert autotuner_way.recorded_copies(
        {"cpu_copy_args": [{"name": "in_out_ptr0", "bytes": 67108864}]}) == ["in_out_ptr0"]


def test_a_function_only_kernel_py_is_refused_with_the_reason():
    from tko import replay

    def triton_mm(arg_A, arg_B, out_ptr0):
        pass
    why = replay.not_a_kernel({"kernel": "triton_mm", "source_kind": "function_only"}, triton_mm)
    assert "'triton_mm' as a plain function" in why and "capture the model again" in why
    assert "not a Triton kernel" in replay.not_a_kernel({"kernel": "k"}, 3)
