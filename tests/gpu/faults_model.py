"""The model of tko's GPU fault-injection run (tests/gpu/faults.sh).

The same work as tests/gpu/model.py (compiled LayerNorm/GELU/softmax block,
index_add_, a max-autotune matmul, a hand-written @triton.autotune kernel),
with two faults the capture must survive:

  * the hand-written kernel's first argument is not a tensor but an object
    with data_ptr() and dtype, which Triton launches and tko's snapshot
    cannot save (always, so a run without capture does the same);
  * with --drift, a TorchInductor whose CachingAutotuner inherits `bench`
    and `_make_launchers` from a base class instead of defining them (an
    API that changed between versions): tko finds no such methods on the
    class and must record that and carry on. The change is made when
    triton_heuristics is first imported, before tko.capture patches it,
    the way tko's own post-import finder would see a newer torch.

Each output tensor goes to its own file OUT/<name>.pt, each under 32 MiB, so
a run whose files may not grow past that (faults.sh's full-disk fallback)
can still save them.
"""
import argparse
import importlib.abc
import importlib.machinery
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = "torch._inductor.runtime.triton_heuristics"
MOVED = ("bench", "_make_launchers")


def _drift(module):
    cls = module.CachingAutotuner
    moved = {k: cls.__dict__[k] for k in MOVED if k in cls.__dict__}
    base = type("_NewerTorchBase", cls.__bases__, moved)
    for k in moved:
        delattr(cls, k)
    cls.__bases__ = (base,)


class _DriftLoader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        _drift(module)
        capture = sys.modules.get("tko.capture")
        if capture is not None:
            capture.apply_patch(TARGET, module)


class _DriftFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None:
            spec.loader = _DriftLoader(spec.loader)
        return spec


class Ptr:
    """What Triton accepts as a pointer argument without it being a tensor."""

    def __init__(self, t):
        self.t = t
        self.dtype = t.dtype

    def data_ptr(self):
        return self.t.data_ptr()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="folder for the output tensors")
    parser.add_argument("--drift", action="store_true", help="emulate a changed CachingAutotuner")
    args = parser.parse_args()
    if args.drift:
        sys.meta_path.insert(0, _DriftFinder())
    import torch
    sys.path.insert(0, HERE)
    from model import compute

    outs = compute(wrap=Ptr, n=1 << 22)
    os.makedirs(args.out, exist_ok=True)
    for name, t in outs.items():
        torch.save(t.cpu(), os.path.join(args.out, name + ".pt"))
    print("DONE", *(tuple(t.shape) for t in outs.values()))


if __name__ == "__main__":
    main()
