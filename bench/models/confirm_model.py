"""A small model for bench/tune-confirm.sh (issue 17): a compiled AdamW step
with foreach=True over three flat parameters (Inductor emits foreach
kernels, triton_for_fused_*, for it) and a compiled softmax with a
pointwise prologue. Small on purpose: it is captured, tuned and re-timed
in one short GPU call.

    python bench/models/confirm_model.py --out FILE.pt
"""
import argparse

import torch


def softmax_part():
    x = torch.randn(4096, 4096, device="cuda")
    f = torch.compile(lambda t: torch.softmax(t * 2.0 + 1.0, dim=-1))
    return f(x)


def adamw_part():
    params = [torch.randn(n, device="cuda", requires_grad=True) for n in (8 << 20, 4 << 20, 1 << 20)]
    for p in params:
        p.grad = torch.randn_like(p)
    opt = torch.optim.AdamW(params, lr=1e-3, foreach=True)

    @torch.compile
    def step():
        opt.step()

    for _ in range(2):
        step()
    return [p.detach() for p in params]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.manual_seed(0)
    out = {"softmax": softmax_part()}
    out["params"] = adamw_part()
    torch.cuda.synchronize()
    torch.save({k: (v.cpu() if torch.is_tensor(v) else [t.cpu() for t in v])
                for k, v in out.items()}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
