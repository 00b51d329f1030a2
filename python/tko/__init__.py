"""tko's Python side: the thin part of tko that must run inside a PyTorch process.

It captures Triton kernels with their real inputs (tko.capture, loaded by the
sitecustomize hook in tko/_hook that `tko capture` puts on PYTHONPATH), replays
captured kernels (tko.replay, driven by `tko run`) and probes the installed
torch/Triton and the GPU (tko.probe, driven by `tko env`). It writes files and
JSON lines that the C side reads; it does no analysis of its own.
"""

__version__ = "0.1.0"
