"""Copied by `tko apply` as sitecustomize.py beside tko_winners.py: with that
folder on PYTHONPATH every Python process (the script and Inductor's compile
workers) loads the winners, and the script needs no import. It replaces any
other sitecustomize on the path; to keep yours, add `import tko_winners` to it."""
import os

os.environ.setdefault("TKO_WINNERS_SITECUSTOMIZE", "1")
import tko_winners  # noqa: E402,F401
