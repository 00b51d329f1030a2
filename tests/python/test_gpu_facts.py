"""python/tko/gpu.py and bandwidth.py through tko env, on a stand-in torch.

The stand-in (a `torch` package written into a temporary folder, first on
PYTHONPATH) reports the device properties torch 2.11 reports: on CUDA the
marketing name in gcnArchName, on ROCm the processor with its feature
suffixes. The real tko.probe runs under `tko env`, so this checks the
whole path: Python reports raw facts, tko (src/target/target.c) decides
the arch, and the measured copy's keys reach env.json. The copy's device
events all report 2.0 ms, so the expected rate is computed here by hand.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "python")))

from tko import gpu  # noqa: E402

FAKE_TORCH = '''
__version__ = "2.11.0+fake"


class version:
    cuda = None if {hip!r} else "13.0"
    hip = {hip!r}


class _Props:
    def __init__(self, d):
        self.__dict__.update(d)


class _Tensor:
    def copy_(self, other):
        return self


class _Event:
    def __init__(self, enable_timing=False):
        pass

    def record(self):
        pass

    def elapsed_time(self, end):
        return 2.0


class cuda:
    Event = _Event

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def device_count():
        return len({props!r})

    @staticmethod
    def get_device_properties(i):
        return _Props({props!r}[i])

    @staticmethod
    def mem_get_info(dev):
        return (8 << 30, 16 << 30)

    @staticmethod
    def synchronize(dev=None):
        pass


uint8 = "uint8"


def device(kind, index=0):
    return (kind, index)


def ones(n, dtype=None, device=None):
    return _Tensor()


def empty_like(t):
    return _Tensor()
'''

H200 = {"name": "NVIDIA H200", "major": 9, "minor": 0, "gcnArchName": "NVIDIA H200",
        "multi_processor_count": 132, "warp_size": 32, "total_memory": 150000000000,
        "L2_cache_size": 62914560}
MI300 = {"name": "AMD Instinct MI300X", "major": 9, "minor": 4,
         "gcnArchName": "gfx942:sramecc+:xnack-", "multi_processor_count": 304,
         "warp_size": 64, "total_memory": 1, "L2_cache_size": 2}


def env_doc(tmp_path, props, hip, *args):
    pkg = tmp_path / "fake" / "torch"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(FAKE_TORCH.format(props=props, hip=hip)))
    env = dict(os.environ, TKO_PYTHON=sys.executable, PYTHONPATH=str(tmp_path / "fake"),
               PATH="/usr/bin:/bin")
    out = tmp_path / "e.json"
    subprocess.run([os.environ["TKO"], "env", "--json", str(out), *args], env=env,
                   check=True, capture_output=True)
    return json.loads(out.read_text())


def test_facts_are_what_torch_says():
    class P:
        pass
    p = P()
    p.__dict__.update(H200)
    assert gpu.facts(p, None) == {"name": "NVIDIA H200", "backend": "cuda",
                                  "gcn_arch_name": "NVIDIA H200", "capability": [9, 0],
                                  "warp_size": 32, "multiprocessor_count": 132}


def test_tko_env_decides_cuda_arch_from_the_capability(tmp_path):
    doc = env_doc(tmp_path, [H200], None)
    g = doc["gpus"][0]
    assert g["arch"] == "sm_90" and g["arch_full"] is None and g["source"] == "torch"
    assert list(g) == ["index", "name", "backend", "arch", "arch_full", "capability",
                       "multiprocessor_count", "memory_bytes", "warp_size", "l2_cache_bytes",
                       "source"]
    assert g["memory_bytes"] == 150000000000 and g["l2_cache_bytes"] == 62914560


def test_tko_env_decides_rocm_arch_from_gcn_arch_name(tmp_path):
    doc = env_doc(tmp_path, [MI300], "6.3.42131")
    g = doc["gpus"][0]
    assert g["arch"] == "gfx942" and g["arch_full"] == "gfx942:sramecc+:xnack-"
    assert g["backend"] == "hip" and doc["torch"]["hip"] == "6.3.42131"


def test_measure_reports_the_copy(tmp_path):
    doc = env_doc(tmp_path, [H200], None, "--measure")
    bw = doc["bandwidth"]
    # 1 GiB buffer (a quarter of 8 GiB free is more), read + written in 2.0 ms
    assert bw["buffer_bytes"] == 1 << 30 and bw["repeats"] == 20 and bw["median_ms"] == 2.0
    assert bw["copy_gbps"] == pytest.approx(2 * (1 << 30) / 2e-3 / 1e9)
    assert bw["device_index"] == 0 and "read+write" in bw["method"]
