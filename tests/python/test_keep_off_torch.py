"""tko apply's keep-off arm (python/tko/keep_off.py) against a real torch
2.11 on the CPU. Runs only when TKO_TORCH_PYTHON names a Python with torch
(e.g. /tmp/i20/venv/bin/python).

The model's module is imported by the script after tko's hook started (the
post-import path); the backend is a recording one, so no compiler is needed.
The evidence is torch's, not the hook's: which ops Dynamo put in its graphs,
and torch.compiler.is_compiling() seen inside the region (True while Dynamo
traces it, False when it runs eagerly).
"""
import json
import os
import shutil
import subprocess
import textwrap

import pytest

from realtorch import HOOK, PYDIR, ROOT, TORCH_PY, needs_torch

pytestmark = needs_torch

MODEL = """
import torch
SEEN = []


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def attn(self, x):
        SEEN.append(torch.compiler.is_compiling())
        return torch.softmax(x @ x.T, -1) @ x

    @staticmethod
    def gate(x):
        SEEN.append(torch.compiler.is_compiling())
        return torch.sigmoid(x) * x

    def forward(self, x):
        return self.gate(self.attn(self.lin(x)))
"""

SCRIPT = """
import json, torch, km
graphs = []


def backend(gm, inputs):
    graphs.append(sorted({n.target.__name__ for n in gm.graph.nodes
                          if n.op == "call_function" and n.target.__name__ != "getattr"}))
    return gm.forward


torch.manual_seed(0)
f = torch.compile(km.Block(), backend=backend)
x = torch.randn(4, 8)
with torch.no_grad():
    for _ in range(3):
        y = f(x)
print(json.dumps({"graphs": graphs, "seen": km.SEEN, "y": y.tolist()}))
"""


