"""kiln's op table: shape queries (size, dim, numel, item), identities
(contiguous, clone, detach), casts (float, long, to, type_as) and views
and reshapes (view, reshape, expand, flatten, unsqueeze, squeeze,
transpose, permute).

item, to(dtype), view/reshape, expand, unsqueeze, squeeze(dim), transpose
and permute are one kiln op each, built in frontend/OpTableViews.cpp; the rest
are Python here, over `input.shape`, whose static dims are constants and
whose dynamic ones are run-time ints, so a size stays static where it is.
Dims are compile-time ints, sizes may be run-time ints.
"""
from typing import List

import torch
from torch import Tensor

from kiln_table import METHOD, TORCH, describe, known, op


def _dim(dim: int, rank: int) -> int:
    """dim as an index of a tensor of `rank` (a 0-d tensor takes 0 and -1,
    as PyTorch's dims do)."""
    n = 1
    if rank > 0:
        n = rank
    if dim < -n or dim >= n:
        raise ValueError(f"dimension {dim} is out of range for a tensor of "
                         f"rank {rank}")
    return dim % n


# Shape queries and identities.
@op('size(Tensor self) -> int[]',
    METHOD)
def size(input: Tensor):
    return input.shape


@op('size(Tensor self, int dim) -> int',
    METHOD,
    samples=[('x=f32[B,4]', '0'),
             ('x=f32[B,4]', '-1')])
def size_dim(input: Tensor, dim: int) -> int:
    if input.ndim == 0:
        raise ValueError("size(dim) of a 0-d tensor")
    return input.shape[_dim(dim, input.ndim)]


@op('dim(Tensor self) -> int',
    METHOD,
    samples=['x=f32[B,4]'])
def dim(input: Tensor) -> int:
    return input.ndim


@op('numel(Tensor self) -> int',
    TORCH | METHOD,
    samples=['x=f32[B,4]'])
def numel(input: Tensor) -> int:
    n = 1
    for d in input.shape:
        n = n * d
    return n


@op('item(Tensor self) -> Scalar',
    METHOD,
    build='item',
    samples=['x=f32[1]',
             'x=i64[]'])
def _item_row():
    pass


# Values are immutable in the IR: a copy is the value itself.
@op('contiguous(Tensor self) -> Tensor',
    METHOD,
    samples=['x=f32[B,4]'])
@op('clone(Tensor self) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]'])
@op('detach(Tensor self) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]'])
def contiguous(input: Tensor) -> Tensor:
    return input


# Casts: each a to(dtype).
@op('float(Tensor self) -> Tensor',
    METHOD,
    samples=['x=i64[B,4]'])
def to_float(input: Tensor) -> Tensor:
    return input.to(torch.float32)


@op('double(Tensor self) -> Tensor',
    METHOD,
    samples=['x=f32[B,4]'])
def to_double(input: Tensor) -> Tensor:
    return input.to(torch.float64)


@op('half(Tensor self) -> Tensor',
    METHOD,
    samples=['x=f32[B,4]'])
def to_half(input: Tensor) -> Tensor:
    return input.to(torch.float16)


@op('bfloat16(Tensor self) -> Tensor',
    METHOD,
    samples=['x=f32[B,4]'])
def to_bfloat16(input: Tensor) -> Tensor:
    return input.to(torch.bfloat16)


@op('int(Tensor self) -> Tensor',
    METHOD,
    samples=[('x=f32[B,4]', '', -9, 9)])
def to_int(input: Tensor) -> Tensor:
    return input.to(torch.int32)


@op('long(Tensor self) -> Tensor',
    METHOD,
    samples=[('x=f32[B,4]', '', -9, 9)])
def to_long(input: Tensor) -> Tensor:
    return input.to(torch.int64)


@op('bool(Tensor self) -> Tensor',
    METHOD,
    samples=['x=i64[B,4]'])
def to_bool(input: Tensor) -> Tensor:
    return input.to(torch.bool)


@op('to(Tensor self, ScalarType? dtype, bool non_blocking=False, bool copy=False) -> Tensor',
    METHOD,
    build='to_dtype',
    samples=[('x=f32[B,4]', 'torch.float64'),
             ('x=f32[3]', 'dtype=torch.int64')])
def _to_dtype_row():
    pass


@op('to(Tensor self, Tensor other, bool non_blocking=False, bool copy=False) -> Tensor',
    METHOD,
    samples=[('x=f32[B,4], y=f64[2]', 'y')])
def to_other(input: Tensor, other: Tensor, non_blocking: bool = False,
             copy: bool = False) -> Tensor:
    return input.to(other.dtype)


