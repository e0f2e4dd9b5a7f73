"""kiln's op table: sum, mean, var, std, amax/amin, max/min (all, along
a dim, against another tensor) and argmax/argmin, lowered by the builders
of frontend/OpTableReductions.cpp, but std, the square root of var. Dims
are compile-time ints (the result type depends on them).

Overloads are rows of one name tried in the order written here
(OpBinder.cpp): max(), then max(dim, keepdim), then max(other), as
PyTorch's schemas list them; an int binds the dim overload before the
Tensor one, which also takes numbers.
"""
from typing import List, Optional

import torch
from torch import Tensor

from kiln_table import METHOD, TORCH, op


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
@op('max(Tensor self) -> Tensor',
    TORCH | METHOD,
    build='max',
    samples=['x=f32[B,4]',
             'x=i64[5]'])
@op('max(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)',
    TORCH | METHOD,
    build='max_dim',
    samples=[('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '0, True')])
@op('max(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='max_other',
    samples=[('x=f32[B,4], y=f32[4]', 'y')])
@op('min(Tensor self) -> Tensor',
    TORCH | METHOD,
    build='min',
    samples=['x=f32[B,4]',
             'x=i64[5]'])
@op('min(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)',
    TORCH | METHOD,
    build='min_dim',
    samples=[('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '0, True')])
@op('min(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='min_other',
    samples=[('x=f32[B,4], y=f32[4]', 'y')])
@op('argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    build='argmax',
    samples=['x=f32[B,4]',
             ('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '0, True')])
@op('argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    build='argmin',
    samples=['x=f32[B,4]',
             ('x=f32[B,4]', '1'),
             ('x=i64[3,5]', '-1, True')])
def _max_rows():
    pass
