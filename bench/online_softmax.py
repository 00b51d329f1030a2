"""Is the cross-entropy forward held back by Inductor's online softmax?

The second benchmark model's cross-entropy forward (bench/models/second.py:
8192 rows of 32000 bf16 logits) is the one memory-bound kernel that runs
far below the copy rate (41% in docs/PERFORMANCE.md), and no launch config
moved it past 1.20x. Inductor 2.11 emits it as an online softmax
(triton_helpers.online_softmax_combine: two exps per logit, one pass over
the row); TORCHINDUCTOR_ONLINE_SOFTMAX=0 makes it emit the two-pass form
(a max, then a sum of exps: one exp per logit, the row read twice). This
times both, compiled from scratch in one process, L2 flushed before every
call (triton.testing.do_bench), and checks they agree:

  - the loss alone (forward), and forward + backward (training);
  - the copy rate of the logits' bytes, for scale.

    python bench/online_softmax.py [--rows 8192] [--vocab 32000] [--json OUT]
"""
import argparse
import json
import sys

import torch
import torch._dynamo
import torch._inductor.config as inductor_config
import torch.nn.functional as F
from triton.testing import do_bench


def loss_fn(logits, targets):
    return F.cross_entropy(logits.float(), targets)


def kernels(fn, logits, targets):
    """Per GPU kernel of the forward: mean microseconds per call."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            fn(logits, targets)
        torch.cuda.synchronize()
    return {e.key: e.device_time_total / e.count for e in prof.key_averages()
            if e.device_time_total > 0}


def measure(online, logits, targets):
    """Compiles the loss from scratch with online_softmax=online (the
    backward too, at its first call), times it, returns the outputs."""
    torch._dynamo.reset()
    fn = torch.compile(loss_fn)
    with inductor_config.patch(online_softmax=online, force_disable_caches=True):
        loss = fn(logits, targets)
        logits.grad = None
        fn(logits, targets).backward()
        grad = logits.grad.clone()

    def train():
        logits.grad = None
        fn(logits, targets).backward()

    fwd = do_bench(lambda: fn(logits, targets), warmup=25, rep=200, return_mode="median")
    both = do_bench(train, warmup=25, rep=200, return_mode="median")
    return ({"forward_ms": fwd, "forward_backward_ms": both,
             "forward_kernels_us": kernels(fn, logits, targets)}, loss.detach(), grad)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=8192)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--json")
    opts = p.parse_args(argv)
    torch.manual_seed(0)
    logits = (torch.randn(opts.rows, opts.vocab, device="cuda") * 4).to(torch.bfloat16)
    logits.requires_grad_(True)
    targets = torch.randint(0, opts.vocab, (opts.rows,), device="cuda")
    out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "rows": opts.rows, "vocab": opts.vocab, "logits_bytes": logits.numel() * 2}
    # each mode compiled and measured twice, interleaved, to see the noise
    results = {True: [], False: []}
    for _ in range(2):
        for online in (True, False):
            results[online].append(measure(online, logits, targets))
    ref_loss, ref_grad = results[True][0][1], results[True][0][2]
    for online, name in ((True, "online"), (False, "two_pass")):
        runs = results[online]
        out[name] = {"forward_ms": min(r[0]["forward_ms"] for r in runs),
                     "forward_backward_ms": min(r[0]["forward_backward_ms"] for r in runs),
                     "loss_diff": float((runs[0][1] - ref_loss).abs()),
                     "grad_max_diff": float((runs[0][2].float() - ref_grad.float()).abs().max()),
                     "forward_kernels_us": runs[0][0]["forward_kernels_us"],
                     "forward_ms_each_run": [r[0]["forward_ms"] for r in runs]}
        out[name]["forward_gbps"] = out["logits_bytes"] / (out[name]["forward_ms"] / 1e3) / 1e9
    # forward_gbps is a scale for the whole forward (several kernels) with the
    # logits read once, not one launch's bytes: per-launch rates are tko's
    # count (src/model/traffic.h, docs/json.md "Bytes and rates")
    out["forward_gbps_basis"] = "logits bytes read once / whole forward time (a scale, not a launch)"
    src = torch.empty(out["logits_bytes"] // 2, dtype=torch.bfloat16, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = do_bench(lambda: dst.copy_(src), warmup=25, rep=200, return_mode="median")
    out["copy_gbps_same_bytes"] = 2 * out["logits_bytes"] / (copy_ms / 1e3) / 1e9
    out["two_pass_speedup_forward"] = out["online"]["forward_ms"] / out["two_pass"]["forward_ms"]
    out["two_pass_speedup_training"] = (out["online"]["forward_backward_ms"] /
                                        out["two_pass"]["forward_backward_ms"])
    text = json.dumps(out, indent=1)
    print(text)
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