@op('type_as(Tensor self, Tensor other) -> Tensor',
    METHOD,
    samples=[('x=i64[B,4], y=f32[2]', 'y')])
def type_as(input: Tensor, other: Tensor) -> Tensor:
    return input.to(other.dtype)


# Views and reshapes.
@op('view(Tensor self, int[] size) -> Tensor',
    METHOD,
    build='reshape',
    samples=[('x=f32[B,6]', '-1, 3, 2'),
             ('x=f32[4,6]', '(2, 12)')])
@op('reshape(Tensor self, int[] shape) -> Tensor',
    TORCH | METHOD,
    build='reshape',
    samples=[('x=f32[B,6]', '(-1, 2, 3)'),
             ('x=i64[4,6]', '(24,)')])
@op('expand(Tensor self, int[] size, *, bool implicit=False) -> Tensor',
    METHOD,
    build='expand',
    samples=[('x=f32[B,1]', '-1, 4'),
             ('x=f32[3]', '(2, 3)')])
def _reshape_rows():
    pass


@op('expand_as(Tensor self, Tensor other) -> Tensor',
    METHOD,
    samples=[('x=f32[1,4], y=f32[B,4]', 'y')])
def expand_as(input: Tensor, other: Tensor) -> Tensor:
    return input.expand(other.size())


@op('flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,2,3]',
             ('x=f32[B,2,3,2]', '1, 2'),
             ('x=f32[B,2,3]', '-2'),
             'x=f32[]'])
def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if input.ndim == 0:
        return input.reshape((1,))
    s = _dim(start_dim, input.ndim)
    e = _dim(end_dim, input.ndim)
    if s > e:
        raise ValueError("flatten() has start_dim after end_dim")
    shape = input.shape
    n = shape[s]
    for i in range(s + 1, e + 1):
        n = n * shape[i]
    return input.reshape(shape[:s] + (n,) + shape[e + 1:])


@op('unflatten(Tensor self, int dim, int[] sizes) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,6]', '1, (2, 3)'),
             ('x=f32[B,6]', '-1, (3, -1)'),
             ('x=f32[B,6]', '0, (1, -1)')])
def unflatten(input: Tensor, dim: int, sizes: List[int]) -> Tensor:
    shape = input.shape
    d = _dim(dim, input.ndim)
    # A -1 among the sizes is the dim's size over the others', at run time
    # when the dim is dynamic.
    known = 1
    for s in sizes:
        if s != -1:
            known = known * s
    parts = ()
    for s in sizes:
        if s == -1:
            parts = parts + (shape[d] // known,)
        else:
            parts = parts + (s,)
    return input.reshape(shape[:d] + parts + shape[d + 1:])


@op('unsqueeze(Tensor self, int dim) -> Tensor',
    TORCH | METHOD,
    build='unsqueeze',
    samples=[('x=f32[B,4]', '0'),
             ('x=f32[B,4]', '-1')])
def _unsqueeze_row():
    pass


@op('squeeze(Tensor self) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[1,B,1,4]',
             'x=f32[]'])
def squeeze(input: Tensor) -> Tensor:
    # Only the dims known to be 1: a dynamic dim keeps the rank static. Last
    # first, so that the dims still to squeeze keep their index.
    x = input
    for i in range(input.ndim):
        d = input.ndim - 1 - i
        if known(input.shape[d]) and input.shape[d] == 1:
            x = x.squeeze(d)
    return x


@op('squeeze(Tensor self, int dim) -> Tensor',
    TORCH | METHOD,
    build='squeeze_one',
    samples=[('x=f32[B,1,4]', '1'),
             ('x=f32[B,4]', '-1')])
@op('transpose(Tensor self, int dim0, int dim1) -> Tensor',
    TORCH | METHOD,
    build='transpose',
    samples=[('x=f32[B,4,3]', '0, 2'),
             ('x=i64[3,5]', '-1, 0')])
def _dim_rows():
    pass


@op('t(Tensor self) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4]',
             'x=f32[3]'])
def t(input: Tensor) -> Tensor:
    if input.ndim > 2:
        raise ValueError("t() expects a tensor of rank 2 or less, got "
                         f"{describe(input)}")
    if input.ndim < 2:
        return input
    return input.transpose(0, 1)


@op('permute(Tensor self, int[] dims) -> Tensor',
    TORCH | METHOD,
    build='permute',
    samples=[('x=f32[B,4,3]', '(2, 0, 1)')])
def _permute_row():
    pass
