"""tko capture's template_lookup event against a real torch 2.11 on the CPU
(docs/capture-events.md; docs/apply.md, "Template lookup table"). Runs
only when TKO_TORCH_PYTHON names a Python with torch installed.

Under max_autotune Inductor's tuned_mm/tuned_addmm call
InductorChoices.get_template_configs with the MMKernelInputs they built, on
the CPU too (the choices there are aten's alone). The hook records
LookupTableChoices' device-agnostic key for each call. The expected keys
are written by hand from the tensors the model passes (dtype, shape,
stride of each input, then the scalars, then the op), in the format of
torch/_inductor/lookup_table/choices.py (_generate_kernel_inputs_key:
str() of a tuple of (dtype, [shape], [stride]); make_lookup_key: "+".join).
"""
import json
import os
import subprocess
import textwrap

import pytest

from realtorch import HOOK, PYDIR, TORCH_PY, needs_torch, torch_has

pytestmark = needs_torch

MODEL = """
import torch
import torch._inductor.config as c
c.max_autotune = True
a = torch.randn(64, 32)
b = torch.randn(48, 32).t()          # 32x48, strides (1, 32)
torch.compile(lambda a, b: torch.relu(a @ b))(a, b)
torch.compile(lambda x, a, b: torch.addmm(x, a, b))(torch.randn(48), a, torch.randn(32, 48))
"""


def capture_events(tmp_path):
    cap = tmp_path / "capture"
    cap.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR]), TKO_CAPTURE_DIR=str(cap),
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    proc = subprocess.run([TORCH_PY, "-c", textwrap.dedent(MODEL)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    if not (cap / "events.jsonl").exists():
        return []
    with open(cap / "events.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_a_torch_without_the_table_gets_no_hook_and_no_error(tmp_path):
    """torch 2.9 (the DCU stack the brief names) has neither the template
    lookup table nor get_template_configs: capture wraps nothing there, and
    says nothing (a CPU run launches no Triton kernel, so it writes no event)."""
    if torch_has("torch._inductor.lookup_table"):
        pytest.skip("this torch has the template lookup table")
    events = capture_events(tmp_path)
    assert not [e for e in events if e["event"] in ("template_lookup", "error")]
    assert all("InductorChoices.get_template_configs" not in e["hooks"]
               for e in events if e["event"] == "session_start")


def test_the_hook_records_inductors_device_agnostic_template_key(tmp_path):
    if not torch_has("torch._inductor.lookup_table"):
        pytest.skip("this torch has no template lookup table (torch._inductor.lookup_table)")
    events = capture_events(tmp_path)
    start = [e for e in events if e["event"] == "session_start"]
    assert "InductorChoices.get_template_configs" in start[0]["hooks"]
    got = [e for e in events if e["event"] == "template_lookup"]
    assert [e["op"] for e in got] == ["mm", "addmm"]
    mm, addmm = got
    assert mm["key"] == ("((torch.float32, [64, 32], [32, 1]), "
                         "(torch.float32, [32, 48], [1, 32]))+mm")
    assert mm["layouts"] == [["torch.float32", [64, 32], [32, 1]],
                             ["torch.float32", [32, 48], [1, 32]]]
    # addmm's bias is expanded to the output's shape (stride 0), and its
    # alpha and beta are the key's scalars, sorted
    assert addmm["key"] == ("((torch.float32, [64, 48], [0, 1]), "
                            "(torch.float32, [64, 32], [32, 1]), "
                            "(torch.float32, [32, 48], [48, 1]))+alpha=1&beta=1+addmm")
    assert addmm["layouts"][0] == ["torch.float32", [64, 48], [0, 1]]
    # on the CPU only aten's choices are offered; the ids are the templates' uid
    assert "aten::mm" in mm["template_ids"]
    assert all(isinstance(t, str) and "::" in t for e in got for t in e["template_ids"])
    assert not [e for e in events if e["event"] == "error"]


# Inductor's own LookupTableChoices, given a table holding the hand-written
# key: only CUDA enables it (_get_lookup_table, _get_device_key), so the two
# are opened for the CPU; the lookup is torch's. A hit proves the key
# capture records is the one Inductor looks up.
LOOKUP_MODEL = """
import json
import torch
import torch._inductor.config as c
from torch._inductor.lookup_table.choices import LookupTableChoices
KEY = {key!r}
hits = []

class CpuLookup(LookupTableChoices):
    def _get_lookup_table(self):
        return {{KEY: [{{"template_id": "aten::mm"}}]}}

    @staticmethod
    def _get_device_key(device):
        return "cpu-as-gpu"

    def lookup_template_configs(self, kernel_inputs, op_name, template_uids, template_hash_map=None):
        found = super().lookup_template_configs(kernel_inputs, op_name, template_uids, template_hash_map)
        hits.append([op_name, sorted(found)])
        return found

c.max_autotune = True
c.inductor_choices_class = CpuLookup
a = torch.randn(64, 32)
b = torch.randn(48, 32).t()
torch.compile(lambda a, b: torch.relu(a @ b))(a, b)
print(json.dumps(hits))
"""


def test_inductors_lookup_table_hits_the_recorded_key(tmp_path):
    if not torch_has("torch._inductor.lookup_table"):
        pytest.skip("this torch has no template lookup table (torch._inductor.lookup_table)")
    key = "((torch.float32, [64, 32], [32, 1]), (torch.float32, [32, 48], [1, 32]))+mm"
    cap = tmp_path / "capture"
    cap.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR]), TKO_CAPTURE_DIR=str(cap),
               TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    proc = subprocess.run([TORCH_PY, "-c", LOOKUP_MODEL.format(key=key)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [["mm", ["aten::mm"]]]
    with open(cap / "events.jsonl") as f:
        events = [json.loads(line) for line in f if line.strip()]
    assert [e["key"] for e in events if e["event"] == "template_lookup"] == [key]
