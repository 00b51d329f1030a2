"""The model of tko's GPU proof (tests/gpu/proof.sh runs it under `tko capture`).

torch.compile'd embedding, LayerNorm, GELU MLP and softmax; index_add_; a
matmul under max-autotune; and a hand-written @triton.autotune kernel
launched directly. It writes every output to --out (torch.save) so that a
run under capture and a run without it can be compared bit for bit.

The inputs are seeded, and index_add_ adds small integers, so results do
not depend on the order in which atomics land; no backward pass (its
scatter-adds of floats would). Based on corpus/scripts/capture_demo.py.

With --steps N or STEPS=N (N > 1; tests/gpu/apply-ab.sh, bench/apply-models.sh)
it builds the same model and inputs once and calls step() N times on them, so
that `tko apply --step __main__:step` can time a step; the first step's
outputs are compute()'s. --out is optional (nothing saved without it).
"""
import argparse
import os

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


def setup(wrap=lambda t: t, n=1 << 24, dev=DEV):
    """The model, its inputs and its compiled functions, seeded: the random
    draws in the order compute() always made them (the compiled calls draw
    none). `wrap` is applied to the hand-written kernel's first argument
    (tests/gpu/faults_model.py passes one that is not a tensor)."""
    torch.manual_seed(0)
    with torch.no_grad():
        m = Block().to(dev)
        p = {"idx": torch.randint(0, 32000, (8, 512), device=dev),
             "bias": torch.randn(4096, device=dev), "block": torch.compile(m)}
        p["src"] = torch.randint(-8, 8, (100000, 256), device=dev).float()
        p["index"] = torch.randint(0, 5000, (100000,), device=dev)
        p["scatter"] = torch.compile(scatter)
        p["a"] = torch.randn(2048, 2048, device=dev, dtype=torch.float16)
        p["b"] = torch.randn(2048, 2048, device=dev, dtype=torch.float16)
        p["mm"] = torch.compile(lambda a, b: torch.relu(a @ b), mode="max-autotune-no-cudagraphs")
        p["x"] = torch.randn(n, device=dev)
        p["y"] = torch.randn(n, device=dev)
    p.update(n=n, wrap=wrap)
    return p


def run_once(p):
    """Every part of the model once, on setup()'s inputs; the outputs by name."""
    n = p["n"]
    with torch.no_grad():
        soft = p["block"](p["idx"], p["bias"], 0.5)
        added = p["scatter"](p["src"], p["index"], 5000)
        mm = p["mm"](p["a"], p["b"])
        out = torch.empty_like(p["x"])
        scale_add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](p["wrap"](p["x"]), p["y"], out, n, 0.5)
    return {"softmax": soft, "index_add": added, "mm_relu": mm, "scale_add": out}


def step(p):
    """One step of a repeated run (STEPS > 1): run_once and, as its "loss" for
    tko apply --step __main__:step, the geometric mean of the outputs' mean
    squares (one float64 norm each, eager, not in compute()): a relative change
    r in any one output's moves it by about r/4, whatever their scales."""
    outs = run_once(p)
    with torch.no_grad():
        ms = torch.stack([torch.linalg.vector_norm(v, dtype=torch.float64) ** 2 / v.numel()
                          for v in outs.values()])
        loss = ms.log().mean().exp()
    return loss, outs


def compute(wrap=lambda t: t, n=1 << 24, dev=DEV):
    """Runs every part of the model once; the outputs by name."""
    outs = run_once(setup(wrap, n, dev))
    torch.cuda.synchronize()
    return outs


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", help="where torch.save puts the outputs (the last step's)")
    parser.add_argument("--steps", type=int,
                        help="repeat the step N times on the same inputs (default $STEPS, else 1: "
                        "compute() once); tko apply times each call of step() with --step __main__:step")
    args = parser.parse_args(argv)
    if args.steps is None:
        args.steps = int(os.environ.get("STEPS") or 1)
    if args.steps <= 1:
        outs = compute()
    else:
        p = setup()
        for _ in range(args.steps):
            _, outs = step(p)
        torch.cuda.synchronize()
    if args.out:
        torch.save({k: v.cpu() for k, v in outs.items()}, args.out)
    print("DONE", *(tuple(v.shape) for v in outs.values()))


if __name__ == "__main__":
    main()
