"""tko.apply and tko.lookup against a real torch 2.11 (CPU is enough: no
kernel is compiled). Runs only when TKO_TORCH_PYTHON names a Python with
torch installed (a separate virtual environment: the shared .venv has none),
e.g. TKO_TORCH_PYTHON=/tmp/torch211/bin/python.

The kernels are the H200 example RUN's Inductor modules
(examples/h200-run/cache/inductor, torch 2.11.0+cu130): each is loaded by
torch itself, and torch's generate_lookup_hash_from_source_code over the
loaded fn.src is the reference for tko's key computed from the file's text.
"""
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from realtorch import HOOK, PYDIR, ROOT, TORCH_PY, needs_torch

CACHE = os.path.join(ROOT, "examples", "h200-run", "cache", "inductor")

pytestmark = needs_torch

# Loading a module runs its decorators; set_driver_to_gpu needs a GPU driver
# that a CPU machine lacks, and is all that needs one.
LOADER = """
import importlib.util, json, os, sys
import torch
from torch._inductor.runtime import triton_heuristics as th, triton_helpers
triton_helpers.set_driver_to_gpu = lambda: None

def load(path):
    spec = importlib.util.spec_from_file_location("m" + str(abs(hash(path))), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return [o for o in vars(mod).values() if isinstance(o, th.CachingAutotuner)]
"""


def modules():
    out = []
    for d, _, files in os.walk(CACHE):
        for f in files:
            path = os.path.join(d, f)
            if f.endswith(".py") and "\ndef triton_" in open(path, errors="replace").read():
                out.append(path)
    return sorted(out)


