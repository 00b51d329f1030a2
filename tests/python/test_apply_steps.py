"""tko.apply_steps against a real torch 2.11 on the CPU: the step times and
losses tko's hook measures for a script that prints no figures. Runs only
when TKO_TORCH_PYTHON names a Python with torch (e.g. /tmp/i20/venv/bin/python).

The reference for the losses is an independent run of the same seeded script
without tko, printing its own losses; on the CPU the two runs compute the
same floats, so they must be equal, not close. Without a GPU the hook's clock
is time.perf_counter ("clock": "perf_counter"): the times are only checked
to be positive.
"""
import json
import os
import shutil
import subprocess

import pytest

from realtorch import HOOK, PYDIR, ROOT, TORCH_PY, needs_torch

pytestmark = needs_torch

# A training step with an optimizer (Adam, whose step the global post hook
# sees), compiled by nothing: the hook must not depend on Inductor. PRINT=1
# prints the losses, as the independent reference run does.
TRAIN = """
import json, os, torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.LayerNorm(32), torch.nn.GELU(),
                            torch.nn.Linear(32, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(64, 16), torch.randint(0, 4, (64,))
losses = []
for i in range(int(os.environ.get("N", 13))):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
if os.environ.get("PRINT"):
    print(json.dumps(losses))
"""

# No optimizer: the parameters are updated by hand in train_step, which
# returns (loss, logits); --step names it.
NO_OPT = """
import json, os, torch
torch.manual_seed(0)
w = torch.randn(16, 4, requires_grad=True)
x, y = torch.randn(64, 16), torch.randint(0, 4, (64,))

def train_step():
    logits = x @ w
    loss = torch.nn.functional.cross_entropy(logits, y)
    loss.backward()
    with torch.no_grad():
        w.sub_(0.5 * w.grad)
        w.grad = None
    return loss.detach(), logits

losses = [train_step()[0].item() for i in range(int(os.environ.get("N", 11)))]
if os.environ.get("PRINT"):
    print(json.dumps(losses))
"""


