"""What this Python sees: versions of python, torch (with torch.version.cuda /
hip) and triton, the facts of the GPUs torch sees (tko.gpu: tko's C side
decides their arch), and optionally the measured device copy bandwidth
(tko.bandwidth). Run by `tko env` as `python -m tko.probe [--measure]`;
prints one JSON object on stdout.

Nothing here fails for a missing torch or GPU: the JSON says so ("error"
fields) and the exit status is 0, so `tko env` can report it plainly.
"""

import argparse
import json
import sys

from . import bandwidth, gpu

PROBE_SCHEMA_VERSION = 1
COPY_BYTES = 1 << 30        # per buffer; two buffers, well beyond any cache
COPY_REPEATS = 20
COPY_WARMUP = 3


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
    """The GPUs torch sees, as facts (tko.gpu) plus memory and L2 sizes; []
    without torch or GPU."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return []
    hip = getattr(torch.version, "hip", None)
    out = []
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        out.append(dict(index=i, **gpu.facts(p, hip), memory_bytes=p.total_memory,
                        l2_cache_bytes=getattr(p, "L2_cache_size", None)))
    return out


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
            doc["bandwidth"] = bandwidth.measure_copy(COPY_BYTES, COPY_REPEATS, COPY_WARMUP)
        except Exception as e:
            doc["errors"].append(f"bandwidth: {type(e).__name__}: {e}")
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
