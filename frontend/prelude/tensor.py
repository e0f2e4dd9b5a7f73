"""kiln's op table: the rest of Tensor. Every row is a decomposition here
but matmul, the @ operator's lowering, built by frontend/OpTableTensor.cpp.
Dims are compile-time ints (the result type depends on them), sizes may be
run-time ints; split, chunk and unbind return tuples, whose lengths are
compile-time ints."""
from typing import List, Optional

import torch
from torch import Tensor

from kiln_table import METHOD, TENSOR_OP, TORCH, describe, known, op


# masked_fill is a where whose fill takes the input's dtype first; the mask
# broadcasts to the input's shape but may not grow it.
@op('masked_fill(Tensor self, Tensor mask, Tensor value) -> Tensor',
    TENSOR_OP,
    samples=[('x=f32[B,4], m=bool[B,4]', 'm, -1.5'),
             ('x=i64[3,4], m=bool[4]', 'm, 7'),
             ('x=f32[3], m=bool[3]', "m, float('-inf')"),
             ('x=f64[2,3], m=bool[2,1], v=f32[]', 'm, v'),
             ('x=i32[B,3], m=bool[3]', 'm, 2.5')])
def masked_fill(input: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    if mask.dtype != torch.bool:
        raise ValueError("masked_fill() needs a bool tensor mask, got "
                         f"{describe(mask)}")
    k = mask.dim()
    if k > input.dim():
        _mask_grows(input, mask)
    for i in range(k):
        m = mask.size(i - k)
        n = input.size(i - k)
        # A dim known only at run time is checked there, by where; a
        # dynamic mask dim against an input dim of 1 could grow it.
        if known(m) and known(n) and m != n and m != 1:
            _mask_grows(input, mask)
        if known(n) and n == 1 and not known(m):
            _mask_grows(input, mask)
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise ValueError("masked_fill() takes a number or a 0-d tensor "
                             f"as the value, got {describe(value)}")
        return torch.where(mask, value.to(input.dtype), input)
    if input.dtype == torch.bool:
        return torch.where(mask, bool(value), input)
    if input.is_floating_point():
        return torch.where(mask, float(value), input)
    return torch.where(mask, int(value), input)


def _mask_grows(input: Tensor, mask: Tensor):
    raise ValueError(f"masked_fill(): the mask, {describe(mask)}, does not "
                     f"broadcast to the shape of the input, {describe(input)}")


# split, chunk and unbind return a tuple, whose length kiln must know while
# compiling: the number of pieces is a compile-time int. Each piece is a
# slice of the input along dim.
@op('split(Tensor self, int[] split_size, int dim=0) -> Tensor[]',
    METHOD,
    samples=[('x=f32[5,B]', '2'),
             ('x=f32[B,6]', '(1, 5), dim=1'),
             ('x=f32[2,B,7]', '3, -1'),
             ('x=f32[B,0]', '2, 1'),
             ('x=f64[B,3]', '(2, 1), 1'),
             ('x=f32[2,1,1,1,4,1,1,B]', '(1, 3), 4')])
def split(input: Tensor, split_size: List[int],
          dim: int = 0):
    return _split(input, split_size, dim, 'split_size')


@op('split(Tensor self, int[] split_size_or_sections, int dim=0) -> Tensor[]',
    TORCH,
    samples=[('x=f32[5,B]', '2'),
             ('x=f32[B,6]', '[1, 5], dim=1'),
             ('x=f32[2,3,B]', '[0, 2, 1], -2')])
def split_sections(input: Tensor, split_size_or_sections: List[int],
                   dim: int = 0):
    return _split(input, split_size_or_sections, dim,
                  'split_size_or_sections')


def _split(input: Tensor, sizes: List[int], dim: int,
           name: str):
    if input.dim() == 0:
        raise ValueError("split() needs a tensor with at least one dimension")
    extent = input.size(dim)
    if dim < 0:
        dim = dim + input.dim()
    if isinstance(sizes, int):
        return _split_by(input, sizes, dim, extent, name)
    for size in sizes:
        if not known(size):
            raise ValueError(f"split() argument '{name}' must be constant "
                             f"ints here, got {describe(size)} in it")
    # The sizes as PyTorch prints them, [1, 2], for the messages.
    listed = ''
    for size in sizes:
        if listed == '':
            listed = f"{size}"
        else:
            listed = f"{listed}, {size}"
    listed = f"[{listed}]"
    total = 0
    for size in sizes:
        if size < 0:
            raise ValueError(f"split sizes must be non-negative, got {listed}")
        total = total + size
    if not known(extent):
        if extent != total:
            raise RuntimeError("split_with_sizes expects split_sizes to sum "
                               "exactly to the size of dimension "
                               f"{dim}, but got split_sizes="
                               f"{listed}")
        # Checked: the pieces can have static sizes.
        input = input.reshape(input.shape[:dim] + (total,)
                              + input.shape[dim + 1:])
    elif total != extent:
        raise ValueError(f"split sizes {listed} sum to {total}, "
                         f"but dimension {dim} of {describe(input)} has "
                         f"size {extent}")
    pieces = ()
    start = 0
    for size in sizes:
        pieces = pieces + (_narrow(input, dim, start, start + size),)
        start = start + size
    return pieces


def _split_by(input: Tensor, size: int, dim: int, extent: int,
              name: str):
    # Pieces of `size`, the last one shorter: ceil(extent / size) of them.
    if not known(size):
        raise ValueError(f"split() argument '{name}' must be a constant int "
                         f"here, got {describe(size)}")
    if size <= 0:
        raise ValueError(f"{name} must be positive, got {size}")
    if not known(extent):
        raise ValueError(f"split() of dimension {dim} needs a static size, "
                         f"got {describe(input)}; pass a list of sizes "
                         "instead")
    if extent == 0:
        return (input,)
    pieces = ()
    for start in range(0, extent, size):
        end = start + size
        if end > extent:
            end = extent
        pieces = pieces + (_narrow(input, dim, start, end),)
    return pieces


def _narrow(x: Tensor, dim: int, start: int, end: int) -> Tensor:
    # x[..., start:end, ...] at a dim given by number: indexing spells the
    # dim by its position from either end, which covers 7 dims; a transpose
    # brings a dim deeper than that to the front.
    back = x.dim() - 1 - dim
    if dim == 0:
        return x[start:end]
    if back == 0:
        return x[..., start:end]
    if dim == 1:
        return x[:, start:end]
    if back == 1:
        return x[..., start:end, :]
    if dim == 2:
        return x[:, :, start:end]
    if back == 2:
        return x[..., start:end, :, :]
    if dim == 3:
        return x[:, :, :, start:end]
    return x.transpose(0, dim)[start:end].transpose(0, dim)


@op('chunk(Tensor self, int chunks, int dim=0) -> Tensor[]',
    TORCH | METHOD,
    samples=[('x=f32[7,B]', '3'),
             ('x=f32[B,8]', '4, dim=1'),
             ('x=f32[B,6]', '2'),
             ('x=f32[N,4]', '2'),
             ('x=f32[2,0]', '3, -1'),
             ('x=f64[3,B,5]', '2, 2')])
def chunk(input: Tensor, chunks: int, dim: int = 0):
    if input.dim() == 0:
        raise ValueError("chunk() needs a tensor with at least one dimension")
    extent = input.size(dim)
    if dim < 0:
        dim = dim + input.dim()
    if not known(chunks):
        raise ValueError("chunk() argument 'chunks' must be a constant int "
                         f"here, got {describe(chunks)}")
    if chunks <= 0:
        raise ValueError(f"chunks must be positive, got {chunks}")
    # Pieces of ceil(extent / chunks), as PyTorch cuts them; an empty dim
    # still gives `chunks` empty pieces.
    step = (extent + chunks - 1) // chunks
    if known(extent):
        if extent == 0:
            pieces = ()
            for i in range(chunks):
                pieces = pieces + (input,)
            return pieces
        return _split_by(input, step, dim, extent, 'chunks')
    # At run time PyTorch gives fewer pieces when the last ones would be
    # empty; the tuple's length is fixed here, so that size is an error.
    if step * (chunks - 1) >= extent and extent != 0:
        raise RuntimeError(f"chunk({chunks}) of dimension {dim} gives fewer "
                           "pieces for this size, as PyTorch would; kiln "
                           f"needs exactly {chunks}")
    pieces = ()
    for i in range(chunks):
        # Slicing clamps the bounds to the extent.
        pieces = pieces + (_narrow(input, dim, step * i, step * (i + 1)),)
    return pieces


@op('unbind(Tensor self, int dim=0) -> Tensor[]',
    TORCH | METHOD,
    samples=['x=f32[3,B]',
             ('x=f32[B,2]', '1'),
             ('x=i64[2,3,4]', '-1')])
def unbind(input: Tensor, dim: int = 0):
    if input.dim() == 0:
        raise ValueError("unbind() needs a tensor with at least one "
                         "dimension")
    extent = input.size(dim)
    if dim < 0:
        dim = dim + input.dim()
    if not known(extent):
        raise ValueError(f"unbind() of dimension {dim} needs a static size, "
                         f"got {describe(input)}")
    pieces = ()
    for i in range(extent):
        pieces = pieces + (_narrow(input, dim, i, i + 1).squeeze(dim),)
    return pieces


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
        return torch.zeros(input.shape, dtype=input.dtype)
    return torch.zeros(input.shape, dtype=dtype)


@op('ones_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=['x=f32[B,4]',
             ('x=i64[3]', 'dtype=torch.float64')])
