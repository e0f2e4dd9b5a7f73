"""kiln's op table: sort and topk. sort is kiln.sort along the last dim,
built in frontend/OpTableIndexing.cpp; topk is Python here, the first k
of that stable sort.
"""
import torch
from torch import Tensor

from kiln_table import METHOD, TORCH, describe, op


@op('sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor, Tensor)',
    TORCH | METHOD,
    build='sort',
    samples=['x=f32[B,7]',
             ('x=f64[5,B]', '0, True'),
             ('x=f32[B,3,6]', 'descending=True'),
             ('x=f32[6]', '-1'),
             'x=f32[B,0]'],
    note="stable: equal values keep their input order (PyTorch's default sort does not promise that); quadratic in the sorted size")
def _sort_row():
    pass


@op('topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor, Tensor)',
    TORCH | METHOD,
    samples=[('x=f32[B,7]', '3'),
             ('x=f64[6,B]', '2, 0, False'),
             ('x=f32[B,3,6]', '1, largest=True'),
             ('x=f32[5]', '5, largest=False'),
             ('x=i64[B,4]', '0, -1')],
    note="a stable sort's first k: ties in input order; k a constant")
def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True,
         sorted: bool = True):
    # A stable sort, so that equal values come in input order (PyTorch's
    # CPU topk may order ties differently).
    values, indices = torch.sort(input, dim, largest)
    if input.ndim == 0:
        if k < 0 or k > 1:
            raise ValueError(f"selected index k out of range: k = {k} for "
                             f"{describe(input)}")
        return values, indices
    # Checked at run time where the dim is dynamic.
    if k < 0 or k > input.size(dim):
        raise ValueError(f"selected index k out of range: k = {k} for dim "
                         f"{dim} of {describe(input)}")
    first = torch.arange(k)
    return values.index_select(dim, first), indices.index_select(dim, first)
