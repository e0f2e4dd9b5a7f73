"""kiln's op table: F.pad, F.interpolate and F.upsample, pixel_shuffle
and pixel_unshuffle, repeat and repeat_interleave: ops that build a tensor
of a new shape from the positions of their input. The arguments that shape
an op (pads, sizes, factors) must be compile-time constants.

F.pad's reflect and replicate modes are an index_select whose indices are
computed from arange; its constant mode, constant_pad_nd, a cat of
torch.full borders. F.interpolate gathers rows and columns with
index_select at positions computed from arange in the precision PyTorch's
CPU kernels use, and blends them with its lerp weights. repeat is views and
an expand, with one size per dim built as a tuple.

See nn.py for how the prelude is written and compiled.
"""
import math
from typing import List, Optional

import torch
import torch.nn.functional as F
from torch import Tensor

from kiln_table import FUNCTIONAL, METHOD, TORCH, describe, known, op


@op("pad(Tensor self, int[] pad, str mode='constant', Scalar? value=None) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,3,5]', '[1, 2]'),
             ('x=f32[B,3,5]', '[2, 0, -1, 1], value=1.5'),
             ('x=i64[2,3,4,5]', "[1, 1, 0, 2, 1, 0], 'constant', 7.0"),
             ('x=f32[B,3,6]', "[2, 3], 'reflect'"),
             ('x=f32[2,3,4,5]', "[1, 3, 2, 2], mode='reflect'"),
             ('x=f64[B,3,4]', "[3, 1], 'replicate'"),
             ('x=f32[1,2,3,4,5]', "[1, 0, 2, 1, 0, 2], 'replicate'"),
             ('x=f32[B,0,4]', '[1, 1]')],
    note='constant: any trailing dims; reflect and replicate: the last 1-3')
def pad(input: Tensor, pad: List[int], mode: str = 'constant',
        value: Optional[float] = None) -> Tensor:
    # pad lists (left, right) pairs from the last dim backwards.
    if len(pad) % 2 != 0 or len(pad) // 2 > input.dim():
        raise ValueError("F.pad() pad must hold a (left, right) pair per "
                         "padded dim, at most the input's rank")
    if mode != 'constant' and mode != 'reflect' and mode != 'replicate':
        raise ValueError("F.pad() mode must be 'constant', 'reflect' or "
                         "'replicate', got '" + mode + "'")
    if mode == 'constant':
        if value is None:
            return torch.constant_pad_nd(input, pad)
        return torch.constant_pad_nd(input, pad, value)
    if value is not None:
        raise ValueError("F.pad() takes a value only in 'constant' mode")
    if len(pad) > 6:
        raise ValueError("F.pad() in '" + mode + "' mode pads at most the "
                         "last 3 dims")
    reflect = mode == 'reflect'
    x = _pad_edge(input, -1, pad[0], pad[1], reflect)
    if len(pad) > 2:
        x = _pad_edge(x, -2, pad[2], pad[3], reflect)
    if len(pad) > 4:
        x = _pad_edge(x, -3, pad[4], pad[5], reflect)
    return x


def _pad_edge(x: Tensor, dim: int, left: int, right: int,
              reflect: bool) -> Tensor:
    # Each output position reads the source position of PyTorch's index
    # formulas: reflected about the edges (which are not repeated), or
    # clamped to them.
    n = x.size(dim)
    if left < 0 or right < 0:
        raise ValueError("F.pad() takes non-negative pads in 'reflect' and "
                         "'replicate' mode")
    if reflect:
        if left >= n or right >= n:
            raise ValueError("F.pad() in 'reflect' mode needs pads smaller "
                             "than the padded dim")
    elif n == 0:
        raise ValueError("F.pad() in 'replicate' mode cannot pad an empty "
                         "dim")
    # Built from aranges of constant lengths, so that a static size stays
    # static: the left pad, the input, the right pad.
    if reflect:
        source = torch.cat((left - torch.arange(left), torch.arange(n),
                            (n - 2) - torch.arange(right)))
    else:
        source = torch.cat((torch.zeros(left, dtype=torch.int64),
                            torch.arange(n),
                            torch.full((right,), n - 1, dtype=torch.int64)))
    return x.index_select(dim, source)


@op('constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor',
    TORCH,
    samples=[('x=f32[B,3,5]', '[1, 2]'),
             ('x=f32[B,3,5]', '[2, 0, -1, 1], 1.5'),
             ('x=i64[2,3,4,5]', '[1, 1, 0, 2, 1, 0], 7'),
             ('x=f32[B,0,4]', '[1, 1]'),
             ('x=f64[B,6]', '[-2, 1, 1, -1]')],
    note="F.pad's constant mode")