def run_script(tmp_path, keep_off, script, argv=None):
    """Runs s.py (or argv) under tko's hook with TKO_APPLY_KEEP_OFF=keep_off:
    (its last stdout line as JSON, the keep_off events, stderr)."""
    (tmp_path / "s.py").write_text(textwrap.dedent(script))
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"schema_version": 1, "backend": "cuda", "kernels": []}))
    out = tmp_path / ("out-" + str(len(list(tmp_path.iterdir()))))
    out.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR, str(tmp_path)]),
               TKO_APPLY_PLAN=str(plan), TKO_APPLY_DIR=str(out), TKO_APPLY_MODE="observe",
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TKO_APPLY_KEEP_OFF", None)
    if keep_off is not None:
        env["TKO_APPLY_KEEP_OFF"] = keep_off
    proc = subprocess.run([TORCH_PY] + (argv or [str(tmp_path / "s.py")]), env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    events = [json.loads(line) for line in (out / "apply.jsonl").read_text().splitlines()]
    keep = [e for e in events if e["event"] == "keep_off"]
    return json.loads(proc.stdout.splitlines()[-1]), keep, proc.stderr


def run(tmp_path, keep_off):
    (tmp_path / "km.py").write_text(textwrap.dedent(MODEL))
    return run_script(tmp_path, keep_off, SCRIPT)


# The ops of the model's code, by hand: Linear; attn's matmul, softmax; gate's sigmoid, mul.
ALL = ["linear", "matmul", "mul", "sigmoid", "softmax"]


def test_a_kept_off_method_runs_eagerly_and_the_hook_proves_it(tmp_path):
    base, keep, _ = run(tmp_path, None)
    # compiled: Dynamo traced attn and gate into the graph (SEEN.append, a
    # side effect on a global, makes it trace again on each of the 3 calls)
    assert base["graphs"] == [ALL] * 3
    assert base["seen"] == [True] * 6 and keep == []

    got, keep, _ = run(tmp_path, "km:Block.attn,km:Block.gate")
    # kept off: the graph holds the Linear alone; attn and gate ran eagerly on every call
    assert got["graphs"] == [["linear"]]
    assert got["seen"] == [False] * 6
    assert got["y"] == base["y"]
    assert len(keep) == 1
    assert [(r["region"], r["status"], r["kind"], r["calls"]) for r in keep[0]["regions"]] == \
        [("km:Block.attn", "took_effect", "method", 3), ("km:Block.gate", "took_effect", "staticmethod", 3)]


def test_one_region_kept_off_leaves_the_rest_compiled(tmp_path):
    got, keep, _ = run(tmp_path, "km:Block.gate,torch:sigmoid")
    assert got["graphs"] == [["linear", "matmul", "softmax"]] * 3
    assert got["seen"] == [True, False] * 3     # attn traced, gate eager, on each call
    # gate runs eagerly, so its torch.sigmoid is an ordinary call: a region of torch itself
    assert [(r["status"], r["calls"]) for r in keep[0]["regions"]] == [("took_effect", 3), ("took_effect", 3)]


@pytest.mark.parametrize("spec, status, line", [
    ("km:Block.atn", "not_found", "tko apply: keep-off: km:Block.atn: km.Block has no attribute 'atn'"),
    ("km:Block", "class", "tko apply: keep-off: km:Block is a class: name the method to keep off"
                          " (e.g. km:Block.forward)"),
    ("km:SEEN", "not_callable", "tko apply: keep-off: km:SEEN is a list, not a callable"),
    ("km.Block.attn", "bad_spec", "tko apply: keep-off: 'km.Block.attn' is not MODULE:QUALNAME"
                                  " (e.g. mymodel:Block.attn)"),
])
def test_a_bad_region_is_one_line_naming_it_and_an_error_in_the_proof(tmp_path, spec, status, line):
    got, keep, err = run(tmp_path, spec)
    assert got["graphs"] == [ALL] * 3
    assert [x for x in err.splitlines() if x.startswith("tko apply")] == [line]
    assert keep[0]["regions"][0]["status"] == status and keep[0]["regions"][0]["calls"] == 0


def test_a_module_never_imported_and_a_region_never_called(tmp_path):
    # torch.nn.functional is imported by torch's own import: wrapped once torch's ends
    _, keep, _ = run(tmp_path, "kmx:f,torch.nn.functional:gelu")
    regions = {r["region"]: r for r in keep[0]["regions"]}
    assert regions["kmx:f"]["status"] == "not_imported"
    assert "module kmx was never imported" in regions["kmx:f"]["message"]
    # torch's own function, imported with torch: replaced, but the model calls no gelu
    assert regions["torch.nn.functional:gelu"]["status"] == "never_called"
    assert regions["torch.nn.functional:gelu"]["kind"] == "function"


def test_tko_apply_keep_off_end_to_end_with_the_real_hook(tmp_path):
    """tko apply --keep-off: C sets the variable in the keep-off runs only, the
    real hook wraps the method, C reads its proof into apply.json; then a
    region the model does not have stops the A/B with one line naming it."""
    tko = os.environ.get("TKO") or os.path.join(ROOT, "build", "tko")
    if not os.access(tko, os.X_OK):
        pytest.skip("no tko binary (make, or set TKO)")
    (tmp_path / "km.py").write_text(textwrap.dedent(MODEL))
    (tmp_path / "s.py").write_text(textwrap.dedent(SCRIPT).replace(
        'print(json.dumps({"graphs"', 'print(json.dumps({"ms_per_step": 1.0, "loss": float(y.sum()), "graphs"'))
    run = tmp_path / "run"
    shutil.copytree(os.path.join(ROOT, "tests", "data", "apply", "run"), run)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "c"))

    def apply(region):
        return subprocess.run([tko, "-q", "apply", "--ab", "2", "--warmup", "0", "--keep-off", region,
                               "--json", str(tmp_path / "doc.json"), str(run), "--", TORCH_PY,
                               str(tmp_path / "s.py")], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)
    proc = apply("km:Block.attn")
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "doc.json").read_text())
    keep = [a for a in doc["ab"]["arms"] if a["arm"] == "keep-off"][0]
    assert keep["keep_off"]["regions"] == [{"region": "km:Block.attn", "calls": [3, 3]}]
    assert keep["loss_equal"] is True
    for r in doc["runs"]:
        graphs = json.loads((run / "apply" / "runs" / os.path.basename(r["dir"]) / "stdout.txt")
                            .read_text().splitlines()[-1])["graphs"]
        # the keep-off runs' graphs lost attn's ops; the others kept them
        assert ("softmax" in graphs[0]) == (r["arm"] != "keep-off"), (r["arm"], graphs)

    proc = apply("km:Block.atn")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"tko apply: keep-off region 'km:Block.atn' not_found in arm keep-off: km:Block.atn: km.Block "
        f"has no attribute 'atn'; see {run}/apply/runs/3-keep-off/apply.jsonl"]


