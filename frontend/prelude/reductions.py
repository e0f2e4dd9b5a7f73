"""kiln's op table: sum, mean, var, std, amax/amin, max/min (all, along
a dim, against another tensor) and argmax/argmin. sum, mean, var,
amax/amin and max along a dim are one kiln op each, built in
frontend/OpTableReductions.cpp; the rest are Python here: std is the
square root of var, max() is amax over every dim, min along a dim is max
of -x, and argmax/argmin the indices of max along a dim. Dims are
compile-time ints (the result type depends on them).

Overloads are rows of one name tried in the order written here
(OpBinder.cpp): max(), then max(dim, keepdim), then max(other), as
PyTorch's schemas list them; an int binds the dim overload before the
Tensor one, which also takes numbers.
"""
from typing import List, Optional

import torch
from torch import Tensor

from kiln_table import METHOD, TORCH, describe, op


# Reductions.
@op('sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    build='sum',
    samples=['x=f32[B,4,3]',
             ('x=f32[B,4,3]', '1'),
             ('x=i64[B,4]', '-1, True'),
             ('x=f64[3,5]', '(0, 1)'),
             ('x=i32[4]', 'dtype=torch.float64'),
             ('x=f32[2,0]', '1')])
@op('mean(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    build='mean',
    samples=['x=f32[B,4,3]',
             ('x=f32[B,4,3]', '1'),
             ('x=f32[B,4,3]', '-1, True'),
             ('x=f64[3,5]', 'dim=(0, 1)'),
             ('x=f32[0,3]', '1')])
@op('var(Tensor self, int[]? dim=None, bool unbiased=True, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    build='var',
    samples=['x=f32[B,4,3]',
             ('x=f32[B,4,3]', '1'),
             ('x=f64[3,5]', '-1, False, True')])
def _sum_rows():
    pass


@op('std(Tensor self, int[]? dim=None, bool unbiased=True, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4,3]',
             ('x=f32[B,4,3]', '1'),
             ('x=f64[3,5]', '-1, False, True')])
def std(input: Tensor, dim: Optional[List[int]] = None, unbiased: bool = True,
        keepdim: bool = False) -> Tensor:
    return torch.sqrt(torch.var(input, dim, unbiased, keepdim))


@op('amax(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    build='amax',
    samples=['x=f32[B,4,3]',
             ('x=f32[B,4,3]', '1'),
             ('x=i64[3,5]', '-1, True')])
@op('amin(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    build='amin',
    samples=['x=f32[B,4,3]',
             ('x=f32[B,4,3]', '1'),
             ('x=i64[3,5]', '-1, True')])
def _amax_rows():
    pass


@op('max(Tensor self) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]',
             'x=i64[5]'])
def max_all(input: Tensor) -> Tensor:
    return torch.amax(input)


@op('max(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)',
    TORCH | METHOD,
    build='max_dim',
    samples=[('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '0, True')])
def _max_dim_row():
    pass


@op('max(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,4], y=f32[4]', 'y')])
def max_other(input: Tensor, other: Tensor) -> Tensor:
    return torch.maximum(input, other)


@op('min(Tensor self) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]',
             'x=i64[5]'])
def min_all(input: Tensor) -> Tensor:
    return torch.amin(input)


@op('min(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)',
    TORCH | METHOD,
    samples=[('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '0, True'),
             ('x=f64[B,3]', '-1')])
def min_dim(input: Tensor, dim: int, keepdim: bool = False):
    # max of -x keeps max's rules: the first index of equal values and of
    # the first NaN, as PyTorch.
    _no_bool(input, 'min')
    values, indices = torch.max(-input, dim, keepdim)
    return -values, indices


@op('min(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,4], y=f32[4]', 'y')])
def min_other(input: Tensor, other: Tensor) -> Tensor:
    return torch.minimum(input, other)


@op('argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]',
             ('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '0, True'),
             ('x=f32[B,3]', 'keepdim=True'),
             ('x=f32[]', '0')])
def argmax(input: Tensor, dim: Optional[int] = None,
           keepdim: bool = False) -> Tensor:
    _no_bool(input, 'argmax')
    return _argmax(input, dim, keepdim)


@op('argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]',
             ('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '-1, True'),
             ('x=f64[B,3]', 'keepdim=True')])
def argmin(input: Tensor, dim: Optional[int] = None,
           keepdim: bool = False) -> Tensor:
    _no_bool(input, 'argmin')
    return _argmax(-input, dim, keepdim)


def _no_bool(input: Tensor, name: str):
    if input.dtype == torch.bool:
        raise ValueError(f"{name}() does not support bool tensors, got "
                         f"{describe(input)}")


def _argmax(input: Tensor, dim: Optional[int], keepdim: bool) -> Tensor:
    if dim is not None and input.ndim > 0:
        return torch.max(input, dim, keepdim)[1]
    # With no dim, or on a 0-d tensor, it runs over the flattened tensor.
    if dim is None:
        dim = 0
    indices = torch.max(input.flatten(), dim)[1]
    if not keepdim or input.ndim == 0:
        return indices
    ones = ()
    for i in range(input.ndim):
        ones = ones + (1,)
    return indices.reshape(ones)
