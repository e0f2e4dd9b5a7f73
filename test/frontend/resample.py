# Golden IR: the resampling ops of prelude/resample.py are prelude calls
# built from index_select, full, cat and expand, and their output types stay
# static where the input's sizes are.
# RUN: kiln compile %s --emit=ir | FileCheck %s
import torch
import torch.nn.functional as F


# A crop (a negative pad) and a border per padded dim, the dynamic batch
# size kept.
# CHECK-LABEL: func.func @pad_constant
# CHECK:       call @prelude_constant_pad_nd({{.*}}) -> tensor<?x2x7xf32>
# CHECK-LABEL: func.func private @prelude__pad_constant(
# CHECK:       kiln.cat {{.*}} -> tensor<?x3x7xf32>
# CHECK-LABEL: func.func private @prelude__border(
# CHECK:       kiln.full %{{.*}}, [%{{.*}}, %c3_i64, %c2_i64] : f64 -> tensor<?x3x2xf32>
# CHECK-LABEL: func.func private @prelude__pad_constant_1(
# CHECK:       kiln.index_select {{.*}} -> tensor<?x2x7xf32>
# kiln: x=f32[B,3,5]
@torch.jit.script
def pad_constant(x):
    return torch.constant_pad_nd(x, [2, 0, -1, 0], 1.5)


# One expand between views: a 1 per extra repeat, a repeat per dim.
# CHECK-LABEL: func.func @repeat_dims
# CHECK:       call @prelude_repeat({{.*}}) -> tensor<2x?x9xf32>
# CHECK-LABEL: func.func private @prelude_repeat(
# CHECK:       kiln.expand %{{.*}} : tensor<1x1x1x?x1x3xf32> -> tensor<2x1x1x?x3x3xf32>
# kiln: x=f32[B,3]
@torch.jit.script
def repeat_dims(x):
    return x.repeat(2, 1, 3)


# A static output size from the scale factor; W blended first, then H.
# CHECK-LABEL: func.func @bilinear
# CHECK:       call @prelude_interpolate({{.*}}) -> tensor<?x3x6x7xf32>
# CHECK-LABEL: func.func private @prelude__linear_along(
# CHECK:       kiln.index_select {{.*}} {dim = 3 : i64} {{.*}} -> tensor<?x3x4x7xf32>
# CHECK-LABEL: func.func private @prelude__linear_along_1(
# CHECK:       kiln.index_select {{.*}} {dim = 2 : i64} {{.*}} -> tensor<?x3x6x7xf32>
# kiln: x=f32[B,3,4,5]
@torch.jit.script
def bilinear(x):
    return F.interpolate(x, scale_factor=1.5, mode='bilinear')
