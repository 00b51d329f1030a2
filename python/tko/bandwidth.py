"""One measurement of the device's copy bandwidth, for tko env --measure
(tko.probe) and tko tune's peak column (the worker's copy_bandwidth).

A device-to-device copy of a buffer well beyond any cache, counting the
bytes read and the bytes written, median of device-event timings taken
back to back after `warmup` untimed copies: the peak tko's reports
compare kernels against. The buffer is cut to a quarter of the free device
memory when that is less, so the measurement never runs the GPU out of
memory. Needs torch and a GPU; the callers report a failure themselves.
"""

import statistics

METHOD = "device-to-device copy; read+write bytes; median of device-event timings"


def measure_copy(nbytes, repeats, warmup, index=0):
    """{"copy_gbps", "buffer_bytes", "repeats", "median_ms", "device_index", "method"}."""
    import torch
    dev = torch.device("cuda", index)
    free, _ = torch.cuda.mem_get_info(dev)
    nbytes = max(1 << 20, min(nbytes, free // 4) >> 20 << 20)
    src = torch.ones(nbytes, dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    for _ in range(warmup):
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
            "repeats": repeats, "median_ms": ms, "device_index": index, "method": METHOD}