def constant_pad_nd(input: Tensor, pad: List[int], value: float = 0) -> Tensor:
    # pad lists (left, right) pairs from the last dim backwards.
    if len(pad) % 2 != 0 or len(pad) // 2 > input.dim():
        raise ValueError("torch.constant_pad_nd() pad must hold a (left, "
                         "right) pair per padded dim, at most the input's "
                         "rank")
    x = input
    for k in range(len(pad) // 2):
        x = _pad_constant(x, input.dim() - 1 - k, pad[2 * k], pad[2 * k + 1],
                          value)
    return x


def _pad_constant(x: Tensor, dim: int, left: int, right: int,
                  value: float) -> Tensor:
    # A negative pad crops; the crop's index keeps a static size static.
    if left < 0 or right < 0:
        start = 0
        if left < 0:
            start = -left
        stop = x.size(dim)
        if right < 0:
            stop = stop + right
        x = x.index_select(dim, torch.arange(start, stop))
    parts = ()
    if left > 0:
        parts = parts + (_border(x, dim, left, value),)
    parts = parts + (x,)
    if right > 0:
        parts = parts + (_border(x, dim, right, value),)
    if len(parts) == 1:
        return x
    return torch.cat(parts, dim)


def _border(x: Tensor, dim: int, n: int, value: float) -> Tensor:
    # x's sizes, n along dim, dynamic ones included.
    return torch.full(x.shape[:dim] + (n,) + x.shape[dim + 1:], value,
                      dtype=x.dtype)


@op("interpolate(Tensor self, Scalar? size=None, Scalar? scale_factor=None, str mode='nearest', Scalar? align_corners=None, Scalar? recompute_scale_factor=None, bool antialias=False) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,3,4,5]', 'scale_factor=2.0'),
             ('x=f32[B,2,5,7]', 'size=3'),
             ('x=f64[2,3,4,6]', "scale_factor=1.5, mode='nearest'"),
             ('x=f32[B,3,5]', 'scale_factor=2.5'),
             ('x=f32[B,3,4,5]', "scale_factor=2.0, mode='bilinear'"),
             ('x=f32[B,2,5,7]', "size=9, mode='bilinear', align_corners=True"),
             ('x=f32[B,2,6,4]', "size=3, mode='bilinear', align_corners=False"),
             ('x=f64[2,3,4,6]', "scale_factor=0.6, mode='bilinear'"),
             ('x=f32[2,3,4,5]', "scale_factor=1.7, mode='bilinear', recompute_scale_factor=True"),
             ('x=f32[1,2,3,4,5]', 'size=7'),
             ('x=f32[B,2,5,6]', "size=1, mode='bilinear', align_corners=True"),
             ('x=f32[B,3,4,5]', 'scale_factor=2.00001'),
             ('x=f32[B,1,4,5]', 'scale_factor=2.00001'),
             ('x=f32[B,2,2,3]', 'scale_factor=1.2')],
    note='nearest (3-D to 5-D) and bilinear (4-D), static spatial sizes; size and scale_factor are one number for every spatial dim')