# The model in the script itself (python s.py: module __main__), as most
# training scripts have it. Block.forward and gate are the regions; Model's
# own Linear and relu around them stay compiled.
MAIN_SCRIPT = """
import json, sys, torch
SEEN = []
graphs = []


class Block(torch.nn.Module):
    def forward(self, x):
        SEEN.append(["block", torch.compiler.is_compiling()])
        return torch.softmax(x @ x.T, -1) @ x


def gate(x):
    SEEN.append(["gate", torch.compiler.is_compiling()])
    return torch.sigmoid(x) * x


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.block = Block()

    def forward(self, x):
        return torch.relu(gate(self.block(self.lin(x))))


def backend(gm, inputs):
    graphs.append(sorted({n.target.__name__ for n in gm.graph.nodes
                          if n.op == "call_function" and n.target.__name__ != "getattr"}))
    return gm.forward


torch.manual_seed(0)
f = torch.compile(Model(), backend=backend)
x = torch.randn(4, 8)
with torch.no_grad():
    for _ in range(3):
        y = f(x)
print(json.dumps({"graphs": graphs, "seen": SEEN, "y": y.tolist(),
                  "tracing": sys.gettrace() is not None}))
"""


# By hand: Model's Linear and relu, Block's matmul (twice) and softmax, gate's sigmoid and mul.
MAIN_ALL = ["linear", "matmul", "mul", "relu", "sigmoid", "softmax"]


def test_regions_of_the_script_itself_run_eagerly_and_the_rest_compiles(tmp_path):
    base, keep, _ = run_script(tmp_path, None, MAIN_SCRIPT)
    # compiled: Dynamo traced Block.forward and gate into Model's graph, once
    # a call (SEEN.append on a global changes the guards: it traces again)
    assert base["graphs"] == [MAIN_ALL] * 3
    assert base["seen"] == [["block", True], ["gate", True]] * 3 and keep == []

    got, keep, err = run_script(tmp_path, "__main__:Block.forward,__main__:gate", MAIN_SCRIPT)
    # kept off: a graph break on each side of each region; the Linear before
    # and the relu after are still compiled; the regions ran eagerly each call
    assert got["graphs"] == [["linear"], ["relu"]], err[-2000:]
    assert got["seen"] == [["block", False], ["gate", False]] * 3
    assert got["y"] == base["y"]
    assert got["tracing"] is False     # tko's watch of the script ended once both were defined
    assert [(r["region"], r["status"], r["kind"], r["calls"]) for r in keep[0]["regions"]] == \
        [("__main__:Block.forward", "took_effect", "method", 3), ("__main__:gate", "took_effect", "function", 3)]
    assert [x for x in err.splitlines() if x.startswith("tko apply")] == []


@pytest.mark.parametrize("spec, status, line", [
    # right after `class Block` ran: the line comes before the model runs
    ("__main__:Block.atn", "not_found", "tko apply: keep-off: __main__:Block.atn: __main__.Block has no"
                                        " attribute 'atn'"),
    ("__main__:Block", "class", "tko apply: keep-off: __main__:Block is a class: name the method to keep"
                                " off (e.g. __main__:Block.forward)"),
    ("__main__:SEEN", "not_callable", "tko apply: keep-off: __main__:SEEN is a list, not a callable"),
    # never defined: told at exit
    ("__main__:Blok.forward", "not_found", "tko apply: keep-off: __main__:Blok.forward: __main__ has no"
                                           " attribute 'Blok'"),
])
def test_a_bad_region_of_the_script_is_one_line_and_an_error_in_the_proof(tmp_path, spec, status, line):
    got, keep, err = run_script(tmp_path, spec, MAIN_SCRIPT)
    assert got["graphs"] == [MAIN_ALL] * 3
    assert [x for x in err.splitlines() if x.startswith("tko apply")] == [line]
    assert keep[0]["regions"][0]["status"] == status and keep[0]["regions"][0]["calls"] == 0


