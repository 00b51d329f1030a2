"""Writes a large torch.profiler (Kineto) Chrome trace for `bench/profile_import`.

The events copy the shapes of real Kineto traces (the MI300X torch.compile
trace and the H100 BERT trace in tests/data/profile/): per layer of a
transformer-like step, python_function frames, ATen cpu_ops with
Input Dims/Input type/Input Strides, the runtime launch with its
correlation, the GPU kernel with External id/correlation/grid/block, the
ac2g flow pair, and Inductor's Triton launch cpu_op (kernel_hash,
kernel_file, kernel_kwargs). Sizes per event match theirs (150 to 700
bytes), so a file of N MB holds about as many events as a real one.

It also prints the figures a reader must reproduce (kernels, their summed
time, the busy time) as one JSON line on stderr, computed here from what it
wrote, not by tko:

    python3 bench/profile_trace_gen.py --mb 1024 --out /tmp/big.json [--gzip]
"""
import argparse
import gzip
import json
import sys

# (op, kernel name, kernel us, class) for one layer; the Triton ones are
# launched by Inductor's launch op, the rest by their ATen op.
LAYER = [
    ("triton", "triton_red_fused_add_mean_mul_pow_rsqrt_0", 31.5),
    ("aten::mm", "sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_"
                 "execute_segment_k_off_kernel__5x_cublas", 412.25),
    ("aten::mm", "sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_"
                 "execute_segment_k_off_kernel__5x_cublas", 398.75),
    ("aten::_scaled_dot_product_efficient_attention",
     "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, "
     "cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)", 188.0),
    ("triton", "triton_poi_fused__unsafe_view_mul_silu_2", 96.5),
    ("aten::mm", "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>"
                 "(cutlass_80_simt_sgemm_128x128_8x4_nn_align1::Params)", 640.0),
    ("triton", "triton_poi_fused__unsafe_view_add_3", 22.25),
]
GAP_US = 3.0
PID, TID, GPU_PID, STREAM = 3182306, 3182306, 0, 7


def py_frame(ts, ext, name):
    return {"ph": "X", "cat": "python_function", "name": name, "pid": PID, "tid": TID,
            "ts": ts, "dur": 35.125, "args": {"Python parent id": ext, "Python id": ext + 1,
                                              "Ev Idx": ext}}


def aten_op(ts, ext, name, dur):
    return {"ph": "X", "cat": "cpu_op", "name": name, "pid": PID, "tid": TID, "ts": ts,
            "dur": dur, "args": {"External id": ext, "Record function id": 0,
                                 "Concrete Inputs": ["", ""], "Input type": ["float", "float"],
                                 "Input Strides": [[4096, 1], [1, 4096]],
                                 "Input Dims": [[8192, 4096], [4096, 4096]], "Ev Idx": ext}}


def triton_op(ts, ext, name, layer):
    h = "c%051d" % (hash(name) % 10 ** 50)
    return {"ph": "X", "cat": "cpu_op", "name": name, "pid": PID, "tid": TID, "ts": ts,
            "dur": 14.5, "args": {"External id": ext, "Record function id": 0, "Ev Idx": ext,
                                  "Input Dims": [[8, 4096, 4096], [4096], []],
                                  "Input type": ["float", "float", "Scalar"],
                                  "num_warps": 8, "stream": 0, "kernel_backend": "triton",
                                  "kernel_name": name, "kernel_kwargs": "XBLOCK=1024",
                                  "num_stages": 1, "kernel_hash": h,
                                  "kernel_file": "/tmp/torchinductor_root/%s/%s.py" % (h[1:3], h)}}


def runtime(ts, ext, corr, name):
    return {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": PID, "tid": TID,
            "ts": ts, "dur": 4.25, "args": {"External id": ext, "cbid": 211, "correlation": corr}}


def kernel(ts, dur, ext, corr, name):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": GPU_PID, "tid": STREAM, "ts": ts,
            "dur": dur, "args": {"External id": ext, "queued": 0, "device": 0, "context": 1,
                                 "stream": STREAM, "correlation": corr, "registers per thread": 128,
                                 "shared memory": 49152, "blocks per SM": 4.5,
                                 "warps per SM": 18.0, "grid": [264, 1, 1], "block": [384, 1, 1],
                                 "est. achieved occupancy %": 19}}


def flows(ts_cpu, ts_gpu, corr):
    return [{"ph": "s", "id": corr, "pid": PID, "tid": TID, "ts": ts_cpu, "cat": "ac2g",
             "name": "ac2g"},
            {"ph": "f", "id": corr, "pid": GPU_PID, "tid": STREAM, "ts": ts_gpu, "cat": "ac2g",
             "name": "ac2g", "bp": "e"}]


class Writer:
    def __init__(self, out, limit):
        self.out, self.limit, self.size, self.first = out, limit, 0, True
        self.kernels = 0
        self.kernel_us = 0.0
        self.cpu = 1.0e12
        self.gpu = 1.0e12 + 50.0
        self.ext = 0
        self.corr = 0

    def emit(self, ev):
        text = json.dumps(ev, separators=(", ", ": "))
        self.out.write(("\n  " if self.first else ",\n  ") + text)
        self.first = False
        self.size += len(text) + 4

    def layer(self, n):
        for op, name, us in LAYER:
            self.ext += 1
            self.corr += 1
            ext, corr = self.ext, self.corr
            self.emit(py_frame(self.cpu, ext, "model.py(%d): forward" % (100 + n % 50)))
            if op == "triton":
                self.emit(triton_op(self.cpu + 1, ext, name, n))
            else:
                self.emit(aten_op(self.cpu + 1, ext, op, 20.5))
            self.emit(runtime(self.cpu + 5, ext, corr, name))
            start = max(self.gpu, self.cpu + 9)
            self.emit(kernel(start, us, ext, corr, name))
            for f in flows(self.cpu + 5, start, corr):
                self.emit(f)
            self.kernels += 1
            self.kernel_us += us
            self.gpu = start + us + GAP_US
            self.cpu += 40.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=64, help="size of the trace in MiB")
    ap.add_argument("--out", required=True)
    ap.add_argument("--gzip", action="store_true", help="write .json.gz")
    args = ap.parse_args()
    limit = int(args.mb * (1 << 20))
    opener = gzip.open if args.gzip else open
    with opener(args.out, "wt", encoding="utf-8") as f:
        f.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [{"id": 0, '
                '"name": "NVIDIA H200", "totalGlobalMem": 150109814784}],\n'
                '  "traceEvents": [')
        w = Writer(f, limit)
        n = 0
        while w.size < limit:
            w.layer(n)
            n += 1
        f.write("\n  ],\n  \"displayTimeUnit\": \"ms\"\n}\n")
    # kernels never overlap (one stream, each starts after the previous ends)
    print(json.dumps({"kernels": w.kernels, "kernel_us": round(w.kernel_us, 3),
                      "busy_us": round(w.kernel_us, 3), "layers": n,
                      "bytes": w.size}), file=sys.stderr)


if __name__ == "__main__":
    main()
