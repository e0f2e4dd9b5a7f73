"""kiln's op table: masked_fill, split/chunk/unbind, matmul and
rand_like/randn_like, lowered by the builders of frontend/OpTableTensor.cpp;
triu/tril, mm/bmm and zeros_like/ones_like/full_like are decompositions
here. Dims are compile-time ints (the result type depends on them), sizes
may be run-time ints."""
from typing import Optional

import torch
from torch import Tensor

from kiln_table import METHOD, TENSOR_OP, TORCH, describe, op


# Masks and pieces.
@op('masked_fill(Tensor self, Tensor mask, Tensor value) -> Tensor',
    TENSOR_OP,
    build='masked_fill',
    samples=[('x=f32[B,4], m=bool[B,4]', 'm, -1.5'),
             ('x=i64[3,4], m=bool[4]', 'm, 7'),
             ('x=f32[3], m=bool[3]', "m, float('-inf')")])
@op('split(Tensor self, int[] split_size, int dim=0) -> Tensor[]',
    METHOD,
    build='split',
    samples=[('x=f32[5,B]', '2'),
             ('x=f32[B,6]', '(1, 5), dim=1')])
@op('split(Tensor self, int[] split_size_or_sections, int dim=0) -> Tensor[]',
    TORCH,
    build='split',
    samples=[('x=f32[5,B]', '2'),
             ('x=f32[B,6]', '[1, 5], dim=1')])
@op('chunk(Tensor self, int chunks, int dim=0) -> Tensor[]',
    TORCH | METHOD,
    build='chunk',
    samples=[('x=f32[7,B]', '3'),
             ('x=f32[B,8]', '4, dim=1'),
             ('x=f32[B,6]', '2'),
             ('x=f32[N,4]', '2')])
@op('unbind(Tensor self, int dim=0) -> Tensor[]',
    TORCH | METHOD,
    build='unbind',
    samples=['x=f32[3,B]',
             ('x=f32[B,2]', '1')])
def _masks_and_pieces_rows():
    pass


# triu/tril keep x[..., i, j] where j - i >= diagonal (triu) or <= diagonal
# (tril); the (H, W) mask broadcasts over the batch dims, and the rest is a
# zero of x's dtype.
@op('triu(Tensor self, int diagonal=0) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4,5]',
             ('x=i64[4,4]', '1'),
             ('x=f32[3,4]', '-1')])
def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    if input.dim() < 2:
        raise ValueError("triu() needs a tensor with at least 2 dimensions, "
                         f"got {describe(input)}")
    rows = torch.arange(input.size(-2)).unsqueeze(1)
    columns = torch.arange(input.size(-1)).unsqueeze(0)
    keep = columns - rows >= diagonal
    if input.dtype == torch.bool:
        return torch.where(keep, input, False)
    if input.is_floating_point():
        return torch.where(keep, input, 0.0)
    return torch.where(keep, input, 0)


@op('tril(Tensor self, int diagonal=0) -> Tensor',
    TORCH | METHOD,
    samples=['x=f32[B,4,5]',
             ('x=i64[4,4]', '1'),
             ('x=f32[3,4]', '-1')])
def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    if input.dim() < 2:
        raise ValueError("tril() needs a tensor with at least 2 dimensions, "
                         f"got {describe(input)}")
    rows = torch.arange(input.size(-2)).unsqueeze(1)
    columns = torch.arange(input.size(-1)).unsqueeze(0)
    keep = columns - rows <= diagonal
    if input.dtype == torch.bool:
        return torch.where(keep, input, False)
    if input.is_floating_point():
        return torch.where(keep, input, 0.0)
    return torch.where(keep, input, 0)



# Matrix products.
@op('matmul(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='matmul',
    samples=[('x=f32[B,4], y=f32[4,3]', 'y'),
             ('x=f32[2,B,4], y=f32[4]', 'y'),
             ('x=f64[3], y=f64[3]', 'y')])
def _matrix_products_rows():
    pass


@op('mm(Tensor self, Tensor mat2) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,4], y=f32[4,3]', 'y')])
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    if input.dim() != 2 or mat2.dim() != 2:
        raise ValueError("mm() multiplies two 2-D tensors; got "
                         f"{describe(input)} and {describe(mat2)}")
    return torch.matmul(input, mat2)


@op('bmm(Tensor self, Tensor mat2) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[2,B,4], y=f32[2,4,3]', 'y')])
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    if input.dim() != 3 or mat2.dim() != 3:
        raise ValueError("bmm() multiplies two 3-D tensors; got "
                         f"{describe(input)} and {describe(mat2)}")
    # Unlike matmul, bmm does not broadcast the batch dim.
    if input.size(0) != mat2.size(0):
        raise ValueError(f"bmm() batch sizes differ: {describe(input)} and "
                         f"{describe(mat2)}")
    return torch.matmul(input, mat2)



# Creation from another tensor's shape.
@op('zeros_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=['x=f32[B,4]',
             ('x=f32[3]', 'dtype=torch.int64')])
def zeros_like(input: Tensor, dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        return torch.zeros(input.size(), dtype=input.dtype)
    return torch.zeros(input.size(), dtype=dtype)


@op('ones_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=['x=f32[B,4]',
             ('x=i64[3]', 'dtype=torch.float64')])
def ones_like(input: Tensor, dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        return torch.ones(input.size(), dtype=input.dtype)
    return torch.ones(input.size(), dtype=dtype)


@op('full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=[('x=f32[B,4]', '2.5'),
             ('x=i64[3]', '7')])
def full_like(input: Tensor, fill_value: float,
              dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        return torch.full(input.size(), fill_value, dtype=input.dtype)
    return torch.full(input.size(), fill_value, dtype=dtype)


# rand_like and randn_like stay builders: their values cannot be compared
# with eager PyTorch's, as a decomposition's are (test/prelude).
@op('rand_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='rand_like',
    samples=['x=f32[B,300]',
             ('x=f32[3,4]', 'dtype=torch.float64'),
             'x=f32[0,3]'],
    random='uniform')
@op('randn_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='randn_like',
    samples=['x=f32[B,300]',
             ('x=f64[3,4]', 'dtype=torch.float32'),
             'x=f32[0,3]'],
    random='normal')
def _random_like_rows():
    pass
