"""tko.apply against a fake Inductor (tests/python/fakes_apply, built from the
torch 2.11 sources) and the real Triton 3.6, in child Pythons started the way
`tko apply` starts the user's command: the hook folder first on PYTHONPATH,
TKO_APPLY_PLAN set, no import in the "model".

What ran is read from the model's own output (a fake launch returns the
config it ran with), never from tko's records; tko's records are then checked
against it. Expected hashes are built by hand from their definition.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
FAKES = os.path.join(os.path.dirname(__file__), "fakes_apply")
sys.path.insert(0, PYDIR)

from tko import apply_plan, lookup  # noqa: E402

KERNEL = '''
import triton
import triton.language as tl
from torch._inductor.runtime import triton_heuristics

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}},
    inductor_meta={'kernel_name': 'NAME'},
)
@triton.jit
def NAME(in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    BODY
'''
BODY = "tmp0 = tl.load(in_ptr0 + xindex, xindex < xnumel)"
FUSED = "triton_poi_fused_add_0"
PLAIN = "triton_poi_add_0"          # no "_fused_": Inductor's lookup never looks

MODEL = """
import json, sys
sys.path.insert(0, {here!r})
from kernels import source
from torch._inductor.async_compile import AsyncCompile
k = AsyncCompile().triton({name!r}, source({name!r}, {body!r}))
print(json.dumps([k.run(0, 1024, stream=0) for _ in range({n})]))
"""


def kernel_source(name, body=BODY):
    return KERNEL.replace("NAME", name).replace("BODY", body)


def hand_hash(name, body=BODY):
    """The key by its definition: str(size_hints) + the def from its '(' on, stripped."""
    src = kernel_source(name, body)
    fn = src[src.index("def " + name):].strip()
    return hashlib.sha256(("{'x': 1024}" + fn[len("def " + name):]).encode()).hexdigest()


def winner(name, cfg, **extra):
    return dict({"id": "k0", "kernel": name, "lookup_hash": hand_hash(name), "config": cfg}, **extra)


def plan(kernels, **extra):
    return dict({"schema_version": 1, "backend": "cuda", "kernels": kernels}, **extra)


def run_model(tmp_path, plan_doc, script=None, env=None, name=FUSED, body=BODY, n=5,
              plan_text=None):
    (tmp_path / "kernels.py").write_text(
        f"KERNEL = {KERNEL!r}\n"
        "def source(name, body):\n    return KERNEL.replace('NAME', name).replace('BODY', body)\n")
    out = tmp_path / "apply"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(plan_text if plan_text is not None else json.dumps(plan_doc))
    model = tmp_path / "model.py"
    model.write_text(textwrap.dedent(script or MODEL.format(here=str(tmp_path), name=name,
                                                             body=body, n=n)))
    child_env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR, FAKES]),
                     TKO_APPLY_PLAN=str(plan_path), TKO_APPLY_DIR=str(out),
                     TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "cache"))
    for key in ("TKO_CAPTURE_DIR", "TKO_APPLY_MODE", "FAKE_HIP",
                "TORCHINDUCTOR_COORDINATE_DESCENT_TUNING", "TKO_APPLY_FLOAT32_MATMUL_PRECISION"):
        child_env.pop(key, None)
    child_env.update(env or {})
    proc = subprocess.run([sys.executable, str(model)], env=child_env, capture_output=True,
                          text=True, timeout=120, cwd=str(tmp_path))
    events = []
    if (out / "apply.jsonl").exists():
        events = [json.loads(x) for x in (out / "apply.jsonl").read_text().splitlines()]
    return proc, events


def of(events, kind):
    return [e for e in events if e["event"] == kind]


def the_outcome(events, wid="k0"):
    ends = [o for e in of(events, "session_end") for o in e["outcomes"] if o["id"] == wid]
    assert len(ends) == 1, ends
    return ends[0]


def ran(proc):
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


# The key, computed without torch.

def test_lookup_hash_by_definition():
    src = "def k(a, b):\n    pass\n"
    want = hashlib.sha256(b"{'x': 8}(a, b):\n    pass").hexdigest()
    assert lookup.lookup_hash("{'x': 8}", src) == want


def test_function_source_ends_with_the_block():
    text = ("import triton\n@triton.jit\ndef k(a,\n      b):\n    x = 1\n    \n"
            "    # inside\n    y = 2\n# a column-0 comment\n\ndef get_args():\n    return 1\n")
    # The whitespace-only line becomes empty (textwrap.dedent), the harness is not part.
    assert lookup.function_source(text, "k") == ("def k(a,\n      b):\n    x = 1\n\n"
                                                 "    # inside\n    y = 2\n")
    assert lookup.function_source("def k():\n    return 1", "k") == "def k():\n    return 1\n"
    assert lookup.function_source(text, "missing") is None
    assert lookup.size_hints_text("@p(size_hints={'x': 4, 'r0_': 8}, f=1)") == "{'x': 4, 'r0_': 8}"
    assert lookup.size_hints_text("@template(num_stages=2)") == "None"


def test_module_hash_ignores_the_harness():
    text = kernel_source(FUSED)
    with_harness = text + "\n\ndef get_args():\n    return []\n"
    assert lookup.lookup_hash_of_module(text, FUSED) == hand_hash(FUSED)
    assert lookup.lookup_hash_of_module(with_harness, FUSED) == hand_hash(FUSED)


@pytest.mark.parametrize("mech,backend,cfg,dropped", [
    ("lookup_table", "cuda", {"kwargs": {"XBLOCK": 64, "R0_BLOCK": 8}, "num_warps": 4, "num_stages": 1}, []),
    ("lookup_table", "cuda", {"kwargs": {"XBLOCK": 64, "RSPLIT": 4}, "num_warps": 4, "num_stages": 1}, ["RSPLIT"]),
    ("lookup_table", "hip", {"kwargs": {"XBLOCK": 64}, "num_warps": 4, "num_stages": 1,
                             "options": {"waves_per_eu": 2}}, ["waves_per_eu"]),
    ("hook", "hip", {"kwargs": {"XBLOCK": 64}, "num_warps": 4, "num_stages": 1,
                     "options": {"waves_per_eu": 2, "matrix_instr_nonkdim": 16}}, []),
    ("hook", "hip", {"kwargs": {"XBLOCK": 64}, "num_warps": 4, "num_stages": 1,
                     "options": {"kpack": 2, "schedule_hint": "x"}}, ["kpack", "schedule_hint"]),
    ("hook", "cuda", {"kwargs": {"XBLOCK": 64}, "num_warps": 4, "num_stages": 1,
                      "options": {"waves_per_eu": 2}}, ["waves_per_eu"]),
    ("hook", "cuda", {"kwargs": {"XBLOCK": 64}, "num_warps": 4, "num_stages": 1, "maxnreg": 128}, ["maxnreg"]),
    ("template_lookup", "hip", {"kwargs": {}, "num_warps": 4, "num_stages": 2,
                                "options": {"kpack": 2}}, []),
    ("autotune_narrow", "hip", {"kwargs": {"B": 64}, "num_warps": 4, "num_stages": 2,
                                "maxnreg": 64, "options": {"kpack": 2}}, []),
])
def test_what_each_mechanism_carries(mech, backend, cfg, dropped):
    assert lookup.dropped_keys(mech, cfg, backend) == dropped


# The plan.

@pytest.mark.parametrize("doc,message", [
    ({"schema_version": 2, "backend": "cuda", "kernels": []}, "schema_version 2"),
    ({"schema_version": 1, "backend": "rocm", "kernels": []}, "backend 'rocm'"),
    ({"schema_version": 1, "backend": "cuda", "kernels": {}}, "'kernels' is not a list"),
    (plan([{"kernel": "k", "config": {}, "mechanisms": ["magic"]}]), "unknown mechanism 'magic'"),
    (plan([{"kernel": "k"}]), "'config' missing"),
    (plan([{"id": "a", "kernel": "k", "config": {}}, {"id": "a", "kernel": "j", "config": {}}]),
     "share an id"),
    (plan([{"kernel": "k", "config": {}, "inductor_settings": {"online_softmax": False}}],
          inductor_settings={"online_softmax": True}), "online_softmax=False"),
])
def test_plan_errors(tmp_path, doc, message):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(apply_plan.PlanError, match=message.replace("(", r"\(")):
        apply_plan.load(str(path))


def test_plan_not_json(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("{")
    with pytest.raises(apply_plan.PlanError, match="is not JSON"):
        apply_plan.load(str(path))


def test_resolution_by_backend_and_kernel():
    cfg = {"kwargs": {"XBLOCK": 64}, "num_warps": 4, "num_stages": 1}
    amd = dict(cfg, options={"waves_per_eu": 2})
    p = apply_plan.Plan(plan([
        winner(FUSED, cfg, id="a"), winner(PLAIN, cfg, id="b"), winner(FUSED, amd, id="c"),
        winner(FUSED, cfg, id="d", source={"path": "x.py"}),
        {"id": "e", "kernel": "user", "launcher": "triton", "source_hash": "0" * 64, "config": cfg},
    ], backend="hip"))
    p.resolve({"backend": "hip", "has_lookup_table": True, "has_template_lookup": True},
              ("inductor", "template", "triton"))
    got = {w.id: (w.mechanism, [r["reason"] for r in w.refused]) for w in p.winners}
    assert got == {"a": ("lookup_table", []), "b": ("hook", ["not_fused"]),
                   "c": ("hook", ["cannot_carry:waves_per_eu"]),
                   "d": (None, ["source_variants_off"]), "e": ("autotune_narrow", [])}
    assert p.winners[2].kwargs == {"XBLOCK": 64, "waves_per_eu": 2}


# The hook in the model's process.

WIN = {"kwargs": {"XBLOCK": 64}, "num_warps": 8, "num_stages": 1}
DEFAULT = {"kwargs": {"XBLOCK": 256}, "num_warps": 4, "num_stages": 1}   # the fake autotuner's pick


def test_lookup_table_winner_runs_and_is_recorded(tmp_path):
    proc, events = run_model(tmp_path, plan([winner(FUSED, WIN)], proof={"launches_per_kernel": 3}))
    assert ran(proc) == [WIN] * 5
    o = the_outcome(events)
    assert (o["status"], o["mechanism"], o["launches"], o["reason"]) == \
        ("ran_winner", "lookup_table", 5, None)
    assert [e["how"] for e in of(events, "construct")] == ["lookup_hit"]
    launches = of(events, "launch")
    assert [e["n"] for e in launches] == [1, 2, 3]
    assert all(e["winner"] and e["config"]["kwargs"] == WIN["kwargs"] for e in launches)
    installed = [x for e in of(events, "session_end") for x in e["installed"]]
    assert {"what": "autotune_lookup_table", "entries": 1} in installed


def test_observe_mode_installs_nothing_and_records_the_default(tmp_path):
    proc, events = run_model(tmp_path, plan([winner(FUSED, WIN)]), env={"TKO_APPLY_MODE": "observe"})
    assert ran(proc) == [DEFAULT] * 5
    o = the_outcome(events)
    assert (o["status"], o["reason"]) == ("ran_other", "observe")
    assert o["configs"][0]["config"]["kwargs"] == DEFAULT["kwargs"] and o["configs"][0]["launches"] == 5


def test_hook_carries_amd_keys_and_unfused_kernels(tmp_path):
    cfg = dict(WIN, options={"waves_per_eu": 2})
    proc, events = run_model(tmp_path, plan([winner(PLAIN, cfg)], backend="hip"), name=PLAIN,
                             env={"FAKE_HIP": "1"})
    assert ran(proc) == [{"kwargs": {"XBLOCK": 64, "waves_per_eu": 2}, "num_warps": 8,
                          "num_stages": 1}] * 5
    o = the_outcome(events)
    assert (o["status"], o["mechanism"]) == ("ran_winner", "hook")
    assert o["refused"] == [{"mechanism": "lookup_table", "reason": "not_fused"}]


def test_a_changed_source_is_listed_with_its_reason(tmp_path):
    proc, events = run_model(tmp_path, plan([winner(FUSED, WIN)]),
                             body="tmp0 = tl.load(in_ptr0 + xindex, xindex < xnumel) + 1")
    assert ran(proc) == [DEFAULT] * 5
    o = the_outcome(events)
    assert (o["status"], o["reason"]) == ("not_launched", "source_changed")
    seen = hand_hash(FUSED, "tmp0 = tl.load(in_ptr0 + xindex, xindex < xnumel) + 1")
    assert o["other_hashes"] == [seen]
    assert [e["lookup_hash"] for e in of(events, "near_miss")] == [seen]


def test_coordinate_descent_does_not_move_a_winner(tmp_path):
    env = {"TORCHINDUCTOR_COORDINATE_DESCENT_TUNING": "1"}
    proc, _ = run_model(tmp_path, plan([winner(FUSED, WIN)]), env=dict(env, TKO_APPLY_MODE="observe"))
    moved = dict(DEFAULT, kwargs={"XBLOCK": 512})      # the fake descent doubles XBLOCK
    assert ran(proc) == [moved] * 5
    proc, events = run_model(tmp_path, plan([winner(FUSED, WIN)]), env=env)
    assert ran(proc) == [WIN] * 5
    assert the_outcome(events)["status"] == "ran_winner"


def test_best_config_is_seeded_for_a_candidate_only(tmp_path):
    cand = {"kwargs": {"XBLOCK": 128}, "num_warps": 2, "num_stages": 1}    # one of the fake's configs
    proc, events = run_model(tmp_path, plan([winner(FUSED, cand, mechanisms=["best_config"])]))
    assert ran(proc) == [cand] * 5
    saved = [os.path.join(d, f) for d, _, fs in os.walk(tmp_path / "cache") for f in fs
             if f.endswith(".best_config")]
    assert len(saved) == 1
    data = json.load(open(saved[0]))
    assert (data["XBLOCK"], data["num_warps"], data["found_by_coordesc"]) == (128, 2, False)
    assert the_outcome(events)["status"] == "ran_winner"
    shutil.rmtree(tmp_path / "cache")
    proc, events = run_model(tmp_path, plan([winner(FUSED, WIN, mechanisms=["best_config"])]))
    assert ran(proc) == [DEFAULT] * 5
    o = the_outcome(events)
    assert o["constructed"] == ["best_config_not_a_candidate"] and o["status"] == "ran_other"


def test_autotuner_built_without_the_lookup_gets_the_winner_at_launch(tmp_path):
    script = f"""
    import json, sys
    sys.path.insert(0, {str(tmp_path)!r})
    from kernels import source
    import torch._inductor.runtime.triton_heuristics as th
    from torch._inductor.async_compile import AsyncCompile
    hooked = th.lookup_autotune_config
    th.lookup_autotune_config = hooked.__wrapped__    # as if unpickled from Inductor's cache
    k = AsyncCompile().triton({PLAIN!r}, source({PLAIN!r}, {BODY!r}))
    th.lookup_autotune_config = hooked
    print(json.dumps([k.run(0, 1024, stream=0) for _ in range(2)]))
    """
    proc, events = run_model(tmp_path, plan([winner(PLAIN, WIN)]), script=script)
    assert ran(proc) == [WIN] * 2
    o = the_outcome(events)
    assert (o["status"], o["constructed"], o["installed"]) == ("ran_winner", ["launch"], "hook")


def test_settings_are_set_and_an_unknown_one_reported(tmp_path):
    script = """
    import json
    import torch._inductor.config as c
    print(json.dumps([c.online_softmax, c.triton.mix_order_reduction_split_size]))
    """
    settings = {"online_softmax": False, "triton.mix_order_reduction_split_size": 64, "no_such": 1}
    proc, events = run_model(tmp_path, plan([], inductor_settings=settings), script=script)
    assert ran(proc) == [False, 64]
    installed = [x for e in of(events, "session_end") for x in e["installed"]]
    assert {"what": "setting", "name": "online_softmax", "value": False, "previous": True} in installed
    assert ["this torch has no Inductor setting 'no_such'"] == [e["message"] for e in of(events, "error")]


PRECISION = """
import json, torch
seen = torch.get_float32_matmul_precision()    # before any code of the model's
{after}
print(json.dumps(seen))
"""


def session_end(events):
    ends = of(events, "session_end")
    assert len(ends) == 1, ends
    return ends[0]


@pytest.mark.parametrize("mode", ["observe", "apply"])
def test_tf32_arm_sets_the_matmul_precision_before_the_model_runs(tmp_path, mode):
    env = {"TKO_APPLY_FLOAT32_MATMUL_PRECISION": "high", "TKO_APPLY_MODE": mode}
    proc, events = run_model(tmp_path, plan([]), script=PRECISION.format(after=""), env=env)
    assert ran(proc) == "high"
    end = session_end(events)
    assert {"what": "float32_matmul_precision", "value": "high", "previous": "highest"} in end["installed"]
    assert end["float32_matmul_precision"] == "high"
    assert of(events, "error") == []


def test_without_the_variable_the_precision_is_left_alone(tmp_path):
    proc, events = run_model(tmp_path, plan([]), script=PRECISION.format(after=""))
    assert ran(proc) == "highest"
    end = session_end(events)
    assert [x for x in end["installed"] if x["what"] == "float32_matmul_precision"] == []
    assert end["float32_matmul_precision"] == "highest"


def test_the_models_own_precision_wins_and_is_recorded(tmp_path):
    env = {"TKO_APPLY_FLOAT32_MATMUL_PRECISION": "high"}
    after = "torch.set_float32_matmul_precision('highest')"
    proc, events = run_model(tmp_path, plan([]), script=PRECISION.format(after=after), env=env)
    assert ran(proc) == "high"
    assert session_end(events)["float32_matmul_precision"] == "highest"


def test_a_bad_precision_is_an_error_and_changes_nothing(tmp_path):
    env = {"TKO_APPLY_FLOAT32_MATMUL_PRECISION": "fast"}
    proc, events = run_model(tmp_path, plan([]), script=PRECISION.format(after=""), env=env)
    assert ran(proc) == "highest"
    assert ["cannot patch float32 matmul precision: ValueError: TKO_APPLY_FLOAT32_MATMUL_PRECISION="
            "'fast': expected highest, high or medium"] == [e["message"] for e in of(events, "error")]


TEMPLATE = '''
import triton
import triton.language as tl
from torch._inductor.runtime import triton_heuristics

@triton_heuristics.template(num_stages=NS, num_warps=NW, triton_meta={},
    inductor_meta={'kernel_name': 'triton_tem_fused_mm_0', 'config_args': ARGS})
@triton.jit
def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0):
    BLOCK_M : tl.constexpr = 64
'''


def test_template_winner_through_inductors_lookup_table(tmp_path):
    """As tko apply plans a winner that changed BLOCK_M (src/apply/plan.c):
    the template key, and the lookup_hash of the kernel tune measured, whose
    body (BLOCK_M 64) the table's template no longer has (BLOCK_M 32): the
    launch is the winner's by name and the table's params, not by hash."""
    key = "(('torch.float16', [64, 64], [64, 1]), ('torch.float16', [64, 64], [64, 1]))+mm"
    params = {"BLOCK_M": 32, "BLOCK_N": 64, "num_warps": 2, "num_stages": 3}
    w = {"id": "k0", "kernel": "triton_tem_fused_mm_0", "launcher": "template",
         "mechanisms": ["template_lookup", "hook"], "lookup_hash": template_hash(),
         "size_hints": "None", "fused": True,
         "config": {"kwargs": {}, "num_warps": 2, "num_stages": 3, "body": {"BLOCK_M": 32}},
         "template": {"lookup_key": key, "template_id": "triton::mm", "params": params}}
    script = f"""
    import json
    import torch._inductor.config as c
    from torch._inductor.lookup_table.choices import KernelInputs
    from torch._inductor.async_compile import AsyncCompile
    nodes = [('torch.float16', [64, 64], [64, 1])] * 2
    found = c.inductor_choices_class().lookup_template_configs(KernelInputs(nodes), "mm",
                                                                ["triton::mm", "aten::mm"])
    p = found["triton::mm"][0]
    src = {TEMPLATE!r}.replace("NS", str(p["num_stages"])).replace("NW", str(p["num_warps"]))
    src = src.replace("ARGS", repr({{k: v for k, v in p.items() if k.isupper()}}))
    src = src.replace("BLOCK_M : tl.constexpr = 64", "BLOCK_M : tl.constexpr = 32")
    k = AsyncCompile().triton("triton_tem_fused_mm_0", src)
    print(json.dumps([found, k.run(0, 0, 0, stream=0)]))
    """
    proc, events = run_model(tmp_path, plan([w]), script=script)
    found, launched = ran(proc)
    assert found == {"triton::mm": [params]}
    assert (launched["num_warps"], launched["num_stages"]) == (2, 3)
    o = the_outcome(events)
    assert (o["status"], o["mechanism"]) == ("ran_winner", "template_lookup")
    assert o["template_keys"] == [{"op": "mm", "hit": True}]
    assert [e["winner"] for e in of(events, "launch")] == [True]
    # The body changed as planned: not a near miss (the H100 run of
    # 2026-12-05 logged one at construction, before the launch knew better).
    assert (of(events, "near_miss"), o["other_hashes"]) == ([], [])
    assert of(events, "error") == []


TEMPLATE_MODEL = """
import json
from torch._inductor.async_compile import AsyncCompile
src = {src!r}
k = AsyncCompile().triton("triton_tem_fused_mm_0", src)
print(json.dumps([k.run(0, 0, 0, stream=0) for _ in range(3)]))
"""
# Inductor chose BLOCK_M=64 num_warps=4 num_stages=3 for this template.
TEMPLATE_ARGS = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}
TEMPLATE_SRC = (TEMPLATE.replace("NS", "3").replace("NW", "4")
                .replace("ARGS", repr(TEMPLATE_ARGS)))


def template_hash():
    """Inductor's key by its definition: str(size_hints) (None: a template has
    none) + the def from its '(' on, stripped."""
    fn = TEMPLATE_SRC[TEMPLATE_SRC.index("def triton_tem_fused_mm_0("):].strip()
    return hashlib.sha256(("None" + fn[len("def triton_tem_fused_mm_0"):]).encode()).hexdigest()


def template_winner(cfg):
    """As tko apply plans a template winner (src/apply/plan.c): the hook only."""
    return {"id": "k0", "kernel": "triton_tem_fused_mm_0", "launcher": "template",
            "mechanisms": ["hook"], "lookup_hash": template_hash(), "size_hints": "None",
            "fused": True, "config": cfg}


def test_template_winner_of_the_base_body_is_carried_by_the_hook(tmp_path):
    """A winner that changed only num_warps (the plan leaves out its body,
    which equals the base's): the template launches with it, and the proof
    says so without an error."""
    cfg = {"num_warps": 8, "num_stages": 3, "kwargs": {}, "options": {}}
    script = TEMPLATE_MODEL.format(src=TEMPLATE_SRC)
    proc, events = run_model(tmp_path, plan([template_winner(cfg)]), script=script)
    assert [(c["num_warps"], c["num_stages"], c["kwargs"]) for c in ran(proc)] == [(8, 3, {})] * 3
    o = the_outcome(events)
    assert (o["status"], o["mechanism"], o["reason"]) == ("ran_winner", "hook", None)
    assert o["constructed"][0] == "hook"
    assert [e["winner"] for e in of(events, "launch")] == [True] * 3
    assert of(events, "error") == []


def test_a_template_of_the_same_name_and_another_key_keeps_its_config(tmp_path):
    """Template names repeat across graphs (triton_tem_fused_mm_0 of the
    forward and of the backward): a hook winner is named by its key, so a
    same-named template whose function differs (another BLOCK_M line) runs
    its own config and is listed as a near miss, not given the winner."""
    cfg = {"num_warps": 8, "num_stages": 3, "kwargs": {}, "options": {}}
    other = TEMPLATE_SRC.replace("BLOCK_M : tl.constexpr = 64", "BLOCK_M : tl.constexpr = 32")
    script = TEMPLATE_MODEL.format(src=other)
    proc, events = run_model(tmp_path, plan([template_winner(cfg)]), script=script)
    assert [(c["num_warps"], c["num_stages"]) for c in ran(proc)] == [(4, 3)] * 3
    o = the_outcome(events)
    assert (o["status"], o["reason"]) == ("not_launched", "source_changed")
    assert len(o["other_hashes"]) == 1 and o["other_hashes"][0] != template_hash()
    assert of(events, "error") == []


def test_template_winner_with_a_body_is_refused_and_recorded(tmp_path):
    """An older plan that carries the body: the hook cannot set BLOCK_K, so it
    refuses, the template runs Inductor's config, and the launches are still
    recorded (no error from the missing template key)."""
    cfg = {"num_warps": 4, "num_stages": 3, "kwargs": {}, "options": {},
           "body": {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64}}
    script = TEMPLATE_MODEL.format(src=TEMPLATE_SRC)
    proc, events = run_model(tmp_path, plan([template_winner(cfg)]), script=script)
    assert [(c["num_warps"], c["num_stages"]) for c in ran(proc)] == [(4, 3)] * 3
    o = the_outcome(events)
    assert (o["status"], o["mechanism"], o["reason"]) == ("ran_other", None, "cannot_carry:body")
    assert [e["winner"] for e in of(events, "launch")] == [False] * 3
    assert of(events, "error") == []


AUTOTUNE_MODEL = """
import json
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=4)], key=["n"])
@triton.jit
def add_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass

add_kernel.fn.run = lambda *args, **kwargs: {k: kwargs[k] for k in ("BLOCK", "num_warps")}
print(json.dumps([add_kernel.run(0, 1024, grid=(1,)) for _ in range(2)]))
"""
AUTOTUNE_SRC = "def add_kernel(x_ptr, n, BLOCK: tl.constexpr):\n    pass\n"


def test_hand_written_autotune_list_is_narrowed(tmp_path):
    w = {"id": "k0", "kernel": "add_kernel", "launcher": "triton",
         "source_hash": hashlib.sha256(AUTOTUNE_SRC.encode()).hexdigest(),
         "config": {"kwargs": {"BLOCK": 256}, "num_warps": 8, "num_stages": 2}}
    proc, events = run_model(tmp_path, plan([w]), script=AUTOTUNE_MODEL)
    assert ran(proc) == [{"BLOCK": 256, "num_warps": 8}] * 2
    o = the_outcome(events)
    assert (o["status"], o["constructed"]) == ("ran_winner", ["narrowed_new_config"])
    w["source_hash"] = "0" * 64
    proc, events = run_model(tmp_path, plan([w]), script=AUTOTUNE_MODEL)
    assert ran(proc) == [{"BLOCK": 64, "num_warps": 4}] * 2
    assert the_outcome(events)["reason"] == "source_changed"


def test_source_variant_only_when_the_plan_allows_it(tmp_path):
    variant_body = "tmp0 = tl.load(in_ptr0 + tl.multiple_of(xindex, 16), xindex < xnumel)"
    vpath = tmp_path / "variant.py"
    vpath.write_text(kernel_source(FUSED, variant_body))
    w = winner(FUSED, WIN, lookup_hash=hand_hash(FUSED, variant_body),
               source={"path": str(vpath), "replaces": hand_hash(FUSED)})
    proc, events = run_model(tmp_path, plan([w]))
    assert ran(proc) == [DEFAULT] * 5
    assert the_outcome(events)["reason"] == "source_variants_off"
    proc, events = run_model(tmp_path, plan([w], source_variants=True))
    assert ran(proc) == [WIN] * 5
    o = the_outcome(events)
    assert o["status"] == "ran_winner" and o["notes"] == ["source_variant_installed"]


def test_a_bad_plan_leaves_the_command_alone(tmp_path):
    proc, events = run_model(tmp_path, None, plan_text="{not json")
    assert ran(proc) == [DEFAULT] * 5
    assert "tko apply: warning:" in proc.stderr and "is not JSON" in proc.stderr
    assert [e["stage"] for e in of(events, "error")] == ["plan"]


# The plain artifact.

OTHER = "tmp0 = tl.load(in_ptr0 + xindex, xindex < xnumel) * 2"   # keys are name-agnostic

def test_plain_artifact_runs_the_winners_without_tko(tmp_path):
    art = tmp_path / "artifact"
    art.mkdir()
    shutil.copy(os.path.join(PYDIR, "tko", "winners_loader.py"), art / "tko_winners.py")
    (art / "tko_winners.json").write_text(json.dumps({
        "schema_version": 1, "inductor_settings": {"online_softmax": False},
        "autotune_lookup_table": {hand_hash(FUSED): {"XBLOCK": 64, "num_warps": 8, "num_stages": 1}},
        "configs": {hand_hash(PLAIN, OTHER): {"kwargs": {"XBLOCK": 32}, "num_warps": 2,
                                              "num_stages": 1}},
        "triton_autotune": [{"kernel": "add_kernel",
                             "source_hash": hashlib.sha256(AUTOTUNE_SRC.encode()).hexdigest(),
                             "config": {"kwargs": {"BLOCK": 128}, "num_warps": 2, "num_stages": 1}}]}))
    (tmp_path / "kernels.py").write_text(
        f"KERNEL = {KERNEL!r}\n"
        "def source(name, body):\n    return KERNEL.replace('NAME', name).replace('BODY', body)\n")
    script = tmp_path / "model.py"
    script.write_text(textwrap.dedent(f"""
    import tko_winners
    import json, sys
    sys.path.insert(0, {str(tmp_path)!r})
    from kernels import source
    from torch._inductor.async_compile import AsyncCompile
    import torch._inductor.config as c
    out = [AsyncCompile().triton(n, source(n, b)).run(0, 1, stream=0)
           for n, b in (({FUSED!r}, {BODY!r}), ({PLAIN!r}, {OTHER!r}))]
    """) + AUTOTUNE_MODEL.replace("print(json.dumps(", "out.append(").replace(
        "for _ in range(2)]))", "for _ in range(1)][0])") +
        "print(json.dumps(out + [c.online_softmax, c.compile_threads]))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(art), FAKES]),
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TKO_APPLY_PLAN", None)
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                          timeout=120, cwd=str(tmp_path))
    assert ran(proc) == [WIN, {"kwargs": {"XBLOCK": 32}, "num_warps": 2, "num_stages": 1},
                         {"BLOCK": 128, "num_warps": 2}, False, 1]