def test_a_script_run_with_dash_m_is_main_too(tmp_path):
    got, keep, _ = run_script(tmp_path, "__main__:Block.forward", MAIN_SCRIPT, argv=["-m", "s"])
    # Block.forward eager; gate traced into the graph after it, again on each
    # call (SEEN.append: as in the first test), the Linear's graph once
    assert got["graphs"] == [["linear"]] + [["mul", "relu", "sigmoid"]] * 3
    assert got["seen"] == [["block", False], ["gate", True]] * 3
    assert [(r["status"], r["calls"]) for r in keep[0]["regions"]] == [("took_effect", 3)]


UNWATCHED = """
import json, sys
{first}
def f(x):
    return x + 1
print(json.dumps([f(i) for i in range(2)]))
"""


def test_a_region_of_main_tko_could_not_watch_is_not_reached_and_says_why(tmp_path):
    # the script takes the trace function away before it defines f
    got, keep, err = run_script(tmp_path, "__main__:f", UNWATCHED.format(first="sys.settrace(None)"))
    message = ("__main__:f: defined, but tko did not see it defined: the script replaced tko's trace"
               " function (sys.settrace) before")
    assert got == [1, 2]
    assert [x for x in err.splitlines() if x.startswith("tko apply")] == ["tko apply: keep-off: " + message]
    assert [(r["status"], r["calls"], r["message"]) for r in keep[0]["regions"]] == [("not_reached", 0, message)]


def test_a_process_without_a_script_says_no_script_and_nothing_on_stderr(tmp_path):
    # python -c, as Inductor's CPU ISA check runs (torch/_inductor/cpu_vec_isa.py) with tko's hook in it
    got, keep, err = run_script(tmp_path, "__main__:f", "", argv=["-c", textwrap.dedent(UNWATCHED.format(first=""))])
    assert got == [1, 2]
    assert [x for x in err.splitlines() if x.startswith("tko apply")] == []
    assert [(r["status"], r["calls"]) for r in keep[0]["regions"]] == [("no_script", 0)]


def test_tko_apply_keep_off_a_region_of_the_script_end_to_end(tmp_path):
    """tko apply --keep-off __main__:...: the script's own class and function
    kept off in the keep-off runs only, C reading the hook's proof."""
    tko = os.environ.get("TKO") or os.path.join(ROOT, "build", "tko")
    if not os.access(tko, os.X_OK):
        pytest.skip("no tko binary (make, or set TKO)")
    (tmp_path / "s.py").write_text(textwrap.dedent(MAIN_SCRIPT).replace(
        'print(json.dumps({"graphs"', 'print(json.dumps({"ms_per_step": 1.0, "loss": float(y.sum()), "graphs"'))
    run = tmp_path / "run"
    shutil.copytree(os.path.join(ROOT, "tests", "data", "apply", "run"), run)
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "c"))
    proc = subprocess.run([tko, "-q", "apply", "--ab", "2", "--warmup", "0", "--keep-off", "__main__:Block.forward",
                           "--keep-off", "__main__:gate", "--json", str(tmp_path / "doc.json"), str(run), "--",
                           TORCH_PY, str(tmp_path / "s.py")], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "doc.json").read_text())
    keep = [a for a in doc["ab"]["arms"] if a["arm"] == "keep-off"][0]
    assert keep["keep_off"]["regions"] == [{"region": "__main__:Block.forward", "calls": [3, 3]},
                                           {"region": "__main__:gate", "calls": [3, 3]}]
    assert keep["loss_equal"] is True
    for r in doc["runs"]:
        graphs = json.loads((run / "apply" / "runs" / os.path.basename(r["dir"]) / "stdout.txt")
                            .read_text().splitlines()[-1])["graphs"]
        assert graphs == ([["linear"], ["relu"]] if r["arm"] == "keep-off" else [MAIN_ALL] * 3), r["arm"]


