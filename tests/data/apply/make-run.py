"""Writes tests/data/apply/run/: a small RUN with tune results for the
tko apply tests (run from the repository root; python3, standard library).

capture.json and kernel.py of five kernels are copied from
examples/h200-run/capture/kernels (a real H200 capture, torch 2.11.0+cu130,
Triton 3.6.0); their tune/sm_90/tune.json are made here by hand in tko tune's
schema (src/tune/output.c), with made-up times; profile/trace.json is a
hand-made Kineto trace of four ProfilerStep ranges 1000 us apart whose
kernels take, each step: zeros_0 10 us, the layer-norm reduction 40 us, the
softmax 20 us, the gelu 30 us, an ATen kernel 100 us.

  zeros_0      winner v002 XBLOCK=512 num_warps=8, speedup 1.25: planned
  red ..._0    winner v001 R0_BLOCK=2048 num_warps=16, speedup 1.6, confirmed: planned
  per softmax  winner v001, speedup 1.02, confirmation accepted false: not planned
  gelu_1       the base won (is_base): not planned
  scale_add    @triton.autotune kernel, winner BLOCK=2048 num_warps=4: planned
Each tune.json is where `tko tune KERNEL_DIR` writes it, KERNEL_DIR/tune/tune.json,
except the softmax's, at tune/sm_90/tune.json (rundir/layout.h's name for it).
Predicted step saving: 10*(1-1/1.25) + 40*(1-1/1.6) = 2 + 15 = 17 us of
1000 us: gain 1000/983.
"""
import json
import os
import shutil

SRC = "examples/h200-run/capture/kernels"
OUT = "tests/data/apply/run"


def variant(vid, kwargs, warps, stages, sv=()):
    return {"id": vid, "label": vid, "origin": "grid", "source_variants": list(sv),
            "config": {"num_warps": warps, "num_stages": stages, "kwargs": kwargs,
                       "body": {}, "options": {}},
            "env": {}, "status": "ok", "time_ms": 0.01, "speedup": 1.0}


def tune(kernel, kind, variants, winner):
    return {"schema_version": 1, "tool": "tko tune", "mode": "gpu", "kernels": [
        {"kernel": kernel, "source": "kernel.py", "kind": kind, "target": "sm_90",
         "out_dir": ".", "variants": variants, "winner": winner}]}


KERNELS = {
    "triton_poi_fused_zeros_0-294e5e16": tune(
        "triton_poi_fused_zeros_0", "pointwise",
        [variant("v000", {"XBLOCK": 512}, 8, 1), variant("v002", {"XBLOCK": 512}, 4, 1)],
        {"id": "v002", "label": "num_warps=4", "time_ms": 0.008, "speedup": 1.25, "is_base": False,
         "inductor_settings": None}),
    "triton_red_fused_embedding_native_layer_norm_0-e8ab9538": tune(
        "triton_red_fused_embedding_native_layer_norm_0", "reduction",
        [variant("v000", {"XBLOCK": 2, "R0_BLOCK": 1024}, 8, 1),
         variant("v001", {"XBLOCK": 2, "R0_BLOCK": 2048}, 16, 1)],
        {"id": "v001", "label": "R0_BLOCK=2048", "time_ms": 0.025, "speedup": 1.6, "is_base": False,
         "inductor_settings": None,
         "confirmation": {"rounds": 7, "ratio": 0.625, "ci95": [0.61, 0.64], "accepted": True,
                          "reason": None}}),
    "triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2-7692c56a": tune(
        "triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2", "persistent_reduction",
        [variant("v000", {"XBLOCK": 1}, 1, 1), variant("v001", {"XBLOCK": 2}, 1, 1)],
        {"id": "v001", "label": "XBLOCK=2", "time_ms": 0.0196, "speedup": 1.02, "is_base": False,
         "inductor_settings": None,
         "confirmation": {"rounds": 7, "ratio": 0.98, "ci95": [0.96, 1.01], "accepted": False,
                          "reason": "the 95% interval includes 1"}}),
    "triton_poi_fused_add_addmm_gelu_mul_view_1-68489215": tune(
        "triton_poi_fused_add_addmm_gelu_mul_view_1", "pointwise",
        [variant("v000", {"XBLOCK": 1024}, 4, 1)],
        {"id": "v000", "label": "base", "time_ms": 0.03, "speedup": 1.0, "is_base": True,
         "inductor_settings": None}),
    "scale_add_kernel-9176df1e": tune(
        "scale_add_kernel", "user",
        [variant("v000", {"BLOCK": 1024}, 4, 3), variant("v001", {"BLOCK": 2048}, 4, 3)],
        {"id": "v001", "label": "BLOCK=2048", "time_ms": 0.005, "speedup": 1.1, "is_base": False,
         "inductor_settings": None}),
}


def trace():
    events, corr = [], 0
    kernels = [("triton_poi_fused_zeros_0", 10),
               ("triton_red_fused_embedding_native_layer_norm_0", 40),
               ("triton_per_fused__softmax_exp_prepare_softmax_online_sub_view_2", 20),
               ("triton_poi_fused_add_addmm_gelu_mul_view_1", 30),
               ("void at::native::vectorized_elementwise_kernel<4>", 100)]
    for step in range(4):
        t0 = 1000 * step
        events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step + 1}",
                       "ts": t0, "dur": 900, "pid": 1, "tid": 1})
        gpu = t0 + 100
        for i, (name, dur) in enumerate(kernels):
            corr += 1
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                           "ts": t0 + 10 + i, "dur": 1, "pid": 1, "tid": 1,
                           "args": {"correlation": corr}})
            events.append({"ph": "X", "cat": "kernel", "name": name, "ts": gpu, "dur": dur,
                           "pid": 0, "tid": 7, "args": {"correlation": corr, "device": 0,
                                                        "stream": 7}})
            gpu += dur + 5
    return {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200"}],
            "traceEvents": events}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for d, doc in KERNELS.items():
        kdir = os.path.join(OUT, "capture", "kernels", d)
        tdir = os.path.join(kdir, "tune", "sm_90" if "softmax" in d else "")
        os.makedirs(tdir)
        for f in ("capture.json", "kernel.py"):
            shutil.copy(os.path.join(SRC, d, f), kdir)
        with open(os.path.join(tdir, "tune.json"), "w") as f:
            json.dump(doc, f, indent=1)
    os.makedirs(os.path.join(OUT, "profile"))
    with open(os.path.join(OUT, "profile", "trace-1.json"), "w") as f:
        json.dump(trace(), f)


if __name__ == "__main__":
    main()
