"""What the tests against a real torch share: where the repository's tko
package and its import hook are, and the Python that has torch installed
(TKO_TORCH_PYTHON, a separate venv: pip install torch==2.11.0). Without it
those tests are skipped (pytestmark = needs_torch)."""
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
TORCH_PY = os.environ.get("TKO_TORCH_PYTHON")

needs_torch = pytest.mark.skipif(not TORCH_PY, reason="TKO_TORCH_PYTHON is not set")


def torch_has(module):
    """Whether the torch of TKO_TORCH_PYTHON has `module` (a feature that came
    with a later torch than the oldest one tko is tested on)."""
    if module not in _HAS:
        code = f"import importlib.util as u; print(u.find_spec({module!r}) is not None)"
        proc = subprocess.run([TORCH_PY, "-c", code], capture_output=True, text=True, timeout=300)
        _HAS[module] = proc.stdout.strip().endswith("True")
    return _HAS[module]


_HAS = {}
