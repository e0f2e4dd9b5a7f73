"""kiln's op table: F.pad, F.interpolate and F.upsample, pixel_shuffle
and pixel_unshuffle, repeat and repeat_interleave: ops that build a tensor
of a new shape from the positions of their input. The arguments that shape
an op (pads, sizes, factors) must be compile-time constants.

F.pad's reflect and replicate modes are an index_select whose indices are
computed from arange; its constant mode is constant_pad_nd, a cat with
kiln.full in frontend/OpTableResample.cpp, as are F.interpolate (whose
positions are computed in the precision of the input's dtype, which the
prelude cannot read) and repeat (whose views need a size per dim, which the
prelude cannot build for any rank).

See nn.py for how the prelude is written and compiled.
"""
from typing import List, Optional

import torch
import torch.nn.functional as F
from torch import Tensor

from kiln_table import FUNCTIONAL, METHOD, TORCH, op


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
    build='constant_pad_nd',
    samples=[('x=f32[B,3,5]', '[1, 2]'),
             ('x=f32[B,3,5]', '[2, 0, -1, 1], 1.5'),
             ('x=i64[2,3,4,5]', '[1, 1, 0, 2, 1, 0], 7'),
             ('x=f32[B,0,4]', '[1, 1]')],
    note="F.pad's constant mode")
def _constant_pad_rows():
    pass


@op("interpolate(Tensor self, Scalar? size=None, Scalar? scale_factor=None, str mode='nearest', Scalar? align_corners=None, Scalar? recompute_scale_factor=None, bool antialias=False) -> Tensor",
    FUNCTIONAL,
    build='interpolate',
    samples=[('x=f32[B,3,4,5]', 'scale_factor=2.0'),
             ('x=f32[B,2,5,7]', 'size=3'),
             ('x=f64[2,3,4,6]', "scale_factor=1.5, mode='nearest'"),
             ('x=f32[B,3,5]', 'scale_factor=2.5'),
             ('x=f32[B,3,4,5]', "scale_factor=2.0, mode='bilinear'"),
             ('x=f32[B,2,5,7]', "size=9, mode='bilinear', align_corners=True"),
             ('x=f32[B,2,6,4]', "size=3, mode='bilinear', align_corners=False"),
             ('x=f64[2,3,4,6]', "scale_factor=0.6, mode='bilinear'"),
             ('x=f32[2,3,4,5]', "scale_factor=1.7, mode='bilinear', recompute_scale_factor=True")],
    note='nearest (3-D to 5-D) and bilinear (4-D), static spatial sizes; size and scale_factor are one number for every spatial dim')
def _interpolate_rows():
    pass


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
    build='repeat',
    samples=[('x=f32[B,3]', '[2, 3]'),
             ('x=i64[4]', '[2, 1, 3]'),
             ('x=f32[2,B]', '(1, 0)')])
def _repeat_rows():
    pass


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