def test_the_script_s_regions_under_inductor_itself(tmp_path):
    """The same with TorchInductor compiling (the CPU backend): the graphs
    Inductor was given, and Dynamo's own count of graph breaks."""
    script = MAIN_SCRIPT.replace("    return gm.forward\n", "    return compile_fx(gm, inputs)\n").replace(
        "import json, sys, torch\n", "import json, sys, torch\nfrom torch._inductor.compile_fx import compile_fx\n"
    ).replace('"tracing": sys.gettrace() is not None}', '"tracing": sys.gettrace() is not None, "breaks": '
              'sum(torch._dynamo.utils.counters["graph_break"].values())}')
    got, keep, err = run_script(tmp_path, "__main__:Block.forward,__main__:gate", script)
    assert got["graphs"] == [["linear"], ["relu"]], err[-2000:]
    assert got["seen"] == [["block", False], ["gate", False]] * 3
    assert got["breaks"] == 2       # one a region: Dynamo's "Skip inlining torch.compiler.disable()d function"
    # the script's process, and Inductor's `python -c` ISA checks: children, no script, no word on the regions
    script_events = [e for e in keep if e["role"] == "main"]
    assert len(script_events) == 1 and len(keep) > 1
    assert {(e["role"], r["status"]) for e in keep if e["role"] != "main" for r in e["regions"]} == \
        {("child", "no_script")}
    assert [(r["status"], r["calls"]) for r in script_events[0]["regions"]] == [("took_effect", 3)] * 2