def interpolate(input: Tensor, size: Optional[int] = None,
                scale_factor: Optional[float] = None, mode: str = 'nearest',
                align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    linear = mode == 'bilinear'
    if mode != 'nearest' and not linear:
        raise ValueError("F.interpolate() supports mode 'nearest' and "
                         f"'bilinear', got '{mode}'")
    rank = input.dim()
    if linear:
        if rank != 4 or not input.is_floating_point():
            raise ValueError("F.interpolate() in 'bilinear' mode takes a 4-D "
                             "float input (N, C, H, W), got "
                             f"{describe(input)}")
    elif rank < 3 or rank > 5 or not input.is_floating_point():
        raise ValueError("F.interpolate() in 'nearest' mode takes a 3-D to "
                         "5-D float input (N, C, spatial...), got "
                         f"{describe(input)}")
    align = False
    if align_corners is not None:
        if not linear:
            raise ValueError("align_corners option can only be set with the "
                             "interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
        align = align_corners
    if antialias:
        raise ValueError("F.interpolate() does not support antialias=True")
    if (size is None) == (scale_factor is None):
        raise ValueError("F.interpolate() needs exactly one of size and "
                         "scale_factor")
    if not known(size) or not known(scale_factor):
        raise ValueError("F.interpolate() needs a size or scale_factor known "
                         "while compiling")
    # The kernels take the user's scale unless it is to be recomputed from
    # the sizes.
    scale = scale_factor
    if recompute_scale_factor is not None and recompute_scale_factor:
        if size is not None:
            raise ValueError("F.interpolate() recompute_scale_factor is not "
                             "meaningful with an explicit size")
        scale = None
    # f16 and bf16 compute in f32, as PyTorch's opmath does.
    x = input
    if input.dtype == torch.float16 or input.dtype == torch.bfloat16:
        x = input.float()
    # Linear blends W, then H, as the kernel's loops nest.
    for i in range(rank - 2):
        dim = rank - 1 - i
        n = input.size(dim)
        if not known(n):
            raise ValueError("F.interpolate() needs static spatial sizes, got "
                             f"{describe(input)}")
        if size is not None:
            out = size
        else:
            out = math.floor(n * scale_factor)
        if out <= 0:
            raise ValueError("F.interpolate() gives an empty output size "
                             f"{out}")
        if linear:
            x = _linear_along(x, dim, n, out, scale, align)
        else:
            x = _nearest_along(x, dim, n, out, scale)
    if x.dtype != input.dtype:
        x = x.to(input.dtype)
    return x


def _scale32(n: int, out: int, scale: Optional[float]) -> Tensor:
    # compute_scales_value<float>: the kernels' source step in float (n / out
    # in double rounds to float's own quotient for any real size).
    if scale is not None and scale > 0:
        return torch.tensor(1.0 / scale, dtype=torch.float32)
    return torch.tensor(n / out, dtype=torch.float32)


def _step64(n: int, out: int, scale: Optional[float]) -> Tensor:
    if scale is not None and scale > 0:
        return torch.tensor(1.0 / scale, dtype=torch.float64)
    return torch.tensor(n / out, dtype=torch.float64)


def _nearest_along(x: Tensor, dim: int, n: int, out: int,
                   scale: Optional[float]) -> Tensor:
    # floor(o * step), floored in float. A contiguous 4-D or 5-D input of
    # one channel is also channels-last, and PyTorch's channels-last kernel
    # (nearest_idx) steps in float, copies a size kept and halves a doubled
    # one exactly; the other kernel steps by the user's scale, in the
    # input's float type, even where the size is kept.
    c = x.size(1)
    channels_last = x.dim() > 3 and known(c) and c == 1
    if out == n and (channels_last or scale is None):
        return x
    if channels_last and out == 2 * n:
        step = torch.tensor(0.5, dtype=torch.float32)
        src = torch.arange(out).float() * step
    elif channels_last or x.dtype != torch.float64:
        src = torch.arange(out).float() * _scale32(n, out, scale)
    else:
        src = torch.arange(out).double() * _step64(n, out, scale)
        src = src.float()
    index = torch.clamp(torch.floor(src).long(), max=n - 1)
    return x.index_select(dim, index)


def _linear_along(x: Tensor, dim: int, n: int, out: int,
                  scale: Optional[float], align: bool) -> Tensor:
    # compute_source_index_and_lambda: the step in the input's float type,
    # the source position in double (the CPU accumulate type), clamped at
    # 0; the weights in the input's type.
    if out == n:
        return x
    f64 = x.dtype == torch.float64
    if align:
        if out > 1:
            step = (n - 1) / (out - 1)
        else:
            step = 0.0
        if f64:
            s = torch.tensor(step, dtype=torch.float64)
        else:
            s = torch.tensor(step, dtype=torch.float32).double()
        src = torch.arange(out).double() * s
    else:
        if f64:
            s = _step64(n, out, scale)
        else:
            s = _scale32(n, out, scale).double()
        src = (torch.arange(out).double() + 0.5) * s - 0.5
        src = torch.clamp(src, min=0.0)
    i0 = src.long()
    i1 = torch.where(i0 < n - 1, i0 + 1, i0)
    w1 = (src - i0.double()).to(x.dtype)
    w0 = 1.0 - w1
    if dim != x.dim() - 1:
        w0 = w0.unsqueeze(-1)
        w1 = w1.unsqueeze(-1)
    return x.index_select(dim, i0) * w0 + x.index_select(dim, i1) * w1


@op("upsample(Tensor self, Scalar? size=None, Scalar? scale_factor=None, str mode='nearest', Scalar? align_corners=None) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,3,4,5]', 'scale_factor=2.0'),
             ('x=f32[B,2,5,7]', "size=9, mode='bilinear', align_corners=True")],
    note='F.interpolate without recompute_scale_factor')
def upsample(input: Tensor, size: Optional[int] = None,
             scale_factor: Optional[float] = None, mode: str = 'nearest',
             align_corners: Optional[bool] = None) -> Tensor:
    return F.interpolate(input, size, scale_factor, mode, align_corners)


@op('pixel_shuffle(Tensor self, int upscale_factor) -> Tensor',
    TORCH | FUNCTIONAL,
    samples=[('x=f32[B,8,3,5]', '2'),
             ('x=f32[B,9,2,2]', '3'),
             ('x=i64[4,2,3]', '2')])
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    # As PyTorch's decomposition: (*, C r r, H, W) viewed as
    # (*, C, r, r, H, W), permuted to (*, C, H, r, W, r), viewed as
    # (*, C, H r, W r). Negative dims serve every rank.
    r = upscale_factor
    if input.dim() < 3 or r <= 0:
        raise ValueError("pixel_shuffle() needs a tensor of at least 3 dims "
                         "and a positive factor")
    c = input.size(-3)
    if c % (r * r) != 0:
        raise ValueError("pixel_shuffle() needs channels that divide by the "
                         "factor squared")
    # -1: unflatten infers a static size from a static one; the
    # permutation is one op for the usual ranks.
    x = input.unflatten(-3, (-1, r, r))
    if input.dim() == 3:
        x = x.permute(0, 3, 1, 4, 2)
    elif input.dim() == 4:
        x = x.permute(0, 1, 4, 2, 5, 3)
    else:
        x = x.transpose(-3, -2).transpose(-4, -3).transpose(-2, -1)
    return x.flatten(-2, -1).flatten(-3, -2)


@op('pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor',
    TORCH | FUNCTIONAL,
    samples=[('x=f32[B,2,6,4]', '2'),
             ('x=f32[B,1,6,9]', '3')])
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    # pixel_shuffle's inverse: (*, C, H r, W r) viewed as
    # (*, C, H, r, W, r), permuted to (*, C, r, r, H, W), viewed as
    # (*, C r r, H, W).
    r = downscale_factor
    if input.dim() < 3 or r <= 0:
        raise ValueError("pixel_unshuffle() needs a tensor of at least 3 "
                         "dims and a positive factor")
    h = input.size(-2)
    w = input.size(-1)
    if h % r != 0 or w % r != 0:
        raise ValueError("pixel_unshuffle() needs a height and a width that "
                         "divide by the factor")
    x = input.unflatten(-1, (-1, r)).unflatten(-3, (-1, r))
    if input.dim() == 3:
        x = x.permute(0, 2, 4, 1, 3)
    elif input.dim() == 4:
        x = x.permute(0, 1, 3, 5, 2, 4)
    else:
        x = x.transpose(-4, -3).transpose(-2, -1).transpose(-3, -2)
    return x.flatten(-5, -3)


@op('repeat(Tensor self, int[] repeats) -> Tensor',
    METHOD,
    samples=[('x=f32[B,3]', '[2, 3]'),
             ('x=i64[4]', '[2, 1, 3]'),
             ('x=f32[2,B]', '(1, 0)'),
             ('x=f64[B,2]', '[1, 2, 1, 1]'),
             ('x=f32[]', '[3, 2]'),
             ('x=f32[B,0]', '[2, 2]'),
             ('x=f32[B,3]', '[0, 2, 1]')])
def repeat(input: Tensor, repeats: List[int]) -> Tensor:
    # x viewed as (1, d0, 1, d1, ...) after a 1 per extra repeat, expanded
    # to (r0, d0, r1, d1, ...), then each pair flattened: one copy, by the
    # expand's materialization.
    rank = input.dim()
    m = len(repeats)
    if m < rank:
        raise ValueError("Number of dimensions of repeat dims can not be "
                         "smaller than number of dimensions of tensor")
    x = input
    for i in range(m - rank):
        x = x.unsqueeze(0)
    wide = ()
    for i in range(m):
        r = repeats[i]
        if r < 0:
            raise ValueError(f"repeat() repeats must be non-negative, got "
                             f"{repeats}")
        wide = wide + (r, -1)
        x = x.unsqueeze(2 * i)
    x = x.expand(wide)
    for i in range(m):
        x = x.flatten(i, i + 1)
    return x


@op('repeat_interleave(Tensor self, int repeats, Scalar? dim=None) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,3]', '2, 1'),
             ('x=i64[4,3]', '3, dim=-2'),
             ('x=f32[2,3]', '2')],
    note='an int repeats; dim is an int or None')
def repeat_interleave(input: Tensor, repeats: int,
                      dim: Optional[int] = None) -> Tensor:
    # An index_select whose index repeats each position.
    if repeats < 0:
        raise ValueError("repeat_interleave() needs non-negative repeats")
    if dim is None:
        x = input.flatten()
        d = 0
    else:
        x = input
        d = dim
    if x.dim() == 0:
        raise ValueError("repeat_interleave() of a 0-d tensor needs no dim")
    # arange(n) repeated as the rows of an (n, repeats) expand: a static
    # length from a static size.
    index = torch.arange(x.size(d)).unsqueeze(-1).expand(-1, repeats)
    return x.index_select(d, index.flatten())
