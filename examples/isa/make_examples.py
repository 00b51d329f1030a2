"""Regenerates the AMDGCN in examples/isa/ that script/demo scans.

The kernel is TorchInductor's triton_poi_fused_index_add_zeros_1 from
corpus/h200-run1 (cache/inductor/4o/c4oz...py: an index_add_ lowered to a
64-bit index load, a 128-bit row load and atomic adds), with the config
its autotuner picked there (.best_config: XBLOCK=32, YBLOCK=32,
num_warps=4), compiled by Triton 3.6.0 for GPUTarget("hip", "gfx942", 64)
on a machine with no AMD GPU. Its body is copied verbatim; the
@triton_heuristics decorator is left out because it needs torch.

    CUDA_VISIBLE_DEVICES= TRITON_LIBCUDA_PATH=$(mktemp -d) \\
        .venv/bin/python examples/isa/make_examples.py examples/isa

writes <name>.gfx942.amdgcn and Triton's metadata as <name>.gfx942.json.
"""
import json
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def triton_poi_fused_index_add_zeros_1(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 100000
    xnumel = 256
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y0 = yindex
    x1 = xindex
    tmp0 = tl.load(in_ptr0 + (y0), ymask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr1 + (x1 + 256*y0), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 5000, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 5000)) | ~(ymask), "index out of bounds: 0 <= tmp4 < 5000")
    tl.atomic_add(out_ptr0 + (tl.broadcast_to(x1 + 256*tmp4, [YBLOCK, XBLOCK])), tmp6, xmask & ymask, sem='relaxed')


def main(out):
    sig = {"in_ptr0": "*i64", "in_ptr1": "*fp32", "out_ptr0": "*fp32", "ynumel": "i32",
           "xnumel": "i32", "YBLOCK": "constexpr", "XBLOCK": "constexpr"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(5)}
    src = ASTSource(fn=triton_poi_fused_index_add_zeros_1, signature=sig,
                    constexprs={"YBLOCK": 32, "XBLOCK": 32}, attrs=attrs)
    k = triton.compile(src, target=GPUTarget("hip", "gfx942", 64),
                       options={"num_warps": 4, "num_stages": 1})
    stem = os.path.join(out, "triton_poi_fused_index_add_zeros_1.gfx942")
    with open(stem + ".amdgcn", "w") as f:
        f.write(k.asm["amdgcn"])
    with open(stem + ".json", "w") as f:
        json.dump(k.metadata._asdict(), f, default=str, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
