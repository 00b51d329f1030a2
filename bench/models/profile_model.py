"""The whole-step proof's model (tests/gpu/profile-proof.sh): a training step
whose GPU time is library kernels and Triton kernels both, like the step of
issue 19.

Per block: RMSNorm (Triton), causal attention through SDPA (flash /
memory-efficient: a library kernel under aten::_scaled_dot_product_*), an
fp32 MLP of two large matmuls (cuBLAS sgemm / xmma f32 under aten::mm) and a
bf16 projection matmul under autocast (a bf16 GEMM); the loss is a
cross-entropy over a large vocabulary. torch.compile(mode="default").

It times its own steps, independently of tko: after each step
loss.item() synchronises, and time.time() at each step's end goes to
$PROOF_STEPS_JSON (a list), so the proof can compare tko's step time from
the profile with the wall clock of the same steps.

    python3 bench/models/profile_model.py [--steps 40] [--dim 2048]
"""
import argparse
import json
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.norm2 = nn.RMSNorm(dim)
        self.up = nn.Linear(dim, 4 * dim, bias=False)
        self.down = nn.Linear(4 * dim, dim, bias=False)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        a = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                           v.transpose(1, 2), is_causal=True)
        a = a.transpose(1, 2).reshape(b, t, d)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            x = x + self.proj(a).float()           # a bf16 GEMM
        return x + self.down(F.gelu(self.up(self.norm2(x))))   # fp32 GEMMs


class Model(nn.Module):
    def __init__(self, vocab, dim, heads, layers):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx, targets):
        x = self.emb(idx)
        for blk in self.blocks:
            x = blk(x)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--dim", type=int, default=2048)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--seq", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--vocab", type=int, default=32000)
    args = ap.parse_args()
    torch.manual_seed(0)
    dev = "cuda"
    model = Model(args.vocab, args.dim, args.heads, args.layers).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    step = torch.compile(model)
    idx = torch.randint(0, args.vocab, (args.batch, args.seq), device=dev)
    tgt = torch.randint(0, args.vocab, (args.batch, args.seq), device=dev)
    ends = []
    for i in range(args.steps):
        loss = step(idx, tgt)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        value = loss.item()                  # synchronises: the step's end on the clock
        ends.append(time.time())
        if i % 10 == 0:
            print(f"step {i} loss {value:.5f}", flush=True)
    out = os.environ.get("PROOF_STEPS_JSON")
    if out:
        with open(out, "w") as f:
            json.dump({"step_end_times": ends, "args": vars(args)}, f)


if __name__ == "__main__":
    main()
