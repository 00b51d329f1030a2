"""The second model of tko's tuning benchmark (bench/tune-gpu.sh): one training
step of a decoder block with RMSNorm, rotary embedding and cross-entropy, and
an AdamW update, in bf16 mixed precision with a LLaMA-2-sized vocabulary.

  loss = cross_entropy(head(rms_norm(x + rotary(q_proj(rms_norm(emb(idx))))))),
  loss.backward() through the compiled graph (AOTAutograd's backward kernels:
  the RMSNorm and cross-entropy gradients, the embedding's scatter-add),
  then AdamW on one flat 67M-parameter buffer holding the real gradients
  (parameters, gradients, both moments: 7 x 266 MB of traffic, memory-bound).

The backward pass is where Inductor's default reduction configs are weakest
(column reductions for the norm weights' gradients, the softmax gradient),
so a benchmark of the forward alone would leave out the kernels a training
user tunes. The forward runs under torch.autocast(bfloat16), as training
does: the projections' outputs, hence the rotary kernel and the logits, are
bf16, the norms and the loss float32. The vocabulary is 32000 (LLaMA-2's
tokenizer), not a power of two, so the cross-entropy rows end in a masked
tail as they do in real models. Sizes make every kernel move tens to hundreds of MB, so they are
bandwidth-bound on an H200.

run(out_path) writes the outputs (torch.save) so that two runs can be compared;
`python second.py --out FILE` does the same from the command line. The
embedding's gradient is a scatter-add of floats, so runs agree to rounding,
not bit for bit. With --steps N or STEPS=N it is a training loop of N steps
(train_step; tests/gpu/apply-ab.sh and bench/apply-models.sh run it under
`tko apply --step __main__:train_step`); its first step is the one above.
"""
import argparse
import os

import torch

DEV = "cuda"
TOKENS, DIM, HEADS, VOCAB = 8192, 1024, 8, 32000


def rms_norm(x, w, eps=1e-6):
    return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps).to(x.dtype) * w


def rotary(x, cos, sin):
    """x: (tokens, heads, head_dim); the rotate-half form of LLaMA."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)


def rotary_tables(tokens, head_dim):
    inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, device=DEV).float() / head_dim))
    ang = torch.arange(tokens, device=DEV).float()[:, None] * inv[None, :]
    return ang.cos()[:, None, :], ang.sin()[:, None, :]


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, DIM)
        self.w1 = torch.nn.Parameter(torch.ones(DIM))
        self.w2 = torch.nn.Parameter(torch.ones(DIM))
        self.q = torch.nn.Linear(DIM, DIM, bias=False)
        self.head = torch.nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, idx, targets, cos, sin):
        h = rms_norm(self.emb(idx), self.w1)
        q = rotary(self.q(h).view(TOKENS, HEADS, DIM // HEADS), cos, sin).view(TOKENS, DIM)
        logits = self.head(rms_norm(h + q, self.w2))
        return torch.nn.functional.cross_entropy(logits.float(), targets)


def adamw_step(p, g, m, v, lr: float, step: int, beta1=0.9, beta2=0.95, eps=1e-8, wd=0.1):
    """One AdamW update of flat buffers, in place (torch.optim.AdamW's math)."""
    p.mul_(1 - lr * wd)
    m.lerp_(g, 1 - beta1)
    v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    denom = (v / (1 - beta2 ** step)).sqrt_().add_(eps)
    p.addcdiv_(m, denom, value=-lr / (1 - beta1 ** step))


def setup():
    """The model, its inputs and the compiled callables, seeded as run() always was."""
    torch.manual_seed(0)
    model = Decoder().to(DEV)
    idx = torch.randint(0, VOCAB, (TOKENS,), device=DEV)
    targets = torch.randint(0, VOCAB, (TOKENS,), device=DEV)
    cos, sin = rotary_tables(TOKENS, DIM // HEADS)
    return {"model": model, "compiled": torch.compile(model), "adamw": torch.compile(adamw_step),
            "args": (idx, targets, cos, sin), "m": None, "v": None}


def train_step(s):
    """One training step: forward, backward, AdamW on the flat buffer (its
    bias correction at step 1, so that every step runs the same compiled
    graph: a changing int would recompile it). Gradients start from None;
    run() copies each step's update back into the parameters before the
    next (in place, outside the compiled graphs), as a training loop would;
    its first step is the one run() always made. Returns the loss."""
    params = list(s["model"].parameters())
    for p in params:
        p.grad = None
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = s["compiled"](*s["args"])
    loss.backward()
    with torch.no_grad():
        flat = torch.cat([p.detach().flatten() for p in params])
        grad = torch.cat([p.grad.flatten() for p in params])
        if s["m"] is None:
            s["m"], s["v"] = torch.zeros_like(flat), torch.zeros_like(flat)
        s["adamw"](flat, grad, s["m"], s["v"], 1e-3, 1)
    s["flat"] = flat
    return loss


def run(out_path, steps=1):
    """steps training steps (tko apply times each with --step __main__:train_step);
    the outputs of the last one to out_path (none when it is None)."""
    s = setup()
    for i in range(steps):
        if i:  # the previous step's update into the parameters
            with torch.no_grad():
                params = list(s["model"].parameters())
                for p, t in zip(params, torch.split(s["flat"], [p.numel() for p in params])):
                    p.copy_(t.view_as(p))
        loss = train_step(s)
    torch.cuda.synchronize()
    flat, m = s["flat"], s["m"]
    if out_path:
        torch.save({"loss": loss.detach().cpu(), "params": flat[:4096].cpu(), "m": m[:4096].cpu()}, out_path)
    print("DONE second", float(loss), flat.numel())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", help="where torch.save puts the outputs (the last step's)")
    parser.add_argument("--steps", type=int,
                        help="training steps (default $STEPS, else 1)")
    args = parser.parse_args()
    run(args.out, max(args.steps or int(os.environ.get("STEPS") or 1), 1))


if __name__ == "__main__":
    main()