def child(script, env=None, tmp=None):
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR]),
             TORCHINDUCTOR_CACHE_DIR=str(tmp or "/tmp/tko-torch-test"))
    e.update(env or {})
    proc = subprocess.run([TORCH_PY, "-c", LOADER + textwrap.dedent(script)], env=e,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_tko_key_equals_torchs_for_every_example_kernel(tmp_path):
    got = child(f"""
    sys.path.insert(0, {PYDIR!r})
    from tko import lookup
    rows = []
    for path in {modules()!r}:
        try:
            tuners = load(path)
        except RuntimeError as e:      # a wrapper module that needs a GPU to run
            continue
        text = open(path).read()
        for t in tuners:
            rows.append([path, t.fn.__name__,
                         th.generate_lookup_hash_from_source_code(str(t.size_hints), t.fn.src),
                         lookup.lookup_hash_of_module(text, t.fn.__name__),
                         lookup.function_source(text, t.fn.__name__) == t.fn.src])
    print(json.dumps(rows))
    """, tmp=tmp_path)
    assert len(got) >= 25
    assert [r[:2] for r in got if r[2] != r[3] or not r[4]] == []


POINTWISE = os.path.join(CACHE, "d6", "cd6tammrytoldkigi6wy4flunwbshyumif2kiduouxqzljcqvh3x.py")
REDUCTION = os.path.join(CACHE, "wq", "cwqbmqf6bdziqjlyujvrusl7ojyl4bffadp4hwatxbk43ouiytxm.py")


def test_the_hook_installs_winners_in_real_inductor_autotuners(tmp_path):
    sys.path.insert(0, PYDIR)
    from tko import lookup
    pw = lookup.lookup_hash_of_module(open(POINTWISE).read(), "triton_poi_fused_zeros_0")
    red = lookup.lookup_hash_of_module(open(REDUCTION).read(),
                                       "triton_red_fused_embedding_native_layer_norm_0")
    plan = {"schema_version": 1, "backend": "cuda", "inductor_settings": {"online_softmax": False},
            "kernels": [
                {"id": "pw", "kernel": "triton_poi_fused_zeros_0", "lookup_hash": pw,
                 "config": {"kwargs": {"XBLOCK": 128}, "num_warps": 2, "num_stages": 1}},
                {"id": "red", "kernel": "triton_red_fused_embedding_native_layer_norm_0",
                 "lookup_hash": red, "mechanisms": ["hook"],
                 "config": {"kwargs": {"XBLOCK": 2, "R0_BLOCK": 256}, "num_warps": 4,
                            "num_stages": 1}}]}
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    got = child(f"""
    import torch._inductor.config as c
    out = {{"table": c.autotune_lookup_table.get({pw!r}), "online_softmax": c.online_softmax}}
    for path in ({POINTWISE!r}, {REDUCTION!r}):
        for t in load(path):
            out[t.fn.__name__] = [[dict(x.kwargs), x.num_warps, x.num_stages,
                                   getattr(x, "found_by_coordesc", False)] for x in t.configs]
    print(json.dumps(out))
    """, env={"TKO_APPLY_PLAN": str(tmp_path / "plan.json"), "TKO_APPLY_DIR": str(tmp_path)},
        tmp=tmp_path)
    assert got["table"] == {"XBLOCK": 128, "num_warps": 2, "num_stages": 1}
    assert got["online_softmax"] is False
    assert got["triton_poi_fused_zeros_0"] == [[{"XBLOCK": 128}, 2, 1, True]]
    assert got["triton_red_fused_embedding_native_layer_norm_0"] == \
        [[{"XBLOCK": 2, "R0_BLOCK": 256}, 4, 1, True]]
    events = [json.loads(x) for x in (tmp_path / "apply.jsonl").read_text().splitlines()]
    hows = sorted((e["id"], e["how"]) for e in events if e["event"] == "construct")
    assert hows == [("pw", "lookup_hit"), ("red", "hook")]
    start = [e for e in events if e["event"] == "session_start"]
    assert start and start[0]["torch"].startswith("2.11")
    assert [e for e in events if e["event"] == "error"] == []


# torch 2.11 runtime/triton_heuristics.py:532-642 _dynamic_scale_rblock, with
# device properties that make it halve R0_BLOCK: 128 registers a thread x 32
# x 4 warps allow 65536 // 16384 = 4 blocks on the one SM, and the kernel's
# size_hints x=4096 over XBLOCK=2 needs 2048 blocks, so a config with
# R0_BLOCK 256 // 2 = 128 is appended (that is what ran on the H200).
SCALE = """
import types
def scaled(tuner):
    tuner.device_props = types.SimpleNamespace(type="cuda", major=9, warp_size=32,
        regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048,
        multi_processor_count=1)
    tuner.deterministic_mode = False
    tuner.compile_results = [types.SimpleNamespace(config=c, kernel=types.SimpleNamespace(n_regs=128))
                             for c in tuner.configs]
    tuner._precompile_config = lambda c: types.SimpleNamespace(config=c, kernel=None)
    tuner._make_launchers = lambda: None
    tuner._dynamic_scale_rblock()
    return [[dict(r.config.kwargs), r.config.num_warps] for r in tuner.compile_results]
"""
RED_NAME = "triton_red_fused_embedding_native_layer_norm_0"
RED_WINNER = {"kwargs": {"XBLOCK": 2, "R0_BLOCK": 256}, "num_warps": 4, "num_stages": 1}


def _scaled_configs(tmp_path, env):
    return child(SCALE + f"print(json.dumps([scaled(t) for t in load({REDUCTION!r})]))\n",
                 env=env, tmp=tmp_path)


@pytest.mark.parametrize("mechanism", ["lookup_table", "hook"])
def test_an_installed_reduction_winner_is_not_rescaled(tmp_path, mechanism):
    sys.path.insert(0, PYDIR)
    from tko import lookup
    h = lookup.lookup_hash_of_module(open(REDUCTION).read(), RED_NAME)
    plan = {"schema_version": 1, "backend": "cuda", "kernels": [
        {"id": "red", "kernel": RED_NAME, "lookup_hash": h, "mechanisms": [mechanism],
         "config": RED_WINNER}]}
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    env = {"TKO_APPLY_PLAN": str(tmp_path / "plan.json"), "TKO_APPLY_DIR": str(tmp_path)}
    applied = _scaled_configs(tmp_path, dict(env, TKO_APPLY_MODE="apply"))
    observed = _scaled_configs(tmp_path, dict(env, TKO_APPLY_MODE="observe"))
    # Observe mode installs nothing: the first of Inductor's own configs is
    # rescaled as torch does it, which shows the test can see a rescaling.
    assert any(len(cfgs) > 1 for cfgs in observed)
    assert applied == [[[RED_WINNER["kwargs"], 4]]]
    events = [json.loads(x) for x in (tmp_path / "apply.jsonl").read_text().splitlines()]
    assert [e for e in events if e["event"] == "error"] == []


def test_the_plain_artifact_keeps_its_winner_from_rescaling(tmp_path):
    sys.path.insert(0, PYDIR)
    from tko import lookup
    h = lookup.lookup_hash_of_module(open(REDUCTION).read(), RED_NAME)
    art = tmp_path / "art"
    art.mkdir()
    (art / "tko_winners.py").write_text(open(os.path.join(PYDIR, "tko", "winners_loader.py")).read())
    (art / "tko_winners.json").write_text(json.dumps({
        "schema_version": 1, "autotune_lookup_table": {h: lookup.table_entry(RED_WINNER)}}))
    got = child(SCALE + f"sys.path.insert(0, {str(art)!r})\nimport tko_winners\n"
                f"print(json.dumps([scaled(t) for t in load({REDUCTION!r})]))\n",
                env={"PYTHONPATH": ""}, tmp=tmp_path)
    assert got == [[[RED_WINNER["kwargs"], 4]]]
    off = child(SCALE + f"print(json.dumps([scaled(t) for t in load({REDUCTION!r})]))\n",
                env={"PYTHONPATH": ""}, tmp=tmp_path)
    assert off != got and len(off[0]) == 2


# tko apply (C) end to end with the real hook and torch: the plan it makes
# from tests/data/apply/run must hit real Inductor's lookup table, so the
# autotuners built from the RUN's kernel modules hold tune's winners (the
# values tests/data/apply/make-run.py wrote). No GPU: nothing launches.
APPLY_CMD = """
import glob
out = {}
for path in sorted(glob.glob(sys.argv[1] + "/capture/kernels/triton_*/kernel.py")):
    for t in load(path):
        out[t.fn.__name__] = [[dict(c.kwargs), c.num_warps] for c in t.configs]
print(json.dumps({"ms_per_step": 1.0, "loss": 2.5, "configs": out}))
"""



def tko_binary():
    tko = os.environ.get("TKO") or os.path.join(ROOT, "build", "tko")
    if not os.access(tko, os.X_OK):
        pytest.skip("no tko binary (make, or set TKO)")
    return tko


def tko_apply(tko, tmp_path, run, cmd):
    """`tko apply --json tmp_path/doc.json RUN -- python cmd.py RUN` with real torch."""
    script = tmp_path / "cmd.py"
    script.write_text(LOADER + cmd)
    proc = subprocess.run([tko, "-q", "apply", "--json", str(tmp_path / "doc.json"), str(run), "--",
                           TORCH_PY, str(script), str(run)],
                          env=dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "c")),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]

