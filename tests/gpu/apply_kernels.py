"""A hand-written @triton.autotune kernel for tests/gpu/apply_model.py (its
own module, so apply_proof.py can read its source hash without running the model)."""
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=4),
                          triton.Config({"BLOCK": 1024}, num_warps=4)], key=["n"])
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 0.5, mask=mask)


def scale(x):
    out = x.new_empty(x.shape)
    n = x.numel()
    scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
    return out