def run(tmp_path, script, env=None, hooked=True, argv=None):
    path = tmp_path / "script.py"
    path.write_text(script)
    e = dict(os.environ)
    for k in ("TKO_APPLY_PLAN", "TKO_APPLY_STEP", "PRINT"):
        e.pop(k, None)
    if hooked:
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps({"schema_version": 1, "backend": "cuda", "kernels": []}))
        e.update(PYTHONPATH=os.pathsep.join([HOOK, PYDIR]), TKO_APPLY_PLAN=str(plan),
                 TKO_APPLY_DIR=str(tmp_path), TKO_APPLY_MODE="observe")
    e.update(env or {})
    proc = subprocess.run([TORCH_PY] + (argv or [str(path)]), env=e, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def steps_events(tmp_path):
    lines = (tmp_path / "apply.jsonl").read_text().splitlines()
    return [ev for ev in map(json.loads, lines) if ev["event"] == "steps"]


def test_optimizer_steps_and_losses_equal_an_independent_run(tmp_path):
    ref = json.loads(run(tmp_path, TRAIN, {"PRINT": "1"}, hooked=False))
    assert run(tmp_path, TRAIN) == ""     # the script prints nothing of its own
    (ev,) = steps_events(tmp_path)
    assert ev["source"] == "optimizer" and ev["clock"] == "perf_counter" and ev["role"] == "main"
    assert len(ref) == 13 and ev["losses"] == ref
    assert len(ev["ms"]) == 13 and ev["ms"][0] is None and all(m > 0 for m in ev["ms"][1:])


def test_the_kernel_window_profiles_k_steps_and_writes_its_trace(tmp_path):
    run(tmp_path, TRAIN, {"TKO_APPLY_KERNEL_WINDOW": "3", "TKO_APPLY_KERNEL_WINDOW_START": "4"})
    (ev,) = steps_events(tmp_path)
    assert ev["window"] == [4, 7] and len(ev["ms"]) == 13
    trace = json.loads((tmp_path / "kernel_window.json").read_text())
    # the CPU profile of steps 4..6: each step's optimizer step, once
    steps = [e for e in trace["traceEvents"] if e.get("name", "").startswith("Optimizer.step#Adam")]
    assert len(steps) == 3
    # a run shorter than the window: the profiler stops at exit, the window ends there
    run(tmp_path, TRAIN, {"TKO_APPLY_KERNEL_WINDOW": "5", "TKO_APPLY_KERNEL_WINDOW_START": "10"})
    assert steps_events(tmp_path)[-1]["window"] == [10, 13]


def test_step_function_without_an_optimizer(tmp_path):
    ref = json.loads(run(tmp_path, NO_OPT, {"PRINT": "1"}, hooked=False))
    run(tmp_path, NO_OPT, {"TKO_APPLY_STEP": "__main__:train_step"})
    (ev,) = steps_events(tmp_path)
    assert ev["source"] == "step_fn" and ev["step_fn"] == "__main__:train_step"
    assert len(ref) == 11 and ev["losses"] == ref
    # every call has its start: the first call's too
    assert len(ev["ms"]) == 11 and all(m > 0 for m in ev["ms"])


# NO_OPT saying, before its first step, whether a profile or trace function is still set.
NO_OPT_ASKS = NO_OPT.replace("import json, os, torch", "import json, os, sys, torch").replace(
    "losses = [", "print(json.dumps([sys.getprofile() is None, sys.gettrace() is None]))\nlosses = [")


def test_a_step_function_of_the_script_is_wrapped_before_its_first_call(tmp_path):
    ref = json.loads(run(tmp_path, NO_OPT, {"PRINT": "1"}, hooked=False))
    out = run(tmp_path, NO_OPT_ASKS, {"TKO_APPLY_STEP": "__main__:train_step"})
    # wrapped right after `def train_step` (tko.maindefs): nothing watches the script any more
    assert json.loads(out) == [True, True]
    (ev,) = steps_events(tmp_path)
    assert ev["losses"] == ref and len(ev["ms"]) == 11 and all(m > 0 for m in ev["ms"])


def test_without_a_script_the_first_call_is_caught_by_a_profile_function(tmp_path):
    # python -c: tko.maindefs does not watch; the profile function waits for the first call
    ref = json.loads(run(tmp_path, NO_OPT, {"PRINT": "1"}, hooked=False))
    out = run(tmp_path, "", {"TKO_APPLY_STEP": "__main__:train_step"}, argv=["-c", NO_OPT_ASKS])
    assert json.loads(out) == [False, True]
    (ev,) = steps_events(tmp_path)
    assert ev["losses"] == ref and len(ev["ms"]) == 11 and all(m > 0 for m in ev["ms"])


def test_no_optimizer_and_no_step_function_means_no_steps(tmp_path):
    run(tmp_path, NO_OPT)
    assert steps_events(tmp_path) == []


def test_tko_apply_ab_times_an_unchanged_script(tmp_path):
    tko = os.environ.get("TKO") or os.path.join(ROOT, "build", "tko")
    if not os.access(tko, os.X_OK):
        pytest.skip("no tko binary (make, or set TKO)")
    rundir = tmp_path / "run"
    shutil.copytree(os.path.join(ROOT, "tests", "data", "apply", "run"), rundir)
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    ref = json.loads(run(tmp_path, TRAIN, {"PRINT": "1"}, hooked=False))
    proc = subprocess.run([tko, "-q", "apply", "--ab", "2", "--warmup", "0", "--json",
                           str(tmp_path / "doc.json"), str(rundir), "--", TORCH_PY, str(script)],
                          env=dict(os.environ, N="13"), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "doc.json").read_text())
    assert [r["step_source"] for r in doc["runs"]] == ["hook"] * 4
    # 13 steps: a warm-up of 2 (a tenth rounded up), the kernel window
    # (5 steps from step 1) and the step after it leave steps 7..12 timed
    assert {json.dumps(r["hook_steps"], sort_keys=True) for r in doc["runs"]} == {json.dumps(
        {"source": "optimizer", "clock": "perf_counter", "steps": 13, "warmup": 2, "timed": 6},
        sort_keys=True)}
    # on the CPU the window's profile has no GPU kernel: no per-kernel gain, and the note says why
    for r in doc["runs"]:
        assert r["kernel_window"]["steps"] == 5 and r["kernel_window"]["kernels"] == {}
        assert "no GPU kernels" in r["kernel_window"]["note"]
    assert all(k["measured_speedup"] is None for k in doc["kernels"])
    # the document's numbers are written with 10 significant digits (json/jsonio.c)
    assert all(r["losses"] == pytest.approx(ref, rel=1e-9, abs=0) and r["ms_per_step"] > 0
               for r in doc["runs"])
    assert [a["step_source"] for a in doc["ab"]["arms"]] == ["hook", "hook"]
    assert all(a["loss_equal"] is True for a in doc["ab"]["arms"])


def test_a_helper_process_s_optimizer_steps_are_not_the_command_s(tmp_path):
    """A `python -c` the script starts (as Inductor's ISA check, or any probe)
    that steps an optimizer of its own is a child: the one steps event is the
    script's (docs/apply.md, "Processes and roles")."""
    ref = json.loads(run(tmp_path, TRAIN, {"PRINT": "1"}, hooked=False))
    helper = TRAIN.replace('int(os.environ.get("N", 13))', "3")
    script = TRAIN + f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {helper!r}], check=True)\n"
    run(tmp_path, script)
    (ev,) = steps_events(tmp_path)
    assert ev["role"] == "main" and ev["losses"] == ref and len(ev["ms"]) == 13