def test_tko_apply_plans_what_real_inductor_looks_up(tmp_path):
    tko = tko_binary()
    run = tmp_path / "run"
    shutil.copytree(os.path.join(ROOT, "tests", "data", "apply", "run"), run)
    tko_apply(tko, tmp_path, run, APPLY_CMD)
    doc = json.loads((tmp_path / "doc.json").read_text())
    got = {k["kernel"]: (k["mechanism"], k["constructed"], k["status"])
           for k in doc["kernels"] if k["planned"]}
    assert got == {"triton_poi_fused_zeros_0": ("lookup_table", ["lookup_hit"], "not_launched"),
                   RED_NAME: ("lookup_table", ["lookup_hit"], "not_launched"),
                   "scale_add_kernel": ("autotune_narrow", None, "not_launched")}
    line = (run / "apply" / "runs" / "1-applied" / "stdout.txt").read_text().splitlines()[-1]
    configs = json.loads(line)["configs"]
    assert configs["triton_poi_fused_zeros_0"] == [[{"XBLOCK": 512}, 4]]
    assert configs[RED_NAME] == [[{"XBLOCK": 2, "R0_BLOCK": 2048}, 16]]
    # not planned (confirmation refused; the default won): Inductor's own configs
    assert configs["triton_poi_fused_add_addmm_gelu_mul_view_1"] == [[{"XBLOCK": 1024}, 4],
                                                                   [{"XBLOCK": 512}, 8]]


