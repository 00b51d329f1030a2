# Hand-written Triton kernels for tko meta's tests: @triton.autotune with
# triton.Config lists, @triton.heuristics with lambdas, a jit helper, an
# aliased triton.language, comments and strings that look like code.
# Nothing here is run; tests read it with tko meta and with Python's ast.
import triton
import triton.language as tl
import triton.language as language

NOTE = """
@triton.jit
def not_a_kernel(x_ptr):
    tl.load(x_ptr)
"""


def configs():
    return [triton.Config({'BLOCK': b}, num_warps=4) for b in (64, 128)]


@triton.jit
def _load_scaled(ptr, offs, mask, scale):
    # a helper: not launched on its own, but still a jit function
    return tl.load(ptr + offs, mask=mask, other=0.0) * scale


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 32}, num_warps=4, num_stages=3),
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 64, 'BLOCK_K': 32}, num_warps=8,
                      num_stages=2, maxnreg=128),  # big tile
        triton.Config({'BLOCK_M': 32, 'BLOCK_N': 32, 'BLOCK_K': 64}, 2, 4),
    ],
    key=['M', 'N', 'K'],
    reset_to_zero=['c_ptr'],
)
@triton.heuristics({
    'EVEN_K': lambda args: args['K'] % args['BLOCK_K'] == 0,
    'SPLIT': lambda args: 1,
})
@triton.jit
def matmul_splitk(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
                  stride_bk, stride_bn, stride_cm, stride_cn, \
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr, SPLIT: tl.constexpr = 1):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.max_contiguous(tl.multiple_of(offs_m, BLOCK_M), BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    s = "tl.store(c_ptr, acc)"  # a string, and tl.atomic_add( in a comment
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if EVEN_K:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs,
                        mask=offs_k[:, None] < K - k * BLOCK_K,
                        other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = tl.where(acc > 0, acc, 0.0)
    c_ptrs = c_ptr + stride_cm * offs_m[:, None] + stride_cn * offs_n[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.atomic_add(c_ptrs, c, mask=c_mask, sem="relaxed")


@triton.autotune(configs=configs(), key=['n_elements'])
@triton.jit(do_not_specialize=["n_elements"])
def scaled_copy(x_ptr, out_ptr, n_elements, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + language.arange(0, BLOCK)
    mask = offsets < n_elements
    x = _load_scaled(x_ptr, offsets, mask, scale)
    language.store(out_ptr + offsets, x, mask)
    tl.atomic_max(out_ptr, tl.max(x, 0))
    old = tl.atomic_cas(out_ptr + 1, 0, 1)
    tl.store(pointer=out_ptr + 2, value=old)


class NotAKernel:
    def method(self, x):
        return x
