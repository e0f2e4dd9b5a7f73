"""kiln's prelude: unary math on tensors, and Python's math module on
scalars. Most rows are one kiln op (kiln=...); the others are composed here
from existing ops, so fusion sees through them, in formulations chosen to
stay within a few ulp of PyTorch's kernels: log1p and expm1 use the
classic corrections (Goldberg's and Kahan's) rather than log(1 + x) and
exp(x) - 1, which lose every digit near 0. sign, trunc and round keep int
inputs as they are, in their dtype; round is half to even, as torch.round
is. Python's math module is pymath.py.

See nn.py for how the prelude is written and compiled.
"""
import math

import torch
from torch import Tensor

from kiln_table import (ACTIVATION, FLOAT_MATH, FUNCTIONAL, NO_BOOL, TENSOR_OP,
                        describe, op, unary)


@op('exp(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.exp',
    samples=unary(-4, 4),
    flags=FLOAT_MATH)
@op('log(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.log',
    samples=unary(0.01, 10),
    flags=FLOAT_MATH)
@op('tanh(Tensor self) -> Tensor',
    TENSOR_OP | FUNCTIONAL,
    kiln='kiln.tanh',
    samples=unary(-4, 4),
    flags=FLOAT_MATH)
@op('sigmoid(Tensor self) -> Tensor',
    TENSOR_OP | FUNCTIONAL,
    kiln='kiln.sigmoid',
    samples=unary(-6, 6),
    flags=FLOAT_MATH)
@op('relu(Tensor self) -> Tensor',
    TENSOR_OP | ACTIVATION,
    kiln='kiln.relu',
    samples=['x=f32[B,5]',
             'x=i64[4]',
             'x=f32[0]'],
    flags=NO_BOOL)
@op('sqrt(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.sqrt',
    samples=unary(0, 9),
    flags=FLOAT_MATH)
@op('rsqrt(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.rsqrt',
    samples=unary(0.01, 9),
    flags=FLOAT_MATH)
@op('abs(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.abs',
    aliases=['absolute'],
    samples=['x=f32[B,5]',
             ('x=i64[4]', '', -5, 5)])
@op('neg(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.neg',
    aliases=['negative'],
    samples=['x=f32[B,5]',
             'x=i64[4]'],
    flags=NO_BOOL)
@op('sin(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.sin',
    samples=unary(-6, 6),
    flags=FLOAT_MATH)
@op('cos(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.cos',
    samples=unary(-6, 6),
    flags=FLOAT_MATH)
@op('floor(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.floor',
    samples=[('x=f32[B,5]', '', -3, 3),
             'x=i64[4]'],
    flags=NO_BOOL)
@op('ceil(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.ceil',
    samples=[('x=f32[B,5]', '', -3, 3),
             'x=i64[4]'],
    flags=NO_BOOL)
@op('erf(Tensor self) -> Tensor',
    TENSOR_OP,
    kiln='kiln.erf',
    samples=unary(-3, 3),
    flags=FLOAT_MATH)
def _kiln_op_rows():
    pass


@op('erfc(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(-3, 3),
    flags=FLOAT_MATH,
    note='1 - erf(x): absolute error ~1e-7')
def erfc(input: Tensor) -> Tensor:
    return 1.0 - torch.erf(input)


@op('log1p(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=[('x=f32[B,5]', '', -1e-06, 1e-06),
             ('x=f64[3]', '', -0.9, 5),
             ('x=f32[4]', '', -0.5, 100)],
    flags=FLOAT_MATH)
def log1p(input: Tensor) -> Tensor:
    # log(u) * x / (u - 1) with u = 1 + x cancels the rounding of 1 + x
    # (Goldberg); u == 1 means x is below half an ulp of 1, where
    # log1p(x) == x; u == inf keeps inf rather than inf / inf.
    u = input + 1.0
    d = u - 1.0
    r = torch.where(u == math.inf, u, torch.log(u) * (input / d))
    return torch.where(d == 0.0, input, r)


@op('expm1(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=[('x=f32[B,5]', '', -1e-06, 1e-06),
             ('x=f64[3]', '', -5, 5),
             ('x=f32[4]', '', -20, 20)],
    flags=FLOAT_MATH)
