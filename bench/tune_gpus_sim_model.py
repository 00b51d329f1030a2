"""The torch.compile'd parts of tests/gpu/model.py (embedding, LayerNorm,
GELU MLP, softmax; index_add_) without its max-autotune matmul and its
hand-written kernel, so that bench/tune-gpus-sim.sh's capture takes seconds."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gpu"))
import model  # noqa: E402


def main():
    torch.manual_seed(0)
    with torch.no_grad():
        m = model.Block().to("cuda")
        idx = torch.randint(0, 32000, (8, 512), device="cuda")
        bias = torch.randn(4096, device="cuda")
        torch.compile(m)(idx, bias, 0.5)
        src = torch.randint(-8, 8, (100000, 256), device="cuda").float()
        index = torch.randint(0, 5000, (100000,), device="cuda")
        torch.compile(model.scatter)(src, index, 5000)
    torch.cuda.synchronize()
    print("DONE")


if __name__ == "__main__":
    main()
