"""Fake torch (see ../README.md)."""
import os

__version__ = "2.11.0-fake"


class version:  # noqa: N801 (torch.version)
    hip = "6.4-fake" if os.environ.get("FAKE_HIP") else None
    cuda = None if os.environ.get("FAKE_HIP") else "13.0"


class cuda:  # noqa: N801
    @staticmethod
    def is_available():
        return True


# torch/__init__.py:1609 set_float32_matmul_precision, and its getter; torch
# raises for a value it does not know.
_matmul_precision = "highest"


def get_float32_matmul_precision():
    return _matmul_precision


def set_float32_matmul_precision(precision):
    global _matmul_precision
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision {precision}")
    _matmul_precision = precision
