"""kiln's op table: binary arithmetic (add, sub, mul, div, pow, ...),
maximum/minimum, the comparisons and where. Their builders are in
frontend/OpTableArithmetic.cpp (div is a decomposition here): binary
arithmetic goes through the same code as `x + y`, so dtype promotion lives
in one place.

kiln_table.py says how a row is written; nn.py how a decomposition is.
"""
from typing import Optional

import torch
from torch import Tensor

from kiln_table import METHOD, TENSOR_OP, TORCH, op


# Binary arithmetic.
@op('add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor',
    TENSOR_OP,
    build='add',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[N], y=i64[N]', 'y, alpha=3'),
             ('x=f32[3,1], y=f64[2]', 'y, alpha=0.5'),
             ('x=f32[B,3]', '2.5'),
             ('x=f32[0,2], y=f32[2]', 'y')])
@op('sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor',
    TENSOR_OP,
    build='sub',
    samples=[('x=f32[B,4], y=f32[4]', 'y, alpha=2'),
             ('x=i64[N], y=i64[N]', 'y'),
             ('x=f32[B,3]', '2.5')],
    aliases=['subtract'])
@op('mul(Tensor self, Tensor other) -> Tensor',
    TENSOR_OP,
    build='mul',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[N], y=i64[N]', 'y'),
             ('x=f32[3,1], y=f64[2]', 'y'),
             ('x=f32[B,3]', '2.5'),
             ('x=f32[0,2], y=f32[2]', 'y')],
    aliases=['multiply'])
@op('pow(Tensor self, Tensor exponent) -> Tensor',
    TENSOR_OP,
    build='pow',
    samples=[('x=f32[B,4], y=f32[4]', 'y', 0.1, 3),
             ('x=i64[N]', '2'),
             ('x=i64[N], y=i64[N]', 'y'),
             ('x=f64[3]', '0.5', 0, 4)])
@op('floor_divide(Tensor self, Tensor other) -> Tensor',
    TENSOR_OP,
    build='floor_divide',
    samples=[('x=f32[B,4], y=f32[4]', 'y + 2.0', -5, 5),
             ('x=i64[N], y=i64[N]', 'y + 1')])
@op('remainder(Tensor self, Tensor other) -> Tensor',
    TENSOR_OP,
    build='remainder',
    samples=[('x=f32[B,4], y=f32[4]', 'y + 2.0', -5, 5),
             ('x=i64[N], y=i64[N]', 'y + 1')])
@op('maximum(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='maximum',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[N], y=i64[N]', 'y')])
@op('minimum(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='minimum',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[N], y=i64[N]', 'y')])
def _binary_arithmetic_rows():
    pass



@op('div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor',
    TENSOR_OP,
    samples=[('x=f32[B,4], y=f32[4]', 'y + 2.0'),
             ('x=i64[N], y=i64[N]', 'y + 1'),
             ('x=f32[B,4], y=f32[4]', "y + 0.5, rounding_mode='trunc'", -4, 4),
             ('x=i64[N], y=i64[N]', "y + 1, rounding_mode='trunc'"),
             ('x=f32[B,4], y=f32[4]', "y + 0.5, rounding_mode='floor'", -4, 4),
             ('x=f32[0,2]', '3.0')],
    aliases=['divide'])
def div(input: Tensor, other: Tensor,
        rounding_mode: Optional[str] = None) -> Tensor:
    if rounding_mode is None:
        return input / other
    if rounding_mode == 'floor':
        return input // other
    if rounding_mode != 'trunc':
        raise ValueError("div expected rounding_mode to be one of None, "
                         f"'trunc', or 'floor' but found '{rounding_mode}'")
    # other may be a number, which has no dtype.
    if (input.is_floating_point() or isinstance(other, float)
            or (isinstance(other, Tensor) and other.is_floating_point())):
        q = input / other
        return torch.where(q < 0.0, torch.ceil(q), torch.floor(q))
    # Integers: floor division rounds a negative inexact quotient one below
    # truncation.
    q = input // other
    inexact = q * other != input
    up = torch.where(q < 0, q + 1, q)
    return torch.where(inexact, up, q)


# Comparisons.
@op('eq(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='eq',
    samples=[('x=i64[B,4], y=i64[4]', 'y'),
             ('x=f32[3]', '0.0')])
@op('ne(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='ne',
    samples=[('x=i64[B,4], y=i64[4]', 'y'),
             ('x=f32[3]', '0.0')],
    aliases=['not_equal'])
@op('lt(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='lt',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[3]', '2')],
    aliases=['less'])
@op('le(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='le',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[3]', '2')],
    aliases=['less_equal'])
@op('gt(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='gt',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[3]', '2')],
    aliases=['greater'])
@op('ge(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='ge',
    samples=[('x=f32[B,4], y=f32[4]', 'y'),
             ('x=i64[3]', '2')],
    aliases=['greater_equal'])
@op('where(Tensor condition, Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='where',
    samples=[('c=bool[B,4], x=f32[B,4], y=f32[4]', 'x, y'),
             ('c=bool[3], x=i64[3]', 'x, 0')])
def _comparisons_rows():
    pass
