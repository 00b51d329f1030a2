"""What the tests against a real torch share: where the repository's tko
package and its import hook are, and the Python that has torch installed
(TKO_TORCH_PYTHON, a separate venv: pip install torch==2.11.0). Without it
those tests are skipped (pytestmark = needs_torch)."""
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
TORCH_PY = os.environ.get("TKO_TORCH_PYTHON")

needs_torch = pytest.mark.skipif(not TORCH_PY, reason="TKO_TORCH_PYTHON is not set")
