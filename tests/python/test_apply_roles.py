"""Which process of a command speaks for it under `tko apply` (python/tko/apply.py
process_role; docs/apply.md, "Processes and roles"): plain Python processes
started the way `tko apply` starts the command (the hook folder first on
PYTHONPATH, TKO_APPLY_PLAN and TKO_APPLY_DIR set), each printing its own pid,
so the expected role of every pid comes from how the test started it, not
from the hook.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
sys.path.insert(0, PYDIR)

from tko import apply  # noqa: E402

# The script starts a `python -c` helper (as Inductor's CPU ISA check does),
# a multiprocessing spawn child (a DataLoader worker under spawn) and an
# os.fork child that exits normally (its atexit handlers run).
HELPERS = """
import json, multiprocessing, os, subprocess, sys


def work():
    pass


if __name__ == "__main__":
    c = subprocess.Popen([sys.executable, "-c", "pass"])
    c.wait()
    p = multiprocessing.get_context("spawn").Process(target=work)
    p.start()
    p.join()
    f = os.fork()
    if f == 0:
        sys.exit(0)
    os.waitpid(f, 0)
    print(json.dumps({"main": os.getpid(), "c": c.pid, "spawn": p.pid, "fork": f}))
"""

# A launcher (run as a file named torchrun, as torchrun's console script is)
# starting two ranks with the variables torchrun gives its workers, and a
# helper of its own; each rank starts a `python -c` helper.
LAUNCHER = """
import json, os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
ranks = []
for r in ("0", "1"):
    env = dict(os.environ, RANK=r, LOCAL_RANK=r)
    ranks.append(subprocess.run([sys.executable, os.path.join(here, "w.py")], env=env,
                                capture_output=True, text=True, check=True))
c = subprocess.Popen([sys.executable, "-c", "pass"])
c.wait()
print(json.dumps({"launcher": os.getpid(), "c": c.pid,
                  "ranks": [json.loads(p.stdout) for p in ranks]}))
"""

WORKER = """
import json, os, subprocess, sys
c = subprocess.Popen([sys.executable, "-c", "pass"])
c.wait()
print(json.dumps({"pid": os.getpid(), "c": c.pid}))
"""


def run(tmp_path, script, name="s.py", keep_off="nomod:f"):
    (tmp_path / name).write_text(textwrap.dedent(script))
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"schema_version": 1, "backend": "cuda", "kernels": []}))
    out = tmp_path / "out"
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TKO_") and k not in ("RANK", "LOCAL_RANK")}
    env.update(PYTHONPATH=os.pathsep.join([HOOK, PYDIR]), TKO_APPLY_PLAN=str(plan),
               TKO_APPLY_DIR=str(out), TKO_APPLY_MODE="observe", TKO_APPLY_KEEP_OFF=keep_off)
    proc = subprocess.run([sys.executable, str(tmp_path / name)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    events = [json.loads(line) for line in (out / "apply.jsonl").read_text().splitlines()]
    return json.loads(proc.stdout.splitlines()[-1]), events


def roles(events):
    """pid -> the set of roles its events carry."""
    got = {}
    for e in events:
        got.setdefault(e["pid"], set()).add(e["role"])
    return got


def test_helpers_of_the_script_are_children_and_only_the_script_is_main(tmp_path):
    pids, events = run(tmp_path, HELPERS)
    got = roles(events)
    # multiprocessing's resource tracker, a `python -c` the spawn start method starts, is one more
    assert len(got) == 5 and got.pop(pids["main"]) == {"main"}
    assert got == dict.fromkeys(got, {"child"}) and {pids["c"], pids["spawn"], pids["fork"]} < set(got)
    keep = [e for e in events if e["event"] == "keep_off"]
    # every process that imported nothing says not_imported, but one speaks for the command
    assert set(pids.values()) <= {e["pid"] for e in keep}
    assert [e["pid"] for e in keep if e["role"] == "main"] == [pids["main"]]


def test_torchrun_s_rank_zero_is_main_and_the_launcher_is_not(tmp_path):
    (tmp_path / "w.py").write_text(textwrap.dedent(WORKER))
    pids, events = run(tmp_path, LAUNCHER, name="torchrun")
    r0, r1 = pids["ranks"]
    assert roles(events) == {pids["launcher"]: {"launcher"}, pids["c"]: {"child"},
                             r0["pid"]: {"main"}, r0["c"]: {"child"},
                             r1["pid"]: {"rank"}, r1["c"]: {"child"}}
    keep = [e for e in events if e["event"] == "keep_off"]
    assert pids["launcher"] not in [e["pid"] for e in keep]     # it runs no model code
    assert [e["pid"] for e in keep if e["role"] == "main"] == [r0["pid"]]


@pytest.fixture
def clean_env(monkeypatch):
    for k in (apply.MAIN_ENV, "RANK", "LOCAL_RANK"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(sys, "argv", ["train.py"])
    monkeypatch.setattr(sys, "orig_argv", ["python", "train.py"], raising=False)
    return monkeypatch


def test_the_first_process_claims_main_for_its_run_only(clean_env, tmp_path):
    assert apply.process_role(str(tmp_path)) == "main"
    assert os.environ[apply.MAIN_ENV] == f"{os.getpid()}:main:{tmp_path}"
    assert apply.process_role(str(tmp_path)) == "main"          # the same process (exec'd again)
    clean_env.setenv(apply.MAIN_ENV, f"1:main:{tmp_path}")       # another process of this run
    assert apply.process_role(str(tmp_path)) == "child"
    clean_env.setenv(apply.MAIN_ENV, f"1:main:{tmp_path}/other")  # another run's claim
    assert apply.process_role(str(tmp_path)) == "main"


@pytest.mark.parametrize("orig_argv, role", [
    (["python", "-m", "torch.distributed.run", "--nproc_per_node=1", "train.py"], "launcher"),
    (["python", "-X", "faulthandler", "-m", "torch.distributed.launch", "train.py"], "launcher"),
    (["python", "-m", "train"], "main"),
    (["python", "train.py", "-m", "torch.distributed.run"], "main"),
])
def test_a_launcher_run_as_a_module(clean_env, tmp_path, orig_argv, role):
    clean_env.setattr(sys, "argv", ["-m"])
    clean_env.setattr(sys, "orig_argv", orig_argv, raising=False)
    assert apply.process_role(str(tmp_path)) == role


@pytest.mark.parametrize("rank, role", [({"RANK": "0", "LOCAL_RANK": "0"}, "main"),
                                        ({"RANK": "3", "LOCAL_RANK": "1"}, "rank"),
                                        ({}, "child")])
def test_a_launcher_s_children(clean_env, tmp_path, rank, role):
    clean_env.setenv(apply.MAIN_ENV, f"1:launcher:{tmp_path}")
    for k, v in rank.items():
        clean_env.setenv(k, v)
    assert apply.process_role(str(tmp_path)) == role


def test_a_compile_worker_claims_nothing(clean_env, tmp_path):
    clean_env.setattr(sys, "argv", ["/x/torch/_inductor/compile_worker/__main__.py"])
    assert apply.process_role(str(tmp_path)) == "compile_worker"
    assert apply.MAIN_ENV not in os.environ
