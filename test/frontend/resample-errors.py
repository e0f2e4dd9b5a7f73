# Errors of the resampling ops that prelude/resample.py writes in Python:
# each check is decided while compiling and reported at the user's call,
# with a note naming the prelude function.
#
# RUN: not kiln compile %s --entry cpad_odd 2>&1 | FileCheck %s --check-prefix=CPAD
# CPAD: resample-errors.py:38:12: error: torch.constant_pad_nd() pad must hold a (left, right) pair per padded dim, at most the input's rank
# CPAD-NEXT: return torch.constant_pad_nd(x, [1, 2, 3])
# CPAD: note: in 'constant_pad_nd', kiln's prelude decomposition of this call
# RUN: not kiln compile %s --entry repeat_few 2>&1 | FileCheck %s --check-prefix=FEW
# FEW: resample-errors.py:43:12: error: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor
# FEW: note: in 'repeat', kiln's prelude
# RUN: not kiln compile %s --entry repeat_negative 2>&1 | FileCheck %s --check-prefix=NEG
# NEG: resample-errors.py:48:12: error: repeat() repeats must be non-negative, got (2, -1)
# RUN: not kiln compile %s --entry bad_mode 2>&1 | FileCheck %s --check-prefix=MODE
# MODE: resample-errors.py:53:12: error: F.interpolate() supports mode 'nearest' and 'bilinear', got 'bicubic'
# MODE: note: in 'interpolate', kiln's prelude
# RUN: not kiln compile %s --entry bilinear_3d 2>&1 | FileCheck %s --check-prefix=RANK
# RANK: resample-errors.py:58:12: error: F.interpolate() in 'bilinear' mode takes a 4-D float input (N, C, H, W), got a Tensor[f32, ?x3x4]
# RUN: not kiln compile %s --entry nearest_align 2>&1 | FileCheck %s --check-prefix=ALIGN
# ALIGN: resample-errors.py:63:12: error: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear
# RUN: not kiln compile %s --entry size_and_scale 2>&1 | FileCheck %s --check-prefix=BOTH
# BOTH: resample-errors.py:68:12: error: F.interpolate() needs exactly one of size and scale_factor
# RUN: not kiln compile %s --entry dynamic_height 2>&1 | FileCheck %s --check-prefix=DYN
# DYN: resample-errors.py:73:12: error: F.interpolate() needs static spatial sizes, got a Tensor[f32, ?x3x?x5]
# RUN: not kiln compile %s --entry empty_output 2>&1 | FileCheck %s --check-prefix=EMPTY
# EMPTY: resample-errors.py:78:12: error: F.interpolate() gives an empty output size 0
# RUN: not kiln compile %s --entry runtime_scale 2>&1 | FileCheck %s --check-prefix=RUNTIME
# RUNTIME: resample-errors.py:83:12: error: F.interpolate() needs a size or scale_factor known while compiling
# RUN: not kiln compile %s --entry upsample_mode 2>&1 | FileCheck %s --check-prefix=UPSAMPLE
# UPSAMPLE: resample-errors.py:88:12: error: F.interpolate() supports mode 'nearest' and 'bilinear', got 'trilinear'
# UPSAMPLE: note: in 'interpolate', called by 'upsample', kiln's prelude
import torch
import torch.nn.functional as F


# kiln: x=f32[B,3]
def cpad_odd(x):
    return torch.constant_pad_nd(x, [1, 2, 3])


# kiln: x=f32[B,3]
def repeat_few(x):
    return x.repeat([2])


# kiln: x=f32[B,3]
def repeat_negative(x):
    return x.repeat([2, -1])


# kiln: x=f32[B,3,4,5]
def bad_mode(x):
    return F.interpolate(x, scale_factor=2.0, mode='bicubic')


# kiln: x=f32[B,3,4]
def bilinear_3d(x):
    return F.interpolate(x, scale_factor=2.0, mode='bilinear')


# kiln: x=f32[B,3,4,5]
def nearest_align(x):
    return F.interpolate(x, scale_factor=2.0, align_corners=True)


# kiln: x=f32[B,3,4,5]
def size_and_scale(x):
    return F.interpolate(x, size=3, scale_factor=2.0)


# kiln: x=f32[B,3,H,5]
def dynamic_height(x):
    return F.interpolate(x, scale_factor=2.0)


# kiln: x=f32[B,3,4,5]
def empty_output(x):
    return F.interpolate(x, scale_factor=0.1)


# kiln: x=f32[B,3,4,5]
def runtime_scale(x, s: float):
    return F.interpolate(x, scale_factor=s)


# kiln: x=f32[B,3,4,5]
def upsample_mode(x):
    return F.upsample(x, scale_factor=2.0, mode='trilinear')
