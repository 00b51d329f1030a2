"""The copy rate of a GPU as a function of the bytes one copy moves.

bench/tune-gpu.sh holds memory-bound kernels to 85% of the rate of a 1 GiB
device-to-device copy. A kernel that moves 84 MB takes about 25 us on an
H200, so what a launch and the last wave cost weighs on it more than on the
1 GiB copy. This measures how much: a copy moving each size (read + write),
the L2 flushed before every repetition as the re-timing does, device events
around the copy alone, median of REPS.

    python3 bench/copy_sizes.py [--reps 50] [--json FILE]

Prints per size the median time, GB/s and the fraction of the 1 GiB copy's
rate (which bench/tune_gpu/retime.py reports as the copy bandwidth).
"""
import argparse
import json
import statistics

SIZES_MB = [8, 16, 32, 64, 84, 105, 128, 256, 512, 1024]
FLUSH_BYTES = 256 << 20  # five times the H200's 50 MB L2


def copy_ms(moved, flush, reps):
    """Median ms of a copy moving `moved` bytes; flush: a CUDA tensor larger
    than the L2, zeroed before each repetition (bench/tune_gpu/retime.py
    passes its own). torch is imported here, so the module loads without it."""
    import torch
    n = moved // 2  # a copy reads n bytes and writes n
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    times = []
    for i in range(reps + 3):
        flush.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        dst.copy_(src)
        end.record()
        end.synchronize()
        if i >= 3:
            times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--json", help="also write the rows here")
    opts = ap.parse_args()
    import torch
    flush = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device="cuda")
    rows = []
    for mb in SIZES_MB:
        moved = mb * 1000 * 1000
        ms = copy_ms(moved, flush, opts.reps)
        rows.append({"moved_mb": mb, "ms": ms, "gbps": moved / (ms / 1e3) / 1e9})
    # the re-timing's reference: a 1 GiB buffer copied (2 GiB moved)
    ref_ms = copy_ms(2 << 30, flush, opts.reps)
    ref = (2 << 30) / (ref_ms / 1e3) / 1e9
    print("device", torch.cuda.get_device_name(), "torch", torch.__version__,
          "1 GiB copy %.0f GB/s" % ref)
    print("%9s %10s %8s %9s" % ("moved MB", "ms", "GB/s", "of 1 GiB"))
    for r in rows:
        r["of_1gib"] = r["gbps"] / ref
        print("%9d %10.4f %8.0f %8.0f%%" % (r["moved_mb"], r["ms"], r["gbps"], 100 * r["of_1gib"]))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "ref_gbps": ref, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
