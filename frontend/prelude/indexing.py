"""kiln's op table: gather, index_select, cumsum, cumprod, flip, index_put
and roll. gather, index_select, the scans and flip are one kiln op each,
built in frontend/OpTableIndexing.cpp; index_put is the store of advanced
indexing (frontend/LowerAdvancedIndexing.cpp); roll is Python here, an
index_select per dim. The arguments that shape an op (dims, shifts) must
be compile-time constants.

sort and topk are order.py's: the resampling ops come between the two
families in the documentation.
"""
from typing import List

import torch
from torch import Tensor

from kiln_table import INPLACE, METHOD, TORCH, op


@op('gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor',
    TORCH | METHOD,
    build='gather',
    samples=[('x=f32[B,6], i=i64[B,3]', '1, i'),
             ('x=f32[6,4], i=i64[2,3]', '0, i'),
             ('x=i64[B,5,7], i=i64[B,2,3]', '-1, i'),
             ('x=f32[B,6], i=i64[B,0]', '1, i')])
@op('index_select(Tensor self, int dim, Tensor index) -> Tensor',
    TORCH | METHOD,
    build='index_select',
    samples=[('x=f32[B,6], i=i64[4]', '1, i'),
             ('x=f32[5,B], i=i64[3]', '0, i'),
             ('x=i64[2,B,5], i=i64[N]', '-1, i'),
             ('x=f32[5,3], i=i64[0]', '0, i')])
@op('cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    build='cumsum',
    samples=[('x=f32[B,7]', '1'),
             ('x=i64[N,3]', '0'),
             ('x=f32[4,B]', '-1, dtype=torch.float64'),
             ('x=bool[6]', '0'),
             ('x=f32[0,3]', '1')])
@op('cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    build='cumprod',
    samples=[('x=f32[B,7]', '1', 0.5, 1.5),
             ('x=i64[N,3]', '0'),
             ('x=f64[4,B]', '-1', -2, 2)])
@op('flip(Tensor self, int[] dims) -> Tensor',
    TORCH | METHOD,
    build='flip',
    samples=[('x=f32[B,4,3]', '[0, 2]'),
             ('x=i64[5]', '[-1]'),
             ('x=f32[B,3]', '[1]'),
             ('x=f32[0,3]', '[0, 1]')])
@op('index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor',
    TORCH | METHOD | INPLACE,
    build='index_put',
    samples=[('x=f32[5,3], i=i64[4], v=f32[4,3]', '(i,), v'),
             ('x=f32[6,B], i=i64[N], v=f32[N,1]', '(i,), v, True'),
             ('x=i64[5,6], i=i64[3], j=i64[3], v=i64[3]',
              '[i, j], v, accumulate=True'),
             ('x=f32[4,B], v=f32[]', '(x > 0,), v'),
             ('x=f64[5,3], i=i64[0], v=f64[1]', '(i,), v, True')],
    note='indices may hold None for a whole dim, as in TorchScript; '
         'with accumulate=True the values of repeated indices are summed')
def _indexing_rows():
    pass


@op('roll(Tensor self, int[] shifts, int[] dims) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,5]', '2, 1'),
             ('x=f32[B,5]', '[-1, 7], [1, 0]'),
             ('x=i64[N,4]', '[3], [-2]'),
             ('x=f32[0,4]', '1, 0')],
    note='dims is required: rolling the flattened tensor is not supported')
def roll(input: Tensor, shifts: List[int], dims: List[int]) -> Tensor:
    if isinstance(shifts, int):
        shifts = (shifts,)
    if isinstance(dims, int):
        dims = (dims,)
    if len(shifts) != len(dims) or len(dims) == 0:
        raise ValueError("roll() needs as many shifts as dims, and at least "
                         "one dim (a roll of the flattened tensor is not "
                         "supported)")
    x = input
    for i in range(len(dims)):
        d = dims[i]
        n = 1
        if input.ndim > 0:
            n = input.ndim
        if d < -n or d >= n:
            raise ValueError(f"dimension {d} is out of range for a tensor of "
                             f"rank {input.ndim}")
        if input.ndim > 0:
            # Element j comes from (j - shift) mod size; max(size, 1): an
            # empty dim rolls to itself instead of dividing by zero.
            size = x.size(d)
            x = x.index_select(d, (torch.arange(size) - shifts[i])
                               % max(size, 1))
    return x
