"""The model tests/gpu/apply_proof.py applies winners to: torch.compile of an
MLP with LayerNorm, GELU, softmax and cross-entropy, a backward and an SGD
step, plus a hand-written @triton.autotune kernel; unchanged between the
arms. With APPLY_MODEL_PRINT=1 (the default) it prints one JSON line: the
losses and the time of the timed steps. tests/gpu/apply-ab.sh runs it with
APPLY_MODEL_PRINT=0, as a user's script that prints nothing: tko apply's
hook then times the steps itself (its optimizer post hook)."""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apply_kernels import scale  # noqa: E402

torch.manual_seed(0)
dev = "cuda"
model = torch.nn.Sequential(torch.nn.Linear(1024, 2048), torch.nn.LayerNorm(2048), torch.nn.GELU(),
                            torch.nn.Linear(2048, 1000)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=1e-2)
x = torch.randn(4096, 1024, device=dev)
y = torch.randint(0, 1000, (4096,), device=dev)


@torch.compile
def step(x, y):
    logits = model(x)
    probs = torch.softmax(logits, dim=-1)
    return torch.nn.functional.cross_entropy(logits, y) + probs.max(dim=-1).values.mean() * 0


losses = []
warm, timed = int(os.environ.get("WARM", 5)), int(os.environ.get("STEPS", 20))
for i in range(warm + timed):
    if i == warm:
        torch.cuda.synchronize()
        start = time.perf_counter()
    opt.zero_grad(set_to_none=True)
    loss = step(scale(x) * 2.0, y)
    loss.backward()
    opt.step()
    losses.append(loss.detach())
torch.cuda.synchronize()
ms = (time.perf_counter() - start) * 1e3 / timed
if os.environ.get("APPLY_MODEL_PRINT", "1") != "0":
    print(json.dumps({"losses": [float(v) for v in losses], "ms_per_step": ms}))
