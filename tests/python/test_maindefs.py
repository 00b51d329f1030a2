"""tko.maindefs: a callback right after the script's statement that binds a
name, and the trace function gone once every name is bound. Plain Python,
no torch: each script runs in its own interpreter (a trace function is
per process), and writes what it saw in order; the expected order is read
off the script by hand.
"""
import json
import os
import subprocess
import sys
import textwrap

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")

SCRIPT = """
import json, sys
from tko import maindefs
SEEN = []


def note(what):
    return lambda main: SEEN.append([what, sorted(k for k in ("f", "Late", "g") if k in vars(main))])


print(maindefs.watch("f", note("f")), maindefs.watch("Late", note("Late")), {extra})
SEEN.append("before f")


def f():
    return 1


SEEN.append(["after f", sys.gettrace() is not None])
class Late:
    pass
SEEN.append(["after Late", sys.gettrace() is not None])
print(json.dumps({{"seen": SEEN, "left": maindefs.unwatched()}}))
"""


def run(tmp_path, extra="None", argv=None):
    (tmp_path / "s.py").write_text(textwrap.dedent(SCRIPT.format(extra=extra)))
    env = dict(os.environ, PYTHONPATH=PYDIR)
    proc = subprocess.run([sys.executable] + (argv or [str(tmp_path / "s.py")]), env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_each_callback_runs_after_its_statement_and_before_the_next(tmp_path):
    started, out = run(tmp_path)
    assert started == "True True None"
    assert json.loads(out) == {"seen": [
        "before f",
        ["f", ["f"]],                   # after `def f`, before the next statement
        ["after f", True],              # Late is still watched
        ["Late", ["Late", "f"]],
        ["after Late", False],          # nothing left: the trace function is gone
    ], "left": [[], None]}


def test_a_name_never_bound_keeps_the_watch_on(tmp_path):
    started, out = run(tmp_path, extra='maindefs.watch("g", note("g"))')
    assert started == "True True True"
    got = json.loads(out)
    assert got["seen"][-1] == ["after Late", True]
    assert got["left"] == [["g"], None]


def test_a_name_already_bound_is_called_at_once(tmp_path):
    started, out = run(tmp_path, extra='maindefs.watch("note", lambda m: SEEN.append("note"))')
    assert started == "True True True"
    assert json.loads(out)["seen"][:2] == ["note", "before f"]


def test_no_script_no_watch(tmp_path):
    (tmp_path / "s.py").write_text(textwrap.dedent(SCRIPT.format(extra="None")))
    started, out = run(tmp_path, argv=["-c", (tmp_path / "s.py").read_text()])
    assert started == "False False None"
    got = json.loads(out)
    assert got["seen"] == ["before f", ["after f", False], ["after Late", False]]
    assert got["left"] == [[], "this process runs no script (python -c, a spawned worker)"]