def expm1(input: Tensor) -> Tensor:
    # (u - 1) * x / log(u) with u = exp(x) (Kahan): the error of u cancels.
    u = torch.exp(input)
    d = u - 1.0
    r = torch.where(u == math.inf, u, d * (input / torch.log(u)))
    r = torch.where(d == -1.0, d, r)
    return torch.where(d == 0.0, input, r)


@op('exp2(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(-8, 8),
    flags=FLOAT_MATH)
def exp2(input: Tensor) -> Tensor:
    return torch.exp(input * 0.6931471805599453)  # ln 2


@op('log2(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(0.01, 100),
    flags=FLOAT_MATH)
def log2(input: Tensor) -> Tensor:
    return torch.log(input) * 1.4426950408889634  # 1 / ln 2


@op('log10(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(0.01, 100),
    flags=FLOAT_MATH)
def log10(input: Tensor) -> Tensor:
    return torch.log(input) * 0.4342944819032518  # 1 / ln 10


@op('tan(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(-1.2, 1.2),
    flags=FLOAT_MATH)
def tan(input: Tensor) -> Tensor:
    return torch.sin(input) / torch.cos(input)


@op('reciprocal(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(0.1, 4),
    flags=FLOAT_MATH)
def reciprocal(input: Tensor) -> Tensor:
    return 1.0 / input


@op('square(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=['x=f32[B,5]',
             'x=i64[4]',
             'x=f32[0]'])
def square(input: Tensor) -> Tensor:
    return input * input


# sign, trunc and round keep an int input as it is, in its dtype.
@op('sign(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=['x=f32[B,5]',
             'x=i64[4]',
             ('x=f64[3]', '', -2, 2),
             'x=bool[4]'])
def sign(input: Tensor) -> Tensor:
    if input.dtype == torch.bool:
        return input
    # NaN compares false both ways: its sign is 0, as PyTorch's.
    if input.is_floating_point():
        return (input > 0.0).to(input.dtype) - (input < 0.0).to(input.dtype)
    return (input > 0).to(input.dtype) - (input < 0).to(input.dtype)


@op('trunc(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=[('x=f32[B,5]', '', -3, 3),
             ('x=f64[4]', '', -3, 3),
             'x=i64[4]'])
def trunc(input: Tensor) -> Tensor:
    if not input.is_floating_point():
        return input
    return torch.where(input < 0.0, torch.ceil(input), torch.floor(input))


@op('round(Tensor self, *, int decimals=0) -> Tensor',
    TENSOR_OP,
    samples=[('x=f32[B,5]', '', -3, 3),
             ('x=f64[4]', '', -3, 3),
             'x=i64[4]',
             ('x=f32[B,5]', 'decimals=2', -3, 3),
             ('x=f64[4]', 'decimals=-1', -300, 300)])
def round(input: Tensor, decimals: int = 0) -> Tensor:
    if not input.is_floating_point():
        if decimals != 0:
            raise ValueError("round() with decimals needs a float tensor, "
                             f"got {describe(input)}")
        return input
    if decimals == 0:
        return _round_half_even(input)
    # As ATen: scale by 10 ** |decimals|, an exact product of tens.
    digits = decimals
    if digits < 0:
        digits = -digits
    scale = 1.0
    for i in range(digits):
        scale = scale * 10.0
    if decimals > 0:
        return _round_half_even(input * scale) / scale
    return _round_half_even(input / scale) * scale


def _round_half_even(x: Tensor) -> Tensor:
    # x - floor(x) is exact in binary floating point, so ties are found
    # without the rounding of x + 0.5; an infinite x has a NaN fraction and
    # stays itself.
    f = torch.floor(x)
    frac = x - f
    odd = f - torch.floor(f * 0.5) * 2.0
    return torch.where(frac > 0.5, f + 1.0,
                       torch.where(frac == 0.5, f + odd, f))


@op('sinh(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(-4, 4),
    flags=FLOAT_MATH)
def sinh(input: Tensor) -> Tensor:
    # Through expm1, which keeps its digits near 0, where exp(x) - exp(-x)
    # cancels.
    return (torch.expm1(input) - torch.expm1(-input)) * 0.5


@op('cosh(Tensor self) -> Tensor',
    TENSOR_OP,
    samples=unary(-4, 4),
    flags=FLOAT_MATH)
def cosh(input: Tensor) -> Tensor:
    return (torch.exp(input) + torch.exp(-input)) * 0.5

