"""Snapshots of a kernel's launch arguments, and their restoration.

Input: the argument names and values of one launch. Output: a description of
every argument (shape, stride, storage offset, dtype, device, and which
distinct storage it views, so aliasing between arguments is kept; scalars as
values) plus a host copy of every distinct storage in full, written as raw
bytes to inputs/storage<N>.bin. `load` rebuilds the same views on a device
from those files, sharing one storage wherever the captured arguments did.

torch is imported only when a tensor is actually met, so the module imports
(and `describe` works on scalars) without torch.
"""

import ctypes
import os
import sys


class SnapshotError(Exception):
    """An argument cannot be captured (its type, or the byte budget)."""


def _torch():
    import torch  # noqa: PLC0415 (imported late on purpose: see the module comment)
    return torch


def _is_tensor(value):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def dtype_name(dtype):
    """'float32' for torch.float32."""
    return str(dtype).replace("torch.", "")


def _scalar(name, value):
    if isinstance(value, bool):
        return {"name": name, "kind": "scalar", "type": "bool", "value": value}
    if isinstance(value, int):
        return {"name": name, "kind": "scalar", "type": "int", "value": int(value)}
    if isinstance(value, float):
        return {"name": name, "kind": "scalar", "type": "float", "value": value}
    if isinstance(value, str):
        return {"name": name, "kind": "scalar", "type": "str", "value": value}
    if value is None:
        return {"name": name, "kind": "none"}
    raise SnapshotError(f"argument '{name}' has type {type(value).__name__}, "
                        "which tko cannot capture")


def describe(names, values, storages=None):
    """The argument records of docs/capture-events.md, without copying data.

    `storages`, when given, is filled with (storage, device) per distinct
    storage, in the order the `storage` indices refer to.
    """
    seen = {}
    args = []
    for i, value in enumerate(values):
        name = names[i] if i < len(names) else f"arg{i}"
        if not _is_tensor(value):
            args.append(_scalar(name, value))
            continue
        if value.layout != _torch().strided or value.device.type == "meta":
            raise SnapshotError(f"argument '{name}' is a {value.layout} tensor on "
                                f"{value.device}, which tko cannot capture")
        storage = value.untyped_storage()
        key = (str(value.device), storage.data_ptr())
        if key not in seen:
            seen[key] = len(seen)
            if storages is not None:
                storages.append((storage, value.device))
        args.append({
            "name": name, "kind": "tensor",
            "shape": list(value.shape), "stride": list(value.stride()),
            "storage_offset": value.storage_offset(),
            "dtype": dtype_name(value.dtype), "element_size": value.element_size(),
            "device": str(value.device),
            "storage": seen[key], "storage_bytes": storage.nbytes(),
        })
    return args


def signature(args):
    """A hashable identity of a launch's argument shapes, for "first launch
    with a given argument signature"."""
    out = []
    for a in args:
        if a["kind"] == "tensor":
            out.append((tuple(a["shape"]), tuple(a["stride"]), a["dtype"], a["storage"]))
        else:
            out.append((a["kind"], repr(a.get("value"))))
    return tuple(out)


def capturing_graph():
    """True while the current CUDA stream records a graph: no copy or
    synchronisation is allowed then (it would break the model's capture)."""
    torch = sys.modules.get("torch")
    try:
        return bool(torch is not None and torch.cuda.is_available()
                    and torch.cuda.is_current_stream_capturing())
    except Exception:  # no CUDA runtime: nothing can be capturing
        return False


class Snapshot:
    """Argument records plus host copies of the distinct storages."""

    def __init__(self, args, host_storages):
        self.args = args
        self.host = host_storages  # one uint8 CPU tensor per distinct storage
        self.nbytes = sum(t.numel() for t in host_storages)


def take(names, values, max_bytes):
    """Copies every distinct storage the arguments view to the host.

    The copy waits for all queued work on the device first, so the bytes are
    those the kernel is about to read; that is a synchronisation, which
    changes timing but never results. Raises SnapshotError past `max_bytes`.
    """
    storages = []
    args = describe(names, values, storages)
    total = sum(s.nbytes() for s, _ in storages)
    if total > max_bytes:
        raise SnapshotError(f"inputs need {total} bytes, over the capture budget of "
                            f"{max_bytes} bytes (TKO_CAPTURE_MAX_BYTES)")
    host = []
    torch = _torch() if storages else None
    for storage, device in storages:
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        u8 = torch.empty(0, dtype=torch.uint8, device=device)
        u8.set_(storage, 0, (storage.nbytes(),), (1,))
        host.append(u8.to("cpu", copy=True))
    return Snapshot(args, host)


def write(snapshot, inputs_dir):
    """Writes inputs/storage<N>.bin; returns the storage records for capture.json."""
    os.makedirs(inputs_dir, exist_ok=True)
    records = []
    for i, t in enumerate(snapshot.host):
        name = f"storage{i}.bin"
        n = t.numel()
        with open(os.path.join(inputs_dir, name), "wb") as f:
            if n:
                f.write(memoryview((ctypes.c_char * n).from_address(t.data_ptr())))
        records.append({"index": i, "file": f"inputs/{name}", "nbytes": n})
    return records


def inside(kernel_dir, rel):
    """kernel_dir/rel, refusing a `rel` that leaves the directory.

    capture.json names its files relative to the kernel directory; one from
    elsewhere (an absolute path, "..", a symbolic link out) is refused
    rather than read, so a copied RUN cannot make a replay use other files.
    """
    if not isinstance(rel, str) or not rel or os.path.isabs(rel) or ".." in rel.split("/"):
        raise SnapshotError(f"capture.json names {rel!r}, not a file inside the kernel directory")
    path = os.path.join(kernel_dir, rel)
    real, root = os.path.realpath(path), os.path.realpath(kernel_dir)
    if os.path.commonpath([real, root]) != root:
        raise SnapshotError(f"'{path}' leads outside the kernel directory")
    return path


def load(kernel_dir, args, storages, device=None):
    """Rebuilds the captured arguments on `device` (default: the captured one).

    Returns (values, device_storages): the argument values in order, and the
    uint8 device tensor behind each distinct storage.
    """
    torch = _torch()
    dev_storages = []
    for rec in storages:
        path = inside(kernel_dir, rec["file"])
        n = int(rec["nbytes"])
        if os.path.getsize(path) != n:
            raise SnapshotError(f"'{path}' has {os.path.getsize(path)} bytes, "
                                f"capture.json says {n}")
        dev = device or _storage_device(args, rec["index"])
        if n:
            host = torch.from_file(path, shared=False, size=n, dtype=torch.uint8)
        else:
            host = torch.empty(0, dtype=torch.uint8)
        dev_storages.append(host.to(dev))
    values = []
    for a in args:
        if a["kind"] == "tensor":
            base = dev_storages[a["storage"]]
            t = torch.empty(0, dtype=getattr(torch, a["dtype"]), device=base.device)
            t.set_(base.untyped_storage(), a["storage_offset"], a["shape"], a["stride"])
            values.append(t)
        elif a["kind"] == "none":
            values.append(None)
        else:
            values.append(a["value"])
    return values, dev_storages


def _storage_device(args, index):
    for a in args:
        if a["kind"] == "tensor" and a["storage"] == index:
            return a["device"]
    return "cpu"
