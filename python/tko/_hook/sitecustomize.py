"""tko's start-up hook, run by Python in every process `tko capture` starts.

`tko capture` puts this folder first on PYTHONPATH, so Python's site module
imports this file as `sitecustomize` before the user's command runs; the
command needs no import and no change. This file only installs tko.capture (and, under `tko apply`, tko.apply)
(which patches lazily, when torch's and Triton's runtime modules are
imported) and then runs the sitecustomize that would otherwise have been
found, so an environment's own start-up customisation keeps working.

It must never stop the interpreter: any failure is reported in one line on
stderr and the process carries on without capture.
"""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _install():
    if not os.environ.get("TKO_CAPTURE_DIR"):
        return
    try:
        import tko.capture
        tko.capture.install()
    except Exception as e:  # capture is optional; the command is not
        print(f"tko capture: warning: capture hook not installed: {type(e).__name__}: {e}",
              file=sys.stderr)


def _install_apply():
    """`tko apply` sets TKO_APPLY_PLAN: tko.apply installs the plan's winners."""
    if not os.environ.get("TKO_APPLY_PLAN"):
        return
    try:
        import tko.apply
        tko.apply.install()
    except Exception as e:  # the winners are optional; the command is not
        print(f"tko apply: warning: winners not installed: {type(e).__name__}: {e}",
              file=sys.stderr)


def _chain():
    """Runs the next `sitecustomize` on sys.path, as Python would have."""
    path = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the same leniency site.py shows a broken sitecustomize
        print(f"Error in sitecustomize ({spec.origin}); set PYTHONVERBOSE for traceback:\n"
              f"{type(e).__name__}: {e}", file=sys.stderr)
        return


_install()
_install_apply()
_chain()
