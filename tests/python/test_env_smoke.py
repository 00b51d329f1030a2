"""The Python test environment is what script/bootstrap promises."""
import os
import subprocess


def test_tko_binary_runs():
    out = subprocess.run([os.environ["TKO"], "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("tko ")


def test_triton_is_the_pinned_version():
    import triton

    assert triton.__version__ == "3.6.0"
