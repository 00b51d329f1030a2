"""The helpers Inductor's softmax kernels call, with torch 2.11's semantics
(torch/_inductor/runtime/triton_helpers.py): NaN-propagating maximum, the
online softmax's combine (the accumulator rescaled by exp of the max's
change) and its final reduce, and exp with Inductor's fast-math switch."""
import triton
import triton.language as tl
from triton.language.extra import libdevice  # noqa: F401 (kernels import it from here)

math = tl.math
_LOG_2_E: tl.constexpr = tl.constexpr(1.4426950408889634)


def set_driver_to_gpu():
    pass


@triton.jit
def is_floating(x):
    return x.dtype.is_floating()


@triton.jit
def maximum(a, b):
    mask = a > b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)


@triton.jit
def exp(x, use_fast_math: tl.constexpr):
    if use_fast_math:
        return libdevice.exp2(x * _LOG_2_E)
    else:
        return tl.math.exp(x)


@triton.jit
def online_softmax_reduce(lhs_max, lhs_sum, dim, use_fast_math: tl.constexpr):
    out_max = max2(lhs_max, dim)
    out_max_keepdim = out_max[:, None]
    delta = tl.where(out_max_keepdim == float("-inf"), 0, lhs_max - out_max_keepdim)
    out_sum = tl.sum(lhs_sum * exp(delta, use_fast_math), dim)
    return out_max, out_sum


@triton.jit
def online_softmax_combine(lhs_max, lhs_sum, rhs_max, use_fast_math: tl.constexpr):
    out_max = maximum(lhs_max, rhs_max)
    lhs_scale = tl.where(out_max == float("-inf"), 1.0, exp(lhs_max - out_max, use_fast_math))
    rhs_scale = tl.where(out_max == float("-inf"), 1.0, exp(rhs_max - out_max, use_fast_math))
    out_sum = lhs_sum * lhs_scale + rhs_scale
    return out_max, out_sum