def test_a_module_region_under_inductor_end_to_end(tmp_path):
    """tko apply --keep-off km:Block.attn with TorchInductor compiling on the
    CPU: Inductor's CPU ISA check runs `python -c "import torch; ..."`
    (torch/_inductor/cpu_vec_isa.py) with tko's hook in it, where km is never
    imported. That helper's word (not_imported) must not fail the arm: only
    the script's process speaks for the command (docs/apply.md, "Processes
    and roles")."""
    tko = os.environ.get("TKO") or os.path.join(ROOT, "build", "tko")
    if not os.access(tko, os.X_OK):
        pytest.skip("no tko binary (make, or set TKO)")
    (tmp_path / "km.py").write_text(textwrap.dedent(MODEL))
    (tmp_path / "s.py").write_text(textwrap.dedent(SCRIPT).replace(
        "    return gm.forward\n", "    return compile_fx(gm, inputs)\n").replace(
        "import json, torch, km\n", "import json, torch, km\nfrom torch._inductor.compile_fx import compile_fx\n").replace(
        'print(json.dumps({"graphs"', 'print(json.dumps({"ms_per_step": 1.0, "loss": float(y.sum()), "graphs"'))
    run = tmp_path / "run"
    shutil.copytree(os.path.join(ROOT, "tests", "data", "apply", "run"), run)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "c"))
    proc = subprocess.run([tko, "-q", "apply", "--ab", "2", "--warmup", "0", "--keep-off", "km:Block.attn",
                           "--json", str(tmp_path / "doc.json"), str(run), "--", TORCH_PY,
                           str(tmp_path / "s.py")], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads((tmp_path / "doc.json").read_text())
    keep = [a for a in doc["ab"]["arms"] if a["arm"] == "keep-off"][0]
    assert keep["keep_off"]["regions"] == [{"region": "km:Block.attn", "calls": [3, 3]}]
    for r in doc["runs"]:
        if r["arm"] != "keep-off":
            continue
        events = [json.loads(x) for x in (run / "apply" / "runs" / os.path.basename(r["dir"]) / "apply.jsonl")
                  .read_text().splitlines()]
        said = {(e["role"], e["regions"][0]["status"]) for e in events if e["event"] == "keep_off"}
        # the helper did run with the hook, and said what it saw under its own role
        assert said == {("main", "took_effect"), ("child", "not_imported")}, said


COMPILED_FN = """
import json, torch
from torch._dynamo.utils import counters
SEEN = []


@torch.compile(backend="eager")
def f(x):
    SEEN.append(torch.compiler.is_compiling())
    return torch.sin(x) + 1


torch.manual_seed(0)
x = torch.randn(4)
y = [f(x).tolist() for _ in range(3)]
print(json.dumps({"seen": SEEN, "frames": counters["frames"]["total"], "y": y}))
"""


def test_a_region_compiled_by_its_own_decorator_runs_eagerly_and_is_counted(tmp_path):
    """@torch.compile on the region itself: its wrapper carries
    _torchdynamo_orig_callable. Kept off, the function runs eagerly (Dynamo
    traces no frame) and every call is counted."""
    base, keep, _ = run_script(tmp_path, None, COMPILED_FN)
    assert base["seen"] == [True] * 3 and base["frames"] == 3    # traced on each call (SEEN.append)
    got, keep, _ = run_script(tmp_path, "__main__:f", COMPILED_FN)
    assert got["seen"] == [False] * 3 and got["frames"] == 0
    assert got["y"] == base["y"]
    assert [(r["status"], r["calls"]) for r in keep[0]["regions"]] == [("took_effect", 3)]


# torch before pytorch/pytorch PR 174335 (2026-02): innermost_fn followed any
# _torchdynamo_orig_callable, a functools.wraps copy included. Its code, as
# torch 2.9.0's eval_frame.py has it (torch itself passes unaltered_fn_attr).
OLD_INNERMOST = """
import torch._dynamo.decorators as d, torch._dynamo.eval_frame as ef


def innermost_fn(fn, unaltered_fn_attr="_torchdynamo_orig_callable"):
    while hasattr(fn, unaltered_fn_attr):
        fn = getattr(fn, unaltered_fn_attr)
    return fn


d.innermost_fn = ef.innermost_fn = innermost_fn
"""


def test_a_compiled_region_is_counted_under_torch_s_older_innermost_fn(tmp_path):
    script = COMPILED_FN.replace("from torch._dynamo.utils import counters\n",
                                 "from torch._dynamo.utils import counters\n" + OLD_INNERMOST)
    got, keep, _ = run_script(tmp_path, "__main__:f", script)
    assert got["seen"] == [False] * 3 and got["frames"] == 0
    assert [(r["status"], r["calls"]) for r in keep[0]["regions"]] == [("took_effect", 3)]


def test_under_torchrun_with_one_rank_the_rank_speaks_not_the_launcher(tmp_path):
    """torchrun --nproc_per_node=1 s.py: torchrun imports torch, not km; its
    one worker runs the model. The worker's proof is the main one, the
    launcher writes none (docs/apply.md, "Processes and roles")."""
    torchrun = os.path.join(os.path.dirname(TORCH_PY), "torchrun")
    if not os.path.exists(torchrun):
        pytest.skip("no torchrun beside TKO_TORCH_PYTHON")
    (tmp_path / "km.py").write_text(textwrap.dedent(MODEL))
    script = SCRIPT.replace("print(json.dumps({", "import os\nprint(json.dumps({\"pid\": os.getpid(), ")
    got, keep, err = run_script(tmp_path, "km:Block.attn", script,
                                argv=[torchrun, "--standalone", "--nproc_per_node=1", str(tmp_path / "s.py")])
    # attn ran eagerly (its softmax in no graph); the rest compiled around it
    assert got["graphs"] and not any("softmax" in g for g in got["graphs"]), (got["graphs"], err[-2000:])
    assert [(e["pid"], e["role"]) for e in keep] == [(got["pid"], "main")]
    assert [(r["status"], r["calls"]) for r in keep[0]["regions"]] == [("took_effect", 3)]
