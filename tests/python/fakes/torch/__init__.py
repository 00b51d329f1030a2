"""Fake torch for tko's capture tests: a Tensor type that is not a real
tensor, so any snapshot attempt fails inside tko (and must not reach the
"model")."""
__version__ = "0.0-fake"


class Tensor:
    def __init__(self, n):
        self.n = n

    @property
    def shape(self):
        return (self.n,)

    def stride(self):
        return (1,)

    @property
    def dtype(self):
        return "float32"


class cuda:  # noqa: N801 (torch.cuda, the namespace the memory budget is read from)
    """The allocator statistics copy_args_to_cpu_if_needed reads: a budget of
    FAKE_BUDGET bytes (default 1 MiB) over 10 MiB in use."""

    @staticmethod
    def memory_allocated():
        return 10 << 20

    @staticmethod
    def max_memory_allocated():
        import os
        return (10 << 20) + int(os.environ.get("FAKE_BUDGET", 1 << 20))

    @staticmethod
    def is_available():
        return False


# As torch/__init__.py does at import: TORCH_LOGS takes effect here.
from . import _logging  # noqa: E402

_logging._init_logs()
