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