def ones_like(input: Tensor, dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        return torch.ones(input.shape, dtype=input.dtype)
    return torch.ones(input.shape, dtype=dtype)


@op('full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=[('x=f32[B,4]', '2.5'),
             ('x=i64[3]', '7')])
def full_like(input: Tensor, fill_value: float,
              dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        return torch.full(input.shape, fill_value, dtype=input.dtype)
    return torch.full(input.shape, fill_value, dtype=dtype)


# The values of rand_like and randn_like cannot be compared with eager
# PyTorch's (test/prelude leaves rows with random= to test/ops, which
# checks their range).
@op('rand_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=['x=f32[B,300]',
             ('x=f32[3,4]', 'dtype=torch.float64'),
             'x=f32[0,3]'],
    random='uniform')
def rand_like(input: Tensor, dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        dtype = input.dtype
    _float_dtype(dtype, 'rand_like')
    return torch.rand(input.shape, dtype=dtype)


@op('randn_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    samples=['x=f32[B,300]',
             ('x=f64[3,4]', 'dtype=torch.float32'),
             'x=f32[0,3]'],
    random='normal')
def randn_like(input: Tensor, dtype: Optional[torch.dtype] = None) -> Tensor:
    if dtype is None:
        dtype = input.dtype
    _float_dtype(dtype, 'randn_like')
    return torch.randn(input.shape, dtype=dtype)


def _float_dtype(dtype: torch.dtype, name: str):
    if (dtype != torch.float32 and dtype != torch.float64
            and dtype != torch.float16 and dtype != torch.bfloat16):
        raise ValueError(f"torch.{name}() needs a floating dtype, got {dtype}")
