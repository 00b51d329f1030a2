"""The model of tko's GPU proof (tests/gpu/proof.sh runs it under `tko capture`).

torch.compile'd embedding, LayerNorm, GELU MLP and softmax; index_add_; a
matmul under max-autotune; and a hand-written @triton.autotune kernel
launched directly. It writes every output to --out (torch.save) so that a
run under capture and a run without it can be compared bit for bit.

The inputs are seeded, and index_add_ adds small integers, so results do
not depend on the order in which atomics land; no backward pass (its
scatter-adds of floats would). Based on corpus/scripts/capture_demo.py.
"""
import argparse

import torch
import triton
import triton.language as tl

DEV = "cuda"


class Block(torch.nn.Module):
    def __init__(self, vocab=32000, d=1024):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, d)
        self.ln = torch.nn.LayerNorm(d)
        self.fc = torch.nn.Linear(d, 4 * d)
        self.proj = torch.nn.Linear(4 * d, d)

    def forward(self, idx, bias, scale):
        h = self.ln(self.emb(idx))
        h = torch.nn.functional.gelu(self.fc(h)) * scale + bias
        return torch.softmax(self.proj(h).float(), dim=-1)


def scatter(src, index, n):
    out = torch.zeros(n, src.shape[1], device=src.device, dtype=src.dtype)
    out.index_add_(0, index, src)
    return out


@triton.autotune(
    configs=[
        triton.Config({"BLOCK": 1024}, num_warps=4),
        triton.Config({"BLOCK": 2048}, num_warps=8),
        triton.Config({"BLOCK": 4096}, num_warps=8),
    ],
    key=["n"],
)
@triton.jit
def scale_add_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * alpha + y, mask=mask)


def compute(wrap=lambda t: t, n=1 << 24, dev=DEV):
    """Runs every part of the model once; the outputs by name. `wrap` is
    applied to the hand-written kernel's first argument (tests/gpu/faults_model.py
    passes one that is not a tensor)."""
    torch.manual_seed(0)
    with torch.no_grad():
        m = Block().to(dev)
        idx = torch.randint(0, 32000, (8, 512), device=dev)
        bias = torch.randn(4096, device=dev)
        soft = torch.compile(m)(idx, bias, 0.5)

        src = torch.randint(-8, 8, (100000, 256), device=dev).float()
        index = torch.randint(0, 5000, (100000,), device=dev)
        added = torch.compile(scatter)(src, index, 5000)

        a = torch.randn(2048, 2048, device=dev, dtype=torch.float16)
        b = torch.randn(2048, 2048, device=dev, dtype=torch.float16)
        mm = torch.compile(lambda a, b: torch.relu(a @ b), mode="max-autotune-no-cudagraphs")(a, b)

        x = torch.randn(n, device=dev)
        y = torch.randn(n, device=dev)
        out = torch.empty_like(x)
        scale_add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](wrap(x), y, out, n, 0.5)
    torch.cuda.synchronize()
    return {"softmax": soft, "index_add": added, "mm_relu": mm, "scale_add": out}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="where torch.save puts the outputs")
    args = parser.parse_args()
    outs = compute()
    torch.save({k: v.cpu() for k, v in outs.items()}, args.out)
    print("DONE", *(tuple(v.shape) for v in outs.values()))


if __name__ == "__main__":
    main()
