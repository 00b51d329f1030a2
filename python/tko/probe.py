"""What this Python sees: versions of python, torch (with torch.version.cuda /
hip) and triton, the GPUs torch sees with their arch, and optionally the
measured device copy bandwidth. Run by `tko env` as
`python -m tko.probe [--measure]`; prints one JSON object on stdout.

Nothing here fails for a missing torch or GPU: the JSON says so ("error"
fields) and the exit status is 0, so `tko env` can report it plainly.

The bandwidth is that of a large device-to-device copy, counting the bytes
read and the bytes written, median of repeated device-event timings: the
peak tko's reports compare kernels against.
"""

import argparse
import json
import statistics
import sys

PROBE_SCHEMA_VERSION = 1
COPY_BYTES = 1 << 30        # per buffer; two buffers, well beyond any cache
COPY_REPEATS = 20


def versions():
    out = {"python": {"version": sys.version.split()[0], "executable": sys.executable},
           "torch": {"version": None, "cuda": None, "hip": None, "error": None},
           "triton": {"version": None, "error": None}}
    try:
        import torch
        out["torch"].update(version=torch.__version__,
                            cuda=getattr(torch.version, "cuda", None),
                            hip=getattr(torch.version, "hip", None))
    except Exception as e:
        out["torch"]["error"] = f"{type(e).__name__}: {e}"
    try:
        import triton
        out["triton"]["version"] = triton.__version__
    except Exception as e:
        out["triton"]["error"] = f"{type(e).__name__}: {e}"
    return out


def devices():
    """The GPUs torch sees; [] without torch or GPU."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return []
    hip = getattr(torch.version, "hip", None)
    out = []
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        gcn = str(getattr(p, "gcnArchName", "") or "")
        out.append({
            "index": i, "name": p.name, "backend": "hip" if hip else "cuda",
            "arch": gcn.split(":")[0] if hip and gcn else f"sm_{p.major}{p.minor}",
            "arch_full": gcn if hip and gcn else None,  # CUDA's gcnArchName is the device name
            "capability": [p.major, p.minor],
            "multiprocessor_count": p.multi_processor_count,
            "memory_bytes": p.total_memory,
            "warp_size": getattr(p, "warp_size", None),
            "l2_cache_bytes": getattr(p, "L2_cache_size", None),
        })
    return out


def measure_copy(index=0, nbytes=COPY_BYTES, repeats=COPY_REPEATS):
    """Device-to-device copy bandwidth in GB/s (read + write bytes)."""
    import torch
    dev = torch.device("cuda", index)
    free, _ = torch.cuda.mem_get_info(dev)
    nbytes = max(1 << 20, min(nbytes, free // 4) >> 20 << 20)
    src = torch.ones(nbytes, dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(repeats)]
    for start, end in events:
        start.record()
        dst.copy_(src)
        end.record()
    torch.cuda.synchronize(dev)
    ms = statistics.median(s.elapsed_time(e) for s, e in events)
    del src, dst
    return {"copy_gbps": 2 * nbytes / (ms * 1e-3) / 1e9, "buffer_bytes": nbytes,
            "repeats": repeats, "median_ms": ms, "device_index": index,
            "method": "device-to-device copy; read+write bytes; median of device-event timings"}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tko.probe")
    parser.add_argument("--measure", action="store_true", help="measure device copy bandwidth")
    opts = parser.parse_args(argv)
    doc = {"schema_version": PROBE_SCHEMA_VERSION, **versions(), "devices": [],
           "bandwidth": None, "errors": []}
    try:
        doc["devices"] = devices()
    except Exception as e:
        doc["errors"].append(f"devices: {type(e).__name__}: {e}")
    if opts.measure and doc["devices"]:
        try:
            doc["bandwidth"] = measure_copy()
        except Exception as e:
            doc["errors"].append(f"bandwidth: {type(e).__name__}: {e}")
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