# A max-autotune template (examples/h200-run's, num_warps=4 num_stages=5 in
# its decorator) with the template entry of the real H200 tune document
# tests/corpus/h200-apply-1205/model/tune.json (t6060 says why the pair
# stands for one): its winner v005 changed BLOCK_K, which the hook cannot
# set (not planned); its variant v007 (num_warps=8, the base's body) can be.
TEMPLATE = "triton_tem_fused_mm_relu_0"
TEMPLATE_DIR = os.path.join(ROOT, "examples", "h200-run", "capture", "kernels",
                            TEMPLATE + "-3f61ad14")


TEMPLATE_CMD = APPLY_CMD.replace("c.num_warps]", "c.num_warps, c.num_stages]")


def template_run(tmp_path, winner):
    run = tmp_path / "run"
    kdir = run / "capture" / "kernels" / os.path.basename(TEMPLATE_DIR)
    shutil.copytree(TEMPLATE_DIR, kdir)
    with open(os.path.join(ROOT, "tests", "corpus", "h200-apply-1205", "model", "tune.json")) as f:
        doc = json.load(f)
    doc["kernels"] = [k for k in doc["kernels"] if k["kernel"] == TEMPLATE]
    doc["kernels"][0]["winner"]["id"] = winner
    (kdir / "tune").mkdir()
    (kdir / "tune" / "tune.json").write_text(json.dumps(doc))
    return run, doc["kernels"][0]


@pytest.mark.parametrize("winner", ["v007", "v005"])
def test_a_template_winner_reaches_real_inductors_template_autotuner(tmp_path, winner):
    tko = tko_binary()
    run, entry = template_run(tmp_path, winner)
    cfg = next(v["config"] for v in entry["variants"] if v["id"] == winner)
    tko_apply(tko, tmp_path, run, TEMPLATE_CMD)
    row = json.loads((tmp_path / "doc.json").read_text())["kernels"][0]
    line = (run / "apply" / "runs" / "1-applied" / "stdout.txt").read_text().splitlines()[-1]
    configs = json.loads(line)["configs"]
    if winner == "v007":    # num_warps 8, the base's body: the hook sets it
        assert (cfg["num_warps"], cfg["num_stages"]) == (8, 3)
        assert (row["planned"], row["mechanism"], row["constructed"]) == (True, "hook", ["hook"])
        assert configs[TEMPLATE] == [[{}, 8, 3]]
    else:                   # BLOCK_K 32 -> 64: not planned, Inductor's own config
        assert cfg["body"]["BLOCK_K"] == 64
        assert (row["planned"], row["reason"]) == (False, "cannot_carry")
        assert configs[TEMPLATE] == [[{}, 4, 5]]     # kernel.py's decorator


PRECISION = """
print(json.dumps([torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.fp32_precision,
                  torch.backends.cuda.matmul.allow_tf32]))
"""


@pytest.mark.parametrize("value, want", [("high", ["high", "tf32", True]), (None, ["highest", None, False])])
def test_the_tf32_arm_reaches_real_torch(tmp_path, value, want):
    """The tf32 arm's variable: torch 2.11's own flags say TF32 before the
    script's first line (torch/__init__.py set_float32_matmul_precision; the
    fp32_precision 'tf32' is what Inductor's mm template reads for ALLOW_TF32)."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"schema_version": 1, "backend": "cuda", "kernels": []}))
    env = {"TKO_APPLY_PLAN": str(plan), "TKO_APPLY_DIR": str(tmp_path), "TKO_APPLY_MODE": "observe"}
    if value:
        env["TKO_APPLY_FLOAT32_MATMUL_PRECISION"] = value
    else:
        os.environ.pop("TKO_APPLY_FLOAT32_MATMUL_PRECISION", None)
    got = child(PRECISION, env=env, tmp=tmp_path / "c")
    assert got[0] == want[0] and got[2] == want[2]
    if want[1]:
        assert got[1] == want[1]
    else:
        assert got[1] != "tf32"
