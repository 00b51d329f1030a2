"""Helpers of bench/tune-gpu.sh: which captured kernels the models run (match.py),
the interleaved re-timing on the GPU (retime.py), and the benchmark's
criteria over its results (criteria.py)."""
