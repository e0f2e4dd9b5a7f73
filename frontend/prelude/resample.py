"""kiln's op table: F.pad, F.interpolate and F.upsample, pixel_shuffle
and pixel_unshuffle, repeat and repeat_interleave: ops that build a tensor
of a new shape from the positions of their input. The arguments that shape
an op (pads, sizes, factors) must be compile-time constants.
"""
from kiln_table import FUNCTIONAL, METHOD, TORCH, op


@op("pad(Tensor self, int[] pad, str mode='constant', Scalar? value=None) -> Tensor",
    FUNCTIONAL,
    build='pad',
    samples=[('x=f32[B,3,5]', '[1, 2]'),
             ('x=f32[B,3,5]', '[2, 0, -1, 1], value=1.5'),
             ('x=i64[2,3,4,5]', "[1, 1, 0, 2, 1, 0], 'constant', 7.0"),
             ('x=f32[B,3,6]', "[2, 3], 'reflect'"),
             ('x=f32[2,3,4,5]', "[1, 3, 2, 2], mode='reflect'"),
             ('x=f64[B,3,4]', "[3, 1], 'replicate'"),
             ('x=f32[1,2,3,4,5]', "[1, 0, 2, 1, 0, 2], 'replicate'"),
             ('x=f32[B,0,4]', '[1, 1]')],
    note='the last 1-3 dims; reflect and replicate need static sizes')
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
@op("upsample(Tensor self, Scalar? size=None, Scalar? scale_factor=None, str mode='nearest', Scalar? align_corners=None) -> Tensor",
    FUNCTIONAL,
    build='upsample',
    samples=[('x=f32[B,3,4,5]', 'scale_factor=2.0'),
             ('x=f32[B,2,5,7]', "size=9, mode='bilinear', align_corners=True")],
    note='F.interpolate without recompute_scale_factor')
@op('pixel_shuffle(Tensor self, int upscale_factor) -> Tensor',
    TORCH | FUNCTIONAL,
    build='pixel_shuffle',
    samples=[('x=f32[B,8,3,5]', '2'),
             ('x=f32[B,9,2,2]', '3'),
             ('x=i64[4,2,3]', '2')])
@op('pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor',
    TORCH | FUNCTIONAL,
    build='pixel_unshuffle',
    samples=[('x=f32[B,2,6,4]', '2'),
             ('x=f32[B,1,6,9]', '3')])
@op('repeat(Tensor self, int[] repeats) -> Tensor',
    METHOD,
    build='repeat',
    samples=[('x=f32[B,3]', '[2, 3]'),
             ('x=i64[4]', '[2, 1, 3]'),
             ('x=f32[2,B]', '(1, 0)')])
@op('repeat_interleave(Tensor self, int repeats, Scalar? dim=None) -> Tensor',
    TORCH | METHOD,
    build='repeat_interleave',
    samples=[('x=f32[B,3]', '2, 1'),
             ('x=i64[4,3]', '3, dim=-2'),
             ('x=f32[2,3]', '2')],
    note='an int repeats on a static dim; dim is an int or None')
def _resample_rows():
    pass
