#!/usr/bin/env python3
"""Replays the kernel captured in this directory: python run.py [--json FILE] [--reps N].

Written by `tko capture`. It needs the tko Python package: from PYTHONPATH,
from $TKO_PYTHONPATH, or from where tko capture found it ('/work/main/python').
`tko run` does the same and adds bandwidth figures.
"""
import os
import sys

for _path in (os.environ.get("TKO_PYTHONPATH"), '/work/main/python'):
    if _path and _path not in sys.path:
        sys.path.append(_path)

from tko.replay import main  # noqa: E402

sys.exit(main([os.path.dirname(os.path.abspath(__file__))] + sys.argv[1:]))
