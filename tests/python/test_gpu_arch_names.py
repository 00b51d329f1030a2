"""The GPU arch tko's Python side reports, from torch's device properties.

On the H200 (torch 2.11.0+cu130) torch.cuda.get_device_properties(0) has a
gcnArchName too, holding "NVIDIA H200", and tko tune refused the target
"NVIDIA H200" (tests/gpu/proof.sh, first run). The arch must come from
gcnArchName only under HIP, else from the compute capability."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
from tko import tune_worker  # noqa: E402


class Props:
    def __init__(self, gcn, major, minor):
        self.gcnArchName, self.major, self.minor = gcn, major, minor


def test_cuda_ignores_gcn_arch_name():
    assert tune_worker.gpu_arch(Props("NVIDIA H200", 9, 0), None) == "sm_90"


def test_hip_takes_the_first_part_of_gcn_arch_name():
    assert tune_worker.gpu_arch(Props("gfx942:sramecc+:xnack-", 9, 4), "6.3.42131") == "gfx942"
    assert tune_worker.gpu_arch(Props("gfx936", 9, 3), "6.3.26113") == "gfx936"
